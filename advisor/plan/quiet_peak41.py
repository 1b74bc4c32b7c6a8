"""A smaller setup that holds less than the stated peak is no "degraded option" where the service is nearly idle
(issue 25, blind review 31, q17).

Where a purchase straddles a one-off budget, the smaller setup on the same GPU within it was called "a degraded
option, not an equal one … buy it only with the owner's written sign-off" when it holds fewer than the stated peak of
simultaneous requests at the target (blind review 27). Review 31 read that for a 20-person lab whose month uses about
1 % of the larger setup: "2 cards serve a 20-person lab well (utilisation ~1 %) … 20 truly simultaneous requests are
rare"; "calling 2 × L20 'a degraded option' that needs 'the owner's written sign-off' overstates the risk".

Here, where the cost table's GPU-use row (``usage_share.printed``, high end) is at most ``QUIET`` of capacity, the
smaller setup is said as serving the load, with the stated peak as the rare moment when some requests wait; above it
the sign-off stays.
"""

from __future__ import annotations

from typing import Any

# the GPU-use row's high end at or under which the stated peak is a rare moment: the larger setup is then busy a
# tenth of the month at most, the smaller (half its replicas or more) a fifth
QUIET = 0.10


def busy(result: Any) -> str | None:
    """The GPU-use row's percent ("1", "1–3") where its high end is at most ``QUIET``, else None."""
    from advisor.plan import usage_share  # the engine's module: imported where it is read

    costs = getattr(result, "costs", None)
    if costs is None or getattr(costs, "utilisation", None) is None:
        return None
    if usage_share.printed(costs, None)[1] > QUIET:  # type: ignore[arg-type]  # costs set: the context is not read
        return None
    return usage_share.printed_pct(costs, None)  # type: ignore[arg-type]


__all__ = ["QUIET", "busy"]
