"""Head counts the situation states are in the answers where the wizard asks them (s26-polish26, issue 25: q33's
"40 developers" and q17's "about 20 researchers" were only in the situation text, so the month's tokens were
estimated from the peak as "about 60 / about 100 people"). The wizard asks ``users`` (ui/widgets/wizard_fields.py),
so the scenarios give it and the memos count from it; and a usage range whose ends print alike is one figure."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from advisor.plan.memo_per_million import usage_text
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, scenario_memo

LANGS = ("en", "zh_CN")
PEOPLE = {"q33_office_4090d_fleet": 40, "q17_capex_only_university_lab": 20}
COUNTED = {"en": "the {n} people who use it", "zh_CN": "使用它的 {n} 人"}
GUESSED = {"en": "Neither requests a day nor the people given", "zh_CN": "未给出每日请求数和使用人数"}


@pytest.mark.parametrize("name", sorted(PEOPLE))
@pytest.mark.parametrize("lang", LANGS)
def test_the_situations_head_count_is_answered_and_counted(name, lang):
    situation = json.loads((ADVICE_SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["situation"]["en"]
    assert str(PEOPLE[name]) in re.findall(r"\d+", situation)  # the count the situation states
    assert advice_answers(name)["users"] == PEOPLE[name]
    memo = scenario_memo(ADVICE_SCENARIOS / f"{name}.json", lang)
    assert COUNTED[lang].format(n=PEOPLE[name]) in memo and GUESSED[lang] not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_a_usage_range_whose_ends_print_alike_is_one_figure(lang):
    one = usage_text(SimpleNamespace(utilisation=0.0044, usage_high=0.0087), lang)
    assert "1–1" not in one and "1" in one
    spread = usage_text(SimpleNamespace(utilisation=0.012, usage_high=0.031), lang)
    assert "1–3" in spread  # ends that differ stay a range
