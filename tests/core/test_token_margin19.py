"""A paid token API's margin, with ratios that agree with the ranges beside them (s19-cost19, issue 25). Eighth blind
review, q11: "about 15 ×" the market price beside ranges implying 5–80 ×."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from advisor.plan import token_margin, unit_first
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_text15 import per_million_split
from advisor.plan.reasons import deciding
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_answers, planned

Q11 = "q11_paid_api_b25"


def _ends(text: str) -> tuple[float, float]:
    a, _, b = text.partition("–")
    return float(a), float(b or a)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q11_each_ratio_is_taken_end_for_end_input_and_output_apart(lang):
    """Each ratio low end against low end, high against high (s24-api24, round 13, q11: the opposite ends' '1–14 ×'
    beside a month compared end for end read as two rules), so each side's middles' ratio lies inside its range."""
    r = planned(advice_answers(Q11))
    f = r.finding("cost.token_margin")
    assert f is not None and f in deciding(r.findings) and r.feasible  # the scenario expects feasible: kept
    split = per_million_split(r.costs)
    i, o = r.costs.hosted_api_input_per_million, r.costs.hosted_api_output_per_million
    assert split is not None and i is not None and o is not None
    for own, market, key in ((split[0], i, "in_times"), (split[1], o, "out_times")):
        lo, hi = _ends(f.params[key])
        same = sorted((own[0] / market.low, own[1] / market.high))
        assert lo == pytest.approx(same[0], rel=0.06)
        assert hi == pytest.approx(same[1], rel=0.06)
        assert f.params[key] in f.title_in(lang) and f.params[key] in f.detail_in(lang)
        # the side's middles' ratio lies inside its range (a ratio of sums lies between the ratios)
        mid = (own[0] + own[1]) / (market.low + market.high)
        assert lo * 0.95 <= mid <= hi * 1.05
    # the middles' ratio said is the larger side's
    larger = max((a[0] + a[1]) / (m.low + m.high) for a, m in ((split[0], i), (split[1], o)))
    assert float(f.params["times"]) == pytest.approx(larger, abs=0.5)
    page_one = render_memo_markdown(r, lang).split("\n## ")[1]
    # s41-lead (review 34, q11): page 1 says the margin as its go/no-go line (unit_first.go_line) with the same
    # per-million figures and the span from the lower end of either ratio to the higher, not the finding's title
    go = unit_first.go_line(f, lang, "")  # without its ⚠ mark: compared up to where the figures end
    assert go and f"{unit_first.span_times(f)}" in go and go[:120] in page_one


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q11_names_the_instance_price_its_cost_rests_on_as_the_first_hardware_question(lang):
    r = planned(advice_answers(Q11))
    f = r.finding("cost.token_margin")
    assert f is not None
    q = f.params["hardware"]
    assert isinstance(q, dict) and q["tr"] == "margin19.question.instances"
    assert r.hardware.layout is not None and (q["unit"], q["units"]) == (r.hardware.layout.unit_gpus,
                                                                         r.hardware.layout.units)
    assert (r.hardware.gpu_name or "") in f.detail_in(lang)
    # the same instance is the next steps' first technical step (after the licence that gates the launch, and after
    # the hosted-API step where page 1 leads with one: s28-lead28)
    ids = [s.id for s in r.next_steps if s.id != "api_first"]
    assert "confirm_instance" in ids and ids.index("confirm_instance") <= 1


def test_ratio_range_pairs_the_same_ends():
    # 3.0 / 0.8 = 3.75 and 8.0 / 2.0 = 4.0: end for end, smaller first (the opposite ends gave "1.5–10")
    assert token_margin.ratio_range((3.0, 8.0), MoneyRange(low=0.8, high=2.0)) == "3.8–4.0"
    assert token_margin.ratio_range((2.0, 9.0), MoneyRange(low=1.0, high=6.0)) == "1.5–2.0"
    assert token_margin.ratio_range((2.0, 2.0), MoneyRange(low=1.0, high=1.0)) == "2.0"


def _row(grade: str, quote: bool = False) -> SimpleNamespace:
    return SimpleNamespace(kind="on_demand", gpu="h20", grade=grade, user_quote=quote)


def test_no_hardware_question_where_the_price_is_a_quote_or_well_sourced():
    chosen = SimpleNamespace(gpu=SimpleNamespace(id="h20", name="NVIDIA H20"), layout=None)
    assert token_margin.hardware_question(chosen, [_row("U", quote=True)]) == ""
    assert token_margin.hardware_question(chosen, [_row("A"), _row("B")]) == ""
    got = token_margin.hardware_question(chosen, [_row("U")])
    assert isinstance(got, dict) and got["tr"] == "margin19.question.placeholder"
    assert re.search("H20", got["gpu"])
