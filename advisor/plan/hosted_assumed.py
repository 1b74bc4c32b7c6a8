"""A cheaper hosted API weighed on what it rests on: the volume, where it is served from, the prompts' length
(s24-api24, issue 25, round 13 of the blind review).

Three rules, each where the hosted API is cheaper than the plan at every price (``hosted_weigh.choice``):

- the volume (q24, q34, q35, q42: "the hosted-API headline rests on an assumed 100 users and overrides the user's
  explicit rented-H20 request"): where the tokens a month are our estimate (from the peak, the head count or the
  data subjects) and not the user's own figure (requests a day, a job's requests, a measured load), the API cannot
  set aside the self-hosted plan the answers describe on that basis (``volume_assumed``). Round 14 reversed it (an
  estimate is no reason either way, s25-apivol25): the plan is kept only for a real reason (``hosted_kept``), else
  the memo starts on the API and asks the request count first. Where the plan's cheapest month is above the user's
  budget, the budget decides, not the volume: the API still leads (q40);
- where it is served from (q12, q21, q22: "yardstick APIs 40–150× cheaper are set aside without reasons"): a price
  row none of whose providers serves from the node's region was a "yardstick", never weighed. Where its providers
  serve from a place the prompts may go from the node's users (the neighbouring region on the same submarine
  routes, ``hosted_prices.NEAREST_REGIONS``; the mainland, for a mainland company's mainland users on an offshore
  node while its filing is pending), and a tight first-token target the node was placed for does not rule out that
  round trip, the API is weighed like any priced one, with the transfer it makes said (``reachable``). Elsewhere (a
  US list for EU staff data, the mainland lists for Singapore users) the one deciding reason stays: no provider
  serving the region is priced, and why the others are not an option;
- the prompts' length (q10: "recommends a hosted API … without checking that the endpoint accepts 120k-token
  prompts"): a price row may state its endpoint's context limit (``max_context``, with ``max_context_source``);
  where it does and the plan's longest requests exceed it, the API is ruled out (``context_reason``); where it
  does not and they are longer than ``CONTEXT_CHECK_FROM``, the memo says to check that the endpoint accepts them
  (``context_clause``). Unknown stays unknown: no limit is assumed for a row that states none.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices, hosted_where
from advisor.plan.capacity_per_million import ANSWERED_VOLUMES
from advisor.plan.hosted_unserved import near_too_far
from advisor.plan.rule_base import Facts

KEY = "plan.api24"
# the volumes that are the user's own figure: requests a day, a job's requests (``ANSWERED_VOLUMES``), a load
# measured on the team's own service or fleet
OWN_VOLUMES = ANSWERED_VOLUMES | {"fleet20.volume.duty_measured", "plan.burst15.volume.fleet"}
# requests longer than this (prompt and answer, tokens) are said as a check where the row states no context limit:
# hosted endpoints of open models commonly serve 32k tokens, some no more (round 13, q10: "some list endpoints cap
# at 32k"); below it no endpoint priced here is known to refuse a request (a policy on when to ask, not a figure)
CONTEXT_CHECK_FROM = 32_768


def volume_assumed(f: Facts) -> bool:
    """The tokens a month behind the API's figure are the plan's estimate, not the user's own figure."""
    costs = f.cost.costs if f.cost is not None else None
    basis = (costs.volume_basis or {}) if costs is not None else {}
    return str(basis.get("tr", "")) not in OWN_VOLUMES


def budget_decides(f: Facts, plan_low: float) -> bool:
    """The plan's cheapest month is above the monthly budget the answers give: the budget, not the volume, sets the
    API against it (q40: ¥76k–¥209k a month against ¥5k)."""
    budget = f.ctx.budget_amount
    return budget is not None and plan_low > budget


def reachable(f: Facts) -> str | None:
    """Where a price row none of whose providers serves from the node's region is served from, where the prompts may
    go there ("singapore", "hong_kong", "mainland"); None where the row serves the region (no question), or where it
    is no option: a split plan's other users on mainland lists, a far region, a round trip past the first-token
    target the node was placed for."""
    got = hosted_where.mismatch(f)
    if got is None or f.region == "mainland_plus_overseas":
        return None
    where = hosted_where.served_from(got["tier"])
    near = [w for w in where if w in hosted_prices.NEAREST_REGIONS.get(str(got["region"]), ())]
    if near and not near_too_far(f, near[0]):
        return near[0]
    c = f.ctx
    # a mainland company serving mainland users from an offshore node while its filing is pending (q21): a mainland
    # provider's API takes the prompts back to the mainland, where its users and the company are
    if where == ["mainland"] and c.entity and c.mainland_share >= 1 and f.offshore:
        return "mainland"
    return None


def requested_tokens(f: Facts) -> int:
    """The plan's long requests, prompt and answer (the 95th percentiles): what an endpoint must accept."""
    return int(f.ctx.prompt_p95 + f.ctx.output_p95)


def max_context(f: Facts) -> int | None:
    """The context limit the API's price row states for its endpoint; None where it states none (unknown)."""
    tier = hosted_prices.hosted_rates(f.ctx).tier
    limit = tier.get("max_context") if tier is not None else None
    return int(limit) if limit else None


def context_reason(f: Facts) -> dict[str, Any] | None:
    """A reason against the API: its endpoint's stated limit is below the plan's long requests; None elsewhere."""
    limit = max_context(f)
    need = requested_tokens(f)
    if limit is None or need <= limit:
        return None
    return {"tr": f"{KEY}.why.context", "limit": f"{limit:,}", "need": f"{need:,}"}


def context_clause(f: Facts) -> dict[str, Any] | str:
    """" Check that the endpoint accepts requests of 122,000 tokens …" where the row states no limit and the plan's
    long requests pass ``CONTEXT_CHECK_FROM``; "" elsewhere."""
    need = requested_tokens(f)
    if max_context(f) is not None or need <= CONTEXT_CHECK_FROM:
        return ""
    return {"tr": f"{KEY}.context", "need": f"{need:,}"}


__all__ = ["CONTEXT_CHECK_FROM", "OWN_VOLUMES", "budget_decides", "context_clause", "context_reason",
           "max_context", "reachable", "requested_tokens", "volume_assumed"]
