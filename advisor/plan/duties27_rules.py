"""Client documents' confidentiality beyond the PIPL (issue 25 item 7, s27-duties27; blind review 16, q10: "client
documents carry confidentiality duties beyond PIPL"), from the sources graded in ``resources/plan/duties27.json``.

A legal service for business clients (or its own staff) that sends the clients' contracts to a provider — rented
GPU servers or a hosted API — owes the clients confidentiality whatever the personal-information rules say: what a
party learns while making a contract may not be disclosed or misused (Civil Code Art. 501), a contract's nature can
carry a duty of confidentiality in performing it (Art. 509), and lawyers keep their clients' secrets by law (Lawyers
Law Art. 38). Whether a given client contract lets a subcontractor or processor hold the documents is in that
contract, which the answers do not hold: the finding says which duties exist and asks the reader to check the client
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
# the forms under which a provider, not the firm, holds the documents (rented GPU servers, a hosted API)
PROVIDER_FORMS = ("cloud", "hosted_api")


@rule("confidentiality.client_documents", "constraint")
def client_documents(f: Facts) -> Finding | None:
    """A legal service for its clients or its staff whose plan puts the documents with a provider: confidentiality
    owed to the clients beyond the PIPL (Civil Code Art. 501, 509; Lawyers Law Art. 38) — check the client
    contracts before the documents go to the provider."""
    c = f.ctx
    if c.sector not in CLIENT_SECTORS or c.audience not in ("business", "internal") or f.form not in PROVIDER_FORMS:
        return None
    return finding("confidentiality.client_documents")


__all__ = ["client_documents"]
