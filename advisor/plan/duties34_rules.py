"""A public service in the EU that processes many people's personal data with a language model: a data protection
impact assessment before launch (GDPR Art. 35; issue #25, blind review 23, q09: "add a DPIA (Art. 35) for
large-scale call transcripts alongside the Art. 28 and Chapter V points").

The EDPB-endorsed guidelines (WP248 rev.01) count large-scale processing and the innovative use of a new technology
as two of their criteria; processing meeting two will in most cases need an assessment. A staff tool has its own
finding (``pi.eu_employee_dpia``: employees as vulnerable data subjects); this one reads the answers' count of people
a year against a planning threshold (``LARGE_SCALE_PEOPLE``, grade U: neither text sets a number). Registered in
``advisor.plan.rules``' registry (imported at its end); sources with date and grade in ``resources/plan/duties34.json``.
"""

from __future__ import annotations

from advisor.plan.regions import EU
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule

LARGE_SCALE_PEOPLE = 100_000  # people a year counted as "large scale" here (planning figure, grade U)


@rule("pi.eu_large_scale_dpia", "constraint")
def eu_large_scale_dpia(f: Facts) -> Finding | None:
    """Users in the EU, not staff, whose personal data the model processes, counted at ``LARGE_SCALE_PEOPLE`` a year
    or more: a DPIA before launch, with the count the answers give."""
    c = f.ctx
    if c.audience == "internal" or not c.personal_info or not any(m in EU for m in c.overseas_markets):
        return None
    if c.pi_subjects is None or c.pi_subjects < LARGE_SCALE_PEOPLE:
        return None
    return finding("pi.eu_large_scale_dpia", people=f"{c.pi_subjects:,}", threshold=f"{LARGE_SCALE_PEOPLE:,}")


__all__ = ["LARGE_SCALE_PEOPLE", "eu_large_scale_dpia"]
