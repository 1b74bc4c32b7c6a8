"""The rent a purchase on the team's own network is paid back against: a like-for-like one (issue 25, blind review 20,
q02: "an always-on service on the office LAN cannot run on a marketplace container … the fair yardstick is an always-on
cloud GPU VM").

The general rule, by what each price row is (``provider`` in resources/plan/prices.json):

- A service that stays up on the team's own network (an interactive or API service reached on the office LAN or a
  private network, 24 × 7 or by working hours) is compared with a rent that can be that service: a cloud VM of a
  hyperscaler, a domestic cloud or a neocloud's own data centre, rented by the month (deployment facts §3.1: Tencent
  Cloud bills monthly, grade A; §4 rule 15: "a hyperscaler or domestic cloud for compliance and SLAs").
- A GPU marketplace's rows (hosts of many owners: AutoDL-style containers, RunPod's listed rates) and spot prices are
  the yardstick of batch and development work only: rented by the hour with no data-centre contract (§4 rule 15: "a
  neocloud for price"), they rank the cards and price a test, but are no always-on host on a private network.

Where the printed rent of the plan's own GPU is only a marketplace's, the purchase is paid back against the cheapest
like-for-like VM the region lists with at least that GPU's memory, and the memo names that offer; where no such row is
sourced, the printed rent stays the comparator (nothing is invented).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan.answers import OWN_NETWORK_REACH
from advisor.plan.data import gpus_by_id
from advisor.plan.result import PriceRow

# providers whose GPU rows are VMs in the provider's own data centres (an always-on host with a contract)
VM_PROVIDERS = ("hyperscaler", "domestic_cloud", "specialty")
# a card of "the same memory" within this share (24 GB parts report 24 GiB or a little less)
_MEMORY_SLACK = 0.95


@dataclass(frozen=True)
class Yardstick:
    row: PriceRow
    usd_per_gpu_hour: tuple[float, float]


def always_on_private(ctx: Any, reach: str | None) -> bool:
    """A service (not an offline batch) that stays up on the team's own network, as answered."""
    return not ctx.is_batch and reach in OWN_NETWORK_REACH


def marketplace_only(rows: list[PriceRow]) -> bool:
    """The printed rent is a GPU marketplace's (or spot) alone: no row of it is a VM, none is the user's quote."""
    return bool(rows) and all((r.provider == "marketplace" or r.kind == "spot") and not r.user_quote for r in rows)


def _card(gpu: str) -> tuple[int, str] | None:
    """(memory in bytes, vendor) of a GPU: a like-for-like card holds as much and runs the same engine build."""
    g = gpus_by_id().get(gpu)
    return (g.memory_bytes, g.vendor) if g is not None else None


def find(book_rows: Any, gpu: str, region: str, fx: float) -> Yardstick | None:
    """The cheapest sourced on-demand VM row in ``region`` (its own rows only: a mainland plan on mainland clouds, §4
    rule 16) of a GPU of ``gpu``'s vendor with at least its memory; None where none is sourced."""
    need = _card(gpu)
    if need is None:
        return None
    best: Yardstick | None = None
    for r in book_rows:
        # a sourced price only: a placeholder (grade U) is no yardstick to pay a purchase back against
        if r.kind != "on_demand" or r.provider not in VM_PROVIDERS or r.region != region or r.user_quote \
                or r.grade == "U":
            continue
        got = _card(r.gpu)
        if got is None or got[1] != need[1] or got[0] < need[0] * _MEMORY_SLACK:
            continue
        lo, hi = (r.low / fx, r.high / fx) if r.unit.upper().startswith("CNY") else (r.low, r.high)
        if best is None or lo < best.usd_per_gpu_hour[0]:
            best = Yardstick(r, (lo, hi))
    return best


__all__ = ["VM_PROVIDERS", "Yardstick", "always_on_private", "find", "marketplace_only"]
