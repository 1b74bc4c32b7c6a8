"""A bought card's price where its price row holds a share of a server of another size (session 26, blind reviews 15
and 16, q31: "3 servers of 4 × L20, while the purchase price row is built on an 8-card PCIe server").

Some purchase rows are a card's price plus a share of the server it goes into (chassis, CPUs, memory, network),
built on a server of ``server_gpus`` cards (``capex.l20``: ¥75,000 a card plus ¥10,000–40,000 of an 8-card server).
Bought in smaller servers, each card carries a larger share of its server; how much larger is not sourced (a 4-card
chassis is smaller and cheaper than an 8-card one, so the share does not simply double). Stretching the row on an
assumption moved decisions on a number nobody quoted (tried: q17's one 4 × L20 server went over its ¥400k budget at
a doubled high end and the plan fell back to 8 × A10, which reviewers sent back), so the figure stays the row's and
the memo says beside the purchase that the servers bought are smaller than the row's: the quote prices them.
Rows without ``server_gpus`` (a whole server's price ÷ its cards, as the 8 × H20 row; or a card alone) say nothing.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render


def mismatch(row: Any, unit_gpus: int | None) -> dict[str, int] | None:
    """``{"row_gpus", "unit_gpus"}`` where ``row`` holds a share of a server larger than the ``unit_gpus``-card
    servers bought; None where the row holds no server share, or the servers bought are as large."""
    size = getattr(row, "server_gpus", None)
    if not size or not unit_gpus or unit_gpus >= size:
        return None
    return {"row_gpus": int(size), "unit_gpus": int(unit_gpus)}


def text(costs: Any, lang: str) -> str:
    """The memo's clause beside the purchase where its row holds a share of a larger server than those bought
    (``Costs.bare_metal_server_size``), or ""."""
    got = getattr(costs, "bare_metal_server_size", None)
    if not got:
        return ""
    return render(lang, "ownspare26.cost.server_size", {"row_gpus": got["row_gpus"], "unit_gpus": got["unit_gpus"]})


__all__ = ["mismatch", "text"]
