"""The self-hosting yardstick's GPU count with its N+1 spare said (blind reviews 23 and 24, q16: "2 × NVIDIA L20 48GB
for a 14B bf16 model that fits on one at a peak of 2" read as oversized). The plan keeps one replica beyond those that
carry the peak (advisor.plan.engine's redundancy); the count, and the cost priced on it, include that spare, so the
line says how the GPUs split rather than shrinking to a count the cost was not computed on."""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan.result import PlanResult

KEY = "nums35.spare_split"
KEY_IN = "nums35.spare_split_in"


def spare_split(result: PlanResult) -> tuple[int, int] | None:
    """(GPUs carrying the peak, spare GPUs) where the plan keeps a spare replica, else None."""
    hw, cap = result.hardware, result.capacity
    serving = cap.serving_replicas if cap is not None else None
    if not serving or hw.replicas <= serving or not hw.gpus_per_replica:
        return None
    return serving * hw.gpus_per_replica, (hw.replicas - serving) * hw.gpus_per_replica


def split_text(result: PlanResult, lang: str, *, inside: bool = False) -> str:
    """" (1 for the peak, plus 1 spare)" after the GPU name, or "; 1 for the peak, plus 1 spare" ``inside`` a
    parenthesis that is already open (the weights'); "" without a spare."""
    split = spare_split(result)
    if split is None:
        return ""
    return translate(lang, KEY_IN if inside else KEY, serving=split[0], spare=split[1])


__all__ = ["spare_split", "split_text"]
