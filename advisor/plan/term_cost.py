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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from advisor.plan import forms
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook

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


def judge(c: Ctx, region: str, book: PriceBook) -> Callable[[Any], TermCost | None]:
    """A function from a setup (``sizing.Candidate``) to its ``TermCost`` bought whole, None where the part has no
    purchase price; each bought layout is costed once (the ranking asks for it many times)."""
    fx = float(book.fx()["cny_per_usd"])
    seen: dict[tuple[str, int, int], TermCost | None] = {}

    def of(k: Any) -> TermCost | None:
        lay = forms.owned_layout(c, k, region)
        sig = (k.gpu.id, lay.total_gpus, lay.units)
        if sig not in seen:
            own = forms.bought_whole(c, book, k, region, fx, 1.0, lay)
            seen[sig] = None if own is None else TermCost(capex=own.capex, running=own.running(c.ops),
                                                          months=own.horizon, servers=lay.units)
        return seen[sig]

    return of


__all__ = ["TermCost", "judge"]
