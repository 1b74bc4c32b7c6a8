"""A decode-heavy service on the GPU that carries more per unit of price, when it costs a modest premium more (issue
25, tenth blind review: q42 and q19 picked 4 × L20 at about 32 CNY/h over 3 × H20 at about 40, while the memo itself
said decoding takes most of the GPU time and the H20 has 4.6 × the L20's bandwidth; the H20 replica took 44 requests
within the target against the L20's 16, and the L20 plan ran at TPOT P99 74–85 ms with 12–16 requests of KV a card).

The ranking compares setups at the size that meets the target, and a GPU with large cards rounds up to more than the
peak needs: 2 H20 replicas for a target of 48 carry 88, the L20's 3 carry 48. Cheaper by the hour at this one peak,
the small card is dearer per request carried. An engineer pays a modest premium for the larger card there: the rest
of the card is headroom, KV cache for long prompts and speed per user, and the same plan stays cheaper per request as
the load grows. So, where decoding (memory-bandwidth bound, deployment-facts rule 10) takes most of the chosen
setup's GPU time, a setup of the same standing on another GPU that the predictor passed is chosen instead when

- it costs at most ``premium()`` more an hour and takes fewer cards (fewer, larger GPUs: deployment-facts rule 9; a
  setup on as many cards of a larger GPU is only dearer: q41's 2 × A10 for a 7B model stays, 36 a replica being
  enough),
- it carries more requests at once within the target per unit of price (its serving replicas × what one replica
  takes on its own predicted curve, over its hourly cost), and
- its card has more memory bandwidth per unit of price.

The memo says so with both setups, both prices and what each carries (``GpuChoice.decode_pick``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import pick_note
from advisor.plan.data import gpu_choice_facts
from advisor.plan.sizing import Candidate

MAX_CHECKED = 2  # dearer setups checked on the predictor for this rule (each is a few simulated levels)
NOTE = "decode_over"  # a candidate note: ``decode_over:<gpu id>:<tp>:<weights>`` the setup it was chosen over


def premium() -> float:
    """The premium a decode-heavy service pays for the setup that carries more per unit of price (a policy)."""
    return float(gpu_choice_facts()["decode_bound"]["premium"])


def _bandwidth_per_price(k: Candidate) -> float:
    return k.gpu.bandwidth_bytes_per_s / k.price_mid if k.price_mid > 0 else 0.0


def prefer(chosen: Candidate, met: list[Candidate], pool: list[Candidate], *, decode_pct: int | None,
           same_standing: Callable[[Candidate], bool], hourly: Callable[[Candidate], float],
           carried: Callable[[Candidate], int], verify: Callable[[Candidate], bool]) -> Candidate | None:
    """The setup to choose instead of ``chosen``, or None. ``met``: setups the predictor already passed at the size
    that meets the target; ``pool``: the screen's ranked setups, of which at most ``MAX_CHECKED`` more that qualify
    on the screen are checked with ``verify(k)`` (the predictor's check, which sizes them as the chosen one was).
    ``decode_pct``: decode's share of the chosen setup's GPU time at the peak; ``same_standing(k)``: the ranking's
    tiers equal the chosen one's; ``hourly(k)``: the setup's cost an hour; ``carried(k)``: requests its serving
    replicas take at once within the target on its own curve."""
    if decode_pct is None or decode_pct < 50:
        return None
    mine = hourly(chosen)
    if mine <= 0:
        return None
    limit = mine * (1.0 + premium()) + 1e-9

    def fits(k: Candidate) -> bool:  # fewer, larger cards: never as many cards as the chosen setup or more
        return k is not chosen and k.gpu.id != chosen.gpu.id and same_standing(k) and mine < hourly(k) <= limit \
            and _bandwidth_per_price(k) > _bandwidth_per_price(chosen) and k.total_gpus < chosen.total_gpus

    picks = [k for k in met if fits(k)]
    seen = {id(k) for k in met} | {id(chosen)}
    fresh = [k for k in pool if id(k) not in seen and fits(k) and not any(p.gpu.id == k.gpu.id for p in picks)]
    for k in fresh[:MAX_CHECKED]:  # sized on the predictor: it may need more replicas than the screen said
        if verify(k) and fits(k):
            picks.append(k)
    if not picks:
        return None
    mine_per = carried(chosen) / mine
    picks = [k for k in picks if carried(k) / hourly(k) > mine_per]
    return min(picks, key=hourly) if picks else None


def mark(pick: Candidate, over: Candidate) -> None:
    """Note on ``pick`` the setup it was chosen over and its own precision and TP size at the decision (the layout
    search may then keep another precision on the same cards: the memo states the figures that decided)."""
    pick.notes[:] = [n for n in pick.notes if not n.startswith(NOTE + ":")]
    pick.notes.append(f"{NOTE}:{over.gpu.id}:{over.tp}:{over.weights}:{over.total_gpus}:{pick.tp}:{pick.weights}")


def carry(src: Candidate, dst: Candidate) -> None:
    """``dst``, another layout of ``src``'s GPU, keeps the note of why that GPU was chosen."""
    pick_note.carry(NOTE, src, dst)


def passed_over(chosen: Candidate, setups: list[Candidate]) -> tuple[Candidate, Candidate] | None:
    """(the setup ``chosen`` was picked over by this rule, ``chosen``'s GPU as the decision sized it: another
    precision where the layout search then kept a better one on as many cards), found among ``setups`` (the
    engine's ranked list, sized in place by the predictor's check); None when the rule did not decide."""
    note = next((n for n in chosen.notes if n.startswith(NOTE + ":")), None)
    if note is None:
        return None
    _, gid, tp, weights, gpus, my_tp, my_weights = note.split(":", 6)
    # at the size it was passed over at: a list laid out anew (the setups to buy) holds no such setup, and none is
    # said rather than another size of it (q41 read "chosen over 1 × A10, 142 % more")
    other = next((k for k in setups if (k.gpu.id, str(k.tp), k.weights, str(k.total_gpus)) == (gid, tp, weights, gpus)),
                 None)
    if other is None:
        return None
    if (str(chosen.tp), chosen.weights) == (my_tp, my_weights):
        return other, chosen
    decided = next((k for k in setups if (k.gpu.id, str(k.tp), k.weights) == (chosen.gpu.id, my_tp, my_weights)),
                   chosen)
    return other, decided


def clause(chosen: Candidate, decided: Candidate, other: Candidate, *, hourly: Callable[[Candidate], float],
           per: Callable[[Candidate], int], carried: Callable[[Candidate], int]) -> dict[str, Any]:
    """What the memo says of the choice: the premium, the limit, one replica's and the setup's requests within the
    target on each (``decided``: the chosen GPU at the precision the decision rested on), and the card's bandwidth
    against the other's."""
    return {"more_pct": round((hourly(chosen) / hourly(other) - 1.0) * 100), "limit_pct": round(premium() * 100),
            "weights": decided.weights, "per": per(decided), "other_per": per(other), "carried": carried(decided),
            "other_carried": carried(other),
            "bw_ratio": round(chosen.gpu.bandwidth_bytes_per_s / max(other.gpu.bandwidth_bytes_per_s, 1), 1)}


__all__ = ["NOTE", "carry", "clause", "mark", "passed_over", "prefer", "premium"]
