"""Below the export threshold the transfer is exempt from the export procedures, not from telling people with
separate consent (PIPL Art. 39) nor from the impact assessment before it (Art. 55), as the ``pi.export_exempt``
finding says: both come before the first transfer, so before an offshore launch (review 36, q21: "the memo says the
transfer is exempt 'not from notice with separate consent … or an impact assessment', yet the timeline lists
neither before launch and says 'Earliest launch in 1–5 days'").

No source here times them: they are in-house work (a notice and consent screen, an assessment report kept three
years), an estimate of days said as such in the step's name, counted in the launch days so the deadline check
includes them. Where the business customers are the exporters (no mainland entity), telling their people and
assessing is theirs: no step of the team's own.
"""

from __future__ import annotations

from advisor.plan.pi_exporter import customers_export
from advisor.plan.result import TimelineItem
from advisor.plan.rule_base import Facts

STEP_ID = "export_notice_pia"
# in-house days: a privacy notice and a separate-consent screen updated, an assessment report written and signed off
# (an estimate, not a sourced duration: the step's name says "in-house estimate")
IN_HOUSE_DAYS = (3, 7)


def step(f: Facts) -> TimelineItem | None:
    """The notice with separate consent and the impact assessment, before the first transfer (the launch)."""
    if customers_export(f.ctx):
        return None
    return TimelineItem(id=STEP_ID, label_key="msc44.timeline.export_notice_pia", days_low=IN_HOUSE_DAYS[0],
                        days_high=IN_HOUSE_DAYS[1], blocking=True)


__all__ = ["step"]
