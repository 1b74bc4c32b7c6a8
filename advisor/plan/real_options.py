"""Only real options are named beside the chosen GPU (issue 25, s20-consist20; q23: "6 × L40S … or 54 × L4": an
alternative needing nine times the cards of the choice is no option a team would weigh).

An alternative is left out — from the options listed, the per-card weighing and the "costs more at the size that
meets the target" clauses alike, so nothing is said about it — where it needs more than ``MAX_CARD_MULTIPLE`` times
the chosen setup's cards, or more than one ``SERVER_GPUS``-card server's worth where the chosen setup fits in fewer
cards than one such server holds (a second server means another chassis, network and failure domain, not a swap of
cards). The chosen setup's count is its own (N+1 spare included), as each option's is.
"""

from __future__ import annotations

from typing import Any

MAX_CARD_MULTIPLE = 4  # four times the cards: past it the option is another size of deployment, not another card
SERVER_GPUS = 8  # cards in one server (HGX and PCIe 8-GPU chassis alike)


def too_many(option_gpus: int, chosen_gpus: int) -> bool:
    """The option needs too many cards beside the chosen setup to be a real alternative."""
    if chosen_gpus <= 0:
        return False
    return option_gpus > MAX_CARD_MULTIPLE * chosen_gpus or (chosen_gpus < SERVER_GPUS < option_gpus)


def prune(choice: Any) -> Any:
    """``choice`` (a ``GpuChoice``) less the alternatives that need too many cards, and every figure about them."""
    # a part sold only as whole servers is judged on the cards its load needs, not the servers' rounding (the
    # weighing says what those whole servers cost per card)
    w = choice.weighing
    need = {n.gpu_name: n.need for n in (w.whole_server if w is not None else [])}
    dropped = {a.gpu for a in choice.alternatives if too_many(need.get(a.gpu_name, a.gpus), choice.chosen.gpus)}
    if not dropped:
        return choice
    names = {a.gpu_name for a in choice.alternatives if a.gpu in dropped}
    update: dict[str, Any] = {"alternatives": [a for a in choice.alternatives if a.gpu not in dropped],
                              "dearer": [d for d in choice.dearer if d.gpu not in dropped], "pruned": True}
    if w is not None:
        cards = [c for c in w.cards if c.gpu not in dropped]
        notes = [n for n in w.whole_server if n.gpu_name not in names]
        # a weighing of the chosen card alone compares nothing: left out with the options it weighed
        update["weighing"] = None if len(cards) < 2 and not notes else w.model_copy(
            update={"cards": cards, "whole_server": notes})
    return choice.model_copy(update=update)


__all__ = ["MAX_CARD_MULTIPLE", "SERVER_GPUS", "prune", "too_many"]
