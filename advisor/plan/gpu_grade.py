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

- any other internal service in a server room (s18-rows, seventh blind review, q38: "recommending that a German
  manufacturer buy GeForce 4090s for its server room is questionable"): NVIDIA's GeForce driver licence (§2.1.3,
  "No Datacenter Deployment") does not license data-centre deployment and does not say what a data centre is, so a
  rack reached over the company's network is a data-centre part's place.

An office tool on the LAN keeps its consumer card (q01/q02/q33): the box stands in the office, and a team that
already runs the consumer card keeps it (``gpu_choice.tiers``). The tier only orders setups that all meet the
target; the consumer setup still wins when no data-centre part does.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.batch_policy import sensitive_data
from advisor.plan.context import Ctx
from advisor.plan.data import PriceBook
from advisor.plan.purchase_rank import one_off_budget_usd, purchase_usd, stand_in_straddle
from advisor.plan.site_words import SERVER_ROOM, answered_reach, owned_site


def internal_grade_reason(c: Ctx) -> str | None:
    """Why an internal service runs on a data-centre part: ``sensitive`` (sensitive personal data on a private network:
    a server room if bought, the provider's data centre if rented, as ``GpuChoice._why_key`` words it),
    ``server_room`` (a box bought on a one-off budget for a server room), ``licence`` (any other server room: the
    GeForce licence), else None (consumer cards allowed: an office box, or a site the answers do not give)."""
    if c.is_batch or not c.internal_only:
        return None
    fleet = getattr(c.answers, "current_fleet", None) is not None
    if owned_site(answered_reach(c), fleet=fleet) != SERVER_ROOM:
        return None  # an office box on the LAN (or a site the answers do not give): consumer cards stay
    if sensitive_data(c):
        return "sensitive"
    if getattr(c.answers, "capex_budget", None) is not None:
        return "server_room"
    return "licence"


def grade_tier(c: Ctx, cand: Any, book: PriceBook, *, production: bool) -> int:
    """``gpu_choice.Tiers.grade``: 1 for a consumer card set aside (``production``: the service is held to a
    data-centre part), else 0. For a box bought on a one-off budget, a data-centre setup whose purchase breaks that
    budget is set aside as well, so the cost decides between it and the consumer card: the data-centre part only
    where it fits (an office tool offered "buy the server for X" keeps the consumer box X buys)."""
    if not production:
        return 0
    if cand.gpu.market == "consumer":
        return 1
    if internal_grade_reason(c) == "server_room" and not _purchase_fits(c, cand, book):
        return 1
    return 0


def _purchase_fits(c: Ctx, cand: Any, book: PriceBook) -> bool:
    """The high end of the setup's purchase (cards and their share of a server, in USD) within the one-off budget,
    as the plan judges its own purchase (``forms``), or over it only at the high end of a stand-in price whose
    middle the budget covers (``purchase_rank.stand_in_straddle``: the quote decides, not the placeholder); False
    when the part has no purchase price."""
    budget = one_off_budget_usd(c, book)
    if budget is None:
        return True
    price = purchase_usd(book, cand)
    return price is not None and (price[1] <= budget or stand_in_straddle(c, cand, book))
