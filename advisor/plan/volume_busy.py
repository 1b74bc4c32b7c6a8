"""The busy share the memo's own month of tokens implies, beside the utilisation the cost table assumes, for the
power, the break-even and the own/rent verdict (s21-util21b, eleventh blind review: q01 "assumes 40 % utilisation
for power, yet its own tokens row says the box would be about 1 % busy"; q03, q14, q24 the same for the break-even
and the rent verdict; q08 70 %).

The cost model keeps the load pattern's utilisation (``advisor.plan.context.UTILISATION``) for its totals: the
power, the break-even months and the engine's form rule are computed on it before the setup's capacity, which the
volume's share needs, is known (the sizing table's throughput at the planned load, ``capacity_per_million``). Where
the tokens row keeps the setup under half that busy, the memo says each figure on both bases instead of one stated
as fact:

- power: the draw and the month's power at the volume's share (the draw is linear in the share, so the figure is
  the assumed one scaled, end by end, exactly as ``office_power.average_draw`` builds it), the totals said to count
  the assumed share, the higher figure;
- the break-even: whether owning pays back at the volume's share, read from the break-even utilisation over the
  horizon (the share at which renting the busy hours costs what owning does, ``advisor.plan.payback``), then the
  months at the assumed share, labelled "if it were kept N % busy";
- the own/rent findings: the volume's share beside the assumed one, and where the form rests on the assumption
  (rent first, measure, then buy), said so.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.i18n import translate
from advisor.plan.memo_per_million import busy_text
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange

# the same test the utilisation row applies (memo_per_million.utilisation_value): a volume under half the assumed
# share contradicts it; closer, the two are one estimate said twice
CONTRADICTS_BELOW = 0.5


def contradicting_share(costs: Any) -> float | None:
    """The share of the setup's capacity the tokens row fills, where the cost table's utilisation is an assumption
    (not this service's measured duty) and that volume keeps the setup under half as busy; else None (no volume, a
    batch job, a measured duty, or a volume about as busy as assumed)."""
    if costs is None or costs.utilisation_measured or costs.per_job or costs.utilisation <= 0:
        return None
    own = (costs.per_million_basis or {}).get("own_volume")
    if not own:
        return None
    busy = float(own["busy"])
    return busy if busy < costs.utilisation * CONTRADICTS_BELOW else None


def draw_at(idle: MoneyRange, share: float) -> tuple[float, float]:
    """(low, high) average draw around the clock, as a share of full load, busy ``share`` of the hours and idle the
    rest at ``idle``'s ends (``office_power.average_draw``'s arithmetic on a saved result)."""
    return idle.low + (1 - idle.low) * share, idle.high + (1 - idle.high) * share


def power_at(power: MoneyRange, idle: MoneyRange, assumed: float, share: float) -> MoneyRange:
    """The month's power at ``share`` busy, from ``power`` at ``assumed``: each end scaled by its own draw ratio
    (energy = full-load kW × PUE × draw × hours, every factor but the draw the same)."""
    a_lo, a_hi = draw_at(idle, assumed)
    s_lo, s_hi = draw_at(idle, share)
    return MoneyRange(low=power.low * s_lo / a_lo, high=power.high * s_hi / a_hi)


def power_basis(costs: Any) -> dict[str, Any]:
    """The share the power of an owned setup's finding was computed at, as a phrase: the tokens row's where the
    engine costed it there (``Costs.usage_busy``, s22-owncost22), else the assumed utilisation."""
    busy = costs.usage_busy if costs is not None else None
    if busy is None:
        return {"tr": "owncost22.basis.assumed"}
    return {"tr": "owncost22.basis.volume", "busy": share_phrase(busy)}


def duty_share(costs: Any) -> float:
    """The busy share an owned setup's average draw was computed at (``power_basis``'s)."""
    return costs.usage_busy if costs.usage_busy is not None else costs.utilisation


def power_clause(costs: Any, power: MoneyRange | None, idle: MoneyRange | None, lang: str) -> str:
    """After an owned setup's power row, where the volume contradicts the utilisation: the power at the assumed
    share, "if it were N % busy", where the row is at the volume's (s22-owncost22); the older "; at the tokens row's
    volume …: draw …, about ¥… a month; the totals count the assumed N %" where it is still at the assumed share
    (a result saved before); "" elsewhere."""
    busy = contradicting_share(costs)
    if busy is None or power is None or idle is None:
        return ""
    if costs.usage_busy is not None:
        lo, hi = draw_at(idle, costs.utilisation)
        draw = f"{lo * 100:.0f}" if round(lo * 100) == round(hi * 100) else f"{lo * 100:.0f}–{hi * 100:.0f}"
        return translate(lang, "owncost22.power.assumed", util=f"{costs.utilisation * 100:.0f}", draw=draw,
                         cost=money_range(power_at(power, idle, costs.usage_busy, costs.utilisation), costs.currency))
    lo, hi = draw_at(idle, busy)
    draw = f"{lo * 100:.0f}" if round(lo * 100) == round(hi * 100) else f"{lo * 100:.0f}–{hi * 100:.0f}"
    return translate(lang, "util21b.power.volume", busy=busy_text(busy, lang), draw=draw,
                     cost=money_range(power_at(power, idle, costs.utilisation, busy), costs.currency),
                     util=f"{costs.utilisation * 100:.0f}")


def owning_at_volume(costs: Any) -> str | None:
    """Whether owning pays back over the horizon at the volume's share: ``never`` (not even fully busy), ``below``
    (under the best case's break-even share), ``best_case_only`` (between the ends), ``pays`` (above both); None
    where the volume does not contradict the utilisation or no break-even was costed."""
    busy = contradicting_share(costs)
    be = costs.break_even_utilisation if costs is not None else None
    if busy is None or be is None:
        return None
    if be.low is None:
        return "never"
    if busy < be.low:
        return "below"
    return "best_case_only" if be.high is None or busy < be.high else "pays"


def break_even_text(costs: Any, lang: str, at_assumed: str) -> str:
    """The "Owning pays off" value: at the volume's share first where it contradicts the utilisation, then
    ``at_assumed`` (the months at the assumed share) labelled "if it were kept N % busy"; ``at_assumed`` alone
    elsewhere."""
    verdict, busy = owning_at_volume(costs), contradicting_share(costs)
    if verdict is None or busy is None or at_assumed == "—":
        return at_assumed
    be = costs.break_even_utilisation
    # the best case's share, rounded up as the break-even row rounds it (owning pays back at the percent shown)
    need = "" if be.low is None else translate(lang, "util21b.need", pct=math.ceil(be.low * 100 - 1e-9))
    months = costs.break_even_months
    # owning pays back at neither share: one sentence, not the same verdict twice
    neither = verdict in ("never", "below") and months is not None and months.reason in ("never", "beyond_horizon")
    return translate(lang, f"util21b.breakeven.{verdict}" + ("_neither" if neither else ""),
                     busy=busy_text(busy, lang), horizon=costs.horizon_months, need=need,
                     util=f"{costs.utilisation * 100:.0f}", assumed=at_assumed)


def finding_clause(costs: Any) -> dict[str, Any] | str:
    """A ``{"tr": …}`` phrase for the own/rent findings: the volume's share and what it means for owning, where it
    contradicts the utilisation they are worded on; "" elsewhere."""
    verdict, busy = owning_at_volume(costs), contradicting_share(costs)
    if verdict is None or busy is None:
        return ""
    return {"tr": f"util21b.finding.{verdict}", "busy": share_phrase(busy)}


def share_phrase(busy: float) -> dict[str, Any]:
    """The volume's busy share as a ``{"tr": …}`` phrase ("under 1 %", "2 %")."""
    return {"tr": "costbasis21.busy.under_one"} if busy < 0.005 else \
        {"tr": "costbasis21.busy.pct", "pct": f"{busy * 100:.0f}"}


__all__ = ["CONTRADICTS_BELOW", "break_even_text", "contradicting_share", "draw_at", "duty_share", "finding_clause",
           "owning_at_volume", "power_at", "power_basis", "power_clause", "share_phrase"]
