"""Sector rules blind review 25 found missing (issue #25): a clinical tool's medical-device question (q03: "confirm that
note summarisation shown to doctors is not clinical decision support that would need medical-device (NMPA software)
classification"), and a securities firm's own IT-security rule beside 等保 (q04).

NMPA's guideline on classifying AI medical software (《人工智能医用软件产品分类界定指导原则》, announcement 2021
No. 47) manages as a medical device AI software whose intended use is diagnosis or treatment — decision support such
as lesion identification or drug calculation (class III where the algorithm is not yet proven in practice, class II
for data processing that gives clinical reference information); software for hospital management or health
management does not meet the device definition and is not a device. A model serving a hospital's clinicians (or a
health firm's business customers) is checked against it before launch: a summariser that gives no diagnostic or
treatment suggestion is normally not a device; one that suggests diagnoses or treatment is registered first. A
patients' service is checked too (blind review 30, q14: a follow-up bot that drifts into clinical advice could count
as a device), in its own short words (variant ``patients``: clinical advice may make it a device; it cites the
guideline alone, which keeps q14 within five pages); who may answer patients about their care is
``med.internet_diagnosis``'s finding (the AI never in the doctor's place).

A securities, futures or fund-management firm (the answers' sector names one: ``sector_kinds.is_securities``; a plain
"finance" does not say which regulator, so it stays silent) that builds, runs or uses networks and information
systems in the mainland is under the CSRC's Measures on network and information security (证券期货业网络和信息安全
管理办法, Order No. 218, in force 1 May 2023), Art. 2; its responsibility is not transferred or reduced by a provider's
products or services (Art. 4). A bank's or an insurer's provider has its own finding (``fin.cn_it_outsourcing``).

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); sources with date and grade in
``resources/plan/duties36.json``, texts in ``resources/i18n/*/duties36.json``.
"""

from __future__ import annotations

from advisor.plan.duties_rules import OWN_HARDWARE
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_health, is_securities

MAINLAND_NODES = ("mainland", "mainland_plus_overseas")


@rule("med.device_software", "constraint")
def device_software(f: Facts) -> Finding | None:
    """A health-sector model in the mainland, whoever reads its output (clinicians, health businesses or patients):
    check the intended use against NMPA's AI medical software guideline before launch (announcement 2021 No. 47).
    The guideline classifies software by its intended use, not by who reads it, so a patients' service is checked
    as well; its text speaks of reminders and follow-up rather than of a doctors' summariser."""
    c = f.ctx
    if not is_health(c.sector):
        return None
    if not (c.has_mainland_users or f.region in MAINLAND_NODES):  # the NMPA's rules bind the mainland market
        return None
    return finding("med.device_software", variant="patients" if c.audience == "public" else None)


@rule("fin.csrc_it_security", "constraint")
def csrc_it_security(f: Facts) -> Finding | None:
    """A securities, futures or fund firm's model in the mainland: its systems under the CSRC's network and
    information security Measures (Order No. 218), beside the classified protection scheme; on a provider's servers
    or API the firm keeps the responsibility (Art. 4)."""
    if not is_securities(f.ctx.sector) or f.region not in MAINLAND_NODES:
        return None
    return finding("fin.csrc_it_security", variant=None if f.form in OWN_HARDWARE else "provider")


__all__ = ["csrc_it_security", "device_software"]
