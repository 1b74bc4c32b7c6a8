"""Budget verdicts and price bases a boss can trust (blind review 36: q25, q43, q20, q05, q13), en and zh_CN."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
BUDGET = {"en": "| Budget |", "zh_CN": "| 预算 |"}
FEASIBLE = {"en": "| Feasible as asked |", "zh_CN": "| 按要求是否可行 |"}
COST = {"en": "| Cost |", "zh_CN": "| 成本 |"}


def _row(memo: str, label: str) -> str:
    return next(x for x in memo.splitlines() if x.startswith(label))


def _section1(memo: str) -> str:
    return memo.split("\n## 2")[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sid", ["q25_hk_bank_retail", "q43_us_team_mainland_low_latency"])
def test_a_stand_in_within_budget_says_the_quote_is_missing_not_budget_room(sid: str, lang: str) -> None:
    r = planned(advice_answers(sid))
    memo = render_memo_markdown(r, lang)
    budget = _row(memo, BUDGET[lang])
    # the planned part fits the budget at its stand-in price: the row never says no part fits
    assert translate(lang, "prc44.budget.stand_in", region=translate(lang, "plan.region.hong_kong")) in budget
    assert "no part priced there" not in budget and "达不到目标" not in budget, budget
    # the feasibility row names the part listed there and what it misses
    feasible = _row(memo, FEASIBLE[lang])
    assert r.in_region_fallback["gpu"] in feasible, feasible
    assert "no other part priced there meets the target within the budget" not in feasible


@pytest.mark.parametrize("lang", LANGS)
def test_the_listed_part_over_the_budget_is_named_with_its_month(lang: str) -> None:
    r = planned(advice_answers("q25_hk_bank_retail"))
    fb = r.in_region_fallback
    assert fb["meets"] and fb["monthly"][0] > r.costs.budget_monthly
    feasible = _row(render_memo_markdown(r, lang), FEASIBLE[lang])
    assert f"{fb['n']} × {fb['gpu']}" in feasible and "31,873" in feasible, feasible


@pytest.mark.parametrize("lang", LANGS)
def test_plan_b_on_one_node_of_two_states_both_nodes_total(lang: str) -> None:
    r = planned(advice_answers("q05_filed_finetune_mainland_sg"))
    fb = r.in_region_fallback
    mainland = next(n.monthly for n in r.nodes if n.region != fb["region"])
    lo, hi = fb["monthly"][0] + mainland.low, fb["monthly"][1] + mainland.high
    cost = _row(render_memo_markdown(r, lang), COST[lang])
    assert f"{lo:,.0f}–{hi:,.0f}" in cost, cost  # about ¥95–102k
    assert 90_000 < lo < hi < 110_000


@pytest.mark.parametrize("lang", LANGS)
def test_a_marketplace_stand_in_fix_says_floor_and_names_the_priced_option(lang: str) -> None:
    r = planned(advice_answers("q20_china_parts_offshore_sg"))
    fb = r.in_region_fallback
    first = _section1(render_memo_markdown(r, lang))
    fix = next(x for x in first.splitlines() if "1,246" in x and x.startswith("- "))
    assert ("a floor" if lang == "en" else "只是下限") in fix, fix
    assert f"{fb['n']} × {fb['gpu']}" in fix and "2,546" in fix and "Google Cloud" in fix, fix


@pytest.mark.parametrize("lang", LANGS)
def test_a_line_priced_at_another_regions_rates_is_labelled_wherever_its_total_is(lang: str) -> None:
    r = planned(advice_answers("q13_sg_sellers_pi_below_threshold"))
    assert r.line_cost is not None and r.line_cost.stand_in_from == "hong_kong"
    first = _section1(render_memo_markdown(r, lang))
    total = f"{r.costs.monthly_with_line.low:,.0f}"
    hk = translate(lang, "plan.region.hong_kong")
    for line in first.splitlines():
        if total in line.replace("$", ""):
            assert hk in line, line


@pytest.mark.parametrize("lang", LANGS)
def test_the_slow_cheaper_card_reads_plainly(lang: str) -> None:
    memo = render_memo_markdown(planned(advice_answers("q13_sg_sellers_pi_below_threshold")), lang)
    assert "holds 61 against 40" not in memo
    why = next(x for x in memo.splitlines() if "NVIDIA L4 24GB" in x and ("Not the" in x or "不选" in x))
    assert re.search(r"room for 61 and carries 40|能容纳 61 个请求，承担 40 个", why), why
