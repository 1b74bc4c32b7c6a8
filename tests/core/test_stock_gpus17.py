"""H800/A800 in the mainland after October 2023: existing stock only (issue #25, GPU choice; sixth blind review q10:
"H800 supply in the mainland after October 2023 is only existing stock and needs more than a generic export
warning"). deployment-facts §1: H800/A800 were made for the Oct-2022 rule and banned by the Oct-2023 rule."""

from __future__ import annotations

import pytest

from advisor.plan import gpu_choice
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_rented_h800_is_said_to_be_existing_stock_only(lang):
    r = planned(advice_answers("q10_128k_document_assistant"))
    assert r.hardware.gpu == "h800-sxm-80g" and r.deployment_form == "cloud"
    f = r.finding("gpu.not_sold_new")
    assert f is not None and f.severity == "warning"
    text = f.detail_in(lang)
    assert ("existing stock only" if lang == "en" else "只剩存量") in text
    assert ("October 2023" if lang == "en" else "2023 年 10 月") in text
    assert f"{r.hardware.total_gpus}" in text  # what to confirm the provider can supply
    assert any("Oct-2023" in s.title for s in f.sources)
    assert f.title_in(lang) in render_memo_markdown(r, lang)


def test_a_part_sold_new_in_the_region_goes_before_a_cheaper_stock_part():
    """q40: H20 (sold new) is chosen over A800 (stock only), which would cost less an hour; the GPU note says why."""
    r = planned(advice_answers("q40_tiny_budget_72b"))
    choice = r.gpu_choice
    assert choice is not None and not gpu_choice.not_sold_new(r.hardware.gpu)
    assert choice.reason == "stock"
    stock = [a for a in choice.alternatives if gpu_choice.not_sold_new(a.gpu)]
    assert stock and stock[0].per_hour < choice.chosen.per_hour
    assert "existing stock only" in choice.text_in("en") and "只剩存量" in choice.text_in("zh_CN")
    assert "gpu.not_sold_new" not in r.finding_ids  # nothing stock-only is planned


def test_a_team_that_runs_h800_keeps_it_without_the_stock_penalty():
    answers = {**advice_answers("q10_128k_document_assistant"),
               "current_fleet": {"gpu": "h800-sxm-80g", "count": 8}}
    r = planned(answers)
    assert r.hardware.gpu == "h800-sxm-80g"
    f = r.finding("gpu.not_sold_new")
    assert f is None or "stock only" not in f.detail_in("en")
