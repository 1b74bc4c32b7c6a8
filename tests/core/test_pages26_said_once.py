"""Page 1 says each fact once (session 26, issue 25: "a typical memo fits in 4 PDF pages", median 4 and none over 5).

Wave 2 of session 25 added text that its neighbours already said: the stand-in GPU price in page 1's cost row and in
the quote step; the other region's API price as a yardstick on page 1 and again in section 7; fp8's gain in section
2 and in section 7; and the PDF printed a latency chart whose every point is a cell of the table above it. Each test checks
the fact is said once where it is said, and still said (in full) where the place that now points at it is absent."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan.charts import ChartData, Series, repeats_table
from advisor.plan.memo import FIRST_STEPS, memo_document, render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
LANGS = ("en", "zh_CN")


def _page_one(memo: str) -> str:
    """Section 1 of the memo (the Decision, page 1's text)."""
    return memo.split("\n## ", 2)[1]


def _row(memo: str, key: str, lang: str) -> str:
    label = translate(lang, key)
    return next(line for line in memo.splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("name", ["q25_hk_bank_retail", "q34_mixed_users_split", "q09_eu_voice_agent"])
def test_the_stand_in_price_is_said_once_on_page_one(name):
    """The cost row says the region's GPU price is a stand-in; the quote step asks for the quote without saying it
    again in brackets (q25, q34: "the GPU price above is a stand-in: another region's rows times an uplift")."""
    r = planned(advice_answers(name))
    page = _page_one(render_memo_markdown(r, "en"))
    assert page.count("stand-in") == 1, name
    assert "stand-in" in _row(page, "memo.key.cost", "en")
    assert any(s.key == "rows18.next.quotes_region" for s in r.next_steps[:FIRST_STEPS])  # the step is on page 1
    assert "the GPU price above is a stand-in" in next(s.text_in("en") for s in r.next_steps
                                                        if s.key == "rows18.next.quotes_region")  # --json keeps it


@pytest.mark.parametrize("lang", LANGS)
def test_the_yardstick_price_is_given_once_where_page_one_gives_it(lang):
    """q38: no API serving Europe is priced; page 1 gives the US list as a yardstick against this plan, and section
    7's finding said the same sentence again. Now once, the finding pointing to page 1 and keeping its checks."""
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    memo = render_memo_markdown(r, lang)
    f = r.finding("cost.hosted_weighed")
    yardstick = f.params["yardstick"]
    said = render(lang, yardstick["tr"], {k: v for k, v in yardstick.items() if k != "tr"})
    assert memo.count(said) == 1
    assert said in _page_one(memo)
    assert translate(lang, "pages26.yardstick_on_page1") in memo
    assert "advisor bench" in memo.split(translate(lang, "pages26.yardstick_on_page1"))[1].split("\n")[0]  # the checks


def test_the_yardstick_stays_in_the_finding_where_page_one_has_no_paragraph():
    """q09 keeps its GPUs for a reason (a shared API's first-token tail): no page-1 paragraph, so the finding keeps
    the yardstick."""
    memo = render_memo_markdown(planned(advice_answers("q09_eu_voice_agent")), "en")
    assert translate("en", "pages26.yardstick_on_page1") not in memo
    assert "a yardstick only" in memo


def test_a_printed_memo_leaves_out_a_latency_chart_its_table_already_gives():
    """Every point of the predicted latency chart is a cell of the latency table printed above it: the PDF prints the
    table and the cost chart (which no table gives); a measured run drawn beside the prediction keeps the chart."""
    doc = memo_document(planned(advice_answers("q38_eu_internal_hr_assistant")), "en")
    assert set(doc.charts) == {"latency", "cost"}
    assert set(doc.printed_charts) == {"cost"}
    latency = doc.charts["latency"]
    measured = latency.model_copy(update={"series": [*latency.series, Series(label="ramp", points=[(1.0, 500.0),
                                                                                                  (2.0, 600.0)],
                                                                               role="measured")]})
    assert not repeats_table(measured)
    assert not repeats_table(ChartData(id="cost", title="", x_label="", y_label="", series=[], lang="en"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_the_lower_precisions_gain_is_given_once_in_section_two(name, lang):
    """q12: section 2's layouts tried give fp8's gain with its figures ("P99 TPOT 38.2 ms against 56.9 ms"), and the
    quality-check finding said the same clause again. Where section 2 gives it, the finding points there (and to the
    next step that runs the check); where it does not, the finding keeps the figures."""
    r = planned(advice_answers(name))
    f = r.finding("sizing.quantized")
    if f is None or f.detail_key != "plan.rule.sizing.quantized.gain.detail":
        pytest.skip("no fp8-for-its-gain finding")
    memo = render_memo_markdown(r, lang)
    why = f.params["why"]
    gain = render(lang, why["tr"], {k: v for k, v in why.items() if k != "tr"})
    assert gain in memo, name  # said somewhere, always
    assert memo.count(gain) == 1, name
    findings = next(part for part in memo.split("\n## ") if part.startswith(translate(lang, "memo.h.findings")))
    assert f.title_in(lang) in findings
    if gain not in findings:  # pointed to section 2, and to the step where one runs the check
        step = next((i + 1 for i, s in enumerate(r.next_steps) if s.id == "quant_ab"), None)
        if step is not None:
            assert translate(lang, "pages26.quantized_gain_and_step", weights=f.params["weights"],
                             higher=f.params["higher"], n=step) in findings
            assert re.search(rf"(?m)^{step}\. ", memo), name
