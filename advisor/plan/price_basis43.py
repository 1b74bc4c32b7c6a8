"""How a purchase estimate built on a dated card price and a larger server's share is said (blind review 34, pb43).

q03, q17 and q31 buy 4-card L20 servers on a card price of 2024-03 (grade U, an expert call's minutes) plus the share
of an 8-card server. The memos said the estimate was "likely low" (the server share under-counted); reviewers
answered that L20 prices have fallen since March 2024, so "likely low" points the wrong way. Neither direction is
known: the clause now says what is (the card price's date, grade and source; the server share's size) and that a
quote for the servers bought may come in higher or lower: the quote decides. The quote threshold the memo gives
(``buy_quote38``, ``quote_lead35``) stays as it was.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def _site(url: str) -> str:
    """The source's site (``aqiusha.com``) from its address, or ""."""
    host = urlsplit(url or "").netloc.lower()
    return host[4:] if host.startswith("www.") else host


def row(result: Any, row_gpus: int) -> Any | None:
    """The purchase row of the plan's GPU built on a server of ``row_gpus`` cards, or None."""
    gpu = result.hardware.gpu
    return next((r for r in getattr(result.costs, "prices", None) or []
                 if r.kind == "capex" and r.gpu == gpu and getattr(r, "server_gpus", None) == row_gpus), None)


def clause(result: Any, key: str, row_gpus: int, unit_gpus: int) -> dict[str, Any] | str:
    """``{"tr": key, …}`` with the purchase row's date, grade and source site, or "" where no such row is."""
    r = row(result, row_gpus)
    if r is None:
        return ""
    site = _site(r.url)
    return {"tr": key, "row_gpus": row_gpus, "unit_gpus": unit_gpus, "date": r.date, "grade": r.grade,
            "site": {"tr": "pb43.basis.site", "site": site} if site else ""}


__all__ = ["clause", "row"]
