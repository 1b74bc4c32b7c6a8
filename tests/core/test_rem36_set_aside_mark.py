"""s34-rem36 (issue 25): page 1's "Weighed and set aside" line carries the memo's ⚠ where its finding rests on a fact
no official source confirms (a grade C/U source, or the finding's own flag), as that finding does in section 7; a
finding on confirmed sources carries none."""

from __future__ import annotations

import pytest

from advisor.plan import set_aside
from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import set_aside as is_set_aside
from advisor.plan.result import render
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q31 = "q31_icp_filed_hosting_move"  # the API's list prices, grade C, set aside for the measured load


@pytest.fixture(scope="module")
def q31():
    return planned(advice_answers(Q31))


def _aside(r):
    return next(x for x in r.findings if is_set_aside(x))


@pytest.mark.parametrize("lang", LANGS)
def test_the_line_is_marked_where_its_finding_rests_on_grade_c_as_in_section_7(q31, lang):
    f = _aside(q31)
    assert any(s.grade in ("C", "U") for s in f.sources) and set_aside.needs_verify(f)
    mark = render(lang, "memo.verify_mark")
    line = set_aside.text(q31.findings, lang, markdown=True)  # page 1's bold label (s38-usage)
    assert mark in line
    memo = render_memo_markdown(q31, lang)
    assert line in memo.split("\n## ")[1]  # page 1 prints the marked line
    # section 7 marks the same finding
    title = f.title_in(lang)
    seven = next(x for x in memo.splitlines() if title in x and x.startswith("- "))
    assert mark in seven


@pytest.mark.parametrize("lang", LANGS)
def test_a_finding_on_confirmed_sources_leaves_the_line_unmarked(q31, lang):
    f = _aside(q31)
    confirmed = f.model_copy(update={"verify": False, "sources": [s.model_copy(update={"grade": "A"})
                                                                  for s in f.sources]})
    assert not set_aside.needs_verify(confirmed)
    findings = [confirmed if x is f else x for x in q31.findings]
    line = set_aside.text(findings, lang)
    assert line and render(lang, "memo.verify_mark") not in line
