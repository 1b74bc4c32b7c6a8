"""``advisor.plan.sizing.limits`` (and ``step_costs``, ``_memory``: the tests at the end) keeps the engine limits it made by what ``engine_limits`` reads (the very engine
settings, profile and speed factors, the memory's KV tokens and block size, the cap): a kept entry must be exactly
what building them afresh gives, and a replaced profile, an edited GPU row, another memory or another cap must never
be answered from an entry made for something else (issue #27, round 2)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from advisor import catalog
from advisor.domain.engine_profiles import get_profile
from advisor.plan import sizing
from advisor.sim.costs import engine_limits, engine_step_costs
from advisor.sizing.memory import estimate_memory
from advisor.sizing.quant import get_format

GiB = 1024**3


def _ctx(engine: str, max_context: int) -> Any:
    return SimpleNamespace(engine=engine, max_context=max_context)  # all that limits and _engine read of a Ctx


def _cand(gpu: Any, kv_tokens: int, block_size: int = 16) -> Any:
    return SimpleNamespace(gpu=gpu, memory=SimpleNamespace(kv_tokens=kv_tokens, block_size=block_size))


def _fresh(ctx: Any, cand: Any, cap: int | None) -> Any:
    """The limits built without any memo: the settings resolved afresh, the cap applied, engine_limits called."""
    settings = sizing._engine(ctx, cand.gpu)
    if cap is not None:
        settings = settings.model_copy(update={"max_num_seqs": cap})
    return engine_limits(cand.memory, settings, get_profile(ctx.engine),
                         sizing._serving_factors(ctx.engine))  # fmt: skip


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_kept_limits_are_what_building_them_afresh_gives(engine: str) -> None:
    small, big = catalog.get_gpu("l40s"), catalog.get_gpu("h100-sxm-80g")
    edited = small.model_copy(update={"memory_bytes": 80 * GiB})  # vLLM's big-GPU batch defaults: its own key
    seen = set()
    for gpu in (small, big, edited):
        for context in (4096, 32768):
            for kv, bs in ((100_000, 16), (100_000, 32), (250_000, 16)):
                for cap in (None, 4, 64):
                    ctx, cand = _ctx(engine, context), _cand(gpu, kv, bs)
                    kept = sizing.limits(ctx, cand, cap)
                    assert kept == _fresh(ctx, cand, cap)
                    assert sizing.limits(ctx, cand, cap) is kept  # the second read is the memo's
                    seen.add(kept)
    # the inputs really move the limits: the test would not notice a memo that ignored them otherwise
    assert len({x.max_num_seqs for x in seen}) >= 3 and len({x.kv_blocks for x in seen}) >= 3
    assert len({x.block_size for x in seen}) == 2
    if engine == "vllm":  # vLLM's step budget follows the context (SGLang keeps its own)
        assert len({x.max_num_batched_tokens for x in seen}) >= 2


def test_a_replaced_profile_is_never_answered_from_what_was_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    ctx, cand = _ctx("vllm", 8192), _cand(catalog.get_gpu("l40s"), 100_000)
    kept = sizing.limits(ctx, cand)
    other = get_profile("vllm").model_copy(update={"admission_reserve": kept.admission_reserve + 0.25})
    monkeypatch.setattr(sizing, "serving_profile", lambda ctx=None: other)
    assert sizing.limits(ctx, cand).admission_reserve == kept.admission_reserve + 0.25
    monkeypatch.undo()
    assert sizing.limits(ctx, cand) == kept  # the real profile again


def test_the_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sizing, "_LIMITS", {})
    gpu = catalog.get_gpu("l40s")
    for kv in range(16, 16 * 5000, 16):
        sizing.limits(_ctx("vllm", 8192), _cand(gpu, kv))
    assert 0 < len(sizing._LIMITS) <= 4096


def _setup_ctx(model: Any, engine: str = "vllm", max_context: int = 8192) -> Any:
    return SimpleNamespace(model=model, engine=engine, max_context=max_context)  # what step_costs and _memory read


def _fresh_costs(ctx: Any, gpu: Any, weights: str, kv: str, tp: int) -> Any:
    return engine_step_costs(ctx.model, gpu, weights, kv, tp, get_profile(ctx.engine))


def _fresh_memory(ctx: Any, gpu: Any, weights: str, kv: str, tp: int, settings: Any) -> Any:
    sglang = ctx.engine == "sglang"
    return estimate_memory(ctx.model, get_format(weights), kv, ctx.max_context, 1, gpu.effective_memory_bytes, tp,
                           settings, nvlink=gpu.interconnect == "nvlink", vllm_profile=not sglang,
                           sglang_pool=sglang)  # fmt: skip


def test_kept_step_costs_and_memory_are_what_building_them_afresh_gives() -> None:
    """``sizing.step_costs`` and ``sizing._memory`` keep a setup's figures by the very model, GPU and engine objects
    and the format, KV type, TP, context and engine kind: each kept one equals a fresh build, and every input that
    moves the figures is part of the key (an edited GPU row, another model, context, engine kind)."""
    small, big = catalog.get_gpu("l40s"), catalog.get_gpu("h100-sxm-80g")
    edited = small.model_copy(update={"memory_bytes": 80 * GiB, "interconnect": "nvlink"})
    models = [catalog.resolve_model("qwen2.5-7b-instruct"), catalog.resolve_model("qwen2.5-72b-instruct")]
    costs, mems = set(), set()
    for model in models:
        for engine in ("vllm", "sglang"):
            for context in (8192, 32768):
                ctx = _setup_ctx(model, engine, context)
                for gpu in (small, big, edited):
                    settings = sizing._engine(SimpleNamespace(engine=engine, max_context=context), gpu)
                    for weights, kv, tp in (("bf16", "bf16", 1), ("fp8", "fp8", 2), ("bf16", "fp8", 4)):
                        got = sizing.step_costs(ctx, gpu, weights, kv, tp)
                        assert got == _fresh_costs(ctx, gpu, weights, kv, tp)
                        assert sizing.step_costs(ctx, gpu, weights, kv, tp) is got
                        mem = sizing._memory(ctx, gpu, weights, kv, tp, settings)
                        assert mem == _fresh_memory(ctx, gpu, weights, kv, tp, settings)
                        assert sizing._memory(ctx, gpu, weights, kv, tp, settings) is mem
                        costs.add(got)
                        mems.add(mem.model_dump_json())
    assert len(costs) >= 24 and len(mems) >= 48  # the inputs do move them


def test_a_replaced_model_gpu_or_profile_is_never_answered_from_what_was_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    model, gpu = catalog.resolve_model("qwen2.5-7b-instruct"), catalog.get_gpu("l40s")
    ctx = _setup_ctx(model)
    settings = sizing._engine(SimpleNamespace(engine="vllm", max_context=8192), gpu)
    kept_costs, kept_mem = sizing.step_costs(ctx, gpu, "bf16", "bf16", 1), sizing._memory(ctx, gpu, "bf16", "bf16", 1, settings)
    # an edited GPU row (a user's file, a patched table) is another object: built afresh
    faster = gpu.model_copy(update={"bandwidth_bytes_per_s": gpu.bandwidth_bytes_per_s * 2,
                                    "memory_bytes": gpu.memory_bytes * 2,
                                    "usable_memory_bytes": (gpu.usable_memory_bytes or gpu.memory_bytes) * 2})
    assert sizing.step_costs(ctx, faster, "bf16", "bf16", 1) == _fresh_costs(ctx, faster, "bf16", "bf16", 1) != kept_costs
    assert sizing._memory(ctx, faster, "bf16", "bf16", 1, settings).kv_tokens > kept_mem.kv_tokens
    # another model object, even an equal one, is its own key
    twin = model.model_copy()
    assert sizing.step_costs(_setup_ctx(twin), gpu, "bf16", "bf16", 1) == kept_costs
    assert sizing.step_costs(_setup_ctx(twin), gpu, "bf16", "bf16", 1) is not kept_costs
    # a replaced engine profile
    other = get_profile("vllm").model_copy(update={"step_overhead_ms": get_profile("vllm").step_overhead_ms + 10})
    monkeypatch.setattr(sizing, "serving_profile", lambda ctx=None: other)
    assert sizing.step_costs(ctx, gpu, "bf16", "bf16", 1) == engine_step_costs(model, gpu, "bf16", "bf16", 1, other)
    assert sizing.step_costs(ctx, gpu, "bf16", "bf16", 1) != kept_costs
    monkeypatch.undo()
    assert sizing.step_costs(ctx, gpu, "bf16", "bf16", 1) is kept_costs


def test_the_setup_memos_are_bounded_and_cleared_with_the_level_cache(cold_plan_caches: None,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sizing, "KEPT_SETUPS", 5)
    monkeypatch.setattr(sizing, "_STEP_COSTS", {})
    model, gpu = catalog.resolve_model("qwen2.5-7b-instruct"), catalog.get_gpu("l40s")
    for context in range(4096, 4096 + 12):
        sizing.step_costs(_setup_ctx(model, max_context=context), gpu.model_copy(), "bf16", "bf16", 1)
    assert 0 < len(sizing._STEP_COSTS) <= 5
    sizing.clear_level_cache()
    assert not sizing._STEP_COSTS and not sizing._MEMORY
