"""A colocated rack's BGP line below its source's bulk package, said as priced near the top (blind review 34, pb43).

q26 zh: "每 Mbps 4–80 CNY … 每月 37.8–720 CNY" for a 9 Mbps commitment. The range's low end is the IDC fee guide's
100 Mbps package a year (``gpu_choice.json`` ``line_bandwidth.prices.bgp_colo``: 5,000–10,000 CNY a year, about
4–8 CNY per Mbps a month, "a bulk rate", grade C); a small commitment "may cost up to a mainland cloud's
fixed-bandwidth rate (80 CNY per Mbps a month), the range's top", as the same row says. A line under the package's
size is said so: its low end is that bulk rate, so a commitment of its size prices near the top, or at the package
as a minimum commitment. The figures stay the row's (no source prices a small IDC commitment).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import gpu_choice_facts
from advisor.plan.money_text import round_money


def package(line: str) -> dict[str, Any] | None:
    """The colocated line's price row where it names a bulk package (``package_mbps``), else None."""
    row = gpu_choice_facts()["line_bandwidth"]["prices"].get(f"{line}_colo")
    return row if row and "package_mbps" in row else None


def small(lc: Any) -> dict[str, Any] | None:
    """``{"tr": "pb43.line.small", …}``: the line's low end is its source's bulk rate for a larger package, so a
    commitment of the line's size prices near the top; None where the line is priced at or above the package."""
    row = package(getattr(lc, "line", ""))
    if row is None or lc.monthly is None or lc.mbps >= float(row["package_mbps"]):
        return None
    return {"tr": "pb43.line.small", "package": f"{row['package_mbps']:,}", "mbps": f"{lc.mbps:,.0f}",
            "high": round_money(lc.monthly.high), "currency": lc.currency}


__all__ = ["package", "small"]
