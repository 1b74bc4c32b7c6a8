"""Sector duties the memos did not name (issue 25, s17-sectors), each from a public source graded in
``resources/plan/sectors17.json``: an education app's filing with the education authority (教育移动应用备案), the
internet diagnosis rules when patients get answers about their care (AI never in the doctor's place, no prescription
it writes), the cybersecurity classified protection scheme (等保 / MLPS 2.0) of a system run in the mainland, and the
EU AI Act's transparency duties (Art. 50) for a chatbot or voice agent that people in the EU talk to.

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/sectors17.json``.
The MLPS and the education filing are steps of unknown length in the timeline (``untimed_waits``): the same rule
decides the finding and the step.
"""

from __future__ import annotations

from advisor.plan.result import Finding, TimelineItem
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_finance, is_health, mlps_level

# the AI Act binds the EU's 27 member states ("EU" names them all); unlike ``regions.EU`` (a node's market), the
# United Kingdom, Switzerland and Norway are left out: the Regulation is not their law
EU_MEMBERS = frozenset({"EU", "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE",
                        "IT", "LV", "LT", "LU", "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE"})  # fmt: skip


def _health(f: Facts) -> bool:
    return is_health(f.ctx.sector)


def _finance(f: Facts) -> bool:
    return is_finance(f.ctx.sector)


def _offered_in_mainland(f: Facts) -> bool:
    """People in the mainland use it, beyond the team's own staff, live (not an offline batch)."""
    c = f.ctx
    return c.has_mainland_users and not c.internal_only and not c.is_batch


@rule("edu.app_filing", "constraint")
def edu_app_filing(f: Facts) -> Finding | None:
    """An education service for pupils, parents or teachers in the mainland, offered beyond the team: an app or
    mini program of this kind is filed by its provider with the provincial education authority on the national
    platform (MoE and seven departments' Opinions, 教技函〔2019〕55号; MoE filing Measures 2019, Art. 2–3), and the
    filing asks for the ICP filing and the MLPS (等保) filing first. Said as a condition: the answers do not say it
    is an app (a web page alone is not named by the Measures)."""
    if f.ctx.sector != "education" or not _offered_in_mainland(f):
        return None
    return finding("edu.app_filing")


@rule("med.internet_diagnosis", "constraint")
def med_internet_diagnosis(f: Facts) -> Finding | None:
    """Patients in the mainland talk to a medical service's model: where it answers about their diagnosis or
    treatment, this is internet diagnosis and treatment (互联网诊疗), done by the institution's registered doctors —
    AI software may not act in a doctor's place and may not generate prescriptions (互联网诊疗监管细则（试行）, 2022).
    A tool only for clinicians (summarising notes, drafting documents) is not in scope, nor is a service offered
    to businesses: both stay silent."""
    if not _health(f) or f.ctx.audience != "public" or not _offered_in_mainland(f):
        return None
    return finding("med.internet_diagnosis")


def mlps_applies(f: Facts) -> bool:
    return mlps_level(f.ctx, f.region) is not None


def _mlps_after_move(f: Facts) -> Finding | None:
    """A plan launched offshore that moves to the mainland once its ICP filing is issued (``costs.phased``): the
    scheme applies from the move, to the mainland node (or the front end moved to a mainland host), and is said as
    that phase's duty (blind review 21, q21 zh: "the mainland phase should also list 等保 filing")."""
    phased = getattr(getattr(f.cost, "costs", None), "phased", None)
    if phased is None or phased.then_region != "mainland":
        return None
    level = mlps_level(f.ctx, "mainland")
    if level is None:
        return None
    level3 = level == 3
    return finding("mlps.filing", variant="after_move",
                   level={"tr": _level3_reason(f) if level3 else "plan.sectors17.mlps.level2"},
                   assess={"tr": f"duties21.mlps.assess.level{3 if level3 else 2}"})


@rule("mlps.filing", "constraint")
def mlps_filing(f: Facts) -> Finding | None:
    """Cybersecurity Law Art. 21: every network operator in the mainland protects its systems under the classified
    protection scheme (GB/T 22239-2019, MLPS 2.0). The system is graded by the harm a breach would do; level 2 and
    above is filed with the city's public security bureau within 30 days of going live, and level 3 is assessed by
    an accredited body every year (Classified Protection Measures 2007, Art. 14–15). A top-grade hospital's core
    systems are graded no lower than level 3 (the health ministry's 2011 guidance): the ``health`` variant says so,
    with the health commission's 2022 Measures for medical institutions (国卫规划发〔2022〕29号: the level set at
    planning, approved by the superior authority; the data in the mainland; s35-duties, blind review 26 q03 zh)."""
    if not mlps_applies(f):
        return _mlps_after_move(f)
    level3 = mlps_level(f.ctx, f.region) == 3
    # level 3: the first assessment once the system is built (Measures Art. 14), i.e. before launch, not only the
    # filing within 30 days of going live (tenth blind review q03/q07/q14, s21-duties21)
    # on a hosted API the team runs no model servers: the system it grades is the application calling the API, and a
    # level-2 one files after launch, a note rather than a warning (twelfth blind review q27: "the 等保 warning for a
    # hosted-API pilot is heavier than needed"; s22-duties22c)
    hosted = f.form == "hosted_api" and not _health(f)
    # a service already running (its own measured duty) has presumably been graded and filed: a move to new servers
    # or a new site reviews that grading and updates the filing, no first grading (blind review 20b, q26 zh)
    moving = running(f) and not hosted and not _health(f)
    assess = "misc32.mlps.assess.level3_running" if moving and level3 else f"duties21.mlps.assess.level{3 if level3 else 2}"
    return finding("mlps.filing", variant="health" if _health(f) else "hosted" if hosted else "running" if moving
                   else None,
                   severity="info" if hosted and not level3 else None,
                   level={"tr": _level3_reason(f) if level3 else "plan.sectors17.mlps.level2"},
                   assess={"tr": assess})


def running(f: Facts) -> bool:
    """The service already runs: the answers measure its own utilisation (``Ctx.duty_measured``: no fleet, or a fleet
    whose load is this service's), so its system exists and has presumably been graded under 等保 already."""
    return f.ctx.duty_measured


def _level3_reason(f: Facts) -> str:
    """Why level 3, the answers' own reason only: financial data, children's information, or other sensitive personal
    information (one phrase "financial or sensitive personal data" was read in a children's app's memo as banking
    boilerplate: q07, ninth blind review; s20-duties20)."""
    if _finance(f):
        return "duties20.mlps.level3.finance"
    return "duties20.mlps.level3.minors" if f.ctx.answers.minors is True else "duties20.mlps.level3.sensitive"


@rule("eu.ai_transparency", "constraint")
def eu_ai_transparency(f: Facts) -> Finding | None:
    """People in the EU talk to the model (a chatbot, an API answering end users, a voice agent): from 2 August 2026
    the AI Act's Art. 50 asks the provider to tell them they are dealing with an AI system (unless obvious), and to
    mark generated text or audio in a machine-readable way. A global market reads "if people in the EU use it". A
    staff-only tool and an offline batch stay silent."""
    c = f.ctx
    if c.internal_only or c.is_batch:
        return None
    if any(m in EU_MEMBERS for m in c.overseas_markets):
        return finding("eu.ai_transparency")
    if "global" in c.overseas_markets:  # the EU may be among the users: said as a condition, not as a fact
        return finding("eu.ai_transparency", variant="global")
    return None


# -- the timeline steps (advisor.plan.untimed_waits): no source here says how long they take ---------------------
def mlps_step(f: Facts) -> TimelineItem | None:
    """Grading, filing and (level 3) the assessment. The filing is due within 30 days of going live (Measures
    Art. 15), so a level-2 system's step does not hold the launch back. A level-3 system is assessed once it is
    built (Art. 14): the first assessment comes before launch, so its step blocks, of a length no source read here
    states (tenth blind review q03/q14: "I would schedule it before launch"; q07: the education app filing asks for
    the 等保 filing first, yet the timeline said "not before launch"; s21-duties21). The step names the level the
    finding decided: a level-2 system's step does not promise a level-3 assessment (s18-zhpolish)."""
    if not mlps_applies(f):  # the mainland phase's duty after an offshore launch (``_mlps_after_move``): no launch step
        return None
    level3 = mlps_level(f.ctx, f.region) == 3
    if running(f) and not _health(f) and f.form != "hosted_api":  # a running service's grading reviewed (q26)
        label = "misc32.timeline.mlps_running_level3" if level3 else "misc32.timeline.mlps_running"
    else:
        label = "duties21.timeline.mlps_level3" if level3 else "wording18.timeline.mlps_filing.level2"
    return TimelineItem(id="mlps_filing", days_low=None, days_high=None, blocking=level3, label_key=label,
                        ask_key="plan.timeline.ask.mlps")


def edu_step(f: Facts) -> TimelineItem:
    """The education app filing: app stores are to list only filed education apps, so a mainland launch waits on
    it (an offshore start does not)."""
    return TimelineItem(id="edu_app_filing", label_key="plan.timeline.edu_app_filing", days_low=None, days_high=None,
                        blocking=f.serves_mainland_from_mainland, ask_key="plan.timeline.ask.education")
