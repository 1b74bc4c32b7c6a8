"""s34-rem36 (issue 25): the "lead_terms" API lead says how an API's contract meets each reason the answers raise
(``ways_round``); it is chosen only where every such reason has a way round (``hosted_weigh._way``), as the gap
alternative already required (``_has_way``). A soft reason with no way round keeps the plan for the answers' reason
instead of a lead with nothing to chain (which failed on an empty chain)."""

from __future__ import annotations

import pytest

from advisor.plan import hosted_lead, hosted_weigh
from advisor.plan.answers import answers_from_dict
from advisor.plan.engine import plan as make_plan
from tests.support.planned import advice_answers

Q36 = "q36_bursty_b2b_event_mainland"  # an API far cheaper (about a twentieth) and no reason in the answers


def _planned_with(monkeypatch, reason: dict) -> object:
    """q36 planned as if the answers raised ``reason``, a soft reason (one an API arrangement is said to meet)."""
    monkeypatch.setattr(hosted_weigh, "SOFT_REASONS", hosted_weigh.SOFT_REASONS | {reason["tr"]})
    for mod in (hosted_weigh, hosted_lead):
        monkeypatch.setattr(mod, "reasons_to_self_host", lambda f: [dict(reason)])
    return make_plan(answers_from_dict(advice_answers(Q36)))


def test_a_soft_reason_without_a_way_round_keeps_the_plan_instead_of_an_empty_lead(monkeypatch):
    r = _planned_with(monkeypatch, {"tr": "rem36_test.no_way", "more": ""})
    assert r.start_with is not None and r.start_with.reason != "lead_terms"
    assert r.start_with.form == "this_plan"


@pytest.mark.parametrize("way", ["plan.hosted16.why.pi", "plan.apiweigh18.why.private"])
def test_a_reason_with_its_way_round_still_leads_on_the_terms(monkeypatch, way):
    r = _planned_with(monkeypatch, {"tr": way, "more": ""})
    assert r.start_with is not None and r.start_with.reason == "lead_terms"
    ways = r.start_with.params.get("ways")
    assert isinstance(ways, dict) and ways.get("tr")  # one clause at least to chain
