"""Page 1's rows agree with the memo's own numbers (issue #25, blind review 30: "a decision that contradicts its own
numbers is a bug"): a budget verdict that rests on a stand-in price says so (q25), a fleet's totals say what they
count (q18), and the overseas node's TPOT beside a faster card is the one its table prints (q34)."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan import supply_lead
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
BUDGET = {"en": "| Budget |", "zh_CN": "| 预算 |"}


def _row(memo: str, label: str) -> str:
    return next(x for x in memo.splitlines() if x.startswith(label))


def test_within_budget_on_a_stand_in_price_says_so_where_no_priced_part_fits():
    r = planned(advice_answers("q25_hk_bank_retail"))
    assert supply_lead.rests_on_quote(r) and r.costs.within_budget and not r.costs.budget_straddles
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        row = _row(memo, BUDGET[lang])
        assert translate(lang, "prc44.budget.stand_in", region=translate(lang, "plan.region.hong_kong")) in row, row
        assert translate(lang, "memo.cost.within") not in row, row
        # the feasibility row it agrees with: conditional, no part priced there within the budget
        # (vrd44: the quote its own condition, the reason after its colon)
        assert translate(lang, "prc44.feasible.supply_budget", rest="", region="", gpu="", where="", n=20,
                         listed="NVIDIA A10 24GB", monthly="31,873 USD").split(
            "：" if lang == "zh_CN" else ": ")[-1] in memo


def test_a_fleet_total_over_the_horizon_says_it_is_the_running_cost_alone():
    r = planned(advice_answers("q18_us_fleet_32_h100"))
    o = r.costs.owned
    assert o is not None and o.fleet_gpus and not o.gpus_bought
    months = r.costs.horizon_months
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert translate(lang, "contra40_cost.total_running", months=months) in memo
        assert translate(lang, "memo.forms.cost.total", months=months) not in memo
        # the running month times the horizon, not the full cost page 1 names
        assert round(o.horizon_total.low) == round(o.running_monthly.low * months)
        cost = _row(memo, "| Cost |" if lang == "en" else "| 成本 |")
        # review 36 (q18): the sunk purchase is the paid API's price floor, not a monthly cost beside the running one
        assert ("is the floor its price must cover" if lang == "en" else "是 API 价格至少要覆盖的底线") in cost


# The q34 case (the overseas node's TPOT beside a faster card, read again from the switched setup:
# ``node_quicker.refreshed``) arises only with Google Cloud's multi-GPU L4 rows priced at their own rate (branch
# s38-shape, merged as a9d5c382 and reverted by 4566eea8: it moved q13/q34 under ~25 pinned tests); back with it.
