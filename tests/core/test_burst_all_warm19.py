"""A bursty plan whose warm floor is already its peak's replica count (ninth blind review, q23: "keep 2 replicas warm,
scale to 2 for the bursts", "start the 0 extra replicas by calendar", and "burst GPUs costed at 35 % of the hours"
beside a cost table that bills both GPUs around the clock): the scaling finding says the warm replicas carry the
bursts, and no share of burst hours is assumed, asked or costed. A plan that does start replicas for its bursts keeps
the scale-out finding and the assumption."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

# q23 as round 9 read it: on H200s one replica takes its 150 at the peak, so the warm N+1 pair is the peak's count.
# Since s20-gpu20 q23 itself rents L40S and scales 2 → 6 for its events; the all-warm case is pinned to the H200.
ALL_WARM = {**advice_answers("q23_japan_game_npc"), "gpu_constraint": ["h200-141g"]}


def _warm(plan):
    (f,) = [f for f in plan.findings if f.id == "scaling.warm_replica"]
    return f


def test_q23_warm_replicas_carry_the_bursts():
    plan = planned(ALL_WARM)
    f = _warm(plan)
    assert f.params["warm"] >= plan.hardware.replicas  # the floor is the peak's count
    assert f.title_key.endswith(".all_warm.title")
    assert "extra" not in f.params and "peak_replicas" not in f.params
    assert all(a.field != "burst_schedule" for a in plan.assumptions)
    assert all(q.field != "burst_schedule" for q in plan.open_questions)
    # the cost bills every GPU every hour, as the finding says
    assert plan.costs.cloud_billed_gpus in (None, plan.hardware.total_gpus)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q23_memo_says_no_scale_out_and_no_burst_share(lang):
    md = render_memo_markdown(planned(ALL_WARM), lang)
    if lang == "en":
        assert "already carry the bursts" in md and "35 % of the hours" not in md
        assert "scale to 2 for the bursts" not in md and "start the 0 extra" not in md
    else:
        assert "已能承载高峰" in md and "35 % 的时间" not in md


def test_burst_replicas_started_keep_the_scale_out_and_the_assumed_share():
    plan = planned(advice_answers("q23_japan_game_npc"))  # L40S since s20-gpu20: 2 warm, 6 for the events
    f = _warm(plan)
    assert f.params["warm"] < plan.hardware.replicas
    assert not f.title_key.endswith(".all_warm.title")
    assert any(a.field == "burst_schedule" for a in plan.assumptions)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q23_says_which_is_the_knee_and_which_the_target_capacity(lang):
    """Section 2 claims up to 180 a replica within the target, section 3 puts the knee at 75: the memo says the plan
    runs at the knee and the 180 lies past it (reviewers read the two as a contradiction)."""
    plan = planned(advice_answers("q23_japan_game_npc"))
    cap, knee = plan.capacity, plan.latency_curve.knee_concurrency
    assert cap.concurrency_per_replica <= knee < cap.max_concurrency_per_replica
    md = render_memo_markdown(plan, lang)
    c_max = f"{cap.max_concurrency_per_replica:,}"
    # said once and short (pages20): the knee sentence before it already says what lies past the knee
    assert (f"the {c_max} a replica can take within the target (the sizing table's figure) lies past it" if lang == "en"
            else f"最多可承担的 {c_max} 个并发已过拐点") in md
