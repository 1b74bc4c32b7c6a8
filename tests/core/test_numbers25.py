"""Numbers that agree with each other (issue #25, fifteenth blind review; s25-numbers25).

1. q23: "burst GPUs are costed at 35 % of the hours but utilisation and tokens use 20 %" — one share for both; and
   "a new node serves after about 2 s of weight load" — the weight read is named as one step of a start-up that
   takes minutes, to be timed."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict
from advisor.plan.context import resolve
from advisor.plan.knee_cap import knee_is_cap
from advisor.plan.memo import render_memo_markdown
from advisor.plan.staff_words import not_counted_key
from tests.support.planned import advice_answers, planned

Q23 = "q23_japan_game_npc"


def test_q23_bills_the_bursts_and_counts_the_tokens_on_one_share():
    c = resolve(answers_from_dict(advice_answers(Q23)))
    assert not c.burst_share_given and not c.utilisation_measured
    assert c.burst_share == c.utilisation == c.volume_utilisation


def test_a_given_burst_schedule_drives_the_utilisation_too():
    c = resolve(answers_from_dict({**advice_answers(Q23), "burst_schedule": {"per_year": 12, "days_each": 3}}))
    assert c.burst_share_given and c.burst_share == pytest.approx(36 / 365)
    assert c.utilisation == c.volume_utilisation == c.burst_share


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q23_memo_states_one_burst_share(lang):
    plan = planned(advice_answers(Q23))
    pct = round(resolve(answers_from_dict(advice_answers(Q23))).burst_share * 100)
    md = render_memo_markdown(plan, lang)
    other = 35 if pct != 35 else 20
    assert f"{pct} %" in md and f"{other} % of the hours" not in md and f"{other} % 的时间" not in md


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_scale_up_time_is_not_the_weight_read(lang):
    md = render_memo_markdown(planned({**advice_answers(Q23), "peak_concurrency": 200}), lang)
    if lang == "en":
        assert "takes minutes before it serves" in md and "Only the weight read has a figure here" in md
        assert "the weights are loaded (about" not in md
    else:
        assert "要几分钟才能服务" in md and "只有读权重这一步有数字" in md


# 2. "The reported 'knee at 12' is just the --max-num-seqs cap, not a real knee" (q39)
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_knee_at_the_engine_cap_is_called_the_cap(lang):
    plan = planned(advice_answers("q39_hybrid_l20_base_cloud_burst"))
    seqs = plan.hardware.max_num_seqs
    assert knee_is_cap(plan) and plan.latency_curve.knee_concurrency == seqs
    md = render_memo_markdown(plan, lang)
    if lang == "en":
        assert f"reaches the serve command's cap (--max-num-seqs {seqs})" in md and f"Knee at {seqs} " not in md
        assert "below the engine cap" in md and "at or below the knee" not in md
    else:
        assert f"（--max-num-seqs {seqs}）" in md and f"拐点在并发 {seqs}" not in md


def test_a_knee_below_the_cap_stays_a_knee():
    plan = planned(advice_answers("q18_us_fleet_32_h100"))
    assert plan.latency_curve.knee_concurrency and plan.latency_curve.knee_concurrency < (plan.hardware.max_num_seqs or 0)
    assert not knee_is_cap(plan)
    assert f"Knee at {plan.latency_curve.knee_concurrency} " in render_memo_markdown(plan, "en")


# 3. "1,472 tok/s aggregate against 1,043 tok/s 'actually received' using a different per-request rate" (q32)
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_two_output_speeds_each_say_which_per_user_rate_they_take(lang):
    plan = planned(advice_answers("q32_filed_public_chatbot_fast"))
    cap, line = plan.capacity, plan.line_cost
    assert line is not None and not line.stream_simulated
    assert line.output_tokens_per_s < (cap.output_tokens_per_s_total or 0)  # two figures: each must say what it is
    md = render_memo_markdown(plan, lang)
    if lang == "en":
        row = next(x for x in md.splitlines() if x.startswith("| Output speed"))
        assert "per user (the median at the planned load)" in row and "not the median" in row
    else:
        row = next(x for x in md.splitlines() if "规划负载下的中位数" in x)
        assert "而非中位数" in row


# 4. "The ⚠ on 'no ICP filing needed' is over-cautious for a LAN-only tool" (q01, q02, q04; q15's "no mainland rules")
@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q02_office_lan_small_design_agency",
                                  "q04_securities_h20_l20_fleet"])
def test_no_filing_for_a_service_nobody_outside_reaches_carries_no_warning_mark(name):
    plan = planned(advice_answers(name))
    (f,) = [x for x in plan.findings if x.id == "icp.not_needed"]
    assert not f.verify and not any(s.needs_verify for s in f.sources)
    md = render_memo_markdown(plan, "en")
    line = next(x for x in md.splitlines() if x.startswith("- **No ICP filing needed"))
    assert "⚠" not in line


def test_a_hosted_api_shown_on_a_site_keeps_its_warning_mark():
    """The hosted-API variant rests on an interpretation (the site showing the service needs the filing): kept."""
    plan = planned(advice_answers("q16_hosted_api_mainland_registration"))
    found = [x for x in plan.findings if x.id == "icp.not_needed"]
    assert found and all(x.verify for x in found)


def test_no_mainland_rules_for_a_team_with_nothing_there_carries_no_warning_mark():
    plan = planned(advice_answers("q15_hosted_api_small_us_team"))
    (f,) = [x for x in plan.findings if x.id == "region.no_mainland_rules"]
    assert not f.verify


# 5. q02: "the memo says 'as you told us, you have basic Linux/Docker skills', while the situation says nobody does
# ops": the memo says the answer given (basic ops), never skills the team did not claim
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_basic_ops_is_said_as_answered_not_as_linux_skills(lang):
    a = advice_answers("q02_office_lan_small_design_agency")
    assert a["ops_capability"] == "basic"
    md = render_memo_markdown(planned(a), lang)
    if lang == "en":
        assert "your answers say the team has basic ops skills, not an ops team" in md and "Linux/Docker, as you said" not in md
    else:
        assert "按你们的回答，团队有基本运维能力" in md and "具备基本的 Linux/Docker 能力" not in md


def test_strong_ops_keeps_its_staff_words():

    assert not_counted_key("strong", False) == "plan.forms.staff_not_counted"
    assert not_counted_key(None, True) == "plan.forms.staff_not_counted_assumed_two"
    assert not_counted_key("basic", True) == "numbers25.staff_not_counted_basic_two"
