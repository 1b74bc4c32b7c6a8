"""What a mixture-of-experts model's single-request speed rests on, said beside "the memory follows the total, the
speed the active part" (blind review 17, q35: "the predicted single-stream TPOT of 9.5 ms for DeepSeek-V3 on 8 × H20
looks optimistic"). The figure is the step-cost model's own (``advisor.sizing.roofline.StepCostModel``, the one the
latency table's simulation runs), split into the weights one decode step reads on each GPU at the GPU's bandwidth and
the fixed per-layer work (attention, the experts' dispatch, all-reduces, element-wise kernels), whose constants are
kernel timings measured on other GPUs (roofline.py cites each): the reader sees which part is physics of this GPU and
which part was timed elsewhere, and measures it."""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx


def single_stream_phrase(ctx: Ctx, ch: sizing.Candidate | None) -> list[dict[str, Any]]:
    """The split of one request's decode step for an interactive MoE plan; empty for a dense model, a batch job, or
    a GPU whose dense layers are timed shape by shape (no single read figure to quote)."""
    if ch is None or ctx.is_batch or not ctx.model.is_moe:
        return []
    s = ch.costs
    if s.shape_times is not None or not s.moe_layers:
        return []
    touched = s.experts_touched(1)
    read_s = s.weight_read_seconds(touched)
    read_bytes = s.dense_bytes + s.moe_layers * touched * s.expert_bytes
    step_s = s.step_seconds(0, 0, 1, float(ctx.prompt_avg + ctx.output_avg // 2))
    fixed_s = step_s - read_s
    if fixed_s <= 0:
        return []
    return [{"tr": "moespeed28.single", "step_ms": round(step_s * 1000, 1), "read_ms": round(read_s * 1000, 1),
             "read_gb": round(read_bytes / 1e9, 1), "topk": s.experts_per_tok, "experts": s.num_experts,
             "moe_layers": s.moe_layers, "gpu": ch.gpu.name, "bw_tb": round(ch.gpu.bandwidth_bytes_per_s / 1e12, 1),
             "fixed_ms": round(fixed_s * 1000, 1), "tp": ch.tp}]  # fmt: skip


__all__ = ["single_stream_phrase"]
