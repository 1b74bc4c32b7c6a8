"""The cloud's rent rows left out of the cost table of a plan that runs on the team's own GPUs alone (blind review
18, q33: "the cloud-rental cost rows are irrelevant noise for an owned-hardware plan"; q18: "the cloud yardstick is
priced on 12 GPUs while the plan uses 14"). Owned GPUs cost their power, colocation and staff share, which the
owning rows give; renting stays in the memo only as the alternative the fleet finding names ("against … a month
renting the same setup"). A hybrid rents its bursts: its rent rows stay.

The cost table (``memo._cost_rows``, the one place that builds it) does not add these rows for such a plan; session
30 replaced the fold that dropped them afterwards by matching their translated labels, which would also have
dropped any other row that happened to read the same."""

from __future__ import annotations

from typing import Any

from advisor.plan import gpu_lead

# the cost-table rows that price renting the plan's setup (the month, its worked-out product, the hourly rate and
# the uplift on it), by their i18n keys
RENT_ROWS = ("memo4.cost.cloud_monthly", "memo.batchcost15.formula_label", "memo.cost.cloud_per_gpu_hour",
             "memo.cost.region_uplift")


def owns_it_all(result: Any) -> bool:
    """The plan runs on GPUs the team already owns, nothing rented beside them (no hybrid) and nothing bought."""
    layout, choice = result.hardware.layout, result.gpu_choice
    return result.deployment_form not in ("hosted_api", "hybrid") and layout is not None \
        and layout.basis == "fleet" and (choice is None or gpu_lead.owned_only(choice))


__all__ = ["RENT_ROWS", "owns_it_all"]
