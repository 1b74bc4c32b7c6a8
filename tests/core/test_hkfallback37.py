"""The second part to ask a region's hosts for where no part priced there meets the target (blind review 27, q43:
"the memo says there is no fallback if Hong Kong has no L40S. Its own numbers show an A100 meets the target within
budget") — ``advisor.plan.stand_in_twin``."""

from __future__ import annotations

import pytest

from advisor.plan import cost as costmod
from advisor.plan import e2e_gate43, in_region_fallback
from advisor.plan.data import PriceBook
from advisor.plan.duties19_rules import export_controlled
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import advice_answers, planned

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

Q43 = "q43_us_team_mainland_low_latency"
HOURS = 730.0  # advisor.plan.cost bills a month at 730 hours


def _row(md: str, key: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {key} |"))


def _twin(name: str = Q43) -> tuple[object, dict]:
    r = planned(advice_answers(name))
    fb = r.in_region_fallback
    assert fb is not None and not fb["meets"]  # no part priced in Hong Kong meets the target (the A10 is over)
    tw = fb.get("also_ask")
    assert tw is not None
    return r, tw


def test_twin_is_a_part_on_the_same_stand_in_sized_as_the_gpu_choice_says() -> None:
    """Its GPUs are the GPU choice's own setup of that part, its month the stand-in's range (uplift included) ×
    GPUs × 730 h, whose middle is the GPU choice's hourly figure: the memo's numbers agree."""
    r, tw = _twin()
    book = PriceBook.build(None)
    rows = [x for x in book.rows if x.id in tw["row_ids"]]
    assert rows and all(x.region != "hong_kong" for x in rows)  # no row of the region: a stand-in, as the L40S's
    alt = next(o for o in r.gpu_choice.alternatives if o.gpu == tw["gpu_id"])
    assert tw["n"] == alt.gpus
    fx = float(book.fx()["cny_per_usd"])
    lo, hi, _ = costmod.cloud_price(book, tw["gpu_id"], "hong_kong", fx, tw["tp"])
    assert tw["monthly"] == pytest.approx([lo * tw["n"] * HOURS, hi * tw["n"] * HOURS], abs=0.01)
    assert sum(tw["monthly"]) / 2 == pytest.approx(alt.per_hour * HOURS, rel=0.01)
    budget = r.costs.budget_monthly
    assert sum(tw["monthly"]) / 2 <= budget and (tw["budget"] == "within") is (tw["monthly"][1] <= budget)
    assert tw["export_controlled"] is export_controlled(tw["gpu_id"]) and tw["grade"] == rows[0].grade


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_quote_step_and_hardware_row_name_the_twin_not_no_fallback(lang: str) -> None:
    r, tw = _twin()
    step = next(s for s in r.next_steps if s.id == "quotes")  # after the measured first-token gate (gt43, review 34)
    assert r.next_steps.index(step) == (1 if r.next_steps[0].key == e2e_gate43.KEY else 0)
    text = step.text_in(lang)
    md = render_memo_markdown(r, lang)
    hw = _row(md, "Hardware" if lang == "en" else "硬件")
    assert f"{tw['n']} × {tw['gpu']}" in text and tw["gpu"] in hw
    assert f"{tw['monthly'][0]:,.0f}" in text and tw["grade"] in text
    assert ("export licence" if lang == "en" else "出口许可") in text  # the A100 is as controlled there as the L40S
    assert ("no fallback" not in text + hw) if lang == "en" else ("没有备选" not in text and "没有能达到目标的备选" not in hw)
    # the part priced there is still said as the one that misses, by its margin
    fb = r.in_region_fallback
    assert fb["gpu"] in text and f"{round((fb['worst_over'] - 1) * 100)}" in text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_without_a_twin_the_plan_still_says_it_has_no_fallback(lang: str) -> None:
    r, _ = _twin()
    fb = dict(r.in_region_fallback, also_ask=None)
    text = in_region_fallback.phrase(fb)
    said = render(lang, text["tr"], {k: v for k, v in text.items() if k != "tr"})
    assert ("the plan has no fallback" in said) if lang == "en" else ("方案就没有备选" in said)
    r.in_region_fallback = fb
    hw = in_region_fallback.hardware_clause(r, lang, 3)
    assert ("no fallback that meets the target" in hw) if lang == "en" else ("没有能达到目标的备选" in hw)


def test_a_plan_b_that_meets_the_target_asks_for_no_twin() -> None:
    fb = planned(advice_answers("q25_hk_bank_retail")).in_region_fallback
    assert fb is None or fb["meets"] and fb.get("also_ask") is None
