"""A model's dense linear layers timed shape by shape from vLLM's measured GEMM latencies.

gemm.py gives each GPU one BF16 rate (the median over 2,048–8,192-row GEMMs) and one decode weight-read share (the
median over 1–8-row GEMMs). A step's GEMMs are neither: a 256-row prefill of a 5,120-wide layer reaches 490 TFLOP/s on
an H100 where the median is 807, and the small layers of a decode step carry a fixed kernel time the median hides.
NVIDIA's aiconfigurator timed vLLM's BF16 GEMMs inside the engine over a grid of (m rows, n output features,
k input features) on the A100, H100, H200, L40S and B200 (resources/gpus/gemm_shapes.json, tools/gemm_shapes.py). For
those GPUs the speed model times each of the model's own dense linear layers, as vLLM fuses and shards them, at
the step's row count:

- shapes: per layer, q/k/v as one GEMM (QKVParallelLinear) and gate/up as one (MergedColumnParallelLinear), the
  attention output and the down projection, the linear-attention projections, a MoE layer's shared expert; column-
  parallel layers split n over the tensor-parallel GPUs, row-parallel ones k; a KV projection keeps at least one
  head per GPU (replicated when there are fewer KV heads than GPUs); the LM head (vocabulary-parallel) separately,
  at one row per sequence that samples;
- interpolation: log-latency bilinear in (log n, log k) between grid points (exact where latency ∝ n·k, as both the
  weight read and the arithmetic are), n or k beyond the grid in proportion, below 256 clamped; then linear in m
  between grid rows, in proportion to m past 8,192. Summing the layers' latencies row by row gives one curve per
  model, GPU and TP degree, so a step costs one lookup.

FP8 dense layers (``fp8``: per-tensor W8A8; ``fp8-block``: 128×128 block scales) are timed the same way from the
serving engine's own FP8 GEMM latencies on the GPUs aiconfigurator measured them on (H100, H200, B200, L40S), tables
``<gpu>:<format>:<engine>:<version>``, the version nearest the one asked for (the app's: the fused-MoE table's
default per engine). At decode those kernels are not twice as fast as BF16 for half the bytes, and they differ by
engine: a 4,096² GEMM at one row on an H100 takes 16 µs in BF16, and block-scaled FP8 34 µs in vLLM 0.14, 22 µs in
0.19, 14 µs in SGLang 0.5.6, 12 µs in TensorRT-LLM 1.2 (activation quantization and scale handling are fixed costs
per call), so the byte count alone made FP8 decode up to 2× too fast or too slow. An engine without an FP8 table
(llama.cpp) keeps the per-GPU rate. The LM head stays BF16 (FP8 checkpoints leave it unquantized).

MLA models (DeepSeek-V2/V3, Kimi-K2): the MLA attention block keeps its own measured time (roofline.MLA_LAYER_FIXED_S
+ its weights at MBU: the block's projections are inside that measurement, and aiconfigurator's whole-module table
shows block-scaled FP8 no slower than BF16 there), while the model's other dense layers — the shared expert of every
MoE layer and the first dense MLPs — are timed per shape like any other model's (they were left to the weight read
until session 29, which costs an FP8 shared expert's two GEMMs ~3 µs where vLLM's block-scaled kernels take 22-30 µs
at one row: 52 µs per MoE layer, 3 ms a step over DeepSeek-V3's 58).

Not covered (the per-GPU rate and read share stay): Marlin (AWQ/GPTQ) dense layers, FP8 on GPUs without an FP8
table, MLA attention blocks (above), routed experts (the fused-MoE kernel, moe_kernels.py), GPUs without a table,
and a user's explicit MFU/MBU.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import cache
from math import log

import numpy as np

from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.resources import load_json
from advisor.sizing.moe_kernels import _distance
from advisor.sizing.quant import WeightFormat
from advisor.sizing.tensors import Tensor, tensors
from advisor.versions import release_number

# weight formats whose non-expert linear layers are 16-bit GEMMs (gpt-oss's MXFP4 quantizes only the routed experts)
SIXTEEN_BIT_DENSE = ("bf16", "fp16", "mxfp4")
# weight formats whose dense layers run vLLM's FP8 GEMMs (on GPUs with FP8 tensor cores), each with its own table
FP8_DENSE = ("fp8", "fp8-block")
_FUSED = {"attn_q": "qkv", "attn_k": "qkv", "attn_v": "qkv", "ffn_gate": "gate_up", "ffn_up": "gate_up"}
# An MLA block's projections (q_a/q_b or q, kv_a with the rope key, kv_b, the output): timed inside the block's own
# measured time (roofline.MLA_LAYER_FIXED_S), never as per-shape GEMMs (kv_b does not even run at decode: vLLM absorbs
# it into the W_UK/W_UV batched matmuls)
MLA_BLOCK_ROLES = frozenset({"attn_q_a", "attn_q_b", "attn_q", "attn_kv_a_mqa", "attn_kv_b", "attn_output"})


def mla_block_tensor(t: Tensor, m: ModelSpec) -> bool:
    """A linear tensor of an MLA attention block (its time is the block's, not a per-shape GEMM's)."""
    return m.is_mla and t.kind == "linear" and t.role in MLA_BLOCK_ROLES


@dataclass(frozen=True, slots=True)
class GemmCurve:
    """Seconds the dense linear layers of one step take at m rows, on the grid rows ``m``; linear between them."""

    m: tuple[float, ...]
    seconds: tuple[float, ...]

    def at(self, rows: float) -> float:
        if rows <= 0:
            return 0.0
        m, s = self.m, self.seconds
        if rows >= m[-1]:
            return s[-1] * rows / m[-1]
        if rows <= m[0]:
            return s[0]
        i = bisect_right(m, rows)
        t = (rows - m[i - 1]) / (m[i] - m[i - 1])
        return s[i - 1] + t * (s[i] - s[i - 1])


@dataclass(frozen=True, slots=True)
class ShapeTimes:
    """The measured per-shape timing of one model on one GPU class and TP degree."""

    dense: GemmCurve  # every dense linear layer but the LM head, at the step's token rows
    head: GemmCurve  # the LM head, at one row per sampling sequence
    ridge_rows: float  # rows where the median GEMM turns from reading weights to arithmetic (for low/high scaling)
    source: str
    shapes: tuple[tuple[int, int, int], ...]  # (n, k, count) per GPU: what was summed, for the formula view


@cache
def _tables() -> tuple[tuple[float, ...], np.ndarray, dict[str, tuple[np.ndarray, str]]]:
    data = load_json("gpus", "gemm_shapes.json")
    nk = np.log(np.array(data["nk_grid"], dtype=float))
    gpus = {g: (np.log(np.array(t["latency_us"], dtype=float) * 1e-6), t["source"]) for g, t in data["gpus"].items()}
    return tuple(float(m) for m in data["m_grid"]), nk, gpus


def has_table(gpu: GpuSpec) -> bool:
    return gpu.id in _tables()[2]


def table_key(gpu_id: str, fmt_id: str, engine: str | None = None, version: str | None = None) -> str | None:
    """The table a format's dense GEMMs are timed from: the GPU's BF16 one, or for FP8 the engine's own FP8 table
    at the measured version nearest ``version`` (newer on a tie; None: the engine's default version in
    resources/engines/moe_kernels.json), None where the engine has none on this GPU."""
    if fmt_id not in FP8_DENSE:
        return gpu_id
    engine = engine or "vllm"
    prefix = f"{gpu_id}:{fmt_id}:{engine}:"
    measured = [k.removeprefix(prefix) for k in _tables()[2] if k.startswith(prefix)]
    if not measured:
        return None
    wanted = release_number(version) or release_number(load_json("engines", "moe_kernels.json")["default"].get(engine, ""))
    best = min(measured, key=lambda v: (_distance(release_number(v), wanted), tuple(-x for x in release_number(v))))
    return prefix + best


def _axis(log_grid: np.ndarray, value: int) -> tuple[int, float, float]:
    """(lower index, weight of the upper point, factor past the grid's end) for one n or k."""
    x = log(max(value, 1))
    if x <= log_grid[0]:
        return 0, 0.0, 1.0  # below the grid: clamped (layers this narrow are a rounding error of a step)
    if x >= log_grid[-1]:
        return len(log_grid) - 2, 1.0, float(np.exp(x - log_grid[-1]))  # past it: in proportion
    i = int(np.searchsorted(log_grid, x, side="right")) - 1
    return i, float((x - log_grid[i]) / (log_grid[i + 1] - log_grid[i])), 1.0


def shape_seconds(gpu_id: str, n: int, k: int) -> np.ndarray:
    """Seconds of one (n, k) GEMM at each row count of the grid on ``gpu_id``."""
    _m, nk, gpus = _tables()
    lat = gpus[gpu_id][0]
    i, a, fn = _axis(nk, n)
    j, b, fk = _axis(nk, k)
    log_t = (
        (1 - a) * (1 - b) * lat[:, i, j] + a * (1 - b) * lat[:, i + 1, j] + (1 - a) * b * lat[:, i, j + 1] + a * b * lat[:, i + 1, j + 1]
    )
    return np.exp(log_t) * fn * fk


def _per_gpu(t: Tensor, m: ModelSpec, gpus: int) -> tuple[int, int]:
    """(n, k) of one linear tensor on each GPU, as vLLM's parallel layers split it."""
    n, k = t.rows, t.cols
    if t.split in ("col", "vocab"):
        return max(1, -(-n // gpus)), k
    if t.split == "row":
        return n, max(1, -(-k // gpus))
    if t.split == "kv":  # whole KV heads per GPU, replicated when there are fewer heads than GPUs
        heads = max(1, m.num_kv_heads // gpus) if m.num_kv_heads >= gpus else 1
        return heads * (n // m.num_kv_heads), k
    return n, k


def dense_gemm_shapes(m: ModelSpec, gpus: int) -> list[tuple[int, int, int]]:
    """(n, k, count) of each distinct dense GEMM a step runs per GPU, fused as vLLM fuses them; LM head and an MLA
    block's projections (mla_block_tensor) excluded."""
    groups: dict[tuple[int, str], list[Tensor]] = {}
    for t in tensors(m):
        if t.kind != "linear" or t.expert or t.mtp or t.vision or mla_block_tensor(t, m):
            continue
        base = t.role.removesuffix("_shexp")  # a shared expert's gate/up fuse like a dense MLP's
        key = (t.layer, _FUSED.get(base, base) + t.role[len(base):])
        groups.setdefault(key, []).append(t)
    counts: dict[tuple[int, int], int] = {}
    for members in groups.values():
        shapes = [_per_gpu(t, m, gpus) for t in members]
        n, k = sum(s[0] for s in shapes), shapes[0][1]
        counts[(n, k)] = counts.get((n, k), 0) + 1
    return [(n, k, c) for (n, k), c in sorted(counts.items())]


def applies(m: ModelSpec, fmt: WeightFormat, compute: str, gpu: GpuSpec, engine: str | None = None,
            version: str | None = None) -> bool:  # fmt: skip
    if not has_table(gpu) or table_key(gpu.id, fmt.id, engine, version) is None:
        return False
    if fmt.id in FP8_DENSE:
        return compute == "fp8"  # an FP8 checkpoint on a GPU without FP8 tensor cores runs Marlin W8A16 instead
    return fmt.id in SIXTEEN_BIT_DENSE and compute in ("bf16", "fp16")


@cache
def shape_times(m: ModelSpec, gpu_id: str, gpus: int, bf16_tflops: float, bandwidth: float, table: str | None = None) -> ShapeTimes:
    """The per-step curves of ``m`` on ``gpus`` GPUs of class ``gpu_id``, its dense layers timed from ``table``
    (table_key; None: the GPU's BF16 one) (cached: one per setup)."""
    grid, _nk, tables = _tables()
    key = table or gpu_id
    shapes = dense_gemm_shapes(m, gpus)
    total = np.zeros(len(grid))
    for n, k, count in shapes:
        total += count * shape_seconds(key, n, k)
    head_n = max(1, -(-m.vocab_size // gpus))
    head = shape_seconds(gpu_id, head_n, m.hidden_size)  # the LM head stays 16-bit in every format timed here
    return ShapeTimes(
        dense=GemmCurve(grid, tuple(float(x) for x in total)),
        head=GemmCurve(grid, tuple(float(x) for x in head)),
        ridge_rows=bf16_tflops * 1e12 / bandwidth,
        source=tables[key][1],
        shapes=tuple(shapes),
    )
