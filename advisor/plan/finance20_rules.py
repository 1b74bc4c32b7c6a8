"""Indonesian users of a financial service (issue 25, s20-finance20; re-check of session 19, q37).

The reviewers of a Singapore fintech's South-East Asian budgeting assistant wrote: Indonesia's Personal Data
Protection Law counts personal financial data as *specific* (sensitive) personal data, yet the plan kept the answers'
"0 sensitive subjects"; and Indonesian financial-sector rules could make one Singapore node unlawful for Indonesian
users, "a decision item, not a footnote". So, for a finance service with Indonesia among its markets (``ID``, or
``SEA`` for the whole region) served from a node outside Indonesia: one finding on page 1 that says the law's reading
beside the user's answer (never changing it) and asks Indonesian counsel whether a sector rule keeps the data in
Indonesia before Indonesian users are served from the node. The South-East Asian finding (``pi.sea_markets``) then
leaves its own line on Indonesia's bank rule to this one (its ``finance_id`` text).

Sources with date and grade in ``resources/plan/duties.json``; texts in ``resources/i18n/*/obligations20_finance20``.
"""

from __future__ import annotations

from advisor.plan.regions import market_region
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_finance

# the markets that put Indonesian users in the plan: Indonesia named, or the whole region
INDONESIA_MARKETS = ("ID", "SEA")


def serves_indonesia_financial(f: Facts) -> bool:
    """A financial service holding personal data of users in Indonesia, on a node outside Indonesia (no region of
    this plan is in Indonesia, so every node is)."""
    c = f.ctx
    return (is_finance(c.sector) and bool(c.personal_info)
            and any(m in INDONESIA_MARKETS for m in c.overseas_markets))


@rule("pi.id_financial_data", "constraint")
def id_financial_data(f: Facts) -> Finding | None:
    """Indonesia's PDP Law (UU 27/2022) Art. 4(2)(f): personal financial data is specific personal data, whatever
    the answers' count of sensitive subjects (the mainland PIPL's reading) says; a DPIA for processing it (Art. 34),
    a DPO where large-scale processing of it is the core activity (Art. 53). GR 71/2019 Art. 21(1) lets a private
    electronic system operator process and store data abroad, but financial-sector rules (OJK's for the institutions
    it supervises; Bank Indonesia's for payment service providers) can keep it in Indonesia: confirm which applies
    before serving Indonesian users from the node."""
    if not serves_indonesia_financial(f):
        return None
    c = f.ctx
    # the node the Indonesian users reach: the overseas one of a mainland + overseas plan
    node = market_region(c.overseas_markets) if f.region == "mainland_plus_overseas" else f.region
    given = c.sensitive_subjects
    return finding("pi.id_financial_data", region={"tr": f"plan.region.{node}"},
                   given={"tr": "obligations20.id.given" if given is not None else "obligations20.id.not_given",
                          "n": given or 0})
