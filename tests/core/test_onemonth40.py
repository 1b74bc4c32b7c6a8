"""Review 29 (q10): the API comparison's month is the GPUs alone; where page 1's month adds a priced line, the
comparison says so and names the line's month, so the two figures add up (``advisor.plan.gpus_alone40``)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import symbol_range
from tests.support.planned import advice_answers, planned


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_api_comparison_names_its_month_the_gpus_alone_beside_the_line(lang: str) -> None:
    r = planned(advice_answers("q10_128k_document_assistant"))
    c = r.costs
    assert c.monthly_with_line is not None and c.hosted_api_monthly is not None
    gpus = symbol_range(c.recommended_monthly.low, c.recommended_monthly.high, c.currency)
    line = symbol_range(c.monthly_with_line.low - c.recommended_monthly.low,
                        c.monthly_with_line.high - c.recommended_monthly.high, c.currency)
    said = {"en": f"{gpus} for the GPUs alone, before the {line} line",
            "zh_CN": f"GPU 部分 {gpus}，未计线路 {line}"}[lang]
    memo = render_memo_markdown(r, lang)
    page1 = memo.split("\n## ")[1]
    assert said in page1  # the page-1 line that sets the API aside
    # every API comparison that prints the GPUs' month says so (the daytime-pricing clause names the GPUs itself)
    parts = [p for p in memo.replace("。", "\n").replace(". ", "\n").split("\n") if "API" in p and gpus in p]
    assert len(parts) >= 3
    assert all(said in p for p in parts), [p for p in parts if said not in p]
