"""Blind review 27 (issue 25): page 1's fixes table and the bold recommendation line.

- q29 (zh): a row that costs more than the budget says the budget it needs, never "—" (the DeepSeek-V3 batch API's
  row read "还需要 —" at twice the budget);
- q40: a row's GPU count says the N+1 spare it holds (a 3B model "on 2 × A10" read as odd hardware);
- q11: a paid API that sells each token below its own cost says so at the start of the bold recommendation.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import memo_fixes36, unit_first
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult, render
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
TABLED = ("q29_batch_impossible_budget", "q40_tiny_budget_72b")
REC = {"en": "**Recommendation**: ", "zh_CN": "**建议**："}


def _top(cost: str) -> float:
    """The highest figure in a row's cost cell ("about 9,108–12,265 CNY a month" → 12265); 0 where it has none (a
    change that saves nothing says so in words)."""
    return max((float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*", cost)), default=0.0)


def _page_one(r: PlanResult, lang: str) -> str:
    return render_memo_markdown(r, lang).split("\n## ")[1]


@pytest.mark.parametrize("name", TABLED)
@pytest.mark.parametrize("lang", LANGS)
def test_a_row_over_the_budget_says_the_budget_it_needs(name, lang):
    r = planned(advice_answers(name))
    budget = float(r.answers["monthly_budget"]["amount"])
    got = memo_fixes36.table(r, lang)
    assert got is not None and got["rows"]
    over = 0
    for row in got["rows"]:
        if _top(row["cost"]) <= budget:
            continue
        assert row["needs"] != "—", (name, lang, row)
        # the budget it names covers the row's own high end
        assert max(float(x.replace(",", "")) for x in re.findall(r"\d[\d,]{3,}", row["needs"])) >= _top(row["cost"])
        over += 1
    assert over  # both plans are infeasible on their budget: some row is over it


@pytest.mark.parametrize("lang", LANGS)
def test_q29_batch_api_row_names_its_budget(lang):
    r = planned(advice_answers("q29_batch_impossible_budget"))
    got = memo_fixes36.table(r, lang)
    line = next(f.params["batch_line"] for f in r.fixes if f.params.get("batch_line"))
    row = next(x for x in got["rows"] if x["change"] == render(lang, line["tr"], line))
    assert line["high"] > r.answers["monthly_budget"]["amount"]
    assert row["needs"] != "—" and f"{-(-line['high'] // 1000) * 1000:,.0f}" in row["needs"]


@pytest.mark.parametrize("lang", LANGS)
def test_q40_rows_say_their_n_plus_one_spare(lang):
    r = planned(advice_answers("q40_tiny_budget_72b"))
    got = memo_fixes36.table(r, lang)
    page = _page_one(r, lang)
    checked = 0
    for f in r.fixes:
        setup = f.params.get("setup")
        if f.id not in ("smaller_model", "quantize") or not isinstance(setup, dict) or not setup.get("spare"):
            continue
        spare = render(lang, setup["spare"]["tr"], setup["spare"])
        row = next(x for x in got["rows"] if f.params["model" if f.id == "smaller_model" else "weights"] in x["change"])
        assert spare in row["change"] and spare in page, (f.id, row)
        assert setup["spare"]["n"] < f.params["total"]  # a spare among the cards, not all of them
        checked += 1
    assert checked  # the 3B's 2 × A10: one serving, one spare


@pytest.mark.parametrize("lang", LANGS)
def test_q11_recommendation_starts_with_the_loss_per_token(lang):
    r = planned(advice_answers("q11_paid_api_b25"))
    f = unit_first.margin(r.findings)
    assert f is not None
    page = _page_one(r, lang)
    rec = next(ln for ln in page.splitlines() if ln.startswith(REC[lang]))
    lows = [float(f.params[k].split("–")[0]) for k in ("in_times", "out_times")]
    highs = [float(f.params[k].split("–")[-1]) for k in ("in_times", "out_times")]
    assert min(lows) > 1
    span = f"{min(lows):g}–{max(highs):g}"
    # on the H20's placeholder price a margin risk to settle with a quote, not a verdict (review 29, q11)
    assert unit_first.placeholder(f)
    # review 34 (q11: "a clear go/no-go on margin"): the line above says the ratio, the bar and that the placeholder
    # price sets it; the recommendation is its "go" branch
    # vrd44 (review 35, q11): the recommendation first, the two launch paths, then that margin line below them
    first = next(p for p in page.split("\n\n") if span in p)
    assert ("placeholder GPU price" if lang == "en" else "占位 GPU 价格") in first, first
    assert page.index(rec) < page.index(first)
    assert rec.startswith(REC[lang] + ("If your price list covers the cost per token" if lang == "en" else
                                       "价目表覆盖得了每个 token 的成本")), rec
    assert "a loss on every token" not in rec
    # the rest of the line is kept: the form, region and line
    assert ("rent cloud GPU servers" if lang == "en" else "租用云 GPU 服务器") in rec
    assert r.deployment_form == "cloud"


@pytest.mark.parametrize("name", ("q10_128k_document_assistant", "q40_tiny_budget_72b"))
def test_no_verdict_where_no_tokens_are_sold_below_cost(name):
    r = planned(advice_answers(name))
    for lang in LANGS:
        page = _page_one(r, lang)
        assert ("At these prices each token" if lang == "en" else "卖一个亏一个") not in page
