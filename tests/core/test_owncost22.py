"""Own vs rent (issue 25, blind review 11 and 11b; s22-owncost22).

- one payback figure: every payback a memo states (page 1's "pays off against that rent after about N months", a
  finding's "after about N months") is a figure of the cost table's "Owning pays off" row, and page 1 never says
  owning pays off where that row says it does not at the memo's own volume (q03: "about 19 months" on page 1 beside
  "not within 36 months at the tokens row's volume" in the table), over every advice scenario;
- own and rent ranges that overlap are not ranked (q26, q31: "owning costs less" of ¥137k–211k against ¥116k–358k);
- power and an owned form's payback at the plan's one utilisation (s23-util23, blind review 12b: the busy share the
  month's own tokens give, which s22-owncost22 costed them at, read as a second utilisation, "1 % busy" beside 40 %;
  that share is now said as the capacity the tokens fill, tests/core/test_one_utilisation23.py).
"""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.i18n import translate
from advisor.plan import page_one_payback
from advisor.plan.own_rent_verdict import own_verdict
from advisor.plan.result import render
from tests.support.planned import advice_plan, scenario_memo, scenario_plan

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
PATHS = sorted(SCEN.glob("*.json"))
EN_MONTHS = re.compile(r"after about ([0-9]+(?:\.[0-9]+)?) months")
ZH_MONTHS = re.compile(r"约 ([0-9]+(?:\.[0-9]+)?) 个月")
PAGE_ONE = {"en": re.compile(r"pays off against that rent after about ([0-9]+(?:\.[0-9]+)?) months"),
            "zh_CN": re.compile(r"自购按中间价格约 ([0-9]+(?:\.[0-9]+)?) 个月回本")}
RANGE = {"en": re.compile(r"after about ([0-9]+(?:\.[0-9]+)?)–([0-9]+(?:\.[0-9]+)?) months"),
         "zh_CN": re.compile(r"约 ([0-9]+(?:\.[0-9]+)?)–([0-9]+(?:\.[0-9]+)?) 个月")}
RANGE_SAID = {"en": "pays off against that rent after about {}–{} months", "zh_CN": "自购约 {}–{} 个月回本"}
# the table row's lead where owning does not pay back (within the horizon, or at all)
NOT_AT_VOLUME = {"en": ("not within", "never", "only in the best case at the tokens row"),
                 "zh_CN": ("内无法回本", "无法回本", "仅在最好情况下回本")}


def _row(memo: str, label: str) -> str | None:
    for line in memo.splitlines():
        if line.startswith(f"| {label} |"):
            return line.split("|")[2].strip()
    return None


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem[:3])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_payback_the_memo_states_is_the_cost_tables(path, lang):
    memo = scenario_memo(path, lang)
    row = _row(memo, translate(lang, "plan.breakeven.months.label"))
    said = [float(m) for m in PAGE_ONE[lang].findall(memo)]
    if row is None:  # no payback in the table: none stated anywhere else either
        assert not said, (path.stem, lang, said)
        return
    table = {float(x) for x in (EN_MONTHS if lang == "en" else ZH_MONTHS).findall(row)}
    # s29-prices29: a row of two ends where both pay back within the horizon ("after about 13.6–25.3 months", q03 at
    # the sourced L20 rent) holds both figures; page 1 then states those ends, and a finding the worst case's
    ends = RANGE[lang].search(row)
    if ends:
        table |= {float(ends.group(1)), float(ends.group(2))}
        lead = RANGE_SAID[lang].split("{")[0]  # page 1's payback clause, where it has one, is the row's two ends
        assert lead not in memo or RANGE_SAID[lang].format(ends.group(1), ends.group(2)) in memo, (path.stem, lang)
    for months in said:  # page 1 states the table's mid-range figure as the table prints it (s24-ownrent24, round
        # 13, q02: "about 12" on page 1 beside the table's 11.5 read as two paybacks; it used to be rounded to months)
        assert months in table, (path.stem, lang, months, row)
    if row.startswith(NOT_AT_VOLUME[lang]) or (lang == "en" and row.startswith("not within")):
        assert not said, (path.stem, lang, row)
    if lang == "en":  # a finding's "after about N months" is the table's figure too
        for found in EN_MONTHS.findall(memo.replace(row, "")):
            assert float(found) in table or any(round(t) == float(found) for t in table), (path.stem, found, row)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem[:3])
def test_page_one_and_the_table_read_one_verdict(path):
    """Structurally: page 1 states months exactly where the table has a mid-range figure of its own (the table's two
    ends where it keeps none), and that figure to a tenth of a month, as the table prints it (s24-ownrent24: it was rounded to whole
    months, "about 12" beside the table's 11.5); one utilisation under both (s23-util23), so no second verdict."""
    c = scenario_plan(path).costs
    if c is None:
        return
    months = page_one_payback.months_said(c)
    be = c.break_even_months
    # s29-prices29 re-argued: page 1 said the middle of the table's two ends "at mid-range prices" where the table
    # keeps no mid-range figure (q03 at the sourced L20 rent: 19.4 beside the table's 13.6–25.3); it now states the
    # table's own ends there, and months only where the table has its own mid-range figure
    mid = None if be is None else be.mid
    assert months == (None if mid is None else round(mid, 1)), (path.stem, be, months)
    got = page_one_payback.clause(c)
    if be is not None and be.mid is None and be.low is not None and be.high is not None:
        assert got == {"tr": "prices29.capex.pays_off_range", "low": be.low, "high": be.high}, (path.stem, got)


def test_the_own_rent_verdict_ranks_only_ranges_apart():
    assert own_verdict((100.0, 150.0), (200.0, 300.0)) == "clear"
    # they meet only at their far ends: each middle outside the other range
    assert own_verdict((100.0, 210.0), (200.0, 400.0)) == "ends"
    # q26's ranges (thousand CNY): owning's middle inside renting's range
    assert own_verdict((137.0, 211.0), (116.0, 358.0)) == "overlap"
    assert own_verdict((55.3, 94.6), (45.3, 146.9)) == "overlap"  # q31
    # owning's middle at or above renting's: never "owning costs less"
    assert own_verdict((200.0, 300.0), (100.0, 350.0)) == "overlap"


# s28-own28 re-argued: q26 is bought like for like now (the rent's own GPUs, owning cheaper at the middle: its tie
# finding says so with the payback, tests/core/test_own28.py); q31 keeps renting cheaper at the middle
@pytest.mark.parametrize("name", ["q31_icp_filed_hosting_move"])
def test_overlapping_own_and_rent_name_the_side_cheaper_at_the_middle_and_the_quote_that_reverses_it(name):
    """Round 11b: overlapping ranges were called "owning costs less". Round 12 read "about the same" under a buy
    headline as no verdict at all ("pick a side at the midpoint and say what quote would flip it"): the finding
    names the side cheaper at the middle of the two ranges, both middles, and the quote that reverses it; never
    "pays off" for ranges that overlap."""
    r = advice_plan(name)
    # s24-ownrent24 (round 13): on the plan's own stand-in prices the overlap is a tie, said with what decides it
    # (tests/core/test_ownrent24.py); the side at the middle is named where the prices are the user's quotes, as
    # here: the same figures, every price row a quote
    # s25-tie25 (round 14): renting is cheaper at the middle here, so the tie names that side, the purchase the
    # quotes must come under and the spares that make the difference (tests/core/test_tie25.py)
    # s29-prices29 re-argued: at Alibaba's sourced L20 rent (¥14.63 an hour, was a placeholder) owning is the side
    # cheaper at the middle (about ¥64,200 against ¥72,200 a month), so q31's tie is the owning one: the tie title
    # that names the rent below which to rent, not renting's
    [tie] = [f for f in r.findings if f.id == "cost.buy"]
    buy = _cost_buy_on_quotes(r, r.costs)
    own, rent = r.costs.bare_metal_monthly, r.costs.cloud_monthly
    own_mid, rent_mid = (own.low + own.high) / 2, (rent.low + rent.high) / 2
    # s30-gpuwhy30 re-argued (blind review 19, q31 m2 both languages: "a tie" on placeholder server prices where an
    # expert states the decision and its condition): owning cheaper at the middle is said as the decision with the
    # purchase under which it holds (``own_edge``, tests/core/test_gpuwhy30_own_edge.py), no longer as a tie
    assert own_mid < rent_mid and tie.title_key == "gpuwhy30.rule.cost.buy.own_edge.title"
    side = "own" if own_mid < rent_mid else "rent"
    assert buy.title_key == f"lead22.rule.cost.buy.overlap.{side}.title", buy.title_key
    for lang, reverse in (("en", ("reverse", "cheaper side")), ("zh_CN", ("反过来", "更便宜的一方"))):
        text = render(lang, buy.title_key, buy.params) + render(lang, buy.detail_key, buy.params)
        assert f"{float(f'{own_mid:.3g}'):,.0f}" in text and f"{float(f'{rent_mid:.3g}'):,.0f}" in text, text
        assert reverse[0 if side == "own" else 1] in text, text
        assert "pays off:" not in text and "划算" not in text, text


def _cost_buy_on_quotes(r, costs):
    """``cost.buy`` of plan ``r`` on ``costs`` with every price row the user's own quote (no stand-in price)."""
    from advisor.plan import rules
    from advisor.plan.answers import PlanAnswers
    from advisor.plan.context import resolve

    quoted = costs.model_copy(update={"prices": [p.model_copy(update={"user_quote": True}) for p in costs.prices]})
    facts = SimpleNamespace(form="bare_metal", ctx=resolve(PlanAnswers.model_validate(r.answers)),
                            cost=SimpleNamespace(costs=quoted))
    saved = rules._rules_fleet.on_fleet
    rules._rules_fleet.on_fleet = lambda _f: None  # a bought setup, not the team's fleet
    try:
        return rules.cost_buy(facts)
    finally:
        rules._rules_fleet.on_fleet = saved


def test_ranges_apart_keep_the_plain_buy_finding(monkeypatch):
    """The other direction: a bought setup whose owning month is clear of renting's keeps "Bare metal pays off"
    (q26's costs with the owning month at a fifth: its dearest month below renting's cheapest)."""
    from advisor.plan import rules
    from advisor.plan.answers import PlanAnswers
    from advisor.plan.context import resolve

    r = advice_plan("q26_steady_3y_strong_ops_buy")
    c = r.costs
    own = c.bare_metal_monthly
    fifth = own.model_copy(update={"low": own.low / 5, "high": own.high / 5})
    facts = SimpleNamespace(form="bare_metal", ctx=resolve(PlanAnswers.model_validate(r.answers)),
                            cost=SimpleNamespace(costs=c.model_copy(update={"bare_metal_monthly": fifth})))
    monkeypatch.setattr(rules._rules_fleet, "on_fleet", lambda _f: None)
    got = rules.cost_buy(facts)
    assert got.title_key == "plan.rule.cost.buy.title", got.title_key
    facts.cost.costs = c  # the plan's own figures: overlapping on stand-in prices, a tie (s24-ownrent24)
    # s28-own28 re-argued: q26's servers are bought like for like with the rent and pay back within the horizon at
    # the middle: the tie is said as that (owning pays like for like, the payback and the purchase it holds under)
    assert rules.cost_buy(facts).title_key == "own28.rule.cost.buy.like_own.title"
    # the same figures on the user's quotes: overlapping, not ranked, the side at the middle named
    assert _cost_buy_on_quotes(r, c).title_key.startswith("lead22.rule.cost.buy.overlap.")


@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical"])
def test_power_is_computed_at_the_plans_utilisation(name):
    """s23-util23 re-argues s22-owncost22's test of the same name: the tokens row fills a small share of these boxes'
    capacity (about 1–2 %), and the power is still at the plan's 40 %: that share measures how full the batches are,
    not the hours the GPUs run, and a memo stating it as a busy share beside the utilisation row read as two
    utilisations (blind review 12b). One power figure, no "if it were N % busy" beside it. s24-ownrent24 (round 13,
    q01/q02: "¥96–326/month is overstated" beside a load filling 1 %) adds the range down to the volume's share as
    what bounds the true draw, the figures kept at the plan's utilisation (tests/core/test_ownrent24.py).
    Since s25-usage25, power and per-token cost use the month's tokens' share, not the load pattern's 40 %: the
    plan's one usage figure IS that share (low end the month's tokens, high end the estimate's high end), so the draw
    is computed at it and the power row says the same range as the memo's GPU-use row (one figure, not two)."""
    r = advice_plan(name)
    c = r.costs
    busy = float(c.per_million_basis["own_volume"]["busy"])
    assert c.usage_from_tokens and not c.utilisation_measured
    # the 1-10 % case: s30-usage31 re-argued from < 0.1 (1-8 %) as the share is now of the simulated tokens/s the memo
    # prints at the planned load, not the screen's analytic rate (issue 25): q01's high end reads 10 %
    assert c.utilisation < 0.1 and c.usage_high is not None and c.utilisation < c.usage_high < 0.15
    assert busy <= c.usage_high  # the tokens row's share lies inside the one usage range
    assert c.usage_busy is None
    o = c.owned
    idle = o.idle_draw
    # the draw the kWh count: busy the usage share of the hours (low..high), idle (the stated idle floor) the rest.
    # Re-argued in s26-usage26: the tokens' share is how full the batches are, not the hours a replica runs, so the
    # high end is at requests arriving at random (``power_busy_high``, above the tokens' high end)
    assert c.power_busy_high is not None and c.usage_high < c.power_busy_high <= 1
    assert o.average_draw == pytest.approx(idle.low + (1 - idle.low) * c.utilisation, abs=1e-3)
    assert o.average_draw_high == pytest.approx(idle.high + (1 - idle.high) * c.power_busy_high, abs=1e-3)
    memo = scenario_memo(SCEN / f"{name}.json", "en")
    power_row = _row(memo, translate("en", "memo.forms.cost.power"))
    assert power_row is not None and "if it were" not in power_row and "the totals count" not in power_row, power_row
    span = f"{c.utilisation * 100:.0f}–{c.usage_high * 100:.0f} %"
    hours = f"{c.utilisation * 100:.0f}–{c.power_busy_high * 100:.0f} %"
    # the power row says its hours as hours, from full batches to random arrivals; the GPU-use row the tokens'
    # util28 (blind review 18, q02/q03/q04): each figure named for what it measures, no "busy" on both
    assert f"a request in flight {hours} of the hours" in power_row and "at random" in power_row, power_row
    assert f"{span} of capacity used" in memo
    # the running costs the totals count are at the same share
    assert o.running_monthly.low == pytest.approx(o.power_monthly.low + (o.staff_monthly.low if o.staff_counted
                                                                          else 0), rel=1e-3)


def test_a_measured_duty_keeps_its_own_share():
    """The other direction: a service run at a measured load (q26's 80 %) is costed at it, no volume re-costing."""
    c = advice_plan("q26_steady_3y_strong_ops_buy").costs
    assert c.utilisation_measured and c.usage_busy is None
