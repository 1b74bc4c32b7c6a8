"""The replicas that hold a failover at the full context are the plan, where the budget carries them (blind review 33,
q19/q42/q21: "the headline fix '4 × NVIDIA L20 48GB meets the target' contradicts next step 1, which says to sign the
L20 plan only with one more replica, 5 in all"; "make 5 × L20 the headline"; q42 zh: "the H20 switch threshold was
computed against 4 L20s").

``kv_replicas42`` sized the fix after the plan was costed and said it as a step; the plan, its hardware row, its
costs, its budget check and the quote thresholds computed from its month stayed at the smaller count. Here the rule
runs where the engine still lays out and costs the setup (beside ``spare_policy``'s one serving unit more for the
failover margin): where a replica's KV cache holds materially fewer full-context requests than it carries with one
replica down (``kv_replicas42.material``), the serving replicas become ceil(peak ÷ what the cache holds at the full
context), the plan's spares kept, and that setup is costed and judged against the budget as the plan's own month is
(with the priced network line). Within the budget it is the plan, and the N+1 finding says once why it has the extra
replica (``note``/``noted``); over it, the plan stays as sized and ``kv_replicas42`` keeps its measured go/no-go.
Rented plans only (the cloud, or an API lead's rented fallback): a purchase's month is not linear in the replicas and
its sizing is its own (``kv_replicas42`` leaves it a gate too).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan import sizing
from advisor.plan.capacity import serving_replicas
from advisor.plan.context import Ctx
from advisor.plan.kv_fit import kv_fit

NOTE = "kv_full42"  # on the setup: the serving replicas were raised so one down leaves each within the full context
FORMS = ("cloud", "hosted_api")  # rented: the cloud plan, or the rented fallback behind an API lead


def serving_needed(c: Ctx, ch: sizing.Candidate | None, material: Callable[[Any, int], bool]) -> dict[str, Any] | None:
    """{"serving", "was", "full", "context", "load"}: the serving replicas whose load with one replica down each
    cache holds at the full context, where the plan's own carry materially more than that (``material``:
    ``kv_replicas42.material``, passed in: that module sits above ``quote_first39``, which reads this one's note) and
    no more than the cache holds at average lengths (short even there, the sizing failed and section 2 says so);
    None otherwise."""
    if ch is None or c.is_batch or not c.peak or ch.layout is None:
        return None
    fit = kv_fit(c, ch)
    if fit is None or fit.at_full <= 0 or not fit.failover_per_replica:
        return None  # no spare: no failover load (a single unit's peak is the sizing's own)
    was = fit.failover_per_replica
    if was <= fit.at_full or was > fit.at_typical or not material(fit, was):
        return None
    spares = ch.replicas - serving_replicas(ch)
    serving = math.ceil(c.peak / fit.at_full)
    if serving + spares <= ch.replicas or serving <= 1:
        return None
    return {"serving": serving, "was": was, "full": fit.at_full, "context": fit.context,
            "load": math.ceil(c.peak / serving)}


def note(ch: sizing.Candidate, need: dict[str, Any], replicas_before: int, monthly: tuple[float, float]) -> None:
    """Mark the setup as carrying the added replicas, with the figures the N+1 finding says."""
    ch.notes.append(f"{NOTE}:{replicas_before}:{need['was']}:{need['full']}:{need['context']}:{need['load']}:"
                    f"{monthly[0]:.2f}:{monthly[1]:.2f}")


def noted(ch: Any) -> dict[str, Any] | None:
    """The figures ``note`` kept on the setup ({"before", "was", "full", "context", "load", "monthly"}); None
    without them."""
    found = next((n for n in getattr(ch, "notes", []) if n.startswith(NOTE + ":")), None)
    if found is None:
        return None
    before, was, full, context, load, lo, hi = found.split(":")[1:]
    return {"before": int(before), "was": int(was), "full": int(full), "context": int(context), "load": int(load),
            "monthly": (float(lo), float(hi))}


__all__ = ["FORMS", "NOTE", "note", "noted", "serving_needed"]
