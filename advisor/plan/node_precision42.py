"""The quality test of a two-node plan whose nodes serve different precisions covers both (issue 25, blind review
32, q05: "Singapore serves bf16 while the mainland serves fp8, so the same product gives different answers by
region. Align the precision or run the quality test on both.").

Each node is sized on a part sold where it runs (the mainland's L20 in fp8, Singapore's A100 in bf16), so the
precision can differ by node. The plan's A/B step compares the quantized weights with a BF16 baseline; here it
says that the baseline is what the other node serves, so the one test judges both nodes' answers, and that a
difference it finds reaches users by region (align the precision, or accept it knowingly).
"""

from __future__ import annotations

from advisor.plan.result import PlanResult

STEP = "quant_ab"
SIXTEEN = ("bf16", "fp16")


def mark(result: PlanResult) -> None:
    """The A/B step wrapped with the nodes' precisions where a two-node plan serves two of them; else unchanged."""
    nodes = result.nodes
    if len(nodes) < 2 or len({n.weights for n in nodes}) < 2:
        return
    quant = [n for n in nodes if n.weights not in SIXTEEN]
    full = [n for n in nodes if n.weights in SIXTEEN]
    if len(quant) != 1 or len(full) != 1:
        return  # two quantized formats: the BF16 baseline is neither node's (not said here)
    q, b = quant[0], full[0]
    steps = list(result.next_steps)
    for i, s in enumerate(steps):
        if s.id != STEP:
            continue
        steps[i] = s.model_copy(update={"key": "reg42.next.quant_ab_nodes", "params": {
            "step": {"tr": s.key, **s.params}, "q_region": {"tr": f"plan.region.{q.region}"}, "q_weights": q.weights,
            "b_region": {"tr": f"plan.region.{b.region}"}, "b_weights": b.weights}})
    result.next_steps = steps


__all__ = ["mark"]
