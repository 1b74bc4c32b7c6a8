"""The personal-information reason a self-hosted plan gives against a hosted API, by the law and the sector that apply
(s19-apireason, ninth blind review, issue 25).

The reason used to be one sentence for every memo: "sensitive personal information (financial or health records),
which a provider may process only after separate consent and an impact assessment, and in a regulated firm under its
supervisor's outsourcing rules". That is mainland PIPL wording (separate consent, Art. 29; impact assessment, Art. 55)
carried into Hong Kong and Singapore memos (q25, q37), it called data "sensitive" where the answers count no one with
sensitive data, and it put banks' outsourcing rules into a hospital's memo (q03, q14) and a children's app's (q07).
Here the reason is built from three parts, each from the answers:

- what the prompts carry: sensitive personal information only where the answers count people with it, or leave the
  count open in a sector whose data is sensitive by nature (health, financial accounts, children's information);
  a count of 0 is taken at its word (the data is then the customers' personal data);
- the law that binds a provider processing it, by where the data is processed (the node, or the users in the
  mainland): PIPL (entrusted processing under a contract, Art. 21; for sensitive data an impact assessment of the
  entrustment first, Art. 55 — not a fresh separate consent: entrusting is not providing the data to another
  processor, the Art. 23 case, and the separate consent of Art. 29 is the team's own, for its own processing; blind
  review 26, q14: "not a fresh separate consent for the entrustment itself"), Hong Kong's PDPO (DPP4 and DPP3: the data processor bound by contract), Singapore's PDPA
  (protection, s. 24; transfer, s. 26), the GDPR (a processor contract, Art. 28), or the local law unnamed;
- the sector's own rule, one only: health information rules, the financial-outsourcing rules, or the minors' rules.

The sources are those the memo's own findings on the same law cite (``pi.region_residency``'s per-region variants,
``pi.sensitive_safeguards`` for the PIPL's sensitive class).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.duties_rules import minors_pi_said, pi_sensitive
from advisor.plan.regions import EU, MAINLAND_REGIONS
from advisor.plan.rule_base import Facts, rule_sources
from advisor.plan.sector_kinds import is_finance, is_health

KEY = "plan.apireason19"
# the jurisdiction's source: the finding on the same law, the first of its sources (the law itself, not a
# supervisor's guideline the variant also names)
# the PIPL's entrustment articles among ``pi.api_processor``'s sources (Art. 21 and 55, grade B)
ENTRUSTMENT_SOURCES = ("PIPL Art. 21", "PIPL Art. 55")
LAW_SOURCES = {"pdpo": ("pi.region_residency", "hk"), "pdpa": ("pi.region_residency", "sg"),
               "gdpr": ("pi.region_residency", "eu")}


def jurisdiction(f: Facts) -> str:
    """Whose data-protection law binds a provider processing the prompts: pipl | pdpo | pdpa | gdpr | any."""
    c = f.ctx
    if f.region in MAINLAND_REGIONS or c.has_mainland_users:
        return "pipl"
    if f.region == "hong_kong":
        return "pdpo"
    if f.region == "singapore":
        return "pdpa"
    if f.region == "europe" or any(m in EU for m in c.overseas_markets):
        return "gdpr"
    return "any"


def sector_kind(c: Any) -> str | None:
    """The answers' sector whose own rule binds a provider: health | finance | minors (one only), or None."""
    if is_health(c.sector):
        return "health"
    if is_finance(c.sector):
        return "finance"
    if c.answers.minors is True:
        return "minors"
    return None


def is_sensitive(c: Any) -> bool:
    """Sensitive personal information: people counted with it, or the count left open in a sector whose data is
    sensitive by nature. An answered 0 stands (a bank that counts none is not told its data is sensitive)."""
    if c.sensitive_subjects is not None:
        return c.sensitive_subjects > 0
    return sector_kind(c) is not None


def data_reason(f: Facts) -> dict[str, Any]:
    """The clause "the prompts carry {what}, which a provider may process only {law}{sector}" (``{more}`` after)."""
    c = f.ctx
    kind, sensitive, law = sector_kind(c), is_sensitive(c), jurisdiction(f)
    what = f"{KEY}.what.{kind or 'general'}.{'sensitive' if sensitive else 'personal'}"
    law_key = f"{KEY}.law.{law}" + (".sensitive" if law == "pipl" and sensitive else "")
    sector = {"tr": f"{KEY}.sector.{kind}.{'pipl' if law == 'pipl' else 'any'}"} if kind else ""
    if law == "pipl" and kind == "minors" and sensitive and minors_said(f):
        # the guardian's consent, the separate consent and the impact assessment are the minors' and the sensitive
        # findings' (Art. 29, 31, 55): pointed to, not said a third time (q07, s20-q07pages)
        law_key, sector = "q07pages20.law.pipl.minors_said", {"tr": "q07pages20.sector.minors_said"}
    return {"tr": f"{KEY}.why.data", "what": {"tr": what}, "law": {"tr": law_key}, "sector": sector}


def processor_law(f: Facts) -> str:
    """The processor terms of the jurisdiction's law, as a noun phrase (the ordinary-PI arrangement's parenthesis)."""
    law = jurisdiction(f)
    return f"{KEY}.terms.{law}" if law in ("pdpo", "pdpa") else f"plan.apiweigh18.law.{law}"


def minors_said(f: Facts) -> bool:
    """The memo has both the minors' finding and the sensitive-information finding (Art. 28, 29, 31, 55 said there)."""
    return minors_pi_said(f) and pi_sensitive(f) is not None


def law_sources(f: Facts, why: list[dict[str, Any]]) -> list[Any]:
    """The sources of the law the reasons name (``why``: a personal-information reason among them, else none): the
    finding on the same law's first source; for the PIPL's sensitive class, the entrustment's articles (a children's
    service: the sensitive-information finding's, to which its text points)."""
    named = [w for w in why if w["tr"] in (f"{KEY}.why.data", "plan.hosted16.why.pi")]
    if not named:
        return []
    law = jurisdiction(f)
    if law == "pipl":
        sensitive = named[0]["tr"] == f"{KEY}.why.data" and is_sensitive(f.ctx)
        # a children's service: the sensitive-information finding's own case (its Art. 28 source is the minors'
        # finding's, not cited twice under two titles; s20-q07pages)
        case = "minors" if sector_kind(f.ctx) == "minors" and minors_pi_said(f) else None
        if not sensitive:
            return []
        if case is None:  # the entrustment's own articles, Art. 21 and 55, as the reason names them (s35-duties, q14)
            return [s for s in rule_sources("pi.api_processor") if s.title.startswith(ENTRUSTMENT_SOURCES)]
        return list(rule_sources("pi.sensitive_safeguards", case))
    if law in LAW_SOURCES:
        rid, variant = LAW_SOURCES[law]
        return list(rule_sources(rid, variant))[:1]
    return []


__all__ = ["data_reason", "is_sensitive", "jurisdiction", "law_sources", "processor_law", "sector_kind"]
