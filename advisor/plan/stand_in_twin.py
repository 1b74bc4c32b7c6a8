"""The second part to ask the region's hosts for, where no part with a price row of the region meets the target
(blind review 27, q43: "the memo says there is no fallback if Hong Kong has no L40S. Its own numbers show an A100
meets the target within budget"; q22: "name a second card").

``in_region_fallback`` names plan B only on a part priced by a row of the region (AWS ap-east-1's A10): a part
priced there by the same stand-in as the chosen one (another region's row times the uplift) was skipped, so q43's
memo said "no fallback" while its own GPU choice showed the A100 SXM4 80GB meeting the target within the budget.
Such a part is no less available there than the chosen one: neither has a sourced price there, and where both are
at or above the US export threshold (``duties19_rules.export_controlled``: the A100 is on NVIDIA's own list with the
L40S) both need the same licensed supply into Hong Kong. So the memo names it as the second part to ask the same
hosts to quote, with its stand-in rent, its row and grade, and whether it too is export-controlled there: never as a
confirmed plan B, and never a price invented (no row, no twin).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import cost as costmod
from advisor.plan import gpu_choice as gchoice
from advisor.plan.data import PriceBook
from advisor.plan.price_rows import _offer_names

MAX_TRIED = 3  # stand-in parts checked on the predictor (their best-ranked setup each)


def find(c: Any, region: str, chosen: Any, ranked: list[Any], book: PriceBook,
         verify: Callable[[Any], tuple[float | None, float | None, bool]],
         sizes: dict[str, int] | None) -> dict[str, Any] | None:
    """The best-ranked setup of the screen on another part priced in ``region`` by a stand-in only, meeting the
    target on the predictor, with its GPU rent a month (the stand-in's USD range per GPU-hour, uplift included, ×
    its GPUs × the month's hours, in the answer's currency) within the budget where one is given; None where none
    does. ``sizes``: GPUs of the setups the memo's GPU choice already names (gpu id → GPUs, N+1 and failover room
    included), so the count agrees with "Why this GPU" (q43: 3 × A100 at about 9.47 USD/h)."""
    fx = float(book.fx()["cny_per_usd"])
    conv = fx if c.currency == "CNY" else 1.0
    from advisor.plan.duties19_rules import export_controlled

    seen: set[str] = set()
    tried = 0
    for k in ranked:
        if k.gpu.id == chosen.gpu.id or k.gpu.id in seen:
            continue
        rows = costmod.cloud_rows(book, k.gpu.id, region, k.tp)
        if not rows or costmod.local_rows(rows, region) or any(r.user_quote for r in rows):
            continue  # no price at all, or a row of the region (in_region_fallback's case)
        seen.add(k.gpu.id)
        tried += 1
        mine = gchoice._copy(k)
        meets = verify(mine)[2]
        price = costmod.cloud_price(book, k.gpu.id, region, fx, k.tp) if meets else None
        if price is not None:
            n = max(mine.total_gpus, (sizes or {}).get(k.gpu.id, 0))
            lo, hi = (p * n * costmod.HOURS_PER_MONTH * conv for p in price[:2])
            # the GPU choice weighs parts at the middle of their ranges (q43: "about 9.47 USD/h"), so the twin is
            # kept where the budget covers that middle, and the memo says whether it covers the top as well
            if c.budget_amount is None or (lo + hi) / 2 <= c.budget_amount:
                row = rows[0]
                return {"gpu_id": k.gpu.id, "gpu": k.gpu.name, "n": n, "tp": k.tp,
                        "weights": k.weights, "monthly": [round(lo, 2), round(hi, 2)],
                        "budget": None if c.budget_amount is None else (
                            "within" if hi <= c.budget_amount else "middle"),
                        "currency": c.currency, "row_ids": [r.id for r in rows],
                        "offer": {lang: names[0] for lang, names in _offer_names([row]).items()},
                        "grade": row.grade, "export_controlled": bool(region == "hong_kong"
                                                                       and export_controlled(k.gpu.id))}
        if tried >= MAX_TRIED:
            break
    return None


__all__ = ["find"]
