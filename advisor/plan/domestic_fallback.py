"""A domestic accelerator named as the second part to quote where a mainland plan rests on an export-sensitive part
(issue 25, blind review 23: q19 "Domestic accelerators (e.g. Ascend 910B on mainland clouds) are never named as a
fallback; for a company told its chosen GPU is unavailable, that omission matters", q26 zh "A domestic-accelerator
quote should be compared before signing"; raised in earlier reviews too).

The H20 (and the H800/A800 stock, the H200) can be cut off by US export rules or Chinese import guidance
(deployment-facts rule 8); the Huawei Ascend 910B is sold by mainland clouds and in Atlas 800 servers (facts.json
``gpu_availability.mainland``, grade C). The plan does not size on it (candidate_gpus: a low-confidence accelerator
only when asked for, rule 13), so what is said of it is only what is known: how many cards a replica needs to hold
the weights and one full-context request (the sizing core's memory estimate at the 910B's best format the answers
allow, its usable memory grade B), that no public price is known (the price list's 910B rows are placeholders with
no source: nothing is priced, never a zero), and the per-model vendor-stack check rule 13 asks for.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import facts, gpus_by_id

GPU_ID = "ascend-910b"
TP_SIZES = (1, 2, 4, 8)  # an Atlas 800 node's 8 NPUs on HCCS: a replica stays within one node


def offered_on_mainland() -> bool:
    return GPU_ID in facts()["gpu_availability"]["mainland"]["gpus"]


def moot(findings: list[Any]) -> list[Any]:
    """``findings`` with the export finding's domestic sentence dropped where the plan is blocked by something other
    than the GPU asked for (q07's 双减, q40's budget): its hardware is then a sketch, and a second part to quote for it
    is noise (q07: "the hardware section … is moot until 双减 is answered"). A plan blocked by its GPU itself (q19's
    H100 on the mainland) keeps it: that is where it matters most."""
    other = any(x.severity == "blocker" and x.id != "gpu.not_in_region" for x in findings)
    if not other:
        return findings
    from advisor.plan.rule_base import finding

    out = []
    for x in findings:
        if x.id == "gpu.export_verify" and "domestic" in x.params:
            x = finding("gpu.export_verify", gpus=x.params["gpus"])
        elif x.id == "gpu.not_in_region" and "domestic" in x.params:  # its own blocked text, unnamed (s37-seq)
            x = finding("gpu.not_in_region", gpus=x.params["gpus"], severity="blocker", variant="blocked")
        out.append(x)
    return out


def floor(ctx: Ctx) -> dict[str, Any] | None:
    """{"n", "weights"}: the fewest 910B cards (1, 2, 4 or 8) a replica holds the weights and one full-context
    request on, at the best format the answers allow on it; {"n": None} where 8 do not suffice; None where the part
    is not in the catalog."""
    from advisor.plan import sizing

    gpu = gpus_by_id().get(GPU_ID)
    if gpu is None:
        return None
    weights, kv = sizing.allowed_formats(ctx, gpu)[0]
    engine = sizing._engine(ctx, gpu)
    for tp in TP_SIZES:
        mem = sizing._memory(ctx, gpu, weights, kv, tp, engine)
        if mem.weights_fit and mem.kv_tokens >= ctx.max_context:
            return {"n": tp, "weights": weights}
    return {"n": None, "weights": weights}


def phrase(ctx: Ctx, key: str = "supply34.domestic.line") -> dict[str, Any] | str:
    """The export finding's sentence naming the 910B as the second part to quote, or "" where it does not apply."""
    if not offered_on_mainland():
        return ""
    got = floor(ctx)
    if got is None:
        return ""
    gpu = gpus_by_id()[GPU_ID]
    size: Any = ({"tr": "supply34.domestic.size", "n": got["n"], "weights": got["weights"]} if got["n"] is not None
                 else {"tr": "supply34.domestic.size_over", "weights": got["weights"]})
    return {"tr": key, "gpu": gpu.name, "model": ctx.model.name, "size": size}


__all__ = ["GPU_ID", "floor", "moot", "offered_on_mainland", "phrase"]
