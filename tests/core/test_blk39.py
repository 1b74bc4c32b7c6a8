"""Blind review 28 (issue 25), s37-blocked:

- q07: page 1's hardware and cost say the setup and its month in one line where a blocker may forbid the service
  outright (双减), the detail kept in sections 2 and 4; a filing that is only slow (q30) keeps the rows in full;
- q40: a smaller model's row on a placeholder-priced card says so, and where the rows rent different cards, a row
  on a publicly priced card says it is the cheapest one meeting the target.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import blocked_brief39, memo_fixes36
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _page_one(r, lang: str) -> str:
    return render_memo_markdown(r, lang).split("\n## ")[1]


def _rows(page: str) -> dict[str, str]:
    out = {}
    for line in page.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 2:
            out[cells[0]] = cells[1]
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_q07_hardware_and_cost_in_one_line_until_double_reduction_answered(lang):
    r = planned(advice_answers("q07_minors_education_app"))
    assert blocked_brief39.blocker(r) == "edu.double_reduction"
    rows = _rows(_page_one(r, lang))
    assert translate(lang, "memo.key.cost") not in rows and translate(lang, "memo.key.hardware") not in rows
    one = rows[translate(lang, "blk39_brief.label")]
    c = r.costs
    # the month the other rows compare against, and the total with the line the budget row judges
    assert money_range(c.recommended_monthly, c.currency) in one
    assert money_range(c.monthly_with_line, c.currency) in one
    assert f"{r.hardware.total_gpus}" in one and (r.hardware.gpu_name or r.hardware.gpu) in one
    assert translate(lang, "memo.key.budget") in rows  # the budget verdict stays on page 1
    # sections 2 and 4 keep the detail page 1 no longer prints: the reserve-all price among it
    later = render_memo_markdown(r, lang).split("\n## ", 2)[2]
    assert c.cloud_reserved_all_monthly is None or money_range(c.cloud_reserved_all_monthly, c.currency) in later


@pytest.mark.parametrize("name", ["q30_unfiled_finetune_public_30d", "q40_tiny_budget_72b"])
def test_a_slow_filing_or_a_budget_keeps_the_rows(name):
    r = planned(advice_answers(name))
    assert blocked_brief39.blocker(r) is None
    rows = _rows(_page_one(r, "en"))
    assert translate("en", "memo.key.cost") in rows and translate("en", "blk39_brief.label") not in rows


@pytest.mark.parametrize("lang", LANGS)
def test_q40_rows_say_placeholder_prices_and_why_their_card(lang):
    r = planned(advice_answers("q40_tiny_budget_72b"))
    got = memo_fixes36.table(r, lang)
    smaller = [f for f in r.fixes if f.id == "smaller_model"]
    assert len({f.params["gpu"] for f in smaller}) > 1  # the case the review read: rows on different cards
    for f in smaller:
        row = next(x["change"] for x in got["rows"] if f.params["model"] in x["change"])
        held = f.params.get("placeholder")
        if isinstance(held, dict) and held["tr"] == "numbers1_34.fix.placeholder_only":
            key = "blk39_fixes.placeholder_dearer" if held.get("dearer") else "blk39_fixes.placeholder_only"
            assert translate(lang, key, gpu=held["gpu"], other=held.get("dearer", "")) in row
        elif isinstance(held, dict):
            assert translate(lang, "blk39_fixes.cheapest_priced_part", n=held["n"], gpu=held["gpu"]) in row
        else:
            assert translate(lang, "blk39_fixes.cheapest_priced") in row
    # every card priced only by a placeholder is said to be in its rows
    assert any(isinstance(f.params.get("placeholder"), dict) for f in smaller)
