"""A production service is never made leaner for its budget by dropping the plan's headroom or its N+1 spare (issue
#25, blind reviews 12 and 12b, q10: "2 × (4 × H800) with 0 % headroom and no N+1 for a business-customer service ...
I would not sign"). Where the whole servers the headroom rounds up to already ride out one server down, the spare
server on top is dropped (it bought nothing) and the N+1 finding says how it is held; over the budget, the plan says
what the budget must be."""

from __future__ import annotations

from tests.support.planned import advice_answers, planned

Q10 = "q10_128k_document_assistant"


def _one_unit_down_carries(r) -> tuple[int, int]:
    """(requests the replicas left with one unit down take within the target, the peak), from the plan's output."""
    lay = r.hardware.layout
    per_unit = lay.unit_gpus // r.hardware.gpus_per_replica
    left = r.hardware.replicas - per_unit
    return left * r.capacity.max_concurrency_per_replica, r.capacity.peak_concurrency


def test_q10_keeps_its_headroom_and_rides_out_a_server_down():
    # re-argued by s31-q10lead32 (blind review 21, q10 sent back in both languages: "the one-server option should be
    # the recommendation"): q10 as answered now rents the one server, its spare the named upgrade
    # (``spare_over_budget``); with a per-use charge the N+1 stays, and this direction is pinned there
    r = planned({**advice_answers(Q10), "charges_users": True})
    assert r.capacity.headroom >= 0.2  # the policy's headroom, never 0 % for the budget
    assert r.hardware.layout.units == 2 and r.hardware.layout.spare_units == 0  # no third server for the spare
    carried, peak = _one_unit_down_carries(r)
    assert carried >= peak  # N+1 held by the two servers
    red = r.finding("sizing.redundancy")
    assert red is not None and red.title_key.endswith(".in_units.title")
    assert red.params["left"] == carried and red.params["peak"] == peak
    assert "N+1 within the 2 servers" in red.title_in("en") and "N+1 已含在 2 台服务器之内" in red.title_in("zh_CN")
    # on the cloud uplift by component (s23-uplift23) the two servers' low end (127,776 CNY) is within q10's 150,000:
    # feasible at the low end, never by dropping the headroom or the N+1 the servers hold (on the flat 30-50 % uplift
    # it was over the budget at its low end, said with the budget it needs: the next test keeps that direction)
    assert r.feasible and r.costs.recommended_monthly.low <= r.costs.budget_monthly


def test_a_production_spare_is_kept_over_the_budget_and_the_headroom_too():
    """q10 at 4 users: one server carries the peak with its headroom, the spare is a second server; one server down
    leaves nothing. Over the budget, the spare stays (it was dropped as "Not N+1" before s23) and the plan is
    infeasible as asked. At 100,000 CNY: on the uplift by component (s23-uplift23) q10's own 150,000 pays for the two
    servers at their low end (134,386 CNY)."""
    r = planned({**advice_answers(Q10), "peak_concurrency": 4, "monthly_budget": {"amount": 100_000, "currency": "CNY"}})
    lay = r.hardware.layout
    assert lay.spare_units == 1 and lay.units == 2
    assert r.finding("sizing.redundancy").title_key in ("plan.rule.sizing.redundancy.title", "plan.rule.sizing.redundancy.thin.title")
    assert r.capacity.headroom >= 0.2
    assert not r.feasible and r.finding("cost.budget_short") is not None


def test_an_internal_tool_may_still_trade_its_headroom_for_the_budget():
    """The other direction: without an N+1 reason (an internal tool) the leaner steps stay: q10 as an internal tool
    runs on one server within the budget's low end, its headroom said with what buying it back costs. At 120,000 CNY
    (``q10_short_of_headroom``'s budget): on the uplift by component 150,000 pays for the second server."""
    r = planned({**advice_answers(Q10), "audience": "internal", "reach": "private_network",
                 "monthly_budget": {"amount": 120_000, "currency": "CNY"}})
    assert r.feasible and r.hardware.layout.units == 1
    assert r.finding("sizing.redundancy") is None or "in_units" not in r.finding("sizing.redundancy").title_key
