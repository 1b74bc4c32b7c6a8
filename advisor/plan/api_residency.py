"""A hosted API served where the prompts may not go: said as not comparable, not as a yardstick price (issue 25,
blind review 25).

q38 (zh): "The US W&B API figure in the headline ('每月约 $6.14') does not apply to an EU-resident HR tool … drop it or
label it clearly as not comparable"; q25 (en): "Say outright that the Singapore API ('about $1,680') is out because
the data would leave Hong Kong against the regulator's expectation, not only because it is 'highly sensitive'"; (zh)
"The Singapore API comparison is irrelevant under the data-residency requirement and should go."

Where no priced provider serves the API's region (``hosted_where.mismatch``), the memo gives another region's list as
a yardstick. That holds where the prompts may go there; two kinds of answers keep them where the node is:

- ``eu``: a node in the EU for prompts that carry personal data: the plan's EU node keeps them under the GDPR without
  a transfer; an API served outside the EU is the transfer (Chapter V) the node is there to avoid;
- ``regulated``: highly sensitive prompts with personal data in a regulated sector (finance, health: the outsourcing
  rules ``hosted_data_reason`` names), where the supervisor's outsourcing review decides where the data is held (the
  HKMA's SA-2 finding for a Hong Kong bank says so): an API served in another jurisdiction is not for the team to
  choose on price.

There the other region's price is left out of the sentence and the reason is said in its place (``lists``); the
price row stays cited among the sizing sources.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_where
from advisor.plan.batch_policy import SENSITIVE_SECTORS
from advisor.plan.rule_base import Facts, _region

KEY = "apiweigh36.residency"
EU_REGIONS = frozenset({"europe"})


def miss(f: Facts) -> str | None:
    """"eu" or "regulated" where the only priced API is served where the prompts may not go (see the module), else None."""
    got = hosted_where.mismatch(f)
    c = f.ctx
    if got is None or not c.personal_info:
        return None
    if str(got["region"]) in EU_REGIONS:
        return "eu"
    if c.level == "high" and any(s in c.sector for s in SENSITIVE_SECTORS):
        return "regulated"
    return None


def yardstick(f: Facts, kind: str) -> dict[str, Any]:
    """The clause in place of the yardstick price: whose list is priced and why it is not comparable."""
    got = hosted_where.mismatch(f)
    assert got is not None
    tier, where = got["tier"], hosted_where.served_from(got["tier"])
    lists = {"tr": f"{KEY}.lists.one", "where": {"tr": f"plan.apiregion21.where.{where[0]}"},
             "providers": hosted_where.names(tier)} \
        if len(where) == 1 and all(p.get("serves_from") for p in hosted_where.providers(tier)) else \
        {"tr": f"{KEY}.lists.mixed", "providers": hosted_where.names(tier), "region": _region(str(got["region"]))}
    return {"tr": f"{KEY}.yardstick.{kind}", "lists": lists, "region": _region(str(got["region"]))}


def short(f: Facts, kind: str) -> dict[str, Any]:
    """The reason as the set-aside finding's title clause ("No hosted API serving … is priced here, and …")."""
    got = hosted_where.mismatch(f)
    assert got is not None
    return {"tr": f"{KEY}.short.{kind}", "region": _region(str(got["region"]))}


__all__ = ["EU_REGIONS", "KEY", "miss", "short", "yardstick"]
