"""What rules a hosted API out, the real reason a plan keeps its own GPUs, and where a recommended API must run
(s21-apilead21, issue 25, tenth blind review).

Three things the reviewers found in the hosted-API reasoning of ``hosted_weigh`` and ``hosted_lead``:

- **Ruled out, not weighed.** A firm whose contracts must not leave the office (q01), an office tool on the LAN
  (q02) or a lab with a one-off grant and no monthly bill (q17) had "a hosted API is likely cheaper (¥32–¥59 …), but
  …" among page 1's five reasons: filler where the answers rule the API out. ``ruled_out`` says what rules it out
  (the prompts may not leave the office network; no monthly budget to
  pay an API from); the finding then says it in one line, without prices, after the deciding reasons.
- **The strongest true reason first.** "The prompts carry personal information" is an arrangement (a processor
  contract), not a bar (q09: an EU provider under GDPR Art. 28 is routine; q32: entrusted processing is routine).
  The reasons an expert gives are the generative-AI filing made on the model the service deploys (q32), a
  first-token target tight enough that a shared API's queue and round trip decide it (q09; q23), and the office
  LAN. ``filed_reason`` and ``latency_reason`` give them; ``hosted_weigh.reasons_to_self_host`` puts them before
  personal information. A tight target does not keep a far cheaper API out (q43): the lead then names an API served
  from where the node sits (``hosted_lead.near_users``).
- **Where the API runs.** "Start on a hosted API" under a plan that puts the node in Hong Kong because the ICP
  filing cannot finish in time (q21) never said where the API or the service in front of it runs, and "a provider in
  your users' region" is undefined for mainland users served from Hong Kong; a split plan's API was priced on
  mainland lists for South-East Asian users too (q34). ``runs_clause`` names the region the API must be served from
  (the plan's node region, or per user group), says the team's own service in front of it runs where the plan puts
  its node, and carries that location's duties (mainland users' prompts leave the mainland at the Hong Kong front
  end whatever the API's region).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices
from advisor.plan.latency_place import ttft_target_given
from advisor.plan.regions import market_region
from advisor.plan.rule_base import Facts, _region

KEY = "plan.apilead21"


def filed_reason(f: Facts) -> dict[str, Any] | None:
    """A public generative-AI service already filed: the filing names the model and service as deployed, so moving
    onto a provider's API changes what was filed (q32: the reason an expert gives, not personal information)."""
    c = f.ctx
    return {"tr": f"{KEY}.why.filed"} if c.public_genai and c.genai_filing == "filed" else None


def lan_reason(f: Facts) -> dict[str, Any] | None:
    """A service used only on the office LAN: an API takes every prompt out of the office (a bar, q01, q02)."""
    return {"tr": f"{KEY}.why.lan"} if f.ctx.reach == "lan" else None


def latency_reason(f: Facts) -> dict[str, Any] | None:
    """A first-token target below ``latency_place.TIGHT_TTFT_MS`` the answers set: a shared API's queue and the round
    trip to where it runs are not the team's to control, and no list price states its P99 (q09, q23)."""
    slo = ttft_target_given(f.ctx)
    return {"tr": f"{KEY}.why.latency", "slo": round(slo)} if slo is not None else None


# the latency reason is met by an API served near the users whose P99 is measured: it never keeps a far cheaper API
# out (the lead says where it must run), only names the real reason where the plan is kept for other figures
LATENCY_KEY = f"{KEY}.why.latency"
SOFT_KEYS = frozenset({LATENCY_KEY})


# the team's own fine-tune: a per-token API serves only published models. Not "no hosted API serves it" (blind review
# 19, q30/q41: mainland platforms such as Bailian and Volcano Ark deploy custom models), which the detail says in a
# hedge with no source (deployment-facts.md has none): dedicated capacity, priced otherwise, the provider a processor
FINE_TUNE_BAR = {"tr": "plan.apiregion21.out.fine_tune"}
FINE_TUNE_DETAIL = "review29.fine_tune.ruled_out.detail"


def ruled_out(f: Facts) -> dict[str, Any] | None:
    """What in the answers rules a hosted API out, as a short clause; None where nothing does. Only bars an
    agreement with a provider cannot lift: the office LAN (highly sensitive data on it: the prompts may not leave the
    office) and a one-off hardware budget with no monthly one. Sensitive data on a private network (q03's patient
    records) keeps its reason in the words of the law that applies (``hosted_data_reason``), among the reasons."""
    c = f.ctx
    reach = c.answers.reach  # as answered: an assumed reach (a batch job's private network, q28) rules nothing out
    if reach == "lan":
        return {"tr": f"{KEY}.out.lan_high" if c.level == "high" else f"{KEY}.out.lan"}
    if c.answers.capex_budget is not None and c.budget_amount is None:
        return {"tr": f"{KEY}.out.capex"}
    # s21-apiregion21b (eleventh blind review): bars no contract lifts either, whose "would cost less, but …" sat among
    # page 1's reasons of memos that rightly reject the API: the team's own fine-tune, which no provider serves (q05),
    # and highly sensitive data the answers keep on the team's private network (q03's patient records on its WAN)
    if c.fine_tuned:
        return dict(FINE_TUNE_BAR)
    if reach == "private_network" and c.level == "high":
        return {"tr": "plan.apiregion21.out.private_high"}
    return None


def _overseas(f: Facts) -> dict[str, str]:
    node = f.overseas_node
    return _region(node.region if node is not None else market_region(f.ctx.overseas_markets))


def runs_clause(f: Facts) -> dict[str, Any]:
    """Where a recommended API must be served from and where the team's own service calls it from: the plan's node
    region (per user group where the plan splits), with that location's duties (a sentence, leading space)."""
    c = f.ctx
    if f.region == "mainland_plus_overseas":
        tier = hosted_prices.hosted_rates(c).tier
        lists = {"tr": f"{KEY}.runs.lists"} if tier is not None and tier.get("market") == "mainland" else ""
        return {"tr": f"{KEY}.runs.split", "overseas": _overseas(f), "lists": lists}
    if f.region == "mainland":
        return {"tr": f"{KEY}.runs.mainland"}
    if c.has_mainland_users:  # an offshore node for mainland users: the prompts cross at the front end
        return {"tr": f"{KEY}.runs.offshore", "region": _region(f.region)}
    return {"tr": f"{KEY}.runs.local", "region": _region(f.region)}


def start_words(f: Facts) -> dict[str, Any]:
    """The lead's opening words, naming where to start (q21: "start on a hosted API" read as demoting the Hong Kong
    launch the memo's first reason argues; "start in Hong Kong on a hosted API" keeps it)."""
    c = f.ctx
    if f.region == "mainland_plus_overseas":
        return {"tr": f"{KEY}.start.split"}
    if f.region == "mainland":
        return {"tr": f"{KEY}.start.mainland"}
    kind = "offshore" if c.has_mainland_users else "local"
    if kind == "offshore" and not c.entity:  # no later move to the mainland: not "start in" (review 27, q22)
        return {"tr": "filedwait38_start.offshore", "region": _region(f.region)}
    return {"tr": f"{KEY}.start.{kind}", "region": _region(f.region)}


def quote_clause(top: float, plan_low: float, amount: Any, *, margin: float, sells: bool,
                 licence: bool = False, registers: tuple[int, int] | None = None) -> dict[str, Any] | str:
    """Where the API is cheaper at every price but by less than ``margin`` (``hosted_weigh.LEAD_MARGIN``; q11, q26,
    q31: "a gap the quotes can close" kept a dearer plan with no reason): the one figure a quote must beat, and, for
    a service that sells tokens (``sells``), reselling an API first. ``top``: the API at its dearest rate on the
    volume's high end; ``amount``: it in words. ``licence``: the paid service needs the B25 operating licence
    (``rules.icp_licence``), which reselling an API does not lift: said beside the advice (eleventh review, q11)."""
    if top * margin <= plan_low:
        return ""
    # s33-apiterms (blind review 22, q11): resale only where the provider's terms allow it, and at list prices with
    # the same margin problem as self-hosting: a stopgap unless the service adds what the customers cannot buy there
    return {"tr": f"{KEY}.quote", "top": amount, "resell": resell_clause(sells, licence, registers)}


def resell_clause(sells: bool, licence: bool = False, registers: tuple[int, int] | None = None) -> dict[str, Any] | str:
    """Reselling a hosted API, for a service that sells tokens: its conditions (the provider's terms, the margin,
    the B25 licence where the paid service needs it, the registration's days in place of the filing); "" else."""
    resell: dict[str, Any] | str = {"tr": "apiterms33.resell.b25" if licence else "apiterms33.resell"} if sells else ""
    if resell and registers is not None:
        # blind review 19, q11: "the memo should say whether the resale path could use the shorter 登记": reselling
        # a filed model's API unchanged is the registration (deployment facts §2.2), ``registers`` its days
        resell = {"tr": "review30.resell.registration", "resell": resell, "low": registers[0], "high": registers[1]}
    return resell


__all__ = ["FINE_TUNE_BAR", "FINE_TUNE_DETAIL", "LATENCY_KEY", "SOFT_KEYS", "filed_reason", "lan_reason", "latency_reason",
           "quote_clause", "resell_clause", "ruled_out",
           "runs_clause", "start_words"]
