"""The feasibility row says the conditions the plan's own numbers set (issue 25, blind reviews 25 and 26, q10).

- A first token whose predicted margin under the target is inside the predictor's median error: never a plain "yes";
  the row says "yes, if the measured P99 first token stays under the target" and points to the measuring step, and a
  verdict already conditional on the quotes gains it as a second condition. The engine's boolean is unchanged.
- A margin wider than the error leaves the row as it was.
- The upgrade paragraph reads naturally: the share of the two-server range within the budget, and what the other
  server serves with one down ("all 8 of the peak", never "8 of the peak of 8").
"""

from __future__ import annotations

import pytest

from advisor.cli.plan import summary
from advisor.i18n import translate
from advisor.plan import budget_words, feasible_gate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_one_server import thin_ttft
from advisor.sizing.accuracy import predictor_accuracy
from tests.support.planned import advice_plan

Q10 = "q10_128k_document_assistant"
ROW = {"en": "| Feasible as asked |", "zh_CN": "| 按要求是否可行 |"}
TTFT = {"en": "measured P99 first token stays under the 30 s target", "zh_CN": "实测 P99 首 token 延迟"}


def _row(md: str, lang: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(ROW[lang]))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q10_row_says_both_conditions_and_points_to_the_steps(lang):
    r = advice_plan(Q10)
    assert r.feasible  # the engine's verdict is kept (the advice bench reads it)
    assert budget_words.conditional(r) and isinstance(thin_ttft(r), dict)
    row = _row(render_memo_markdown(r, lang), lang)
    # the quote the budget fits at, the budget's condition in the numbered list (vrd44, review 35: q10)
    from advisor.plan.feasible_list44 import quote_fit
    from advisor.plan.result import render

    fit = quote_fit(r)
    assert fit is not None and render(lang, "pb43.fit.quote", {k: v for k, v in fit.items() if k != "tr"}) in row
    assert TTFT[lang] in row
    assert f"{r.capacity.ttft_p99_ms / 1000:.1f}" in row  # the prediction the measurement settles
    assert ("section 6" if lang == "en" else "第六节") in row


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_plain_yes_with_a_thin_margin_becomes_yes_if(lang):
    r = advice_plan(Q10)
    yes = translate(lang, "memo.yes")
    text = feasible_gate.feasible_text(r, lang, yes)
    assert text != yes and text.startswith(yes) and TTFT[lang] in text
    cli = translate(lang, "plan.cli.yes")
    assert TTFT[lang] in feasible_gate.feasible_text(r, lang, cli, yes="plan.cli.yes")


def test_a_wide_margin_or_an_infeasible_plan_leaves_the_row_as_it_was():
    r = advice_plan(Q10)
    err = predictor_accuracy().in_regime(r.capacity.likely.regime).ttft.median
    r.capacity.ttft_p99_ms = r.latency_curve.slo_ttft_p99_ms * (1 - err - 0.05)
    assert feasible_gate.feasible_text(r, "en", "yes") == "yes"
    r = advice_plan(Q10)
    r.feasible = False
    assert feasible_gate.feasible_text(r, "en", "no") == "no"


def test_cli_summary_says_the_first_token_condition():
    r = advice_plan(Q10)
    assert TTFT["en"] in summary(r, "en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_upgrade_paragraph_reads_naturally(lang):
    r = advice_plan(Q10)
    md = render_memo_markdown(r, lang)
    peak = r.capacity.peak_concurrency
    para = next(b for b in md.split("\n\n") if b.startswith(("**The upgrade", "**升级选项")))
    assert "在该区间的" not in para and f"{peak} 个请求中的 {peak} 个" not in para
    assert f"{peak} of the peak of {peak}" not in para and "the two would still serve" not in para
    assert ("the other would still serve all" if lang == "en" else "另一台仍能处理全部") in para
    # blind review 34 (pb43): the quote the two servers fit the budget at, not a share of their range
    assert ("fit the ¥150,000 budget only on a quote at or under about" if lang == "en" else "只有报价不高于每卡每月约") in para
    assert "of that range is within the" not in para and "该区间中只有" not in para
