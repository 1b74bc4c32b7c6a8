"""What a lower precision would give on the same cards where the plan keeps the higher one (issue 25, q26: "why is
FP8, which the user accepts, dismissed" beside a BF16 TTFT P99 of about 3 s).

The layout search keeps the better precision where it needs as few GPUs at the same cost (``layout_search``); the
memo then says, in the same clause, the predicted P99 TTFT and TPOT the other precision would give at the chosen
setup's load per replica at the peak, read off the same predictor levels as the memo's sizing table, so a reader
can trade precision for speed knowingly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.plan.result import LayoutSearch
from advisor.sizing.quant import get_format


def other_precision_speed(found: LayoutSearch, c: Ctx, chosen: sizing.Candidate,
                          sized: Sequence[sizing.Candidate]) -> None:
    """Fill ``ttft_p99_ms``/``tpot_p99_ms`` on each try of a lower precision that needs as many GPUs as the chosen
    one (the ones the memo says were set aside for the better precision), from its sized setup in ``sized``
    (the search's setups that meet the target) at ``chosen``'s load per replica. A try with no sized setup (or a
    predictor with no figure) keeps None and the memo says the tie without figures."""
    mine = found.chosen
    if mine is None or c.is_batch or not c.peak:
        return
    bits = get_format(chosen.weights).bits
    per = chosen.per_replica
    for t in found.tries:
        if t.outcome != "meets" or t.gpus != mine.gpus or get_format(t.weights).bits >= bits:
            continue
        k = next((k for k in sized if (k.gpu.id, k.weights, k.tp) == (chosen.gpu.id, t.weights, t.tp)), None)
        if k is None:
            continue
        # the peak spread over as many GPUs in its own replicas: a TP1 replica beside a TP2 one takes half the load
        # (q26's FP8 on one H20 read at a TP2 replica's 9 requests gave a TPOT above BF16's own)
        at = per if k.tp == chosen.tp else max(1, math.ceil(c.peak / max(1, chosen.total_gpus // k.tp)))
        lv = sizing.levels_at(c, k, [at])[0]
        if lv.ttft_ms.p99 is not None and lv.tpot_ms.p99 is not None:
            t.ttft_p99_ms, t.tpot_p99_ms = round(lv.ttft_ms.p99, 1), round(lv.tpot_ms.p99, 2)
