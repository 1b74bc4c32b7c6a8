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
def test_q29_what_fits_both_comes_first_and_the_near_miss_after_it(lang):
    r = advice_plan("q29_batch_impossible_budget")
    one = the_one_fix(r)
    lead = fixtab39.moe_lead(one, [f for f in r.fixes if f is not one], r)
    assert one is not None and lead is not None
    assert one.with_budget is None and not one.with_deadline_hours  # it fits both as answered
    assert lead.with_deadline_hours and lead.with_deadline_hours > r.answers["batch_deadline_hours"]
    md = memo_document(r, lang).markdown()
    page1 = md.split("\n## ")[1]
    fits = translate(lang, "med40_fixes.fits_both", hours=f"{float(r.answers['batch_deadline_hours']):g}")
    near = translate(lang, "tab39_fixes.lead", change="§", cost="§", against="§", needs="§").split("§")[0]
    assert fits in page1 and near in page1
    small, moe = get_model(one.change["model"]).name, get_model(lead.change["model"]).name
    # what fits: its sentence, then its bullet, then the near miss with its model
    assert page1.index(fits) < page1.index(f"- {one.text_in(lang)}") < page1.index(near) < page1.index(moe)
    assert small in page1[page1.index(fits):page1.index(near)]
    assert "within reach" not in page1 and "够得着" not in page1
