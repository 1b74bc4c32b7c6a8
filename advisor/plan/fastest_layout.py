"""An accelerator's fastest layout for one prompt, and what its prefill figure rests on (blind review 12).

Two reviews asked the same thing of a "the target is out of reach" claim: was the fastest layout tried? q10's 8 × H20
as one TP8 replica, q08's TP8 over one whole 8-card Ascend server (the team's 16 cards hold two such replicas). The
fastest layout is the one the screen gives the lowest first token of one request alone, over every TP size a server
holds and every format the answers allow; the predictor then times one request alone on it (P99 over the prompt
lengths), the figure no number of replicas brings down.

q08's reviewers also found its prefill time implausible for a ~300 TFLOPS card. What the figure rests on is said with
it: the dense tensor rate and how sure the catalog is of it, whether the share of that peak a large GEMM reaches was
measured (advisor.sizing.gemm) or is the default MFU, and whether the link between the cards is NVLink or counted as
PCIe (the roofline has figures for those two only: an Ascend card's HCCS or an AMD card's Infinity Fabric is priced as
PCIe, all-reduces and the per-doubling TP efficiency alike).
"""

from __future__ import annotations

from typing import Any

from advisor.domain.gpu import GpuSpec
from advisor.domain.sizing import SpeedFactors
from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.sizing.gemm import gemm_rate
from advisor.sizing.links import link_kind


def fastest_alone(ctx: Ctx, gid: str) -> tuple[sizing.Candidate, float] | None:
    """``gid``'s layout with the lowest first token (the screen's, over every TP and format the answers allow: the
    largest TP a server holds, as a rule) and the predictor's P99 TTFT (ms) of one request alone on it."""
    ok, near = sizing.screen(ctx, [gid], lambda _gid: 1.0)  # the price plays no part in which layout is fastest
    setups = sorted(ok + near, key=lambda k: (k.best_ttft_ms, k.tp, k.weights))
    if not setups:
        return None
    best = setups[0]
    ttft = sizing.simulate_at(ctx, best, 1).ttft_ms.p99
    return (best, float(ttft)) if ttft is not None else None


def prefill_basis(gpu: GpuSpec, tp: int) -> dict[str, Any] | None:
    """What the prefill figure of ``tp`` × ``gpu`` rests on, as a sentence's parameters; None where every part is
    sourced and measured (an NVLink GPU with its own GEMM measurement and a catalog rate of high confidence)."""
    rate = gemm_rate(gpu)
    linked = tp > 1 and link_kind(gpu) != "nvlink"  # a vendor mesh: its bandwidth sourced, its all-reduce unmeasured
    sure = (gpu.confidence or "").lower() == "high"
    if rate is not None and rate.basis == "measured" and not linked and sure:
        return None
    return {"tr": "plan.fastest22.basis", "gpu": gpu.name, "tflops": f"{float(gpu.bf16_tflops_dense or 0):,.0f}",
            "confidence": {"tr": f"plan.fastest22.confidence.{gpu.confidence}"},
            "rate": ({"tr": "plan.fastest22.rate.default", "mfu_pct": round(SpeedFactors().mfu * 100)} if rate is None
                     else {"tr": f"plan.fastest22.rate.{rate.basis}", "reference": rate.reference_gpu}),
            "link": _link_part(gpu) if linked else ""}  # fmt: skip


def _link_part(gpu: GpuSpec) -> dict[str, Any]:
    """How the link between a replica's cards is counted: as PCIe, or at its vendor mesh's sourced bandwidth."""
    if link_kind(gpu) == "mesh":
        return {"tr": "links23.fastest.link.mesh", "gbps": f"{(gpu.interconnect_bytes_per_s or 0) / 1e9:,.0f}",
                "link": {"tr": "links23.link." + gpu.interconnect.replace("-", "_")}}
    return {"tr": "plan.fastest22.link.pcie"}


__all__ = ["fastest_alone", "prefill_basis"]
