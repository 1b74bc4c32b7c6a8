"""The memo's predicted TTFT and TPOT as a range a newcomer can plan with (issue #28): beside the table's P50 and P99,
the P50 times the factors that held for public measurements in the regime the load per replica is in (below the
plan's own predicted knee, or past it where the engine's queueing decides). The range is ``Capacity.likely``,
computed from the same predicted level as the table's figures (``advisor.plan.engine``), never re-derived here."""

from __future__ import annotations

from collections.abc import Callable

from advisor.domain.sizing import LatencySpan, Regime


def likely_clause(span: LatencySpan, regime: Regime, t: Callable[..., str], num: Callable[..., str]) -> str:
    """The clause after the table's P50 and P99: "; likely 197–1,081 ms past the knee, the engine decides (84 % of …)"."""
    digits = 1 if span.high < 100 else 0  # a TPOT of 12.3 ms keeps its decimal, a TTFT of 1,081 ms needs none
    return t(
        "likely26_range28.memo_clause",
        low=num(span.low, digits),
        high=num(span.high, digits),
        regime=t(f"likely26_range28.regime.{regime}"),
        held=f"{span.held * 100:.0f}",
    )
