"""Blind review 29 (q40, q29): the fixes table read as one comparison (``fixtab39``): the basis of its costs said,
and a plan far over its budget whichever card it rents keeps only the opening sentence of why-this-GPU."""

from __future__ import annotations

import math

import pytest

from advisor.i18n import translate
from advisor.plan.fixtab39 import FAR_OVER
from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned

Q29, Q40 = "q29_batch_impossible_budget", "q40_tiny_budget_72b"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q40_why_this_gpu_is_one_sentence_and_says_the_card_does_not_decide_it(lang):
    r = planned(advice_answers(Q40))
    md = memo_document(r, lang).markdown()
    label = translate(lang, "memo.gpu_choice")
    [para] = [x for x in md.splitlines() if x.startswith(f"**{label}**")]
    head = translate(lang, "tab39_gpu.far_over", times="§", budget="5,000", currency="CNY").split("§")[0]
    assert head in para
    times = int(para.split(head)[1].split("×" if lang == "en" else " ")[0].strip())
    budget = r.costs.budget_monthly
    # at least FAR_OVER, and no more than the plan's own low end says (the cheapest card weighed is below it)
    assert FAR_OVER <= times <= math.floor(r.costs.recommended_monthly.low / budget)
    # the long per-card and whole-server comparisons are gone
    assert "8-GPU servers" not in para and "8 卡" not in para
    # the fixes table says its basis: the latency targets as answered, and the smaller models' order
    basis = translate(lang, "tab39_fixes.basis", ttft="2,000", tpot="50")
    # (the order: closest in quality first since blind review 34, fo43; the API, said above the table and no row of
    # it, not named in the order since review 35, api44)
    assert basis in md and translate(lang, "api44.fixes.order").strip() in md
    assert translate(lang, "fo43_fixes.order").strip() not in md


def test_a_batch_table_says_no_latency_basis():
    r = planned(advice_answers(Q29))
    md = memo_document(r, "en").markdown()
    assert "Each row is priced at your latency targets" not in md
