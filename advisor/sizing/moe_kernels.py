"""How fast an engine's fused-MoE kernel runs the routed experts' arithmetic (resources/engines/moe_kernels.json).

A dense layer multiplies every token in one large GEMM; a routed expert multiplies only the tokens sent to it, in
one grouped kernel over all experts. NVIDIA measured those kernels per engine version (aiconfigurator): even at
prefill-sized batches they reach 10-40 % of the GPU's dense peak where a dense GEMM reaches 60-80 %, so a MoE
prompt takes two to three times longer to read than its active parameters alone would say. The roofline runs
the routed experts' FLOPs at ``peak × share`` (``expert_share``); reading their weights is unchanged.
"""

from __future__ import annotations

import json
from functools import cache

from advisor.resources import resource_path
from advisor.sizing.quant import WeightFormat
from advisor.versions import release_number


@cache
def _table() -> dict:
    return json.loads(resource_path("engines", "moe_kernels.json").read_text(encoding="utf-8"))


def moe_format(fmt: WeightFormat, compute_dtype: str) -> str:
    """The kernel family a weight format runs in: bf16, fp8 (per-tensor), fp8-block, int4 (Marlin) or mxfp4."""
    if fmt.id == "mxfp4":
        return "mxfp4"
    if fmt.id.startswith(("awq", "gptq")) and "int4" in fmt.id:
        return "int4"
    if compute_dtype == "fp8":
        return "fp8-block" if "block" in fmt.id else "fp8"
    return "bf16"  # 16-bit weights, and FP8/INT8 upcast where the GPU has no such tensor cores


def _distance(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    width = max(len(a), len(b), 3)
    a, b = a + (0,) * (width - len(a)), b + (0,) * (width - len(b))
    return tuple(abs(x - y) for x, y in zip(a, b, strict=True))


# The measurements cover fine-grained MoE (64 to 512 experts: Qwen3, DeepSeek, GLM, Kimi). A few wide experts
# (Mixtral's 8) make large per-expert GEMMs that run near the dense rate (55-65 % of peak at TP 2-8 in the same
# tables), so they keep it.
MIN_EXPERTS = 64


def expert_share(
    engine: str | None, version: str | None, architecture: str, fmt: WeightFormat, compute_dtype: str, num_experts: int
) -> float | None:
    """Share of the dense peak the routed experts' FLOPs reach on this engine, GPU architecture and format, or None
    where nothing was measured (another engine, AMD or Ascend, a model with a few wide experts: no correction).
    ``version``: the engine version to match (the nearest measured one, newer on a tie); None: the version the app
    assumes (the table's default)."""
    kind = moe_format(fmt, compute_dtype)
    # MXFP4 is gpt-oss's format, and its tables are gpt-oss's own shapes (32 and 128 experts as wide as the model):
    # measured fine-grained, whatever the count
    if num_experts < MIN_EXPERTS and kind != "mxfp4":
        return None
    table = _table()
    measured = table["measured"].get(engine or "")
    gpu_class = table["borrow"].get(architecture)
    if not measured or gpu_class is None:
        return None
    wanted = release_number(version or table["default"].get(engine, ""))

    def candidates_for(k: str) -> list[tuple[str, float]]:
        return [(v, by_class[gpu_class][k]) for v, by_class in measured.items() if k in by_class.get(gpu_class, {})]

    # no MXFP4 measurement on this GPU class (Ampere: Marlin dequantizes to BF16): the BF16 fused-MoE rate
    candidates = candidates_for(kind) or (candidates_for("bf16") if kind == "mxfp4" else [])
    if not candidates:
        return None
    # nearest release first; among equals the newer one
    best = min(candidates, key=lambda c: (_distance(release_number(c[0]), wanted), tuple(-x for x in release_number(c[0]))))
    return float(best[1])
