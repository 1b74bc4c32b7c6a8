"""Session 29 (pages29, issue 25): a source whose title gives its own date is not followed by that date again in the
memo's source list (q07 and q34 back to 5 pages); a year alone in a title (a law's year in its name) is not taken
for the source's date, which the entry then still states."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned


def _sources(name: str, lang: str) -> list[str]:
    memo = render_memo_markdown(planned(advice_answers(name)), lang)
    listed = memo.split(f"## {translate(lang, 'memo.h.sources')}")[1]
    return [ln for ln in listed.splitlines() if re.match(r"\d+\. ", ln)]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_title_s_own_date_is_said_once(lang):
    rules = [s for s in _sources("q07_minors_education_app", lang) if "促进和规范数据跨境流动规定" in s]
    assert len(rules) == 1 and rules[0].count("2024-03-22") == 1, rules


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_year_in_a_title_is_not_the_source_s_date(lang):
    # the Malaysian act of 2010 (its year in its name, its page dated 2010): the entry still gives the date
    sea = [s for s in _sources("q34_mixed_users_split", lang) if "709" in s and "129" in s]
    grade = "grade B" if lang == "en" else "（可信度 B）"
    assert len(sea) == 1 and re.search(r"2010" + ("(, )" if lang == "en" else "") + re.escape(grade), sea[0]), sea
