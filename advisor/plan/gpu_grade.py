"""Which internal services are held to a data-centre GPU like a production one (issue 25, s15-prodgpu).

Deployment-facts rule 12 keeps consumer cards (GeForce 4090/4090D/5090: half-rate FP32 accumulate, 24–32 GB, no
NVLink, a driver licence that excludes data-centre deployment) for dev/test and internal tools. ``gpu_choice``
already sets them aside for a paid, public or business-facing service (the ones that carry N+1). Blind reviewers
sent back two internal services that an engineer would not put on GeForce cards either (q03, q17):

- a service in the organisation's server room (reached over its private network or VPN, or on a fleet it runs)
  that processes sensitive personal data: health or financial records, data marked highly sensitive, or a
  sensitive-PI count above zero (a hospital group's clinical notes across five hospitals);
- a box bought once from a one-off equipment budget to run for years in a server room (a university lab's
  shared server): a data-centre part when one fits the budget, so it need not run at the edge of the target.

An office tool on the LAN keeps its consumer card (q01/q02/q33): the box stands in the office, and a team that
already runs the consumer card keeps it (``gpu_choice.tiers``). The tier only orders setups that all meet the
target; the consumer setup still wins when no data-centre part does.
"""

from __future__ import annotations

from advisor.plan.batch_policy import sensitive_data
from advisor.plan.context import Ctx
from advisor.plan.site_words import SERVER_ROOM, answered_reach, owned_site


def internal_grade_reason(c: Ctx) -> str | None:
    """Why an internal service runs on a data-centre part: ``sensitive`` (sensitive personal data in a server room),
    ``server_room`` (a box bought on a one-off budget for a server room), else None (consumer cards allowed)."""
    if c.is_batch or not c.internal_only:
        return None
    fleet = getattr(c.answers, "current_fleet", None) is not None
    if owned_site(answered_reach(c), fleet=fleet) != SERVER_ROOM:
        return None  # an office box on the LAN (or a site the answers do not give): consumer cards stay
    if sensitive_data(c):
        return "sensitive"
    if getattr(c.answers, "capex_budget", None) is not None:
        return "server_room"
    return None
