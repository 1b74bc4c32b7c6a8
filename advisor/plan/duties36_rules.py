"""A clinical tool's medical-device question (issue #25, blind review 25, q03: "confirm that note summarisation shown
to doctors is not clinical decision support that would need medical-device (NMPA software) classification").

NMPA's guideline on classifying AI medical software (《人工智能医用软件产品分类界定指导原则》, announcement 2021
No. 47) manages as a medical device AI software whose intended use is diagnosis or treatment — decision support such
as lesion identification or drug calculation (class III where the algorithm is not yet proven in practice, class II
for data processing that gives clinical reference information); software for hospital management or health
management does not meet the device definition and is not a device. A model serving a hospital's clinicians (or a
health firm's business customers) is checked against it before launch: a summariser that gives no diagnostic or
treatment suggestion is normally not a device; one that suggests diagnoses or treatment is registered first. A
patients' service has its own finding (``med.internet_diagnosis``: the AI never in the doctor's place).

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); sources with date and grade in
``resources/plan/duties36.json``, texts in ``resources/i18n/*/duties36.json``.
"""

from __future__ import annotations

from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_health

MAINLAND_NODES = ("mainland", "mainland_plus_overseas")


@rule("med.device_software", "constraint")
def device_software(f: Facts) -> Finding | None:
    """A health-sector model for clinicians or health businesses (not the public) in the mainland: check the intended
    use against NMPA's AI medical software guideline before launch (announcement 2021 No. 47)."""
    c = f.ctx
    if not is_health(c.sector) or c.audience == "public":  # patients: med.internet_diagnosis says what binds
        return None
    if not (c.has_mainland_users or f.region in MAINLAND_NODES):  # the NMPA's rules bind the mainland market
        return None
    return finding("med.device_software")


__all__ = ["device_software"]
