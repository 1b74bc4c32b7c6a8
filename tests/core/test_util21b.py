"""The memo's own volume against the utilisation it assumes, and fix wording that follows its range
(s21-util21b, eleventh blind review).

- q01, q03, q08, q14, q24: power, the break-even and the rent verdict used the load pattern's 40 % (70 %) while the
  tokens row keeps the setup about 1–3 % busy. Where the volume is under half the assumed share, the power row gives
  the draw and the month's power at the volume's share (the totals' assumed figure said as the higher one), the
  "Owning pays off" value leads with the volume's share against the break-even utilisation and labels the assumed
  one "if it were kept N % busy", and the rent findings name the volume's share.

- q29, q40: a fix whose cost range straddles the budget (q40's 3B option ¥4,853–14,916 against ¥5,000) read
  "alone it still costs more than the budget"; the wording now follows the range: the low end fits, the high end
  does not, and the budget that makes it sure.
- q23: "150 users draw 5,920 tok/s against a capacity of 5,932 tok/s" read as no margin beside "20 % headroom": the
  speed row's total is the peak's own load spread over every replica; the row now says so, with the most the
  replicas but the spare take within the target (the headroom's).
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import volume_busy
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")
Q29 = ADVICE_SCENARIOS / "q29_batch_impossible_budget.json"
Q40 = ADVICE_SCENARIOS / "q40_tiny_budget_72b.json"
Q23 = ADVICE_SCENARIOS / "q23_japan_game_npc.json"
Q01 = ADVICE_SCENARIOS / "q01_office_lan_capex_contracts.json"
Q24 = ADVICE_SCENARIOS / "q24_us_saas_rent.json"
Q14 = ADVICE_SCENARIOS / "q14_medical_followup_mainland.json"
FILES = sorted(ADVICE_SCENARIOS.glob("*.json"))


def _labelled_row(text: str, label: str) -> str:
    return next((line for line in text.splitlines() if line.startswith(f"| {label} |")), "")


def _busy(data) -> float:
    return float(data["costs"]["per_million_basis"]["own_volume"]["busy"])


def _budget(plan) -> float:
    return float(plan.answers["monthly_budget"]["amount"])


@pytest.mark.parametrize("path", [Q29, Q40], ids=["q29", "q40"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_fix_with_a_budget_is_worded_by_where_its_range_lies_against_the_budget(path, lang):
    """Each fix offered with a larger budget: where its shown range's low end is within the budget as asked and the
    high end over it, the text says it straddles (never "still costs more"); where both ends are over, it says so."""
    plan = scenario_plan(path)
    budget = _budget(plan)
    over = translate(lang, "plan.fix.with_budget_job" if plan.costs.per_job else "plan.fix.with_budget",
                     amount="", currency="").split("{")[0][:12].strip()
    straddling = 0
    for fix in plan.fixes:
        if fix.with_budget is None or fix.with_deadline_hours or fix.monthly_cost is None:
            continue
        m, text = fix.monthly_cost, fix.text_in(lang)
        if m.low <= budget < m.high:
            straddling += 1
            assert fix.straddles_budget == budget and over not in text, text
            assert f"{budget:,.0f}" in text and f"{float(fix.with_budget['amount']):,.0f}" in text, text
        else:
            assert fix.straddles_budget is None and over in text, text
    # q40's 3B (¥4,853–14,916 against ¥5k) straddles. q29's 7B fix straddled (¥6.5k–20.3k against ¥20k) on the flat
    # 30–50 % cloud uplift; a batch job pays storage and support only (8–25 %, s22-uplift22c: it streams nothing to
    # users), so the fix now fits the ¥20k whole and is offered with no larger budget: said as fitting, not as over
    if path == Q29:
        small = next(f for f in plan.fixes if f.with_budget is None and f.monthly_cost is not None)
        assert small.monthly_cost.high <= budget and over not in small.text_in(lang)
    else:
        assert straddling >= 1


@pytest.mark.parametrize("lang", LANGS)
def test_q23s_speed_row_names_its_total_as_the_peaks_load_and_gives_the_headrooms_most(lang):
    """The total with every replica at its planned load is the peak spread over them (so it matches the peak's
    draw); the row says the most the replicas but the spare take within the target, peak × (1 + headroom), and the
    headroom's percent, both from the plan's JSON, so the two rows agree."""
    cap = scenario_plan(Q23).to_json(lang)["capacity"]
    assert cap["headroom"] > 0 and cap["headroom_measured"] is None
    row = next(line for line in scenario_memo(Q23, lang).splitlines()
               if line.startswith(f"| {translate(lang, 'memo4.cap.speed')} |"))
    most = round(cap["peak_concurrency"] * (1 + cap["headroom"]))
    assert f"{cap['output_tokens_per_s_total']:,.0f}" in row
    assert f" {most:,} " in row and f"{cap['headroom'] * 100:.0f} %" in row, row
    assert cap["max_concurrency_per_replica"] * (cap["serving_replicas"] or 0) == most  # the headroom's own count


@pytest.mark.parametrize("lang", LANGS)
def test_q01s_office_power_is_given_at_its_volumes_busy_share_worked_from_the_json(lang):
    """q01's box: the tokens row keeps it about 1 % busy against the assumed 40 %. The power row gives the draw
    (idle share + busy share × the rest, each end) at that share and, "if it were 40 % busy", the month's power at
    the assumed share: the figure scaled by the draw's ratio, every other factor (kW, PUE, hours, price) the same.
    s22-owncost22: the JSON's power (and the totals) are now computed at the volume's share, the assumed one said
    beside it (before, the totals counted the assumed share and the row gave the volume's as the lower figure)."""
    data = scenario_plan(Q01).to_json(lang)
    c, busy = data["costs"], _busy(data)
    util, owned = c["utilisation"], c["owned"]
    assert not c["utilisation_measured"] and busy < util / 2 and c["usage_busy"] == pytest.approx(busy)
    idle = owned["idle_draw"]
    draws = [(i + (1 - i) * busy, i + (1 - i) * util) for i in (idle["low"], idle["high"])]
    assumed = MoneyRange(low=owned["power_monthly"]["low"] * draws[0][1] / draws[0][0],
                         high=owned["power_monthly"]["high"] * draws[1][1] / draws[1][0])
    row = _labelled_row(scenario_memo(Q01, lang), translate(lang, "memo.forms.cost.power"))
    assert money_range(assumed, c["currency"]) in row, row
    assert f"{draws[0][0] * 100:.0f}–{draws[1][0] * 100:.0f}" in row and f"{draws[0][1] * 100:.0f}–{draws[1][1] * 100:.0f}" in row
    assert assumed.high > owned["power_monthly"]["high"]  # busier, more power: the assumed share's is the higher


# s22-rentbasis22b: q24 and q14 (rented plans) compare bare metal with the rent the memo prints, as q01's bought box
# since s22-owncost22: a setup that stays up is billed busy or not, so there is no utilisation break-even to set the
# volume's share against; the months are worked out with the power at the volume's share, and say that share
@pytest.mark.parametrize("path", [Q24, Q14], ids=["q24", "q14"])
@pytest.mark.parametrize("lang", LANGS)
def test_owning_pays_off_is_worked_out_at_the_volumes_busy_share(path, lang):
    """The payback's share is the volume's (about 1–2 %), not the assumed 40 %: the months' words name it, and the
    memo says them (in the row or the rent finding); no "owning needs N % busy" is left."""
    r = scenario_plan(path)
    data = r.to_json(lang)
    busy = _busy(data)
    c = r.costs
    assert c.break_even_utilisation is None and c.usage_busy == pytest.approx(busy, abs=1e-6)
    be = c.break_even_months
    assert be.reason_params["util"] == max(1, round(busy * 100)) != round(c.utilisation * 100)
    memo = scenario_memo(path, lang)
    assert be.text(lang, "months") in memo
    # the busy share owning used to need, against renting the busy hours (q24's "owning needs at least 43 % busy")
    need = re.escape(translate(lang, "util21b.need", pct=0)).replace("0", r"\d+")
    assert not re.search(need, memo.split(translate(lang, "plan.breakeven.months.label"))[-1][:400])
    assert translate(lang, "plan.breakeven.utilisation.label") not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_rent_finding_gives_the_months_on_the_printed_rent(lang):
    """q09 (owning pays back only in the best case) and q24: the rent finding gives the months against the rent it
    heads with, at the volume's share, and says that rent is paid busy or not; no utilisation break-even."""
    for path in (ADVICE_SCENARIOS / "q09_eu_voice_agent.json", Q24):
        r = scenario_plan(path)
        rent = next(f for f in r.findings if f.id == "cost.rent")
        assert rent.detail_key.startswith("rentbasis22b.rule.cost.rent."), rent.detail_key
        text = rent.detail_in(lang)
        assert r.costs.break_even_months.text(lang, "months") in text
        assert translate(lang, "plan.breakeven.utilisation.label") not in text


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_volume_clauses_appear_only_where_the_volume_contradicts_an_assumed_utilisation(path):
    """Property over every scenario: the volume's share is added exactly where the utilisation is assumed (not the
    service's measured duty) and the tokens row keeps the setup under half as busy; a measured duty or a volume about
    as busy as assumed keeps the texts as they were."""
    r = scenario_plan(path)
    c = r.costs
    own = (c.per_million_basis or {}).get("own_volume")
    expected = bool(own) and not c.utilisation_measured and not c.per_job and own["busy"] < c.utilisation / 2
    assert (volume_busy.contradicting_share(c) is not None) == expected
    rent = next((f for f in r.findings if f.id in ("cost.rent", "cost.cloud_then_buy")), None)
    if rent is not None and c.break_even_utilisation is not None:
        assert rent.detail_key.startswith("util21b.") == expected, (path.stem, rent.detail_key)


@pytest.mark.parametrize("lang", LANGS)
def test_the_cli_summary_says_owning_pays_off_as_the_memo_does(lang):
    """The CLI's "Owning pays off" line is the memo's: the volume's share first (q24: about 1 % against 40 %)."""
    from advisor.cli.plan import summary

    r = scenario_plan(Q24)
    months = r.costs.break_even_months.text(lang, "months")
    expected = volume_busy.break_even_text(r.costs, lang, months)
    # s22-rentbasis22b: no utilisation break-even against the printed rent, so the row is the months alone, at the
    # volume's share (test_owning_pays_off_is_worked_out_at_the_volumes_busy_share)
    assert expected == months
    line = next(x for x in summary(r, lang).splitlines() if x.startswith(translate(lang, "plan.breakeven.months.label")))
    assert expected in line
