"""A finding points at the fixes only where the plan has fixes (blind review 12, q07 zh: "见改进建议" pointed at a
section the memo did not have)."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.plan.see_fixes import WITHOUT_POINTER
from tests.support.planned import advice_plan

SCENARIOS = sorted(p.stem for p in (Path(__file__).parents[2] / "bench" / "advice_scenarios").glob("q*.json"))
POINTER = {"en": "see the fixes", "zh_CN": "见改进建议"}


@pytest.mark.parametrize("name", SCENARIOS)
def test_no_finding_points_at_fixes_the_plan_does_not_have(name):
    r = advice_plan(name)
    for lang, pointer in POINTER.items():
        said = [x.id for x in r.findings if pointer in x.detail_in(lang).lower()]
        assert not said or r.fixes, (lang, said)


def test_q07_keeps_the_filing_time_and_loses_the_pointer_it_had():
    """q07's paid tutoring app: the 双减 blocker offers no later launch date as a fix, so the filing finding says how
    long the filing takes and stops there."""
    r = advice_plan("q07_minors_education_app")
    assert not r.fixes
    filing = next(x for x in r.findings if x.id == "genai.filing_deadline")
    assert filing.detail_key == WITHOUT_POINTER["plan.rule.genai.filing_deadline.detail"]
    assert "days" in filing.detail_in("en") and "天" in filing.detail_in("zh_CN")


def test_a_plan_with_fixes_keeps_the_pointer():
    """The other direction: where the plan offers fixes, some scenario's finding still points at them."""
    pointing = [n for n in SCENARIOS if (r := advice_plan(n)).fixes
                and any(x.detail_key in WITHOUT_POINTER for x in r.findings)]
    assert pointing
