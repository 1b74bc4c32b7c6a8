"""Blind review 30 (q29, en: "'Closest in quality within reach' is misleading for Qwen3 30B-A3B, which misses both
constraints ... lead with what fits both and present the rest as trade-offs"; zh: "'一定在预算内的是下面这项' does not
say outright that it meets the 12-hour deadline"). Where an MoE near the budget sits beside the one change within it
(``fixtab39.moe_lead``), page 1 sets out that one change first, said to meet the budget and the batch's deadline as
answered, and the MoE after it as the trade-off, with what it misses."""

from __future__ import annotations

import pytest

from advisor.catalog import get_model
from advisor.i18n import translate
from advisor.plan import fixtab39
from advisor.plan.critical_steps import the_one_fix
from advisor.plan.memo import memo_document
from tests.support.planned import advice_plan


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q29_what_fits_both_comes_last_with_its_warning_and_the_near_miss_before_it(lang):
    # blind review 34 (q29, fo43) reversed the order of review 30: the rows closest in quality first (the batch API
    # on a larger model, the MoE), the far smaller model that fits both last, its quality warning said before it
    r = advice_plan("q29_batch_impossible_budget")
    one = the_one_fix(r)
    lead = fixtab39.moe_lead(one, [f for f in r.fixes if f is not one], r)
    assert one is not None and lead is not None
    assert one.with_budget is None and not one.with_deadline_hours  # it fits both as answered
    assert lead.with_deadline_hours and lead.with_deadline_hours > r.answers["batch_deadline_hours"]
    md = memo_document(r, lang).markdown()
    page1 = md.split("\n## ")[1]
    hours = f"{float(r.answers['batch_deadline_hours']):g}"
    fits = translate(lang, "fo43_fixes.last_job", hours=hours)
    first = translate(lang, "fo43_fixes.closest_first_job", model="§", hours=hours).split("§")[0]
    assert fits in page1 and first in page1
    small, moe = get_model(one.change["model"]).name, get_model(lead.change["model"]).name
    warning = "answer quality is the real risk" if lang == "en" else "真正的风险在回答质量"
    # the table closest in quality first, the MoE in it; then the warning, then the far smaller model's bullet
    assert page1.index(first) < page1.index(moe) < page1.index(fits) and warning in fits
    bullet = next(x for x in page1.splitlines() if x.startswith("- ") and small in x)
    assert page1.index(fits) < page1.index(bullet)
    assert small not in page1[:page1.index(fits)]
    assert "within reach" not in page1 and "够得着" not in page1
