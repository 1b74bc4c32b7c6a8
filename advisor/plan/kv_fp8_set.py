"""The led plan's KV cache set to FP8 where its 16-bit cache does not hold a replica's failover load (or its peak) at
the full context and an FP8 cache would (issue 25, blind review 22: q05, q07, q25 "--kv-cache-dtype fp8 set, not only
offered, where a replica's failover load exceeds its full-context KV").

The screen keeps an interactive service's KV cache in BF16 (batch_kv.py says why); the failover load is only known
once the plan's replicas are final, so the switch is made on the setup led, not in the screen: the same GPU, weights,
TP, replicas and layout, its memory, step costs and screen capacity taken again with an FP8 cache
(``sizing._screened``), the levels it was checked at dropped (they ran the 16-bit cache's blocks) and the planned level
simulated again, so the claim, the serve command's ``--max-num-seqs``, the latency table and the GPU-use share that
every cost figure reads (``usage_share.rate_per_replica`` reads the simulated planned level) all come from the FP8
setup. The caller costs it again. Only where the answers accept FP8 and the GPU has FP8 units
(``batch_kv.fp8_kv_allowed``): the quality check the memo asks for the FP8 weights covers the cache too.
"""

from __future__ import annotations

import dataclasses

from advisor.plan import sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.capacity import one_down_load
from advisor.plan.context import Ctx

NOTE = "kv_fp8_set"  # on the candidate: "kv_fp8_set:<what the 16-bit cache held at the full context>"


def load_to_hold(ctx: Ctx, ch: sizing.Candidate) -> int:
    """The most requests a replica carries: at the peak, or with one replica down where the plan keeps a spare."""
    return max(ch.per_replica, one_down_load(ctx, ch) or 0)


def wanted(ctx: Ctx, ch: sizing.Candidate | None) -> bool:
    """An interactive plan on a 16-bit KV cache that holds fewer full-context requests than a replica carries, where
    FP8 is accepted on this GPU and an FP8 cache holds them all, or, where it cannot hold the failover load either,
    holds the peak's load the 16-bit cache does not (blind review 25, q37: 30 in bf16 and 61 in FP8 against 40 at
    the peak and 80 with one replica down; "take the FP8 KV cache (61) or a larger card"): the memo then says the
    failover load still rests on average lengths, with the remedies left."""
    if ch is None or ctx.is_batch or not ch.replicas or ch.kv_dtype == "fp8" or ch.memory.kv_tokens <= 0:
        return False
    if not fp8_kv_allowed(ctx, ch.gpu):
        return False
    need = load_to_hold(ctx, ch)
    if need <= ch.memory.max_concurrency_kv:
        return False
    fp8 = sizing._memory(ctx, ch.gpu, ch.weights, "fp8", ch.tp, sizing._engine(ctx, ch.gpu))
    return fp8.max_concurrency_kv >= need or ch.memory.max_concurrency_kv < ch.per_replica <= fp8.max_concurrency_kv


def switched(ctx: Ctx, ch: sizing.Candidate | None) -> sizing.Candidate | None:
    """``ch`` with an FP8 KV cache (see the module), or None where it is not wanted. ``ch`` itself is left as it
    was."""
    if ch is None or not wanted(ctx, ch):
        return None
    engine = sizing._engine(ctx, ch.gpu)
    tokens = (sizing._workload_token(ctx), sizing._token((ch.gpu, engine)))
    setup = sizing._screened(ctx, ch.gpu, ch.weights, "fp8", ch.tp, engine, tokens)
    if setup is None:
        return None
    mem, costs, best_tpot, best_ttft, c_max = setup
    if c_max < 1:
        return None
    per = ch.per_replica
    chunk = engine.max_num_batched_tokens
    assert chunk is not None  # resolve_engine sets the step budget on every engine (the screen reads it alike)
    # the analytic figures at the load the screen set them at (the cautious stream the month's volume reads,
    # peak_stream.steady_rate), now on the FP8 step costs: that load is the one whose 16-bit figures ``ch`` carries
    at = _screen_load(ctx, ch, chunk)
    tpot, ttft = sizing._steady(costs, ctx, at, chunk)
    out = dataclasses.replace(
        ch, kv_dtype="fp8", memory=mem, costs=costs, c_max=c_max, ttft_p99_ms=ttft, tpot_p99_ms=tpot,
        tokens_per_s_replica=at * 1000 / (tpot / sizing.P99_TPOT), best_ttft_ms=best_ttft, best_tpot_ms=best_tpot,
        notes=[*ch.notes, f"{NOTE}:{ch.memory.max_concurrency_kv}"], checked={}, monotone_memo={}, knee_memo={})  # fmt: skip
    out._peak = ch._peak
    out.layout = ch.layout
    # the planned level simulated on the FP8 setup: the share every cost figure is at reads it (usage_share)
    sizing.levels_at(ctx, out, sizing.curve_levels(max(1, per), beyond=False))
    return out


def _screen_load(ctx: Ctx, ch: sizing.Candidate, chunk: int) -> int:
    """The load per replica ``ch``'s analytic TPOT was taken at (the screen's, before replicas were added): the one
    whose steady TPOT on ``ch``'s own step costs is that figure; the planned load where none is."""
    for c in range(1, max(ctx.peak, ch.per_replica) + 1):
        if abs(sizing._steady(ch.costs, ctx, c, chunk)[0] - ch.tpot_p99_ms) <= 1e-6 * max(ch.tpot_p99_ms, 1.0):
            return c
    return max(1, ch.per_replica)


def bf16_full_fit(ch: sizing.Candidate | None) -> int | None:
    """What the 16-bit cache held at the full context, where the plan switched it to FP8 (else None)."""
    for note in getattr(ch, "notes", None) or []:
        if note.startswith(NOTE + ":"):
            return int(note.split(":", 1)[1])
    return None


__all__ = ["NOTE", "bf16_full_fit", "load_to_hold", "switched", "wanted"]
