"""An office box bought under a monthly budget (issue #25, blind reviews 30 and 31, q02): page 1's first reason says
the purchase in months of that budget, for the owner to sign off; the consumer card is a caveat, not a reason."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, make_plan, signoff_months41
from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import deciding
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_answers, advice_plan

LANGS = ("en", "zh_CN")
Q02 = "q02_office_lan_small_design_agency"


def test_months_of_the_budget_are_the_purchase_ends_over_the_budget() -> None:
    assert signoff_months41.months(MoneyRange(low=17_464, high=27_943), 3_000) == "6–9"
    assert signoff_months41.months(MoneyRange(low=9_000, high=9_400), 3_000) == "3"
    # a sum near one month's budget is no months-long commitment; no budget, no months
    assert signoff_months41.months(MoneyRange(low=2_000, high=4_000), 3_000) is None
    assert signoff_months41.months(MoneyRange(low=2_000, high=4_000), 0) is None


@pytest.mark.parametrize("lang", LANGS)
def test_q02_first_reason_says_the_purchase_in_months_of_the_budget_for_the_owner(lang: str) -> None:
    r = advice_plan(Q02)
    c = r.costs
    f = r.finding("cost.on_premises")
    n = signoff_months41.months(c.owned.capex, c.budget_monthly)
    assert n is not None and f.params["budget_months"] == n
    page1 = render_memo_markdown(r, lang).split("\n## ")[1]
    first = page1.split("\n1. ")[1].splitlines()[0]
    assert f.title_in(lang) in first
    assert (f"about {n} months of your ¥3,000 monthly budget" if lang == "en" else f"约合 {n} 个月的每月预算 ¥3,000") in first
    assert ("for the owner to sign off" if lang == "en" else "需老板另行批准") in first


def test_the_title_follows_the_budget_row_and_drops_the_months_near_one_budget() -> None:
    # the VM within an 8,000 budget: the budget row still says paid once, on the owner's sign-off, and so does the title
    a = {**advice_answers(Q02), "monthly_budget": {"amount": 8000, "currency": "CNY"}}
    r = make_plan(answers_from_dict(a))
    f = r.finding("cost.on_premises")
    budget = next(x for x in render_memo_markdown(r, "en").splitlines() if x.startswith("| Budget |"))
    assert ("owner's sign-off" in budget or "owner's approval" in budget) and f.params["budget_months"] == "2–3"
    # about one month's budget: no months-long sum to weigh, the plain title
    a = {**advice_answers(Q02), "monthly_budget": {"amount": 20000, "currency": "CNY"}}
    f = make_plan(answers_from_dict(a)).finding("cost.on_premises")
    # (the one-card office box is a workstation: its plain title, review 34)
    assert f.title_key == "plan.rule.cost.on_premises.of43.title" and "budget_months" not in f.params


def test_the_consumer_card_is_a_caveat_in_section_7_not_a_reason() -> None:
    r = advice_plan(Q02)
    consumer = r.finding("gpu.consumer")
    assert consumer is not None and consumer not in deciding(r.findings)
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert consumer.title_in(lang) not in memo.split("\n## ")[1] and consumer.title_in(lang) in memo
