"""Achievable GEMM throughput per GPU, from kernel measurements instead of the datasheet peak × a guessed MFU.

A prefill's linear layers are large GEMMs; what they reach is a property of the GPU and its BLAS, measured:
NVIDIA's aiconfigurator times vLLM's BF16 GEMMs over LLM shapes on A100, H100, H200, L40S and B200 (0.70–0.84 of
the datasheet peak at 2048–8192 rows), and community torch.matmul runs cover the RTX 4090 and 5090
(resources/gpus/gemm_rates.json, each row with its source and method). A GPU without its own measurement takes
the share of its datasheet peak that its architecture's reference GPU reaches (GeForce cards: a GeForce
reference where one was measured, since their datasheet figure is the FP32-accumulate rate they exceed); a GPU of an architecture with no
reference (AMD, Ascend, Volta, Turing) keeps peak × MFU. Attention keeps peak × MFU everywhere: FlashAttention
prefill measured by the same aiconfigurator runs reaches 0.53–0.56 of the BF16 peak on A100/H100/H200 at
8k–16k tokens, close to the default MFU of 0.5.

Only 16-bit compute is covered (BF16/FP16 weights, and weight-only INT4/INT8 formats whose GEMMs run in BF16);
FP8/INT8 compute keeps peak × MFU, because the FP8 measurements include the activation quantization and differ
by engine.

The same tables time decode-shaped GEMMs (1–8 rows), which are bound by reading their weights: the weights stream
at a median 0.66 of the datasheet bandwidth on an A100, 0.77 on an H100, 0.69 on an H200, 0.78 on an L40S and 0.60
on a B200 (``decode_weight_read_share``, tools/gemm_rates.py states the rule), where one MBU of 0.75 served every GPU.
``decode_read_share`` gives that figure for the roofline's dense weight reads. It is a property of the GPU's memory
system, so a GPU without its own figure takes its architecture reference's only where both use the same memory
family (HBM or GDDR); otherwise (and for AMD, Ascend, Volta, Turing) MBU stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from advisor.catalog import get_gpu
from advisor.domain.gpu import GpuSpec
from advisor.resources import load_json

SIXTEEN_BIT = ("bf16", "fp16")


@dataclass(frozen=True, slots=True)
class GemmRate:
    """What one GPU's large BF16 GEMMs reach, and on what evidence."""

    tflops: float
    basis: str  # "measured": this GPU's own measurement; "architecture": the reference GPU's share of peak
    reference_gpu: str  # the GPU whose measurement it is
    source: str


@dataclass(frozen=True, slots=True)
class ReadShare:
    """The share of its datasheet bandwidth at which one GPU's decode-shaped GEMMs read their weights."""

    share: float
    basis: str  # "measured" or "architecture", as for GemmRate
    reference_gpu: str
    source: str


def _memory_family(memory_type: str) -> str | None:
    kind = memory_type.upper()
    return "HBM" if kind.startswith("HBM") else "GDDR" if kind.startswith("GDDR") else None


def decode_read_share(gpu: GpuSpec) -> ReadShare | None:
    """The measured weight-streaming share of ``gpu`` (or of its architecture's reference GPU with the same memory
    family); None where nothing applies (the roofline keeps MBU)."""
    return _read_share(gpu.id, gpu.architecture, gpu.market, gpu.memory_type)


@cache
def _read_share(gpu_id: str, architecture: str, market: str, memory_type: str) -> ReadShare | None:
    measured, by_arch = _table()
    own = measured.get(gpu_id)
    if own is not None and "decode_weight_read_share" in own:
        return ReadShare(float(own["decode_weight_read_share"]), "measured", gpu_id, own["source"])
    # the market's reference first (a GeForce card's), then the architecture's: the first that measured decode
    for key in (f"{architecture}/{market}", architecture):
        ref_id = by_arch.get(key)
        ref = measured.get(ref_id) if ref_id else None
        if ref is None or ref_id is None or "decode_weight_read_share" not in ref:
            continue
        family = _memory_family(memory_type)
        if family is None or _memory_family(get_gpu(ref_id).memory_type) != family:
            return None
        return ReadShare(float(ref["decode_weight_read_share"]), "architecture", ref_id, ref["source"])
    return None


@cache
def _table() -> tuple[dict[str, dict], dict[str, str]]:
    data = load_json("gpus", "gemm_rates.json")
    measured = {row["gpu"]: row for row in data["measured"]}
    return measured, dict(data["architecture_reference"])


def gemm_rate(gpu: GpuSpec, compute_dtype: str = "bf16") -> GemmRate | None:
    """Achievable dense GEMM TFLOP/s of one ``gpu`` for ``compute_dtype``; None where nothing was measured."""
    if compute_dtype not in SIXTEEN_BIT:
        return None
    measured, by_arch = _table()
    own = measured.get(gpu.id)
    if own is not None:
        return GemmRate(float(own["bf16_tflops"]), "measured", gpu.id, own["source"])
    ref_id = by_arch.get(f"{gpu.architecture}/{gpu.market}") or by_arch.get(gpu.architecture)
    ref = measured.get(ref_id) if ref_id else None
    if ref is None or ref_id is None:
        return None
    return GemmRate(_share_of_peak(ref_id) * gpu.bf16_tflops_dense, "architecture", ref_id, ref["source"])


@cache
def _share_of_peak(gpu_id: str) -> float:
    """The measured rate of a reference GPU over its datasheet peak (cached: the catalog lookup reads files and
    the speed model builds a cost model per GPU of the catalog table)."""
    return float(_table()[0][gpu_id]["bf16_tflops"]) / get_gpu(gpu_id).bf16_tflops_dense
