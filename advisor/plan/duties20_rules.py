"""Duties the ninth blind review found missing (issue 25, s20-duties20), each from a public source graded in
``resources/plan/duties20.json``:

- a plan that sends personal information to a hosted API: the provider processes it on the company's behalf, so a
  processing contract comes first, under the law that binds the company — PIPL's entrusted-processing contract
  (Art. 21: purpose, period, method, kinds of information, protection measures, return or deletion at the end;
  and the impact assessment before entrusting, Art. 55), the GDPR's processor contract (Art. 28(3)), Hong Kong's
  PDPO (the data user answers for its processor; DPP4 and DPP3 by contract), Singapore's PDPA (s. 24, s. 26); a
  law no source here states is left unsaid (q16: "the entrusted-processing contract with the API provider, PIPL
  Art. 21, and its retention terms are missing");
- only domestic accelerators allowed on a mainland node: the likely 信创 (IT application innovation) rule behind
  it, as state-owned enterprises and public bodies apply it, reaches the rest of the stack, and the system is
  graded under the classified protection scheme (q08: "等保 filing and 信创 expectations are not mentioned").

Elsewhere in this session's change: Singapore's PDPA for the overseas users beside mainland ones on a Singapore
node (``pi.region_residency``), the impact assessment and separate consent an exempt export still needs
(``pi.export_exempt``), 双减 as a blocker for a paid service (``edu.double_reduction``), the licence path of a paid
service not yet filed (``icp.required``'s ``paid`` case) and the classified-protection level's reason by sector.

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/obligations20_duties20.json``.
"""

from __future__ import annotations

from advisor.catalog import get_gpu
from advisor.plan.duties19_rules import US_DESIGNED
from advisor.plan.duties_rules import pi_region_residency
from advisor.plan.hosted_data_reason import KEY, is_sensitive, jurisdiction, sector_kind
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _gpu_names, finding, rule
from advisor.plan.sector_kinds import mlps_level

# the laws whose processor terms a source read here states (``resources/plan/duties20.json``, one case each)
STATED = ("pipl", "pdpo", "pdpa", "gdpr")
# the data-residency finding's case on the same law (``pi.region_residency``'s variants)
RESIDENCY_CASE = {"pdpo": "hk", "pdpa": "sg", "gdpr": "eu"}


@rule("pi.api_processor", "constraint")
def api_processor(f: Facts) -> Finding | None:
    """The plan is a hosted API and the prompts carry personal information: the provider processes it for the
    company, so the contract the company's law asks of a processor is signed before launch (the case by
    ``hosted_data_reason.jurisdiction``: mainland users or node → PIPL, else the node's law). What the prompts carry
    is said as the hosted-API reason says it (children's, patients', customers' information). "No personal
    information" answered, or a law no source here states: silent; where the data-residency finding's case on the
    same law already names the provider's contract (a Singapore, Hong Kong or EU node), silent too (said once)."""
    c = f.ctx
    if f.form != "hosted_api" or not c.personal_info:
        return None
    law = jurisdiction(f)
    if law not in STATED:
        return None
    residency = pi_region_residency(f)  # its provider case names the same contract under the same law (PDPA s. 24
    if isinstance(residency, Finding) and RESIDENCY_CASE.get(law) == residency.title_key.split(".")[-2]:  # 26, PDPO,
        return None  # GDPR Art. 28): said once
    kind = sector_kind(c)
    what = f"{KEY}.what.{kind or 'general'}.{'sensitive' if is_sensitive(c) else 'personal'}"
    return finding("pi.api_processor", variant=None if law == "pipl" else law, what={"tr": what})


@rule("procure.domestic_stack", "constraint")
def domestic_stack(f: Facts) -> Finding | None:
    """Only domestic (non-US-designed) accelerators allowed, on a mainland node: a state-owned enterprise's or public
    body's 信创 rule is the usual reason, and it reaches the CPUs, operating system, database and serving software
    too — said as a condition (the answers name the parts, not the rule; SASAC's 2022 document no. 79 is known from
    secondary reports only, grade C). The classified-protection grading is named here where ``mlps.filing`` leaves
    a staff tool out (a team under such a rule grades its systems; the level is not the plan's to decide)."""
    c = f.ctx
    if not c.gpu_constraint or f.region not in ("mainland", "mainland_plus_overseas") or c.is_batch:
        return None
    if any(get_gpu(g).vendor in US_DESIGNED for g in c.gpu_constraint):
        return None
    graded = mlps_level(c, f.region) is not None  # mlps.filing states the grading itself: not said twice
    return finding("procure.domestic_stack", gpus=_gpu_names(list(c.gpu_constraint)),
                   mlps="" if graded else {"tr": "duties20.domestic.mlps"})
