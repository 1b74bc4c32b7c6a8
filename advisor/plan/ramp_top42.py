"""The pressure test's ramp reaches the per-replica load the plan's decision relies on (s40-q39, blind review 33).

q39, en: "The pressure test ramps only 'up to 12', yet the decision hinges on whether a replica really carries about
36, so ramp to 40"; zh: the serve command caps a replica at 12 while the memo says the 16 GPUs carry the peak on the
curve's 36 a replica. The ramp's top was twice the load each replica takes at the peak as planned; where the plan
states a second sizing basis (the predicted curve beside nvidia-smi's reading, ``fleet.curve_per_replica``), the
ramp goes a step past that basis's per-replica load, so the test decides between the two bases. The serve command
keeps the measured basis's cap; the test replica is started with the ramp's top as its cap, raised in production
only if the test shows the curve holds. Pure.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import fleet

PAST = 1.1  # a step past the relied-on load, so the ramp shows where the target breaks, not only that it holds there
CEILING = 256  # vLLM's default --max-num-seqs: a ramp past it tests the engine's default cap, not the plan


def relied(c: Any, ch: Any) -> int | None:
    """The largest per-replica load a stated basis of the plan relies on beyond the plan's own (the predicted
    curve's, where the fleet's measured load and the curve disagree); None where the plan states one basis."""
    if ch is None:
        return None
    return fleet.curve_per_replica(c, ch)


def top(c: Any, ch: Any) -> int:
    """The ramp's highest level: twice the planned load per replica (at least 8), and past any relied-on load."""
    base = max(8, (ch.per_replica * 2) if ch else 2 * c.peak)
    r = relied(c, ch)
    if r is None:
        return base
    return max(base, min(CEILING, math.ceil(r * PAST)))


def levels(c: Any, ch: Any, top_: int) -> str:
    """Doubling from 1 below the top, the top, and the relied-on load itself (the level the decision reads)."""
    r = relied(c, ch)
    extra = {r} if r is not None and r < top_ else set()
    return ",".join(str(v) for v in sorted({*(2**k for k in range(0, 12) if 2**k < top_), top_, *extra}))


def past_cap(c: Any, ch: Any, top_: int, cap: int) -> dict[str, Any] | None:
    """The ramp step's words where its top passes the serve command's cap: the test replica started with the top as
    its cap, the serve command's cap kept until the test shows the relied-on load within the target."""
    r = relied(c, ch)
    if r is None or top_ <= cap:
        return None
    return {"top": top_, "cap": cap, "relied": r}


__all__ = ["levels", "past_cap", "relied", "top"]
