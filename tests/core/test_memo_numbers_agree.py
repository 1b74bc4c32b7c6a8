"""Numbers in one memo that must agree with each other, as properties over every advice scenario (issue 25,
fifth blind review: s16-consistency).

- payback: the rent finding's verdict, the "owning pays off" row and the "break-even utilisation" row of the
  cost table are one figure (q24: "break-even 25 % in the best case" beside "owning does not pay back at 40 %";
  q25: "pays off after 16.6 months" beside "does not pay back").
"""

import json
from pathlib import Path

import pytest

from advisor.plan import payback
from advisor.plan.result import render
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
NAMES = sorted(p.stem for p in SCEN.glob("*.json"))


def _plan(name: str):
    return planned(json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"])


def _finding(r, rule_id):
    return next((f for f in r.findings if f.id == rule_id), None)


@pytest.mark.parametrize("name", NAMES)
def test_break_even_rows_and_the_rent_reason_agree(name):
    r = _plan(name)
    c = r.costs
    if c is None or c.break_even_months is None:
        return
    util, months, be_util = c.utilisation, c.break_even_months, c.break_even_utilisation
    verdict = payback.verdict(months)
    if be_util is not None and c.bare_metal_capex is not None:
        # the best case pays back within the horizon exactly when the stated utilisation reaches its break-even
        best_in = verdict in ("best_case_only", "always")
        reaches_best = be_util.low is not None and util >= be_util.low - 0.005
        assert best_in == reaches_best, (name, months, be_util, util)
        worst_in = verdict == "always"
        reaches_worst = be_util.high is not None and util >= be_util.high - 0.005
        assert worst_in == reaches_worst, (name, months, be_util, util)
    rent = _finding(r, "cost.rent")
    if rent is None:
        return
    for lang in ("en", "zh_CN"):
        detail = render(lang, rent.detail_key, rent.params)
        says_never = "does not pay back" in detail or "回不了本。" in detail
        assert says_never == (verdict == "never"), (name, lang, detail)
    en = render("en", rent.detail_key, rent.params)
    if verdict == "best_case_only":
        assert "only in the best case" in en and f"{months.low}" in en, en
