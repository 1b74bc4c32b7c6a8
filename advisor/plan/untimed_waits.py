"""Approvals the launch waits on for a time no source here states (issue 25, s16-duties): a sector's approval before
the ICP filing or licence (Order 292 Art. 5: news, publishing, education, medical/health, drugs), a Hong Kong bank
regulator's review of an outsourcing (HKMA SPM SA-2). Each appears in the timeline as a step of unknown length with
whom to ask, and the earliest launch reads "not before it is granted" (the memos left them out of the timeline and
still said "feasible: yes", or special-cased the HKMA's review beside the launch days).

The step is there exactly when the rule's finding is: the same rule function decides both.
"""

from __future__ import annotations

from advisor.plan import (  # noqa: F401 - their rules registered
    duties15_rules,
    duties16_rules,
    duties18_rules,
    duties20_rules,
    duties_rules,
    filedwait38,
    finance20_rules,
    prelaunch_gates,
    procure36_rules,
    sectors17_rules,
)
from advisor.plan.regions import market_region
from advisor.plan.result import TimelineItem
from advisor.plan.rule_base import RULES, Facts

# a sector's regulator, to ask how long its approval takes (the sector ids the answers use → one wording each)
SECTOR_REGULATOR = {"medical": "health", "health": "health", "healthcare": "health", "drugs": "drugs",
                    "pharma": "drugs", "education": "education", "news": "news", "publishing": "publishing"}


def _sector_step(f: Facts) -> TimelineItem:
    c = f.ctx
    filed = c.icp == "filed"  # the domain is filed already: the approval only if the filing does not cover this
    return TimelineItem(
        id="sector_approval", label_key="plan.timeline.sector_approval" + ("_filed" if filed else ""),
        label_params={"sector": {"tr": f"memo.value.sector.{c.sector}"}}, days_low=None, days_high=None,
        # an offshore launch that moves to the mainland later (rule 1) waits on it only for the move
        blocking=f.serves_mainland_from_mainland,
        ask_key=f"plan.timeline.ask.{SECTOR_REGULATOR.get(c.sector, 'sector')}")


def _hkma_step(f: Facts) -> TimelineItem:
    return TimelineItem(id="hkma_review", label_key="plan.timeline.hkma_review", days_low=None, days_high=None,
                        ask_key="plan.timeline.ask.hkma")


def _outsourcing_step(f: Facts) -> TimelineItem | None:
    """A mainland bank's or insurer's batch job on a provider's GPUs: its IT-outsourcing review of the provider comes
    before the job's clock starts (q28: "the outsourcing review and quota confirmation should be in the timeline since
    they can consume the 48 h window"). A service has it among its obligations; a job with a deadline in hours has it
    in the timeline too, where its length decides when the clock may start."""
    if not f.ctx.is_batch:
        return None
    if f.ctx.batch_hours:  # start it now: it must be done before the job's clock starts (blind review 15, q06)
        return TimelineItem(id="fin_outsourcing_review", label_key="bt43.timeline.outsourcing_review_clock",
                            label_params={"deadline": f"{f.ctx.batch_hours:g}"}, days_low=None, days_high=None,
                            ask_key="batch21.timeline.ask.compliance")
    return TimelineItem(id="fin_outsourcing_review", label_key="batch21.timeline.outsourcing_review", days_low=None,
                        days_high=None, ask_key="batch21.timeline.ask.compliance")


STEPS = {"icp.sector_preapproval": _sector_step, "fin.hkma_outsourcing": _hkma_step,
         "fin.cn_it_outsourcing": _outsourcing_step,
         # s17-sectors: the education app filing, the classified protection (等保) grading and filing
         "edu.app_filing": sectors17_rules.edu_step, "mlps.filing": sectors17_rules.mlps_step,
         # s25-gates25: what a finding sets before go-live or before the first transfer (blind review 15)
         "pi.eu_employee_dpia": prelaunch_gates.eu_dpia_step, "labour.works_council": prelaunch_gates.works_agreement_step,
         "fin.mas_outsourcing": prelaunch_gates.mas_outsourcing_step,
         "pi.id_financial_data": prelaunch_gates.id_localisation_step,
         "pi.export_impact_assessment": prelaunch_gates.export_pia_step,
         "pi.sensitive_safeguards": prelaunch_gates.sensitive_pia_step,
         "pi.api_processor": prelaunch_gates.api_contract_step,
         "pi.sea_markets": prelaunch_gates.sea_markets_step,  # s26-polish26
         "pi.eu_large_scale_dpia": prelaunch_gates.eu_large_scale_dpia_step,  # s33-steps (q09)
         "fin.csrc_it_security": prelaunch_gates.csrc_signoff_step,  # s40-q04 (blind review 32)
         # s34-procure36 (q17): a university's procurement process, before the buy-and-install step
         "procure.institution_process": procure36_rules.step}


# the steps that concern only the overseas node of a mainland + overseas plan: its users' countries' transfer rules,
# Indonesian localisation, the Singapore regulator's outsourcing rules (s37-seq, blind review 29, q34: "the SEA-country
# legal check … should not hold up the mainland node")
OVERSEAS_NODE_ONLY = frozenset({"pi.sea_markets", "pi.id_financial_data", "fin.mas_outsourcing"})


def _scoped(f: Facts, rule_id: str, item: TimelineItem) -> TimelineItem:
    """``item`` marked as holding only the overseas node's launch where the plan has two nodes and the step concerns
    that node alone."""
    if f.region != "mainland_plus_overseas" or rule_id not in OVERSEAS_NODE_ONLY:
        return item
    return item.model_copy(update={"node": market_region(f.ctx.overseas_markets)})


def untimed_steps(f: Facts) -> list[TimelineItem]:
    """The timeline steps of unknown length this plan's facts call for (each one's rule fires on them), and two
    generative-AI steps of s18-duties: the filing a service any business can sign up for likely needs (its days
    known), and a filed service's algorithm filing to confirm."""
    out = [_scoped(f, rule_id, x) for rule_id, step in STEPS.items()
           if RULES[rule_id].fn(f) is not None and (x := step(f)) is not None]
    if duties18_rules.likely_public_genai(f) is not None:
        out.insert(0, duties18_rules.likely_public_step(f))
    tutoring = duties18_rules.double_reduction_step(f)  # paid subject tutoring for pupils: asked before all else
    if tutoring is not None:
        out.insert(0, tutoring)
    if duties18_rules.algorithm_confirm(f):
        out.append(duties18_rules.algorithm_confirm_step(f))
    algorithm = filedwait38.algorithm_step(f)  # the algorithm filing to make (blind review 27, q30)
    if algorithm is not None:
        out.append(algorithm)
    return out
