"""Duties the twelfth blind review found missing (issue 25, s22-duties22c), each from a public source graded in
``resources/plan/duties22c.json``:

- personal information of mainland people sent to an offshore node under the standard contract (or a security
  assessment): the personal-information protection impact assessment (个人信息保护影响评估) that must come before
  the transfer (PIPL Art. 55(4)), with what it covers and its report kept three years (Art. 56); under the standard
  contract the report is filed with the contract at the provincial CAC office (q12: "Missing: the PIPIA (Art. 55)
  that must precede the transfer and accompany the standard-contract filing"). An exempt count already says it in
  its own finding (``pi.export_exempt``: "not from … an impact assessment before the transfer (Art. 55)").

Elsewhere in this session's change: a per-token API sold to businesses plans the generative-AI filing
(``per_token_public``); the B25 licence beside the generative-AI filing, their order asked (``filing_order``, s25).

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/duties22c_obligations.json``.
"""

from __future__ import annotations

from advisor.plan.pi_exporter import customers_export
from advisor.plan.pi_tier import export_tier
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule

# the export tiers whose procedure takes the assessment's report with it (the exempt tier's text names the duty)
PROCEDURE_TIERS = {"contract": None, "assessment": "assessment"}


@rule("pi.export_impact_assessment", "constraint")
def export_impact_assessment(f: Facts) -> Finding | None:
    """Offshore node, mainland users' personal information, a count that needs the standard contract (or
    certification) or the security assessment: assess the impact before the first transfer (PIPL Art. 55(4)) —
    the purpose and method lawful and necessary, the effect on people's rights and the risks, the protection
    measures (Art. 56) — and keep the report three years. Under the standard contract the report goes with the
    contract to the provincial CAC office (Standard Contract Measures; filing guide). When the business customers
    may be the exporters (no mainland entity, a business service), whoever signs the contract assesses."""
    c = f.ctx
    if not (f.offshore and c.has_mainland_users and c.personal_info):
        return None
    tier = export_tier(c)
    if tier not in PROCEDURE_TIERS:
        return None
    who = "duties22c.pia.who_customers" if customers_export(c) else "duties22c.pia.who_you"
    return finding("pi.export_impact_assessment", variant=PROCEDURE_TIERS[tier], who={"tr": who})
