"""Whether owning pays back, decided by one figure: the plan's horizon.

The cost table shows two break-evens, months ("owning pays off after …") and utilisation ("break-even
utilisation …"), and the rent finding says whether owning pays back. They used to answer different questions:
months counted the purchase paid back within the horizon, utilisation compared a 36-month amortised cost with
renting. A memo then read "break-even 25 % in the best case" beside "owning does not pay back at 40 %" (q24,
fifth blind review). Here the utilisation break-even is the one at which the purchase is paid back exactly at the
end of the horizon, the same sum the months figure makes: at the stated utilisation, the best case pays back
within the horizon exactly when that utilisation is at or above the best-case break-even utilisation.
"""

from __future__ import annotations

import math

from advisor.plan.result import BreakEven

Pair = tuple[float, float]


def up(share: float, places: int = 3) -> float:
    """A break-even utilisation rounded UP: owning pays back at the figure shown, never just below it. Rounded to
    nearest, 40.04 % read "break-even 40 %" beside "at your 40 % owning does not pay back" (q34, session 18)."""
    scale = 10**places
    return math.ceil(share * scale - 1e-9) / scale


def percent_up(share: float) -> int:
    """The break-even utilisation in whole percent, rounded up (see ``up``)."""
    return math.ceil(share * 100 - 1e-9)


def from_ratios(best: float, worst: float) -> BreakEven:
    """Utilisation above which owning is cheaper (best case for owning … worst case). Above 100 % there is
    none: the end is None and the reason says so in words (it used to read as a utilisation of 482 %)."""
    if best > 1:
        return BreakEven(reason="never", reason_key="plan.breakeven.utilisation.never")
    if worst > 1:
        return BreakEven(low=up(best), reason="worst_case_never",
                         reason_key="plan.breakeven.utilisation.worst_case_never",
                         reason_params={"low": percent_up(best)})  # fmt: skip
    return BreakEven(low=up(best), high=up(worst))


def utilisation_over_horizon(capex: Pair, fixed: Pair, per_util: Pair, full_cloud: Pair, horizon: int) -> BreakEven:
    """Utilisation at which renting and owning cost the same over ``horizon`` months (best case for owning … worst).

    Owning over the horizon: capex + (fixed + per_util × u) × horizon, where ``fixed`` is the monthly running cost
    that does not depend on use (colocation, staff, idle power) and ``per_util`` the part that grows with it
    (power above idle). Renting: full_cloud × u × horizon (``full_cloud``: every GPU billed all month, USD).
    Solved for u: (capex ÷ horizon + fixed) ÷ (full_cloud − per_util)."""
    def solve(c: float, f: float, v: float, full: float) -> float:
        return (c / horizon + f) / (full - v) if full > v else math.inf

    best = solve(capex[0], fixed[0], per_util[0], full_cloud[1])
    worst = solve(capex[1], fixed[1], per_util[1], full_cloud[0])
    return from_ratios(best, max(best, worst))


def verdict(months: BreakEven | None) -> str | None:
    """What the months break-even says about owning at the stated utilisation and horizon: ``never`` (not within
    the horizon, or never), ``best_case_only`` (within the horizon in the best case, not in the worst) or ``always``
    (within the horizon at both ends); None when owning was not costed."""
    if months is None:
        return None
    if months.reason in ("never", "beyond_horizon"):
        return "never"
    if months.reason in ("worst_case_never", "worst_case_beyond_horizon"):
        return "best_case_only"
    return "always"
