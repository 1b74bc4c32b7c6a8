"""A nearly idle fleet serves with every card (issue #25, blind review 31, q33: "it treats the 10 % measured load as
other people's work ('ask its owners'), even though the team says the cards are almost idle. Lead with 4 × TP2 on
the 8 cards, 2 per machine").

A fleet measured at most ``NEARLY_IDLE`` busy with under one card's worth of work on it (10 % of 8 cards: 0.8) holds
no card back: that light work is moved or paused by an engineer in minutes, so the plan is sized on all the cards and
no question about whose the load is is asked (either answer leaves the plan as it is); the assumption says what is
taken. Busier fleets keep the free share (``fleet.free_gpus``) and the question. Kept apart from ``fleet`` so that
``context`` (which ``fleet`` imports) can say the assumption without a cycle.
"""

from __future__ import annotations

NEARLY_IDLE = 0.1
KEY = "lead41.assume.fleet_idle"


def nearly_idle(count: int, utilisation: float) -> bool:
    """The fleet's measured load is light enough that every card serves this service."""
    return 0 < utilisation <= NEARLY_IDLE + 1e-9 and count * utilisation < 1.0 - 1e-9


__all__ = ["KEY", "NEARLY_IDLE", "nearly_idle"]
