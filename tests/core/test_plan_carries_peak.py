"""The plan carries the peak it claims (issue 25, self-consistency): over every advice-bench scenario and plan
fixture, a plan that meets the target has enough replicas, at the concurrency one replica takes within the target on
its own predicted curve, to carry the peak — with the N+1 spare left out — and the memo never says "meets the
target at the peak" when it does not (q11: "meets the target at the peak of 40" on 5 replicas of 4 each)."""

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, budget_fit43, make_plan
from advisor.plan.memo import render_memo_markdown
from tests.support.headroom_reason import REPAIRS, spare_inside
from tests.support.planned import planned

ROOT = Path(__file__).resolve().parents[2]
CASES = {p.stem: json.loads(p.read_text(encoding="utf-8"))["answers"]
         for d in (ROOT / "bench" / "advice_scenarios", ROOT / "tests" / "fixtures" / "plan_scenarios")
         for p in sorted(d.glob("*.json"))}  # fmt: skip


def _spare_replicas(r) -> int:
    lay = r.hardware.layout
    if lay is None or not lay.spare_units:
        return spare_inside(r)  # servers bought without a spare server hold a spare replica among them (own28)
    return lay.spare_units * max(1, lay.unit_gpus // max(1, r.hardware.tp or 1))


def _carried(r) -> tuple[int, int]:
    """(concurrency all replicas carry within the target, the same with the N+1 spares down)."""
    claimed = r.capacity.max_concurrency_per_replica or 0
    return r.hardware.replicas * claimed, (r.hardware.replicas - _spare_replicas(r)) * claimed


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_plan_that_meets_the_target_carries_its_peak_with_the_spare_down(name):
    r = planned(CASES[name])  # planned once per session, shared with the other files that read it
    interactive = r.hardware.gpu is not None and r.latency_curve.points and r.deployment_form != "hosted_api"
    says_meets = any(f.id == "sizing.plan" for f in r.findings)
    if not interactive:
        return
    peak = r.capacity.peak_concurrency
    carried, with_spare_down = _carried(r)
    if r.feasible or says_meets:
        assert carried >= peak, (name, r.hardware.replicas, r.capacity.max_concurrency_per_replica, peak)
        # (session 31, re-argued: blind review 21, q10) or a rented production plan left its spare server out because
        # the budget does not carry it over most of its range: one server, the second named as the upgrade with the
        # provider's replacement time in writing (``spare_over_budget``), said by the single-point finding
        point = r.finding("sizing.single_point")
        upgrade = point is not None and (point.params.get("verdict") or {}).get("tr") in budget_fit43.UPGRADE
        if upgrade:  # one server: nothing left with it down, which the finding says
            assert r.hardware.layout is not None and r.hardware.layout.units == 1, (name, r.hardware.layout)
        assert with_spare_down >= peak or upgrade, (name, r.hardware.replicas, _spare_replicas(r),
                                                    r.capacity.max_concurrency_per_replica)
        assert r.capacity.headroom is not None and r.capacity.headroom >= 0
        lay = r.hardware.layout
        if lay is not None and lay.regions > 1:  # each region's share is rounded up from this load: each carries its own
            load = lay.load_gpus // max(1, r.hardware.tp or 1)
            assert load * r.capacity.max_concurrency_per_replica >= peak, (name, lay)
        # paid, public or business-facing: a spare in each region, or the memo says plainly it is not N+1
        lay = r.hardware.layout
        a = CASES[name]
        production = (a.get("charges_users") or a.get("audience", "business") in ("public", "business")) and a.get(
            "reach") not in ("lan", "private_network") and a.get("audience") != "internal"
        if production and lay is not None and lay.basis != "fleet":
            said = r.finding("sizing.redundancy")
            # (s23) or the units the headroom rounds to hold the spare among them, said as such (``in_units``)
            # (s28-own28, re-argued: q26) or servers bought like for like with the rent, no spare server: a spare
            # replica among them rides out one replica down (``_spare_replicas`` counts it, so the peak is carried
            # with it down above), and a failed server's cards are rented for its repair days, said as the plan's
            # cover (``repair_rent``) and costed: the rent's month is in the costs and is what the finding states
            # (session 31, re-argued: blind review 20, q26) where that rent is a placeholder or an unsure supply the
            # finding still counts and costs it, and says plainly it is no sure cover, with a third server's price
            # or written acceptance of degraded service as the choice (``repair_unsure``)
            # (s32-q26own) or renting replaced no surer, the same layout said with parts cover (``repair_parts``)
            repair = said is not None and said.title_key in REPAIRS
            if repair:
                rep = r.costs.bare_metal_repair_monthly
                assert lay.regions == 1 and rep is not None and 0 < rep.low <= rep.high, (name, rep)
                assert f"{round(rep.high):,}" in said.detail_in("en"), (name, said.detail_in("en"))
                c = r.costs  # counted in the owning month the plan weighs against the rent
                parts = (c.bare_metal_amortised_monthly, c.bare_metal_power_monthly, c.bare_metal_colo_monthly,
                         c.bare_metal_staff_monthly)
                for end in ("low", "high"):
                    month = sum(getattr(x, end) for x in parts if x is not None) + getattr(rep, end)
                    assert abs(month - getattr(c.bare_metal_monthly, end)) < 1, (name, end, month, c.bare_metal_monthly)
            assert lay.spare_units >= lay.regions or repair or upgrade or (said is not None and said.title_key.endswith(
                ("over_budget.title", "in_units.title"))), (name, lay)
    if carried < peak:
        for lang in ("en", "zh_CN"):
            text = render_memo_markdown(r, lang)
            assert "meets the target at the peak" not in text and "并发下达标" not in text and "峰值下达标" not in text, name


def test_a_production_spare_is_never_left_out_for_the_budget():
    """q10 at 4 business users: one 8 × H800 server carries the peak with its headroom, the spare is a second one.
    Over the budget the spare stays and the plan is infeasible as asked (before s23 it was left out and said "Not
    N+1": issue #25, a production setup with no spare is not one an engineer signs); with the budget that covers it
    the plan is feasible, spare and all. At 100,000 CNY: on the uplift by component (s23-uplift23) q10's own 150,000
    pays for both servers at their low end."""
    a = {**CASES["q10_128k_document_assistant"], "peak_concurrency": 4,
         "monthly_budget": {"amount": 100_000, "currency": "CNY"}}
    r = planned(a)
    lay = r.hardware.layout
    assert not r.feasible and lay.spare_units == 1 and r.finding("cost.budget_short") is not None
    f = r.finding("sizing.redundancy")
    assert f is not None and not f.title_key.endswith("over_budget.title")
    high = r.costs.recommended_monthly.high
    richer = make_plan(answers_from_dict({**a, "monthly_budget": {"amount": high + 1000, "currency": "CNY"}}))
    assert richer.feasible and richer.hardware.layout.spare_units == 1
