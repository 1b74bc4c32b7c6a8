"""One utilisation per memo (issue 25, blind review 12b; s23-util23).

Six memos stated two utilisations for one setup: the cost table's 40 % (the load pattern's share) and "about 1 % busy"
/ "never in the worst case (1 % utilisation)" (the share of the setup's token capacity the tokens row fills, at which
the power and the payback had been re-costed). Now every cost figure is at the plan's utilisation and the tokens
row's share is said as the capacity it fills. Checked here:

- over every advice scenario's memo in both languages, every percentage stated as a utilisation or a busy share is
  the plan's utilisation, a break-even the plan computed (the share at which owning pays), a team fleet's measured
  utilisation of its other work (which says which cards are free), or 100 % (the ceiling "even at 100 %");
- the power and the payback of an owned setup are at the plan's utilisation, also where the tokens row fills a
  small share of the capacity;
- q24's rent finding names the utilisation at which owning pays beside the plan's 40 %, in both languages, and that
  break-even is the share at which owning and renting only the busy hours cost the same over the horizon.

Since s25-usage25, power and per-token cost use the month's tokens' share, not the load pattern's 40 %: the plan's
one utilisation is that share (a range to the estimate's high end), so the checks above read it, not the 40 %.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan import payback, rent_breakeven, volume_busy
from advisor.plan.cost import average_draw
from advisor.plan.result import render
from tests.support.planned import (
    advice_plan,
    headcount_plan,
    only_finding,
    peak_read_plan,
    scenario_answers,
    scenario_memo,
    scenario_plan,
)

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
PATHS = sorted(SCEN.glob("*.json"))
NUM = r"(\d+(?:\.\d+)?)"
# a percentage stated as a utilisation or a busy share ("40 % utilisation", "1 % busy", "busy 40 % of the time",
# "利用率 40 %", "40 % 的时间在忙"); the capacity wording ("fills about 1 % of this setup's capacity") is none of these
STATED = {
    "en": [re.compile(NUM + r" ?% (?:utilisation|busy)\b", re.I),
           re.compile(r"(?:utilisation|busy)[:;]? (?:of )?(?:about )?" + NUM + r" ?%", re.I)],
    "zh_CN": [re.compile(NUM + r" ?% ?(?:的)?(?:利用率|忙碌比例)"),
              re.compile(r"(?:利用率|忙碌比例)[：:]? ?(?:约 ?)?" + NUM + r" ?%"),
              re.compile(NUM + r" ?% ?的时间在忙")],
}


def _body(memo: str, lang: str) -> str:
    """The memo without its source list (a source's own title may quote a published break-even, "u* ≈ 53–80%")."""
    head = "## " + translate(lang, "memo.h.sources")
    return memo.split(head)[0]


def _allowed(path: Path) -> set[float]:
    """The percentages a memo may state as a utilisation: the plan's, the break-evens it computed, a fleet's measured
    utilisation of its other work, 100."""
    r = scenario_plan(path)
    c = r.costs
    allowed = {100.0}
    if c is None:
        return allowed
    allowed.add(round(c.utilisation * 100))
    # issue 25 (usage25): the one usage is the month's tokens over the setup's capacity, said as a range to the
    # estimate's high end ("1–8 % busy"; under half a percent said as 1 %): both ends are that one figure
    allowed.add(max(1, round(c.utilisation * 100)))
    if c.usage_high is not None:
        allowed.add(round(c.usage_high * 100))
    if c.power_busy_high is not None:  # s26-usage26: the power row's busy hours, said as hours (random arrivals)
        allowed.add(round(c.power_busy_high * 100))
    # s27-usage27 (blind review 17, q24): where the month's tokens are far under what the peak implies, the rent
    # reason states the upper reading the load pattern gives (the busiest hour kept up through its busy hours), said
    # as that, beside the tokens' share: a figure the plan computed (costs.volume_peak.upper), not a second usage
    upper = (c.volume_peak or {}).get("upper")
    if upper:
        allowed.add(max(1, round(upper["share"] * 100)))
    for be in (c.break_even_utilisation, rent_breakeven.utilisation(c)):
        for end in (be.low, be.high) if be is not None else ():
            if end is not None:
                allowed.add(float(payback.percent_up(end)))
    answers = scenario_answers(path)
    if answers.get("current_fleet") and answers.get("measured_utilisation") is not None:
        allowed.add(round(float(answers["measured_utilisation"]) * 100))
    return allowed


@pytest.mark.parametrize("path", PATHS, ids=lambda p: p.stem[:3])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_memo_states_one_utilisation_for_its_setup(path, lang):
    body = _body(scenario_memo(path, lang), lang)
    allowed = _allowed(path)
    stated = {float(m.group(1)): m.group(0) for rx in STATED[lang] for m in rx.finditer(body)}
    stray = {v: said for v, said in stated.items() if v not in allowed}
    assert not stray, (path.stem, lang, stray, sorted(allowed))


def test_the_old_wording_would_have_failed():
    """The check reads the wording blind review 12b found (q24: "about 1 % busy", "(1 % utilisation)"), so it can
    fail; the capacity wording that replaced it passes."""
    old = ("This setup is about 1 % busy at the estimated volume. Kept 40 % busy, the assumed share: … never in the "
           "worst case (1 % utilisation)")
    assert {float(m.group(1)) for rx in STATED["en"] for m in rx.finditer(old)} == {1.0, 40.0}
    new = translate("en", "lead22.per_million.idle_estimated", busy="about 1 %", util="40", value="…")
    assert {float(m.group(1)) for rx in STATED["en"] for m in rx.finditer(new)} == {40.0}
    new_zh = translate("zh_CN", "lead22.per_million.idle_estimated", busy="约 1 %", util="40", value="…")
    assert {float(m.group(1)) for rx in STATED["zh_CN"] for m in rx.finditer(new_zh)} == {40.0}


@pytest.mark.parametrize("name", ["q03_hospital_private_wan_medical", "q24_us_saas_rent", "q08_ascend_fleet_internal"])
def test_power_and_payback_are_at_the_plans_utilisation_where_the_tokens_fill_little(name):
    """Since s25-usage25, power and per-token cost use the month's tokens' share, not the load pattern's 40 %: the
    plan's one utilisation IS the share the tokens fill, so there is no second share to contradict it
    (``contradicting_share`` is None), and the power and the payback are at that one figure."""
    # re-argued in s34-volume36 (blind review 25, q24): q08's month is its stated steady peak around the clock now
    # that the ~150 people read from that peak no longer cap it (about 45 % of capacity); it fills little only with
    # its staff counted (``planned.HEADCOUNT``), the case this test is about
    r = headcount_plan(name)
    c = r.costs
    # the tokens row fills a small share of the capacity: the case that used to sit beside an assumed 40 %
    # s28-volume28: a month raised to its busiest hour's floor (q08, steady around the clock) fills more, under 20 %
    # session 30 (fleet30): q08's share is over the 3 replicas it lays out on the fleet, no longer the 4 it was
    # costed on before (17 %): 22 %, still far under the steady load pattern's assumed 70 %
    small = 0.25 if (c.volume_basis or {}).get("busiest_hour_floor") else 0.1
    assert c.usage_from_tokens and c.utilisation < small, (name, c.utilisation)
    assert volume_busy.contradicting_share(c) is None, name
    assert c.usage_busy is None
    be = c.break_even_months
    if be is not None and be.reason_params.get("util") is not None:
        assert be.reason_params["util"] == max(1, round(c.utilisation * 100)), (name, be)
    if c.bare_metal_power_monthly is not None and c.bare_metal_capex is not None:
        # the bare-metal power is full draw × average_draw(the plan's share): the ratio of two shares' draws is not 1
        assert average_draw(c.utilisation) != pytest.approx(average_draw(0.4))
    own = r.costs.owned
    if own is not None and own.average_draw is not None and own.idle_draw is not None:
        lo, hi = volume_busy.draw_at(own.idle_draw, c.utilisation)
        assert own.average_draw == pytest.approx(lo, abs=0.01), (name, own.average_draw, lo)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q24s_rent_finding_names_the_break_even_utilisation_beside_the_plans(lang):
    """Since s25-usage25 the plan's share beside the break-even is the month's tokens' (1–5 % for q24, both ends of
    the estimate, as the GPU-use row says), not the load pattern's 40 %; the payback against the flat rent names no
    utilisation at all (a rent paid busy or not does not depend on one). Since s27-usage27 (blind review 17: q24's
    month is far under what its own peak implies, so "1–5 % busy" was a basis the memo contradicted) the reason
    leads with the peak's busy-hours reading (tests/core/test_peakuse27.py) instead; the tokens' 1–5 % stays in the
    GPU-use row, so here the tokens' share is checked still below the break-even and the reason's figure as the
    reading the plan computed."""
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    r = peak_read_plan("q24_us_saas_rent")
    c = r.costs
    be = rent_breakeven.utilisation(c)
    assert be is not None and be.low is not None
    util, low = max(1, round(c.utilisation * 100)), payback.percent_up(be.low)
    top = round(c.usage_high * 100)
    assert util < top < low  # the reason renting wins: every end of the plan's share below where owning pays
    # trim42 (blind review 32): the rent decision's detail says owning's payback in one sentence; the reading is the
    # finding's ``lead``, which page 1's fallback line says (api_fallback_split.with_rent_why)
    lead = only_finding(r, "cost.rent").params["lead"]
    detail = render(lang, lead["tr"], {k: v for k, v in lead.items() if k != "tr"})
    upper = max(1, round(c.volume_peak["upper"]["share"] * 100))
    assert top < upper < low
    # re-argued in s29-lead29 (issue 25: "~20 % busy at its busiest hour … below the ~41 %" set a load against a
    # break-even in hours): the busy hours' tokens at that load said as the share of the hours they fill in full
    # batches, the quantity the break-even is, as s29-memo29 made the month's tokens' lead say it
    # re-argued in s31-util32 (blind review 20b, q24: "~34 % of hours in full batches" beside the cost table's "2–9 %
    # of capacity used" read as two utilisation figures): the same measure, so the reason says the GPU-use row's share
    # first and the busy hours' reading as what "that share" would be
    below = {"en": f"that share would be ~{upper} %, below the ~{low} %",
             "zh_CN": f"这个占比也只有约 {upper} %，低于自购回本的水平"}[lang]
    need = {"en": f"below the ~{low} % where owning beats renting only those hours over {c.horizon_months} months",
            "zh_CN": f"与只租这些时段相比，{c.horizon_months} 个月内回本按最好的价格需约 {low} % 的时间"}[lang]
    assert below in detail and need in detail, detail
    # and the payback against the printed rent names no second utilisation (not the 40 %, not the tokens' share)
    assert {"en": "% utilisation", "zh_CN": "利用率"}[lang] not in detail, detail


def test_the_break_even_is_where_owning_and_renting_the_busy_hours_cost_the_same():
    """The best case's break-even worked back from q24's cost table: over the horizon, the purchase and the running
    costs at that share equal renting every GPU on demand for that share of the hours (cheapest purchase and running,
    dearest rent), within the rounding up to a tenth of a percent."""
    c = advice_plan("q24_us_saas_rent").costs
    u = rent_breakeven.utilisation(c).low
    h = c.horizon_months
    full_power = c.bare_metal_power_monthly.low / average_draw(c.utilisation)
    owning = c.bare_metal_capex.low + h * (c.bare_metal_colo_monthly.low + c.bare_metal_staff_monthly.low
                                           + full_power * average_draw(u))
    renting = h * u * c.cloud_on_demand_monthly.high / c.cloud_billed_gpus * c.gpus
    assert renting == pytest.approx(owning, rel=0.005)
    assert h * (u - 0.002) * c.cloud_on_demand_monthly.high / c.cloud_billed_gpus * c.gpus < owning


def test_no_break_even_lead_where_the_plans_utilisation_is_above_it(monkeypatch):
    """Said only where it is the reason: at a utilisation at or above the best case's break-even the lead is empty."""
    c = advice_plan("q24_us_saas_rent").costs
    be = rent_breakeven.utilisation(c)
    c.utilisation = payback.percent_up(be.low) / 100
    monkeypatch.setattr(rent_breakeven, "utilisation", lambda _c: be)
    assert rent_breakeven.lead(c) == ""
    c.utilisation = 0.2
    # re-argued in s29-memo29 (blind review 18, q30: "1–16 % busy … below the ~58 %" set a capacity share against a
    # break-even in hours): the tokens' share said as the hours it fills in full batches, like the break-even
    # re-keyed in s31-util32: the same reading, worded as the GPU-use row's share of capacity (one utilisation story)
    assert rent_breakeven.lead(c)["tr"] == "util32.rent.tokens.best_only"
    c.usage_high = payback.percent_up(be.low) / 100  # the estimate's high end reaches it: not "below" at every end
    assert rent_breakeven.lead(c) == ""
