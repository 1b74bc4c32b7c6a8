"""A rent the answers rule out is one line, not a priced alternative (issue 25, blind review 28, q03).

Where highly sensitive data must stay on the team's own network (``rent_fallback.data_stays_inside``), a rented GPU
is no option: the memo already says "renting is no fallback". Review 28 still read q03's cost table pricing it in
detail — the month on demand, reserved and spot, the worked-out product with a site-to-site VPN, the payback "for
reference only" — and page 1's purchase row "renting … instead costs 39,962–50,662 CNY a month": "excluded because the
data must stay on-network, so drop them rather than price them in detail"; "the 'Cloud GPU servers, per month' row is
very long for an option that is ruled out; shorten it to one line".

Here such a plan's cost table keeps the renting row as one line saying why it is ruled out, its worked-out product,
hourly rate, uplift and payback rows gone; page 1's purchase note says no rent. The plan's JSON keeps every rent
figure (``costs.cloud_monthly``, ``costs.break_even_months``), and the price table its rent rows.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import rent_fallback

# the rows that price the rent or weigh the purchase against it (their labels' keys); the month row stays, one line
_DROPPED = ("memo.batchcost15.formula_label", "memo.cost.cloud_per_gpu_hour", "memo.cost.region_uplift",
            "plan.breakeven.months.label", "plan.breakeven.utilisation.label")
MONTH = "memo4.cost.cloud_monthly"


def applies(result: Any) -> bool:
    """An owned purchase whose answers keep the data on the team's own network: renting is ruled out."""
    answers = getattr(result, "answers", None) or {}
    owned = result.costs.owned if result.costs is not None else None
    return (result.deployment_form == "on_premises" and owned is not None and not owned.fleet_gpus
            and rent_fallback.data_stays_inside(answers))


def fold(rows: list[tuple[str, str]], result: Any, lang: str) -> list[tuple[str, str]]:
    """``rows`` with the renting month as one line saying why it is ruled out and its pricing rows gone, where the
    answers rule renting out; ``rows`` unchanged otherwise."""
    if not applies(result):
        return rows
    dropped = {translate(lang, k) for k in _DROPPED}
    month = translate(lang, MONTH)
    line = translate(lang, f"quote39_rent.ruled_out_{(result.answers or {}).get('reach')}")
    return [(label, line if label == month else value) for label, value in rows if label not in dropped]


__all__ = ["applies", "fold"]
