"""What a rented setup pays on top of its GPU rate, component by component (s22-uplift22c, issue 25, costs).

Blind review 12 (q03, q06, q20, q24, q28): every rented GPU-hour carried a flat 30–50 % "egress, storage and
management" uplift, a whole-bill survey's figure (``overhead_share``, mercatus-ai, grade C), even for an internal
batch job that sends almost nothing out, an office box on a LAN and a hospital's private WAN. No source splits that
figure, so it is replaced here by components that each have one:

- **Storage** (every rented setup: the weights, the logs and a boot volume bill while the GPU runs, and after):
  ``overhead_storage_share``, 5–15 % on top of the GPU rate (computingpower.org, grade C).
- **Support plan** (every rented setup: a production service keeps one): ``overhead_support_share``, 3–10 % of the
  month's usage (AWS Business Support's tiers, grade B for other clouds).
- **Egress**, only where the service streams its answers to users over the public internet from a cloud that bills
  per GB (not a batch job, not a LAN or private network, not a node whose premium line already carries the users'
  traffic at a per-Mbps price, ``advisor.plan.line_cost``): the month's output tokens × the bytes one streamed token
  takes (the same figure the line's bandwidth uses) × a sourced per-GB price, then said as a share of the on-demand
  GPU bill so that the memo's product of printed factors still equals the printed cost.

- **A site-to-site VPN** (s24-prices24, round 13, q35/q38/q41), where a rented node is reached only over the company's
  private network (``reach`` = ``private_network``, not a batch job): the node joins that network through the cloud's
  VPN gateway, an IPsec tunnel from the company's firewall, billed a month whatever the traffic: AWS's
  connection-hours offshore (``site_vpn_usd_month``), a mainland cloud's smallest IPsec gateway on the mainland
  (``site_vpn_cny_month_mainland``). Said as a share of the on-demand GPU bill like egress, so the printed factors
  still multiply to the printed cost (a reserved month scales it with the GPU rate, as it does egress).

Everything else the survey counts (monitoring, load balancers, "ecosystem services") has no sourced share and is not
invented: the memo names the components it applied, once.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.context import Ctx
from advisor.plan.data import factor, factor_range, gpu_choice_facts
from advisor.plan.line_choice import decide_line
from advisor.plan.line_cost import PREMIUM
from advisor.plan.result import MoneyRange, OverheadPart, RegionUplift

RENTED_PARTS = ("overhead_storage_share", "overhead_support_share")
PART_NAME = {"overhead_storage_share": "storage", "overhead_support_share": "support"}
GRADES = "ABCU"


def rented_share() -> tuple[float, float]:
    """(low, high) share on top of the GPU rate every rented setup pays: storage + the support plan."""
    lo = hi = 0.0
    for name in RENTED_PARTS:
        a, b = factor_range(name)
        lo, hi = lo + a, hi + b
    return lo, hi


def support_applies(rows: list[Any] | None) -> bool:
    """Whether the support plan's share (AWS Business Support's tiers) belongs on the bill: only where the GPUs are
    rented from AWS (s25-prices25, fifteenth blind review q30: "AWS support-plan percentages applied to a Chinese
    domestic cloud bill"). No other cloud's support price is sourced, so elsewhere it is left out and said so, never
    borrowed. Without the rows (an older caller) it applies, as before."""
    if rows is None:
        return True
    return any(".aws" in str(r.id) or str(r.offer).startswith("AWS") for r in rows)


def no_egress_reason(c: Ctx, region: str) -> str | None:
    """Why the service's answers do not leave a cloud over the public internet billed per GB (None where they do):
    ``batch`` (a job streams nothing to users), ``private`` (reached only on a LAN or private network), ``line`` (a
    premium line, BGP, CN2 GIA or three-network, bought apart carries that traffic at its own per-Mbps price)."""
    if c.is_batch:
        return "batch"
    if c.reach != "internet":
        return "private"
    return "line" if decide_line(c, region, "cloud") in PREMIUM else None


def _part(name: str) -> OverheadPart:
    f = factor(name)
    return OverheadPart(name=PART_NAME[name], low=float(f["low"]), high=float(f["high"]), source=str(f["source"]),
                        date=str(f["date"]), grade=str(f["grade"]), url=str(f.get("url", "")))  # fmt: skip


def egress_part(tokens: float, tokens_high: float | None, gpu_bill: tuple[float, float], conv: float,
                currency: str) -> OverheadPart | None:
    """Egress as a share of ``gpu_bill`` (USD, the on-demand GPU bill without any overhead, low and high ends): the
    month's output tokens (the high end at ``tokens_high`` where an assumed volume has one) × bytes per streamed
    token × the per-GB price. None without tokens (unknown, never a zero)."""
    if tokens <= 0 or gpu_bill[0] <= 0 or gpu_bill[1] <= 0:
        return None
    b = gpu_choice_facts()["line_bandwidth"]["bytes_per_streamed_token"]
    gb_lo = tokens * float(b["low"]) / 1e9
    gb_hi = max(tokens, tokens_high or 0.0) * float(b["high"]) / 1e9
    f = factor("egress_per_gb_usd")
    r_lo, r_hi = float(f["low"]), float(f["high"])
    usd = (gb_lo * r_lo, gb_hi * r_hi)
    return OverheadPart(name="egress", low=usd[0] / gpu_bill[0], high=usd[1] / gpu_bill[1], source=str(f["source"]),
                        date=str(f["date"]), grade=str(f["grade"]), url=str(f.get("url", "")),
                        egress_gb=MoneyRange(low=round(gb_lo, 1), high=round(gb_hi, 1)),
                        per_gb=MoneyRange(low=round(r_lo * conv, 3), high=round(r_hi * conv, 3)),
                        cost=MoneyRange(low=round(usd[0] * conv, 2), high=round(usd[1] * conv, 2)))  # fmt: skip


def vpn_part(c: Ctx, region: str, gpu_bill: tuple[float, float], conv: float, fx: float) -> OverheadPart | None:
    """The site-to-site VPN a rented node reached only over the company's private network joins it by, as a share
    of ``gpu_bill`` (USD); None where the service is on the internet or an office LAN, or is a batch job."""
    if c.is_batch or c.reach != "private_network" or gpu_bill[0] <= 0 or gpu_bill[1] <= 0:
        return None
    mainland = region == "mainland"
    f = factor("site_vpn_cny_month_mainland" if mainland else "site_vpn_usd_month")
    to_usd = 1.0 / fx if mainland and fx > 0 else 1.0
    if mainland and fx <= 0:
        return None  # no rate to convert the mainland gateway's yuan with: unknown, never a zero
    usd = (float(f["low"]) * to_usd, float(f["high"]) * to_usd)
    return OverheadPart(name="vpn", low=usd[0] / gpu_bill[0], high=usd[1] / gpu_bill[1], source=str(f["source"]),
                        date=str(f["date"]), grade=str(f["grade"]), url=str(f.get("url", "")),
                        cost=MoneyRange(low=round(usd[0] * conv, 2), high=round(usd[1] * conv, 2)))  # fmt: skip


def overhead(c: Ctx, region: str, *, tokens: float, tokens_high: float | None, gpu_bill: tuple[float, float],
             conv: float, currency: str, fx: float = 0.0,
             rows: list[Any] | None = None) -> tuple[RegionUplift, list[OverheadPart], str | None]:
    """The share on top of the GPU rate this plan pays (their sum, with the worst grade of its parts), its parts,
    and why egress is not among them (``no_egress_reason``, or ``unknown`` without tokens; None where it is).
    ``gpu_bill``: the on-demand GPU bill in USD (low, high) the egress and VPN shares are taken of; ``fx``: CNY per
    USD (a mainland VPN gateway is priced in yuan)."""
    parts = [_part(n) for n in RENTED_PARTS if n != "overhead_support_share" or support_applies(rows)]
    vpn = vpn_part(c, region, gpu_bill, conv, fx)
    if vpn is not None:
        parts.append(vpn)
    skipped = no_egress_reason(c, region)
    if skipped is None:
        eg = egress_part(tokens, tokens_high, gpu_bill, conv, currency)
        if eg is None:
            skipped = "unknown"
        else:
            parts.append(eg)
    lo, hi = sum(p.low for p in parts), sum(p.high for p in parts)
    grade = max((p.grade for p in parts), key=lambda g: GRADES.index(g) if g in GRADES else len(GRADES))
    total = RegionUplift(low=round(lo, 4), high=round(hi, 4), source="; ".join(p.source for p in parts),
                         date=max(p.date for p in parts), grade=grade)  # fmt: skip
    return total, parts, skipped


def parts_of(costs: Any) -> list[OverheadPart]:
    """The components a plan's cloud figures carry (empty where it rents nothing)."""
    return list(getattr(costs, "cloud_overhead_parts", None) or [])


__all__ = ["egress_part", "no_egress_reason", "overhead", "parts_of", "rented_share", "support_applies", "vpn_part"]
