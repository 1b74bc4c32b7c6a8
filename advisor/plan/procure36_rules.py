"""A university's or research institute's purchase goes through its procurement process (issue #25, blind review 25,
q17: "A ¥400k university purchase normally goes through 招标/政府采购, so '30–90 天' is likely optimistic").

The State Council's catalogue for central budget units (国办发〔2019〕55号, 2020 edition) lists servers among the
centrally procured items, but its note leaves out the research instruments and equipment central universities and
research institutes buy; a central budget unit's own purchase of goods falls under the Government Procurement Law
from ¥1,000,000 (the 分散采购限额标准) and needs an open tender from ¥2,000,000; below that the institution's own rules
decide. A provincial university follows its province's catalogue. No source read here says how long any of it takes:
the timeline has it as a step of unknown length before the buy-and-install step (``before_purchase``), asked of the
procurement office, never a made-up number of days.

Only a public (state-funded) institution: the sector names it (a university, a school, a research institute), or
the bare education sector is an institution's own tool (its own people, no fee). A private education company shares
the sector but not the catalogue (s35-duties, issue 25): ``sector_kinds.is_public_institution``.

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); sources with date and grade in
``resources/plan/procure36.json``, texts in ``resources/i18n/*/procure36.json``.
"""

from __future__ import annotations

from advisor.plan.result import Finding, TimelineItem
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import is_health, is_public_institution

BUYING_FORMS = ("on_premises", "bare_metal", "hybrid")  # the plan buys servers now (cloud_then_bare_metal: later)
MAINLAND_NODES = ("mainland", "mainland_plus_overseas")
STEP_ID = "procurement_process"
PURCHASE_IDS = ("procurement",)  # the buy, deliver and install step (engine._timeline)
# a hospital's own tool: most mainland hospitals are public institutions (事业单位) buying through government
# procurement (政府采购) or a tender (review 36, q03: "for a provincial hospital group the purchase almost certainly goes
# through 政府采购/a tender, and 'Buy, deliver and install the server 30–90 days' leaves that out"); the answers do
# not say public or private, so the text says a private hospital buys as any company does
HOSPITAL = "msc44.hospital"


def _public_hospital(c) -> bool:
    return is_health(c.sector) and c.audience == "internal"


@rule("procure.institution_process", "constraint")
def institution_process(f: Facts) -> Finding | None:
    """An education or research institution in the mainland buying its servers: its procurement process first
    (its own rules under ¥1,000,000 of goods for a central one, the Government Procurement Law from ¥1,000,000, an
    open tender from ¥2,000,000; a provincial one by its province's catalogue), of a length only its office knows."""
    c = f.ctx
    # a public (state-funded) institution only: a private education company buys as any company does (s35-duties)
    hospital = not is_public_institution(c) and _public_hospital(c)
    if not (is_public_institution(c) or hospital) or f.form not in BUYING_FORMS or f.region not in MAINLAND_NODES:
        return None
    if c.answers.current_fleet is not None:  # its own servers: what it buys, if any, the fleet findings say
        return None
    return finding("procure.institution_process", variant=HOSPITAL if hospital else None)


def step(f: Facts) -> TimelineItem:
    """The procurement process, of unknown length, before the order: the launch is not before it is done."""
    hospital = not is_public_institution(f.ctx) and _public_hospital(f.ctx)
    return TimelineItem(id=STEP_ID, label_key="msc44.timeline.hospital_procurement" if hospital
                        else "procure36_timeline.process", days_low=None, days_high=None,
                        blocking=True, ask_key="procure36_timeline.ask")


def before_purchase(items: list[TimelineItem]) -> list[TimelineItem]:
    """The procurement process moved to just before the buy-and-install step (it comes first: the order is placed
    once it is done); left where it is where the plan buys nothing."""
    proc = next((i for i in items if i.id == STEP_ID), None)
    buy = next((n for n, i in enumerate(items) if i.id in PURCHASE_IDS), None)
    if proc is None or buy is None:
        return items
    rest = [i for i in items if i is not proc]
    at = next(n for n, i in enumerate(rest) if i.id in PURCHASE_IDS)
    return [*rest[:at], proc, *rest[at:]]


__all__ = ["before_purchase", "institution_process", "step"]
