"""The next step follows the change page 1 sets out first (blind review 29, q29, en and zh: "the bench/next step names
the 4B, not the leading alternative"; "Qwen3-30B-A3B at ¥17,659–¥22,344 (14 h) is a far more sensible first
alternative and should get equal prominence"). Where an MoE near the budget leads before a far smaller model that is
the one change within it (``fixtab39.moe_lead``), the decision step names that MoE first among the options and as the
one the test commands are for, and those commands ask a server for it; elsewhere the step is as before."""

from __future__ import annotations

import pytest

from advisor.catalog import get_model
from advisor.plan import fixtab39
from advisor.plan.critical_steps import BENCH_IDS, DECIDE_CHOICE, DECIDE_LAST, DECIDE_LEAD, the_one_fix
from advisor.plan.memo import memo_document
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")


def _lead(r):
    one = the_one_fix(r)
    return fixtab39.moe_lead(one, [f for f in r.fixes if f is not one], r)


@pytest.mark.parametrize("lang", LANGS)
def test_q29_the_decision_names_the_lead_first_and_the_tests_ask_for_it(lang):
    r = advice_plan("q29_batch_impossible_budget")
    lead, one = _lead(r), the_one_fix(r)
    assert lead is not None and one is not None and lead is not one
    step = r.next_steps[0]
    assert step.key in (DECIDE_LEAD, DECIDE_LAST)  # DECIDE_LAST: closest in quality first (review 34, fo43)
    text = step.text_in(lang)
    name, other = get_model(lead.change["model"]).name, get_model(one.change["model"]).name
    assert text.index(name) < text.index(other)  # the lead is the first option, the one within budget after it
    assert text in memo_document(r, lang).markdown()
    served = get_model(lead.change["model"]).hf_repo
    benches = [s.command for s in r.next_steps if s.id in BENCH_IDS and s.command and "--model" in s.command]
    assert benches and all(f"--model {served}" in c for c in benches)


def test_without_a_lead_the_tests_stay_on_the_one_change_within_the_budget():
    r = advice_plan("q40_tiny_budget_72b")
    if the_one_fix(r) is None or _lead(r) is not None:
        pytest.skip("q40 no longer has one change within the budget and no lead")
    assert r.next_steps[0].key not in (DECIDE_LEAD, DECIDE_LAST)
    # review 31 (q40): the one change is the API, so the decision says no self-hosted test follows (test_plan41)
    assert r.next_steps[0].key in (DECIDE_CHOICE, "steps18.next.decide_one", "plan41_next.decide_api")
