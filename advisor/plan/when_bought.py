"""Findings of a purchase the plan defers, said as that purchase's (issue #25, blind review 21, q26).

Where the plan rents now and buys only once a quote meets the covered gate (``rent_until_covered``), the N+1 and
placement findings still describe the bought servers ("N+1 by the replica inside the 2 servers", "Where the replicas
go: … over 2 servers") as if they were the decision beside a rent-first headline. Their titles are said as the
conditional purchase's ("When bought: …"); the N+1 finding also names the capacity the team runs the service on
today (a measured load was answered) as the failover while the service moves and while a bought server is repaired
(reviewer, zh: "the team already runs this service at 80 % utilisation on existing capacity, which could act as the
failover during migration and repair")."""

from __future__ import annotations

from typing import Any

from advisor.plan import rent_until_covered
from advisor.plan.result import Finding

PURCHASE_FINDINGS = ("sizing.redundancy", "sizing.placement")
TITLE = "headline33.when_bought.title"
DETAIL_EXISTING = "headline33.when_bought.existing_failover"


def applies(form: str, costs: Any) -> bool:
    """The plan rents now and buys on a quote (``rent_until_covered.holds``)."""
    return rent_until_covered.holds(form, costs)


def mark(findings: list[Finding], form: str, costs: Any) -> list[Finding]:
    """``findings`` with the purchase's N+1 and placement titles said as the conditional purchase's (``title_wrap``;
    the rule's own ``title_key`` kept); unchanged where the plan does not rent first for that reason."""
    if not applies(form, costs):
        return findings
    measured = bool(getattr(costs, "utilisation_measured", False))
    out = []
    for f in findings:
        if f.id not in PURCHASE_FINDINGS:
            out.append(f)
            continue
        update: dict[str, Any] = {"title_wrap": TITLE}
        if f.id == "sizing.redundancy" and measured:
            update["detail_more"] = DETAIL_EXISTING
        out.append(f.model_copy(update=update))
    return out


__all__ = ["PURCHASE_FINDINGS", "applies", "mark"]
