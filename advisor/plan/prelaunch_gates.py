"""Duties a finding sets "before go-live" or "before the first transfer", as timeline steps (issue #25, blind review
15: q38's memo said "earliest launch in 1–5 days" beside its own findings that a data protection impact assessment
and the works council's agreement come before go-live; q37's MAS outsourcing assessment and Indonesian counsel's
localisation check; q12's impact assessment and standard contract, for which "the first transfer waits").

No source here states how long any of them takes, so each is a step of unknown length with whom to ask, and the
earliest launch reads "after …, then 1–5 days to set up" (``Timeline.launch_text``): never an invented number. The
step is there exactly when its finding is (``untimed_waits.STEPS`` calls the same rule function).
"""

from __future__ import annotations

from advisor.plan import duties20_rules, duties22c_rules, duties36_rules
from advisor.plan.result import Finding, TimelineItem
from advisor.plan.rule_base import Facts

# the finding's rule → the step's id, its label and whom to ask how long it takes
_STEPS = {
    "pi.eu_employee_dpia": ("eu_dpia", "gates25.timeline.eu_dpia", "gates25.timeline.ask.dpo"),
    # s33-steps (blind review 23, q09): the same assessment where a public EU service processes data at scale
    "pi.eu_large_scale_dpia": ("eu_dpia", "gates25.timeline.eu_dpia", "gates25.timeline.ask.dpo"),
    "labour.works_council": ("works_agreement", "gates25.timeline.works_agreement", "gates25.timeline.ask.works"),
    "fin.mas_outsourcing": ("mas_outsourcing", "gates25.timeline.mas_outsourcing", "batch21.timeline.ask.compliance"),
    "pi.id_financial_data": ("id_localisation", "gates25.timeline.id_localisation", "gates25.timeline.ask.id_counsel"),
    # PIPL names the role 个人信息保护负责人 (Art. 52), not a GDPR data protection officer (blind review 19b, q41 zh)
    "pi.sensitive_safeguards": ("sensitive_pia", "gates25.timeline.sensitive_pia", "gates29.timeline.ask.pipl_officer"),
    # s26-polish26 (note 25, q16): no source here times the contract; what its length turns on is said with whom to ask
    "pi.api_processor": ("api_contract", "gates25.timeline.api_contract", "polish26.timeline.ask.provider_terms"),
    # s26-polish26 (note 25: "the SEA markets check is not a timeline step"): its finding says "check each one's
    # transfer and any localisation rule before launch", as the Indonesian check above is a step
    "pi.sea_markets": ("sea_markets", "polish26.timeline.sea_markets", "polish26.timeline.ask.sea_counsel"),
}
# the API-processor finding's laws whose text sets the contract before launch (PIPL Art. 21, GDPR Art. 28); the Hong
# Kong and Singapore variants say "bind it by contract" without a time
_API_CONTRACT_BEFORE = {"plan.rule.pi.api_processor.title": "", "plan.rule.pi.api_processor.gdpr.title": "_gdpr"}


def _title_key(found: object) -> str:
    """The finding's title key (its variant), or "" where the rule did not fire."""
    return found.title_key if isinstance(found, Finding) else ""


def _step(rule_id: str) -> TimelineItem:
    step_id, label, ask = _STEPS[rule_id]
    return TimelineItem(id=step_id, label_key=label, days_low=None, days_high=None, ask_key=ask)


def eu_dpia_step(f: Facts) -> TimelineItem:
    return _step("pi.eu_employee_dpia")


def eu_large_scale_dpia_step(f: Facts) -> TimelineItem:
    return _step("pi.eu_large_scale_dpia")


def works_agreement_step(f: Facts) -> TimelineItem:
    """Said as a condition where only "EU" is named (the finding's own "if staff work in Germany"), as certain where
    Germany is."""
    item = _step("labour.works_council")
    if "DE" in f.ctx.overseas_markets:
        return item.model_copy(update={"label_key": "gates25.timeline.works_agreement_de"})
    return item


def mas_outsourcing_step(f: Facts) -> TimelineItem:
    """Said as the finding's condition, "if the firm is regulated by the MAS": no answer says it is, so the step
    keeps the condition wherever it is listed, as the works council's does (blind review 29, q37: "listed as an
    unconditional launch blocker, while its finding says 'if the firm is regulated by MAS'")."""
    return _step("fin.mas_outsourcing").model_copy(update={"label_key": "seq39_timeline.mas_outsourcing_if"})


def id_localisation_step(f: Facts) -> TimelineItem:
    return _step("pi.id_financial_data")


def export_pia_step(f: Facts) -> TimelineItem:
    """The impact assessment and the export procedure the count needs, which the first transfer waits for (PIPL
    Art. 55(4), the finding's own words). Under the standard contract the transfer waits for the assessment and the
    signed contract; the filing follows within 10 working days of the contract taking effect (the finding's source,
    s26-polish26: round 15, q12, "the CAC rules let the transfer start once the contract is signed"), so it is not
    this step. How long the assessment and the contract take no source here states: unknown, with whom to ask."""
    assessment = ".assessment." in _title_key(duties22c_rules.export_impact_assessment(f))
    return TimelineItem(id="export_pia", days_low=None, days_high=None, ask_key="gates25.timeline.ask.cac",
                        label_key="gates25.timeline.export_pia_assessment" if assessment
                        else "polish26.timeline.export_pia")



def sea_markets_step(f: Facts) -> TimelineItem:
    """Each South-East Asian country's transfer and localisation rules, for the countries served (the finding lists
    what the sources read say of five of them; which countries are served the answers do not say)."""
    return _step("pi.sea_markets")


def sensitive_pia_step(f: Facts) -> TimelineItem:
    """Sensitive personal information: the impact assessment comes before processing (PIPL Art. 55), as the
    finding says."""
    return _step("pi.sensitive_safeguards")


def csrc_signoff_step(f: Facts) -> TimelineItem:
    """A securities firm's model under the CSRC's Measures (Order No. 218): the finding has the firm bring the
    service into its information-security management and its IT-security and compliance function sign it off
    before launch, or, on a provider, check the provider under its rules before launch (blind review 32, q04: "add
    the CSRC Order 218 sign-off to the next steps, not only to the findings")."""
    provider = _title_key(duties36_rules.csrc_it_security(f)).endswith(".provider.title")
    return TimelineItem(id="csrc_signoff", days_low=None, days_high=None, ask_key="batch21.timeline.ask.compliance",
                        label_key="tpc42.timeline.csrc_provider" if provider else "tpc42.timeline.csrc_signoff")


def api_contract_step(f: Facts) -> TimelineItem | None:
    """The processing contract with the API provider, where the finding sets it before launch."""
    title = _title_key(duties20_rules.api_processor(f))
    if title not in _API_CONTRACT_BEFORE:
        return None
    item = _step("pi.api_processor")
    return item.model_copy(update={"label_key": item.label_key + _API_CONTRACT_BEFORE[title]})
