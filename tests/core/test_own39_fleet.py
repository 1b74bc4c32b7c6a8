"""On the team's own cards the cost row sets their purchase spread over the plan's months beside the running month
(issue 25, blind review 28, q18 zh: "The headline cost '运行费用每月 1,085–3,664 USD' leaves out ... card amortisation.
Yet the memo itself says a paid API should be priced on the amortised cost (+14,583–19,444 USD/月) ... Put that figure
in the summary table so the boss doesn't take ~$2k/month as the cost of the service").

The capital a month is the same figure the per-million row adds (``owned_capital37``), said where that row prices a
paid API on it; the total adds it to the row's own month (the month with the network line where the row states one).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import owned_capital37
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_forms import chosen_owned
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")


def _cost_row(md: str, lang: str) -> str:
    return next(x for x in md.splitlines() if x.startswith("| " + translate(lang, "memo.key.cost") + " |"))


def _total(base: MoneyRange, cap: tuple[float, float], cur: str) -> str:
    return money_range(MoneyRange(low=base.low + cap[0], high=base.high + cap[1]), cur)


@pytest.mark.parametrize("lang", LANGS)
def test_q18_cost_row_adds_the_cards_capital_the_per_million_row_prices_on(lang):
    r = advice_plan("q18_us_fleet_32_h100")
    cap = owned_capital37.capital(r)
    per_million = owned_capital37.figures(r)
    assert cap is not None and per_million is not None and cap["monthly"] == per_million["monthly"]
    row = _cost_row(render_memo_markdown(r, lang), lang)
    cur = r.costs.currency
    owned = chosen_owned(r)
    assert owned is not None and owned.fleet_gpus and not owned.gpus_bought
    assert money_range(MoneyRange(low=cap["monthly"][0], high=cap["monthly"][1]), cur) in row
    assert _total(owned.running_monthly, cap["monthly"], cur) in row
    # after the running month, never instead of it
    assert row.index(money_range(owned.running_monthly, cur)) < row.index(_total(owned.running_monthly,
                                                                                 cap["monthly"], cur))


@pytest.mark.parametrize("name", ["q26_steady_3y_strong_ops_buy", "q24_us_saas_rent"])
def test_no_capital_clause_where_nothing_runs_on_owned_cards(name):
    r = advice_plan(name)
    assert owned_capital37.capital(r) is None
    assert "owned cards' purchase spread" not in render_memo_markdown(r, "en")


@pytest.mark.parametrize("name", ["q39_hybrid_l20_base_cloud_burst", "q33_office_4090d_fleet"])
def test_no_capital_clause_where_no_paid_api_is_priced_on_the_cards(name):
    """A service nobody pays for on cards already owned: the running month is what it adds (the cards are paid for
    whatever runs on them), and the memo prices no paid API on their capital."""
    r = advice_plan(name)
    assert owned_capital37.capital(r) is not None and owned_capital37.figures(r) is None
    assert "owned cards' purchase spread" not in render_memo_markdown(r, "en")
