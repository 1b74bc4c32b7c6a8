"""The host that runs the team's own service in front of a hosted API, priced (s35-apicost, issue 25).

Blind review 26 (q12, q13, q21, q22, q36, both languages): the API lead's month left "the HK host VM 'not priced'"
("have the line's seller quote a small VM"), so page 1's "about ¥291 a month" was not what the path costs. The
API replaces the GPUs, not the service's own host: a small CPU VM in the plan's region still runs the app and
streams the answers over the line. Priced here from ``resources/plan/front_host37.json``: a 2–4 vCPU VM's on-demand
list price there (AWS c5.large to c5.xlarge, grade B) times the hours of a month, in the plan's currency. A region
without a row gets None: unknown stays unknown, never a zero. The mainland's row (s42-api, blind review 35, q36/q40:
"give a typical small-VM range with its source, labelled") is Alibaba Cloud's list in CNY, with its own source and
vendor (``HostPrice.vendor``: which list the memo names).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from advisor.plan.data import prices
from advisor.plan.result import Source
from advisor.resources import load_json


@dataclass(frozen=True)
class HostPrice:
    """The host VM's month (low: 2 vCPU, high: 4 vCPU) in ``currency``, and where the price is from."""

    low: float
    high: float
    currency: str
    source: Source
    vendor: str = "aws"


@cache
def _data() -> dict[str, Any]:
    return load_json("plan", "front_host37.json")


def price(region: str, currency: str) -> HostPrice | None:
    """The month of the service's host in ``region`` in ``currency`` ("USD" or "CNY"); None without a row there."""
    d = _data()
    row = d["regions"].get(region)
    if row is None:
        return None
    fx = float(prices()["fx"]["cny_per_usd"])
    listed = str(row.get("currency") or "USD")
    per = 1.0 if listed == currency else fx if currency == "CNY" else 1.0 / fx
    hours = float(d["hours_per_month"])
    title = str(row["source"]) if "source" in row else f"{d['source']}, {row['aws_region']}"
    src = Source(title=title, url=row.get("url", d["url"]), date=row.get("date", d["date"]),
                 grade=row.get("grade", d["grade"]))
    return HostPrice(float(row["low"]) * hours * per, float(row["high"]) * hours * per, currency, src,
                     str(row.get("vendor") or "aws"))


__all__ = ["HostPrice", "price"]
