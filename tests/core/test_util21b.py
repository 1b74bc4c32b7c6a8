"""The memo's own volume against the utilisation it assumes, and fix wording that follows its range
(s21-util21b, eleventh blind review).

- q29, q40: a fix whose cost range straddles the budget (q40's 3B option ¥4,853–14,916 against ¥5,000) read
  "alone it still costs more than the budget"; the wording now follows the range: the low end fits, the high end
  does not, and the budget that makes it sure.
- q23: "150 users draw 5,920 tok/s against a capacity of 5,932 tok/s" read as no margin beside "20 % headroom": the
  speed row's total is the peak's own load spread over every replica; the row now says so, with the most the
  replicas but the spare take within the target (the headroom's).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")
Q29 = ADVICE_SCENARIOS / "q29_batch_impossible_budget.json"
Q40 = ADVICE_SCENARIOS / "q40_tiny_budget_72b.json"
Q23 = ADVICE_SCENARIOS / "q23_japan_game_npc.json"


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
    assert straddling >= 1  # q29's 7B fix (¥6.5k–20.3k against ¥20k), q40's 3B (¥4,853–14,916 against ¥5k)


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
