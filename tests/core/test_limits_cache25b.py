"""``advisor.plan.sizing.limits`` keeps the engine limits it made by what ``engine_limits`` reads (the very engine
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
from advisor.sim.costs import engine_limits

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
