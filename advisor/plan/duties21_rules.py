"""Duties the tenth blind review found missing (issue 25, s21-duties21), each from a public source graded in
``resources/plan/duties21.json``:

- a bank's or a financial firm's public service on rented VMs in Hong Kong or Singapore: the spare VM in another
  availability zone of the region, as the regulator's business-continuity and technology-risk guidance expects
  of where the primary and its back-up sit (q25: "N+1 is two VMs in one HK region with no AZ or DR placement,
  which a bank's contingency plan will ask for"; q37: "N+1 within one AZ is weak for a public financial service
  under MAS TRM expectations; say two AZs");
- a staff tool in the EU whose prompts carry employees' personal data: HR questions often carry special
  categories of data (health, trade-union membership, religion), which GDPR Art. 9 prohibits without one of its
  conditions, and on a US-owned cloud the question of access from outside the EU (q38: "the memo accepts '0
  sensitive' and never mentions Art. 9"; "with a US hyperscaler, mention the US-parent access/transfer-impact
  issue"; "the region should be stated as a specific EU region").

Elsewhere in this session's change: Japan's APPI named for a Japanese consumer chat answered "no personal
information" (``pi.consumer_chat_none``'s ``jp`` case), health data named in an insurer's sensitive-data note, the
level-3 classified-protection assessment before launch, the generative-AI filing question for a free business
service on a mainland node, and a filed service's algorithm filing as a check rather than a gate. Here also: a
closed pilot while a public service's filing runs past its deadline (q30).

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/obligations21_duties21.json``.
"""

from __future__ import annotations

from advisor.plan.duties15_rules import _eu_staff
from advisor.plan.result import Finding
from advisor.plan.rule_base import RULES, Facts, finding, rule
from advisor.plan.sector_kinds import is_finance

# the regions whose financial regulator's guidance a source read here states (one case each)
ZONE_REGIONS = {"hong_kong": "hk", "singapore": "sg"}
RENTED = ("cloud", "cloud_then_bare_metal")  # VMs the provider places in its zones (own servers: the team's site)


@rule("fin.two_zones", "constraint")
def two_zones(f: Facts) -> Finding | None:
    """A financial firm's service for its customers (public or business, not a staff tool, not a batch) on two or
    more rented VMs in Hong Kong or Singapore, with an N+1 spare: the spare is worth little in the same data
    centre as the VM it stands in for. The HKMA's business-continuity module (SPM TM-G-2, 2022) asks for technology
    recovery and alternate sites, and its 2002 circular names the risk of concentrating primary and back-up in one
    place; the MAS Technology Risk Management Guidelines (2021) expect critical systems highly available and
    recovered within hours. So the VMs go in two availability zones of the region (the same rent). Where the
    recovery site sits (a second region, the firm's own data centre) is the firm's plan: said, not decided."""
    c = f.ctx
    case = ZONE_REGIONS.get(f.region)
    if case is None or not is_finance(c.sector) or c.internal_only or c.is_batch or f.form not in RENTED:
        return None
    lay = getattr(f.chosen, "layout", None)
    if lay is None or lay.units < 2 or not lay.spare_units:
        return None
    return finding("fin.two_zones", variant=case, units=lay.units)


@rule("pi.eu_special_category", "constraint")
def eu_special_category(f: Facts) -> Finding | None:
    """A staff tool in the EU whose prompts carry employees' personal data: HR and policy questions often carry
    special categories (health and sick leave, trade-union membership, religion — in Germany through church tax),
    which Art. 9(1) GDPR prohibits unless an Art. 9(2) condition applies (for employment, (b): obligations under
    employment law or a collective agreement). Said whatever the sensitive count: an answer of 0 is kept and
    challenged, a count above 0 is the same duty. On rented cloud VMs the case ``cloud`` adds the provider's
    side: name the EU region in the contract, and ask a provider with a parent outside the EU how it answers a
    foreign authority's request for data held in the EU — a transfer impact assessment for any access from
    outside the EEA (EDPB Recommendations 01/2020). Own servers in the company's site: no provider to ask."""
    c = f.ctx
    if not (_eu_staff(f) and c.personal_info) or c.is_batch:
        return None
    given = c.sensitive_subjects
    return finding("pi.eu_special_category", variant="cloud" if f.form in RENTED else None,
                   given={"tr": "duties21.art9.given_zero" if given == 0 else "duties21.art9.given_other"
                          if given is not None else "duties21.art9.given_none", "n": given or 0})  # fmt: skip


@rule("genai.closed_pilot", "constraint")
def closed_pilot(f: Facts) -> Finding | None:
    """A public generative-AI launch the filing cannot meet (``genai.filing_deadline`` fires): the interim path an
    engineer names is a closed pilot with invited users under an agreement, no open sign-up — use not offered to
    the public is outside the Interim Measures (Art. 2). Said as a path to check with the provincial CAC, not as a
    ruling: no source here draws the line between a closed pilot and a public service (tenth blind review q30:
    "the only fix offered is waiting about 240 days; an expert would add interim paths"). Not for a service used by
    minors (answered): there guardian consent and, for education, 双减 come first."""
    if f.ctx.answers.minors is True:  # a children's service: a pilot with invited pupils brings guardian consent and
        return None  # (education) 双减 ahead of any filing — the memo's first questions there, not a pilot (q07)
    deadline = RULES["genai.filing_deadline"].fn(f)  # the same conditions, read at call time (registered in rules)
    if not isinstance(deadline, Finding):
        return None
    return finding("genai.closed_pilot", kind=deadline.params["kind"])
