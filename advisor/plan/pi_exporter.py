"""Who sends mainland people's personal information out of the mainland when the node is offshore (issue 25,
s19-duties19b): a company with no mainland entity serving business customers receives what each customer sends it,
so — on our reading of PIPL, said as such in the texts — each customer is the handler that exports its own people's
information, counts them against the tiers of the CAC's 2024 rules (deployment-facts §2.3, §4 rule 6) and signs the
standard contract with the company as the overseas recipient (PIPL Art. 38); the company is reached directly through
Art. 3(2) and Art. 53. One predicate, read by the "as answered" finding and the export-tier and consent findings, so
they never disagree on who exports (the eighth review read the tier finding as the Hong Kong company's own export, q22).
Where the count needs a procedure, the tier finding plans it on the whole count and leaves the per-customer count to
counsel (s22-duties22: the eleventh review read the split as telling most of q12's customers they were exempt).
"""

from __future__ import annotations

from advisor.plan.context import Ctx


def customers_export(c: Ctx) -> bool:
    """No mainland entity, offered to business customers (as answered or assumed): the customers are the exporters.
    A public or staff service, or a company with a mainland entity, exports itself."""
    return c.answers.mainland_entity is False and c.audience == "business"


__all__ = ["customers_export"]
