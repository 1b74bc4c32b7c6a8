"""What a setup to buy costs over the plan's term, not at the till (issue #25, round 14: with a one-off budget just
under the H20 servers' purchase, q26's 72B business API bought 88 × A10 in 11 servers, the cheapest purchase, while
eleven servers draw more power, take more colocation and more of an engineer's time than three; q17's lab "would not
sign 8 × A10 for a four-year buy").

A setup is costed as the plan costs the one it buys (``forms.bought_whole``): the purchase (with the data-centre
extras in colocation), then each month the power at the site's PUE, colocation per kW where the form pays it, and an
engineer's share per server at the team's ops capability (the per-server staff factor, 0.08–0.8 of an engineer by
ops level: the server count's ops burden, in money). The term is the months the plan spreads the purchase over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from advisor.plan import forms
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook, gpus_by_id

Range = tuple[float, float]


@dataclass(frozen=True)
class TermCost:
    """A bought setup in USD: the purchase, the running cost a month, the months of the term, the servers."""

    capex: Range
    running: Range
    months: int
    servers: int

    @property
    def total(self) -> Range:
        return self.capex[0] + self.running[0] * self.months, self.capex[1] + self.running[1] * self.months

    @property
    def mid(self) -> float:
        return sum(self.total) / 2


class Judge:
    """Costs setups bought whole over the term, each bought layout once (the ranking asks for it many times):
    called on a setup (``sizing.Candidate``), or ``setup`` on a GPU, a count and the servers they fill (an option
    the memo names). None where the part has no purchase price."""

    def __init__(self, c: Ctx, region: str, book: PriceBook) -> None:
        self.c, self.region, self.book = c, region, book
        self.fx = float(book.fx()["cny_per_usd"])
        self.seen: dict[tuple[str, int, int], TermCost | None] = {}

    def __call__(self, k: Any) -> TermCost | None:
        lay = forms.owned_layout(self.c, k, self.region)
        return self._cost(k, lay.total_gpus, lay.units, lay)

    def setup(self, gpu_id: str, gpus: int, servers: int) -> TermCost | None:
        spec = gpus_by_id().get(gpu_id)
        return None if spec is None else self._cost(_Part(spec), gpus, servers, None)

    def _cost(self, k: Any, gpus: int, servers: int, lay: Any) -> TermCost | None:
        sig = (k.gpu.id, gpus, servers)
        if sig not in self.seen:
            bought = lay if lay is not None else _Bought(gpus, servers)
            own = forms.bought_whole(self.c, self.book, k, self.region, self.fx, 1.0, bought)  # type: ignore[arg-type]
            self.seen[sig] = None if own is None else TermCost(capex=own.capex, running=own.running(self.c.ops),
                                                               months=own.horizon, servers=servers)
        return self.seen[sig]


@dataclass(frozen=True)
class _Part:
    gpu: Any


@dataclass(frozen=True)
class _Bought:
    """What ``forms.bought_whole`` reads of a layout: the GPUs and the servers they fill."""

    total_gpus: int
    units: int


def judge(c: Ctx, region: str, book: PriceBook) -> Judge:
    """The term costing of the plan's setups to buy (``Judge``)."""
    return Judge(c, region, book)


__all__ = ["Judge", "TermCost", "judge"]
