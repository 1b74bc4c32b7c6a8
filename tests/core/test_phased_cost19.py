"""A plan launched offshore that moves to the mainland once its ICP filing is done is costed as its two phases
(s19-cost19, issue 25). Eighth blind review, q21: "launches in Hong Kong and moves to a mainland node after the ICP
filing, but costs 12 months in Hong Kong and never costs the mainland phase"."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest

from advisor.plan import phased_cost
from advisor.plan.data import PriceBook
from advisor.plan.memo import memo_document
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, Timeline, TimelineItem
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned, scenario_plan

Q21 = "q21_fast_launch_hk_rule1"
SCENARIOS = sorted(p.stem for p in ADVICE_SCENARIOS.glob("*.json"))


def _page_one(text: str) -> str:
    return text.split("\n## ")[1]


def test_q21_costs_hong_kong_until_the_move_then_the_mainland_node():
    r = planned(advice_answers(Q21))
    p = r.costs.phased
    assert r.region == "hong_kong" and p is not None
    move = next(i for i in r.timeline.items if i.id == "mainland_move")
    # the months billed in Hong Kong are the move step's own days, rounded up to whole months
    assert (p.first_months_low, p.first_months_high) == (math.ceil(move.days_low / 30.4),
                                                         math.ceil(move.days_high / 30.4))
    assert p.first_months_high < r.costs.horizon_months  # not the whole horizon in Hong Kong any more
    assert p.first_monthly == r.costs.recommended_monthly  # the first phase is the plan's own figure
    assert p.then_monthly is not None and p.then_monthly != p.first_monthly
    assert p.then_gpu is None  # the A10 is priced in the mainland too: the same setup moves
    # the mainland node is priced from the mainland's own rows, listed in the memo's price table
    assert any(row.region == "mainland" and row.kind == "on_demand" for row in r.costs.prices)
    # the year: the launch node for the months before the move, the mainland node after it
    ends = [(p.first_monthly.low * m + p.then_monthly.low * (12 - m), p.first_monthly.high * m
             + p.then_monthly.high * (12 - m)) for m in (p.first_months_low, p.first_months_high)]
    assert p.months == 12 and p.total is not None
    assert p.total.low == pytest.approx(min(e[0] for e in ends), abs=0.05)
    assert p.total.high == pytest.approx(max(e[1] for e in ends), abs=0.05)
    assert p.total.high < p.first_monthly.high * 12  # the old bill (12 months in Hong Kong) was above it
    assert p.then_line == "bgp" and p.then_line_monthly is not None  # the mainland node's own line, priced
    # s22-premium22: the Hong Kong three-network line has a sourced price (grade C) and is priced, no longer unknown
    assert p.first_line == "three_network" and p.first_line_monthly is not None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q21_memo_shows_the_month_after_the_move_and_the_first_year_on_page_one_and_in_the_cost_table(lang):
    r = planned(advice_answers(Q21))
    p = r.costs.phased
    assert p is not None and p.then_monthly is not None and p.total is not None
    text = memo_document(r, lang).markdown()
    then, total = money_range(p.then_monthly, r.costs.currency), money_range(p.total, r.costs.currency)
    # cst44 (blind review 35, q21: "a boss will read it as the cost of the recommendation"): under the API lead the
    # self-hosted fallback's month after the move and its first year are section 4's, not page 1's
    year = money_range(p.total_with_lines or p.total, r.costs.currency)
    assert then not in _page_one(text) and year not in _page_one(text)
    label = phased_cost.cost_row(p, r.costs.currency, lang)[0]
    row = next(line for line in text.splitlines() if line.startswith(f"| {label} |"))
    # s24-prices24 (round 13, q21): the row's first year is the one page 1 gives, lines included where both are
    # priced ("12 months in all" of the rent alone contradicted page 1); the rent alone only where a line is unpriced
    assert then in row and year in row and money_range(p.first_monthly, r.costs.currency) in row
    assert (total in row) == (p.total_with_lines is None)
    assert money_range(p.then_line_monthly, r.costs.currency) in row


@pytest.mark.parametrize("name", SCENARIOS)
def test_only_a_plan_that_moves_to_the_mainland_is_costed_in_phases(name):
    r = planned(advice_answers(name))
    moves = any(i.id == "mainland_move" for i in r.timeline.items)
    if r.costs.phased is not None:
        assert moves and r.region not in ("mainland", "mainland_plus_overseas")
    elif moves and r.deployment_form == "cloud" and r.costs.recommended_monthly is not None:
        pytest.fail(f"{name}: moves to the mainland but the move is not costed")


def _out(lo: float | None, hi: float | None, rows: list | None = None) -> SimpleNamespace:
    return SimpleNamespace(cloud_usd=(lo, hi), conv=7.0, costs=SimpleNamespace(prices=rows or []))


def test_an_unpriced_mainland_part_stays_unknown_and_is_said_so():
    timeline = Timeline(items=[TimelineItem(id="mainland_move", label_key="plan.timeline.mainland_move", days_low=40,
                                            days_high=95, blocking=False)])
    got = phased_cost.phases("hong_kong", "icp_deadline", "cloud", _out(1000.0, 2000.0), timeline, 24,
                             lambda: (None, None), ("three_network", "bgp"), lambda line: None, "l40s")
    assert got is not None
    p, rows = got
    assert (p.first_months_low, p.first_months_high, p.months) == (2, 4, 12)
    assert p.first_monthly == MoneyRange(low=7000.0, high=14000.0)
    assert p.then_monthly is None and p.total is None and rows == []
    for lang in ("en", "zh_CN"):
        text = phased_cost.key_text(p, "CNY", lang) + phased_cost.cost_row(p, "CNY", lang)[1]
        assert " 0 CNY" not in text and ("quote" in text or "询价" in text)


@pytest.mark.parametrize("region,reason,form", [("mainland", "users", "cloud"), ("hong_kong", "users", "cloud"),
                                                ("hong_kong", "icp_deadline", "bare_metal")])
def test_no_phases_without_a_move_or_for_an_owning_form(region, reason, form):
    timeline = Timeline(items=[TimelineItem(id="mainland_move", label_key="plan.timeline.mainland_move", days_low=22,
                                            days_high=40, blocking=False)])
    assert phased_cost.phases(region, reason, form, _out(1.0, 2.0), timeline, 12, lambda: (_out(1.0, 2.0), None),
                              ("three_network", "bgp"), lambda line: None) is None


def test_the_mainland_rows_priced_the_second_phase():
    """The mainland phase's figure is the mainland rows' price for the same GPUs, as the cost model bills them."""
    r = planned(advice_answers(Q21))
    p = r.costs.phased
    assert p is not None and p.then_monthly is not None
    rows = PriceBook.build(None).find(r.hardware.gpu, "on_demand", "mainland")
    assert rows and {row.id for row in rows} <= {row.id for row in r.costs.prices}
    # dearest mainland GPU-hour × every GPU all month × the overhead's high end bounds the month from above
    fx = r.costs.fx_rate
    top = max(row.high for row in rows) * fx * 730 * r.hardware.total_gpus * 1.5
    assert 0 < p.then_monthly.low <= p.then_monthly.high <= top + 1


def test_a_part_with_no_mainland_price_moves_to_the_mainlands_own_setup_and_says_which():
    """Fixture 01 launches on L40S in Hong Kong; the L40S has no mainland price (not sold there), so the mainland
    node is the mainland's own cheapest setup that meets the target, named (it read "no price for this part")."""
    from pathlib import Path

    r = scenario_plan(Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios" / "01_fast_launch_no_icp.json")
    p = r.costs.phased
    assert p is not None and r.hardware.gpu is not None
    assert not PriceBook.build(None).find(r.hardware.gpu, "on_demand", "mainland")
    assert p.then_gpu is not None and p.then_gpu != r.hardware.gpu and p.then_gpus
    assert p.then_monthly is not None and p.total is not None
    assert PriceBook.build(None).find(p.then_gpu, "on_demand", "mainland")
    for lang in ("en", "zh_CN"):
        row = phased_cost.cost_row(p, r.costs.currency, lang)[1]
        assert f"{p.then_gpus} × {p.then_gpu_name}" in row and money_range(p.then_monthly, r.costs.currency) in row


def test_q21_cost_chart_rents_along_the_two_phases_and_reaches_the_years_total():
    r = planned(advice_answers(Q21))
    p = r.costs.phased
    assert p is not None and p.total is not None and p.then_monthly is not None
    by_month = {pt.month: pt for pt in r.cost_series}
    year = by_month[p.months]
    assert year.cloud_low == pytest.approx(p.total.low, abs=1) and year.cloud_high == pytest.approx(p.total.high, abs=1)
    first = by_month[1]  # the first month is on the launch node whatever the move's length
    assert first.cloud_low == pytest.approx(p.first_monthly.low, abs=1)
    assert first.cloud_high == pytest.approx(p.first_monthly.high, abs=1)
