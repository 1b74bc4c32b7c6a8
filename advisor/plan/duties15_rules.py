"""Regional duties the session-15 expert reviews found missing (issue 25, s15-duties): a Hong Kong bank's outsourcing
notice (HKMA SPM SA-2), South-East Asian users' own data-protection laws beyond Singapore's, and for staff in the EU
an impact assessment (GDPR Art. 35) and, in Germany, the works council's co-determination (BetrVG § 87(1) no. 6).

Registered in ``advisor.plan.rules``' registry (imported at its end); sources with date and grade in
``resources/plan/duties.json``, texts in ``resources/i18n/*/duties15.json``.
"""

from __future__ import annotations

from advisor.plan.duties_rules import OWN_HARDWARE
from advisor.plan.finance20_rules import serves_indonesia_financial
from advisor.plan.regions import EU
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import FINANCE_SECTORS

# markets in South-East Asia other than Singapore (whose PDPA pi.region_residency states); "SEA" names them all
SEA_MARKETS = {"SEA", "ID", "VN", "TH", "MY", "PH", "KH", "LA", "MM", "BN", "TL"}
# the laws this plan has read a source for; the other markets get "their own law, not stated here"
SEA_READ = ("ID", "VN", "TH", "MY", "PH")  # Malaysia, the Philippines: s21-duties21 (tenth blind review q37)


def _finance(f: Facts) -> bool:
    return any(s in f.ctx.sector for s in FINANCE_SECTORS)


@rule("fin.hkma_outsourcing", "constraint")
def hkma_outsourcing(f: Facts) -> Finding | None:
    """A financial firm on a Hong Kong node, on a provider's cloud, servers or API: for an authorized institution
    (a bank) running it there is outsourcing under the HKMA's Supervisory Policy Manual SA-2 (applies to all AIs),
    with the HKMA consulted before a material arrangement; the launch waits on it, not only on the set-up days."""
    if f.region != "hong_kong" or not _finance(f) or f.form in OWN_HARDWARE:  # (own servers: no provider)
        return None
    return finding("fin.hkma_outsourcing")


def _sea(f: Facts) -> list[str]:
    return [m for m in f.ctx.overseas_markets if m in SEA_MARKETS]


@rule("pi.sea_markets", "constraint")
def sea_markets(f: Facts) -> Finding | None:
    """Personal data of users in South-East Asian markets beyond Singapore: each country's own law covers its
    residents' data and its transfer abroad (Indonesia PDP Law No. 27/2022, Vietnam Decree 13/2023 Art. 25 and the
    2025 PDP Law, Thailand PDPA B.E. 2562, Malaysia PDPA 2010 s. 129 as amended in 2024, the Philippines' Data
    Privacy Act 2012), not only the node's law."""
    markets = _sea(f)
    if not markets or not f.ctx.personal_info:
        return None
    # a finance service with Indonesian users: Indonesia's financial-data line is its own finding (s20-finance20)
    variant = "finance_id" if serves_indonesia_financial(f) else None
    return finding("pi.sea_markets", variant=variant, markets=", ".join(markets))


def _eu_staff(f: Facts) -> bool:
    c = f.ctx
    return c.audience == "internal" and any(m in EU for m in c.overseas_markets)


@rule("pi.eu_employee_dpia", "constraint")
def eu_employee_dpia(f: Facts) -> Finding | None:
    """Employees' personal data in a staff tool in the EU: employees are vulnerable data subjects and an AI model is
    a new technology (two of the WP29/EDPB criteria, WP248 rev.01), so a DPIA (GDPR Art. 35) before processing."""
    if not (_eu_staff(f) and f.ctx.personal_info):
        return None
    return finding("pi.eu_employee_dpia")


@rule("labour.works_council", "constraint")
def works_council(f: Facts) -> Finding | None:
    """A staff tool in the EU: where staff work in Germany with a works council, a system able to monitor their
    behaviour or performance (logs tied to a login) needs its co-determination (BetrVG § 87(1) no. 6); said as
    certain when Germany (DE) is named, as a condition when only "EU" is."""
    if not _eu_staff(f) or f.ctx.is_batch:
        return None
    return finding("labour.works_council", variant="de" if "DE" in f.ctx.overseas_markets else None)
