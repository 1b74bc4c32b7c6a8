"""Blind review 28 (issue 25; s37-spare): the placeholder part's quote, the budget row and the API's reason said
honestly.

- the quote under which a placeholder part passed over would be the plan names the setup with the plan's spare
  (q41 zh: "1 × H20" beside the second VM 等保三级 asks for hot redundancy);
- "over at the high end" only where on demand's low end is within the budget (q41 en: 22,808–24,944 against 20,000);
- the part set aside is set aside for its unknown price, not for being "sold only by the month", and its quote is the
  step before the serve step where it would mend the sourced plan's full-context KV cache (q42);
- a hosted API passed over because the question named the GPUs says that this is the only reason (q42 zh); since api43
  page 1 says it with the cost multiple and that self-hosting needs a reason the team states.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import asked_gpus43, quote_first39
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from tests.support.page_one import page_one
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
Q38, Q41, Q42 = "q38_eu_internal_hr_assistant", "q41_finetune_internal_callcentre", "q42_china_market_gpus_mainland"


def _row(memo: str, *labels: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


def test_the_quote_switch_keeps_the_plans_second_unit():
    r = advice_plan(Q41)
    lay, q, u = r.hardware.layout, r.gpu_choice.quote_switch, r.gpu_choice.unsourced_cheaper
    # the case: an internal tool given its second unit after the GPU choice (no N+1 reason on the layout)
    assert lay.spare_units == 1 and lay.redundancy is None and u is not None and q is not None
    assert q["n"] == u.gpus + lay.spare_units * (u.unit_gpus or 1) >= 2
    assert q["per_card"] == round(r.costs.recommended_monthly.low / q["n"])
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert f"{q['n']} × NVIDIA H20 96GB" in memo and f"{q['per_card']:,}" in memo
        assert " 1 × NVIDIA H20 96GB" not in memo  # the review's "改用 1 × NVIDIA H20 96GB"


def test_a_spare_laid_out_with_the_choice_is_not_counted_twice():
    r = advice_plan(Q42)
    lay, q, u = r.hardware.layout, r.gpu_choice.quote_switch, r.gpu_choice.unsourced_cheaper
    assert lay.spare_units == 1 and lay.redundancy is not None  # N+1 of a production service: in every size
    assert q is not None and q["n"] == u.gpus


@pytest.mark.parametrize("lang", LANGS)
def test_the_budget_row_says_over_budget_when_on_demand_is_over_at_both_ends(lang):
    high = {"en": "over at the high end", "zh_CN": "按区间上限计超出预算"}[lang]
    r = advice_plan(Q41)
    c = r.costs
    assert c.within_budget and c.cloud_on_demand_monthly.low > c.budget_monthly
    row = _row(render_memo_markdown(r, lang), "Budget", "预算")
    assert money_range(c.cloud_on_demand_monthly, c.currency) in row and high not in row, row
    said = translate(lang, "spare39_budget.reserved_only_term_all", on_demand="@", term="#").split("@")[1]
    assert said.strip() and said in row, (said, row)
    # on demand within the budget at its low end: the high end alone is over (q38)
    r = advice_plan(Q38)
    c = r.costs
    assert c.cloud_on_demand_monthly.low <= c.budget_monthly < c.cloud_on_demand_monthly.high
    assert high in _row(render_memo_markdown(r, lang), "Budget", "预算")


@pytest.mark.parametrize("lang", LANGS)
def test_the_placeholder_parts_quote_comes_before_the_serve_step_where_it_mends_the_kv_cache(lang):
    # a budget that carries the four L20s but not a fifth: within it the fifth is the plan (s40-kvp42, test_kvp42)
    r = advice_plan(Q42, monthly_budget={"amount": 45000, "currency": "CNY"})
    kv, q = r.capacity.kv_fit, r.gpu_choice.quote_switch
    assert kv.load_over_full and kv.failover_per_replica > kv.at_full and q is not None
    ids = [s.id for s in r.next_steps]
    # before the serve step, with only the chosen part's replicas to sign with between (s40-kvfail42)
    assert quote_first39.STEP_ID in ids
    assert ids[ids.index(quote_first39.STEP_ID) + 1:ids.index("serve")] in ([], ["kv_replicas"])
    step = next(s for s in r.next_steps if s.id == quote_first39.STEP_ID)
    p = step.params
    assert p["full"] == kv.at_full and p["load"] == kv.failover_per_replica and p["n"] == q["n"]
    assert p["other_fit"] >= p["other_load"] and p["other_fit"] > kv.at_full
    memo = render_memo_markdown(r, lang)
    steps = memo.split({"en": "**Next steps:**", "zh_CN": "**下一步：**"}[lang], 1)[1]
    first = steps.split("\n1. ", 1)[1].splitlines()[0]  # the first of page 1's next steps
    assert step.text_in(lang) in first and f"{q['per_card']:,}" in first, first
    # the real reason the part is passed over: its price unknown, not its monthly billing
    assert {"en": "perhaps cheaper, sold only by the month", "zh_CN": "可能更便宜，只按月提供"}[lang] not in memo
    assert {"en": "price unknown", "zh_CN": "价格未知"}[lang] in memo


def test_no_quote_step_where_the_sourced_plan_holds_its_load_at_the_full_context():
    r = advice_plan(Q41)
    assert r.gpu_choice.quote_switch is not None and not r.capacity.kv_fit.load_over_full
    assert quote_first39.STEP_ID not in [s.id for s in r.next_steps]


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_passed_over_for_the_question_asked_says_that_is_the_only_reason(lang):
    """Since api43 (blind review 34, q42: "reads to a boss as spending 20x for nothing") page 1 no longer says "that
    question, not the cost, is the only reason": it says the question, the cost multiple and that self-hosting needs a
    reason the team states. The question is still the one reason given, on page 1 and in the finding alike."""
    r = advice_plan(Q42)
    memo = render_memo_markdown(r, lang)
    sw = r.start_with
    assert sw.key == asked_gpus43.KEY and sw.params["asked"]["tr"] == asked_gpus43.ASKED + ".choice"
    asked = translate(lang, sw.params["asked"]["tr"], gpus=sw.params["asked"]["gpus"])
    # page 1's paragraph says it; the finding, in the app and --json, says it too, and the memo's section 7 leaves
    # the clause page 1 says word for word out (rep44, review 35: "the hosted-API paragraph repeats the findings")
    assert asked in memo and memo.count(asked) == 1, asked
    assert asked in next(f for f in r.findings if f.id == "cost.hosted_weighed").detail_in(lang)
    page = page_one(memo)
    assert asked in page and translate(lang, "fair35.times", span=sw.params["times"]["span"]) in page
    assert {"en": "keep self-hosting only for a reason your team states",
            "zh_CN": "只有你们能说明自建的理由"}[lang] in page
