"""A long-prompt document assistant (q10: 60k-token prompts, 128k context, FP8 accepted) shows both of its limits
with figures: prefill's share of the GPU time and a prompt's prefill time, the KV cache a full-context request
holds and how many fit, what the FP8 weights freed and what an FP8 KV cache would give; and the GPU choice says
why the compute-light H20 and L20 were set aside (#25, q10 blind review). The decision itself is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict
from advisor.plan.engine import plan
from advisor.plan.memo import render_memo_markdown

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
GIB = 1024**3


def _answers(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["answers"]


@pytest.fixture(scope="module")
def q10():
    return plan(answers_from_dict(_answers("q10_128k_document_assistant")), check_fixes=False)


def _phrase(b, key: str) -> dict:
    return next(p for p in b.then if p["tr"] == key)


def test_prefill_share_and_time_are_stated_for_60k_token_prompts(q10):
    p = _phrase(q10.binding_constraint, "plan.long_prompt.prefill")
    assert p["prompt_avg"] == 60_000 and p["prompt_p95"] == 120_000 and p["ttft_target_s"] == 30
    # first principles: 60,000 tokens × 2 × 70.6e9 parameters ≈ 8.5e15 FLOP, plus causal attention; an H800 replica
    # of 2 GPUs peaks at 2 × 1,979 TFLOPS FP8: ≥ 2.1 s at 100 % of peak, well under the 30 s target at a real MFU
    assert 2.1 <= p["prefill_s"] < 30
    assert p["prefill_s"] * 2 < p["prefill_p95_s"] < 30  # twice the tokens, attention growing with the square
    assert 30 <= p["prefill_pct"] <= 95
    en, zh = q10.binding_constraint.text_in("en"), q10.binding_constraint.text_in("zh_CN")
    assert f"it takes {p['prefill_pct']} % of the GPU time" in en and "60,000-token prompt" in en
    assert f"预填充占 GPU 时间的 {p['prefill_pct']} %" in zh


def test_kv_cache_of_a_full_context_request_and_how_many_fit(q10):
    kv = _phrase(q10.binding_constraint, "plan.long_prompt.kv")
    # Llama 3.3 70B (config.json): 80 layers × 8 KV heads × 128 head dim × 2 (K and V) × 2 bytes = 320 KiB a token;
    # 131,072 tokens hold exactly 40 GiB of bf16 KV cache, whatever the TP split
    assert kv["context"] == 131_072 and kv["kv_dtype"] == "bf16" and kv["kv_req_gib"] == 40.0
    assert kv["full_fit"] == int(kv["kv_free_gib"] // 40)  # whole requests in the replica's KV room
    assert kv["avg_fit"] >= kv["full_fit"] >= 1
    en = q10.binding_constraint.text_in("en")
    assert "holds 40.0 GiB of bf16 KV cache" in en or "holds 40 GiB of bf16 KV cache" in en


def test_fp8_weights_room_and_the_fp8_kv_cache_are_said_but_the_plan_keeps_bf16(q10):
    b = q10.binding_constraint
    w = _phrase(b, "plan.long_prompt.fp8_weights")
    # bf16 weights are twice the FP8 ones (less the few tensors kept in bf16): about 63 GiB freed per replica
    assert 60 <= w["freed_gib"] <= 66 and w["bf16_gib"] > 1.9 * w["weights_gib"]
    fp8 = _phrase(b, "plan.long_prompt.fp8_kv_held")
    kv = _phrase(b, "plan.long_prompt.kv")
    assert fp8["kv_req_gib"] == 20.0 and fp8["full_fit"] > kv["full_fit"] and fp8["avg_fit"] > kv["avg_fit"]
    # the latency target holds a replica below what the bf16 cache fits: the plan and its command stay bf16
    assert fp8["c_max"] <= kv["avg_fit"]
    assert q10.hardware.kv_dtype == "bf16" and "--kv-cache-dtype" not in (q10.hardware.command or "")
    assert "An FP8 KV cache (--kv-cache-dtype fp8) would cut" in b.text_in("en")
    assert "若 KV Cache 也用 FP8" in b.text_in("zh_CN")


def test_compute_light_gpus_are_named_with_their_tflops(q10):
    aside = q10.gpu_choice.set_aside
    names = [g["name"] for g in aside["gpus"]]
    assert any("H20" in n for n in names) and any("L20" in n for n in names)
    assert not any("A800" in n for n in names)  # 312 TFLOPS BF16: a third of an H800, not compute-light
    # published dense FP8: H800 1,979 TFLOPS, H20 296: at least 6.6 × as long to prefill
    assert aside["chosen_tflops"] == "1,979" and aside["times"] == 6.6
    en, zh = q10.gpu_choice.text_in("en"), q10.gpu_choice.text_in("zh_CN")
    assert "NVIDIA H20 96GB (296 TFLOPS FP8)" in en and "at least 6.6× as long to prefill" in en
    assert "NVIDIA H20 96GB（296 TFLOPS FP8）" in zh and "所需时间至少是它的 6.6 倍" in zh
    memo = render_memo_markdown(q10, "en")
    assert "Compute-light GPUs were set aside" in memo and "KV cache is the limit on how many requests" in memo


def test_short_prompts_get_none_of_it():
    r = plan(answers_from_dict(_answers("q02_office_lan_small_design_agency")), check_fixes=False)
    assert r.gpu_choice is None or r.gpu_choice.set_aside is None
    b = r.binding_constraint
    assert b is None or not any(str(p["tr"]).startswith("plan.long_prompt.") for p in b.then)
