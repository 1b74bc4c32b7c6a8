"""Client documents' confidentiality beyond the PIPL (issue 25 item 7, s27-duties27; blind review 16, q10: "client
documents carry confidentiality duties beyond PIPL"), from the sources graded in ``resources/plan/duties27.json``.

A legal service for business clients (or its own staff) that sends the clients' contracts to a provider — rented
GPU servers or a hosted API — owes the clients confidentiality whatever the personal-information rules say: what a
party learns while making a contract may not be disclosed or misused (Civil Code Art. 501), a contract's nature can
carry a duty of confidentiality in performing it (Art. 509), and, where the sector names a law firm, lawyers keep
their clients' secrets by law (Lawyers Law Art. 38: cited for a law firm only, s31-bigctx32; blind review 20 read it
cited for a consultancy). Whether a given client contract lets a subcontractor or processor hold the documents is in
that contract, which the answers do not hold: the finding says which duties exist and asks the reader to check the client
contracts (unknown stays unknown). Art. 509 and Art. 38 are read in secondary quotations (grade C), so it carries ⚠.

Not for servers the firm owns (on its premises or colocated: no provider holds the documents), nor for a service to
the public (its users' own questions are not client documents held under a contract with them).

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in ``resources/i18n/*/duties27_duties27.json``.
"""

from __future__ import annotations

from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule

# the data-sensitivity sectors whose documents are clients' matters held under a contract with them
CLIENT_SECTORS = ("legal",)
# words of a sector that names a law firm (its lawyers' clients' documents): the Lawyers Law binds lawyers, so it is
# cited only there (blind review 20, q10: "《律师法》第三十八条 is cited although the client is a consulting firm")
LAW_FIRM_WORDS = ("law_firm", "law firm", "lawyer", "律师")


def is_law_firm(sector: str) -> bool:
    """The answers' sector names a law firm (or its lawyers): substrings, so "law_firm" and "律师事务所" both count."""
    return any(w in sector for w in LAW_FIRM_WORDS)


# the forms under which a provider, not the firm, holds the documents (rented GPU servers, a hosted API)
PROVIDER_FORMS = ("cloud", "hosted_api")


@rule("confidentiality.client_documents", "constraint")
def client_documents(f: Facts) -> Finding | None:
    """A legal service for its clients or its staff whose plan puts the documents with a provider: confidentiality
    owed to the clients beyond the PIPL (Civil Code Art. 501, 509; Lawyers Law Art. 38) — check the client
    contracts before the documents go to the provider."""
    c = f.ctx
    legal = c.sector in CLIENT_SECTORS or is_law_firm(c.sector)
    if not legal or c.audience not in ("business", "internal") or f.form not in PROVIDER_FORMS:
        return None
    # a law firm's own duty (Lawyers Law Art. 38) only where the sector names one; any other legal-documents service
    # (a consultancy reading its clients' contracts) owes the Civil Code's duties alone
    return finding("confidentiality.client_documents", variant="law_firm" if is_law_firm(c.sector) else None)


__all__ = ["LAW_FIRM_WORDS", "client_documents", "is_law_firm"]
