"""A layout whose KV cache holds the requests a replica carries at the peak at the full context is kept over one on
as many cards at the same cost and precision whose cache does not (blind review 18, q31: TP1 FP8 on one L20 a
replica left KV room for 4 full-context requests against the 5 planned, beside TP2 on the same 8 cards)."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, sizing
from advisor.plan.context import resolve
from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned

Q31 = "q31_icp_filed_hosting_move"


def _full_context_fit(answers: dict, tp: int, weights: str, kv: str, gpu_id: str) -> int:
    """Requests at the full context one replica of this layout holds, from the sizing core's memory estimate."""
    ctx = resolve(answers_from_dict(answers))
    gpu = sizing.gpus_by_id()[gpu_id]
    return sizing._memory(ctx, gpu, weights, kv, tp, sizing._engine(ctx, gpu)).max_concurrency_kv


def test_q31_keeps_the_layout_whose_kv_cache_holds_its_own_peak_load():
    answers = advice_answers(Q31)
    plan = planned(answers)
    hw, cap = plan.hardware, plan.capacity
    mine = _full_context_fit(answers, hw.tp, hw.weights, hw.kv_dtype, hw.gpu)
    assert mine >= cap.concurrency_per_replica
    # the one-card layout on as many cards was the cheaper-looking option it replaced: its cache falls short
    one = next(t for t in plan.layouts_tried.tries if t.tp == 1 and t.weights == hw.weights)
    assert one.outcome == "meets" and one.gpus == plan.layouts_tried.chosen.gpus
    assert _full_context_fit(answers, 1, hw.weights, hw.kv_dtype, hw.gpu) < -(-cap.peak_concurrency // one.replicas)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q31_says_why_the_split_layout_is_kept_and_no_longer_that_the_cache_is_short(lang):
    plan = planned(advice_answers(Q31))
    text = plan.layouts_tried.text_in(lang)
    room = plan.layouts_tried.kv_room
    assert room is not None and room["full_fit"] >= room["load"] and room["other_fit"] < room["other_load"]
    said = {"en": f"TP{room['tp']} is kept, as its KV cache holds the {room['load']} requests",
            "zh_CN": f"保留 TP{room['tp']}，因为在完整的"}[lang]
    assert said in text
    assert f"{room['other_fit']}" in text and "PCIe" not in text.split(said)[1].split(";")[0]
    memo = memo_document(plan, lang).markdown()
    # the KV-tight sentence (kv_limit.py) is gone: the plan's own cache now holds its load at the full context
    assert {"en": "fewer than the", "zh_CN": "少于高峰时"}[lang] not in memo.split("## 3")[0]


def test_a_layout_that_holds_its_load_either_way_keeps_one_card_a_replica():
    # both layouts hold their load at a 4,096-token context: the KV rule decides nothing, the PCIe rule keeps TP1
    plan = planned({**advice_answers(Q31), "prompt_tokens": {"avg": 1500, "p95": 3000}})
    assert plan.hardware.tp == 1 and plan.layouts_tried.kv_room is None
