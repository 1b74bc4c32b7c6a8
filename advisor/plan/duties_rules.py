"""Duties the first memos left out (issue 25, s13-duties): minors, sensitive (health) data, data residency outside
the mainland, the plain "no mainland rules apply", and China-market parts asked for on an offshore node.

Registered in ``advisor.plan.rules``' registry (imported at its end); metadata and sources (the law texts, graded
as read) in ``resources/plan/duties.json``, texts in ``resources/i18n/*/duties13.json``.
"""

from __future__ import annotations

from advisor.plan import batch_clock43
from advisor.plan import gpu_choice as gchoice
from advisor.plan.data import gpus_by_id
from advisor.plan.duties27_rules import CLIENT_SECTORS, is_law_firm
from advisor.plan.fleet_where import node_region
from advisor.plan.regions import market_region
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import FINANCE_SECTORS, HEALTH_SECTORS

OWN_HARDWARE = ("on_premises", "bare_metal")  # the data sits on the team's own servers, no cloud provider's


def _pipl_applies(f: Facts) -> bool:
    """PIPL covers processing in the mainland and processing abroad of people in the mainland (Art. 3)."""
    return f.ctx.has_mainland_users or f.serves_mainland_from_mainland


def _minors(f: Facts) -> bool:
    return f.ctx.answers.minors is True


def minors_pi_said(f: Facts) -> bool:
    """``pi.minors`` is in the memo: children's information is sensitive (PIPL Art. 28), with its consent and its
    impact assessment (Art. 31, 55), said there once."""
    return _minors(f) and f.ctx.personal_info and _pipl_applies(f)


@rule("pi.minors", "constraint")
def pi_minors(f: Facts) -> Finding | None:
    """Minors' personal information (under 14 is sensitive): a guardian's consent, processing rules of its own,
    an impact assessment and a yearly compliance audit (PIPL Art. 28/31/55; Minors Online Regulations Art. 37)."""
    if not minors_pi_said(f):
        return None
    return finding("pi.minors")


@rule("minors.online_protection", "constraint")
def minors_online(f: Facts) -> Finding | None:
    """An online service minors in mainland China use: the minors' online protection duties (anti-addiction,
    time/spending limits, a minors' mode for the services named), and for public generative AI Art. 10."""
    c = f.ctx
    if not (_minors(f) and c.has_mainland_users) or c.internal_only or c.is_batch:
        return None
    genai = {"tr": "plan.minors.genai"} if c.public_genai else ""
    return finding("minors.online_protection", genai=genai)


@rule("pi.sensitive_safeguards", "constraint")
def pi_sensitive(f: Facts) -> Finding | None:
    """Sensitive personal information (health records above all): separate consent and notice, an impact
    assessment, access permissions and logs (PIPL Art. 28–30/51/55, Cybersecurity Law Art. 21); health data of a
    medical institution stays on mainland servers (Population Health Information Measures Art. 10)."""
    c = f.ctx
    health = c.sector in HEALTH_SECTORS
    counted = (c.sensitive_subjects or 0) > 0
    # s15-batch: a bank's or an insurer's records hold financial accounts and ID numbers (Art. 28) whatever count of
    # sensitive data was entered: a count of 0 (or none) is challenged, never taken as "no sensitive data"
    finance = not counted and any(s in c.sector for s in FINANCE_SECTORS)
    # review 34 (q01): a law firm's or a legal service's client contracts name the parties with ID-card and bank
    # account numbers: a count of 0 (or none) is challenged there too, as for a bank's records
    # (a firm's own or its business clients' documents; a public legal Q&A holds its users' questions, not contracts)
    legal = not counted and (c.sector in CLIENT_SECTORS or is_law_firm(c.sector)) and \
        c.audience in ("business", "internal")
    if not (c.personal_info and _pipl_applies(f)) or not (health or counted or finance or legal):
        return None
    if legal and not (health or finance):
        given = c.sensitive_subjects
        return finding("pi.sensitive_safeguards", variant="of43",
                       given={"tr": "of43.sensitive_given" if given is not None else "of43.sensitive_not_given",
                              "n": given or 0})
    if finance and not health:
        given = c.sensitive_subjects
        got = finding("pi.sensitive_safeguards", variant="finance",
                      given={"tr": "plan.batch15.sensitive_given" if given is not None else
                             "plan.batch15.sensitive_not_given", "n": given or 0})  # fmt: skip
        if batch_clock43.insurer(c.sector):  # an insurer's claim files: health records first (review 34, q06)
            got = got.model_copy(update={"title_key": "plan.rule.pi.sensitive_safeguards.bt43.insurer.title"})
        return got
    return finding("pi.sensitive_safeguards", variant=sensitive_case(f))


def sensitive_case(f: Facts) -> str | None:
    """The sensitive-information finding's text and sources, past the finance case: a health service's (its own
    storage rule), a children's service's (the minors' finding says Art. 28 and the impact assessment, Art. 55:
    pointed to, not said again — q07 printed both twice), else the general text."""
    if f.ctx.sector in HEALTH_SECTORS:
        return "health"
    return "minors" if minors_pi_said(f) else None


def _eu_users(f: Facts) -> bool:
    return "EU" in f.ctx.overseas_markets


# the law each offshore region's text states (its sources: duties.json sources_by_variant); any other region gets
# the general text, "the local law applies", and no law it has not read
REGION_LAW = {"singapore": "sg", "hong_kong": "hk"}
# a regulated financial firm's supervisor in that region, named only (its guidance is not stated)
# (hk, s15-duties: the HKMA's outsourcing review has its own finding, fin.hkma_outsourcing; the text points to it)
FINANCE_SUPERVISOR = {"sg": "plan.residency.mas", "hk": "plan.residency.hkma_sa2"}


def _hk_pdpo_says_it(f: Facts) -> bool:
    """A Hong Kong node serving mainland users: ``pi.hk_pdpo`` states the company's PDPO duties there (said once)."""
    return f.region == "hong_kong" and f.form != "hosted_api"


@rule("pi.region_residency", "constraint")
def pi_region_residency(f: Facts) -> Finding | None:
    """Personal information of people outside the mainland on an offshore node: keep it in the chosen region under
    the provider's contract, with the law of the node's region: Singapore's PDPA (s. 24, s. 26), Hong Kong's PDPO
    (Cap. 486: DPP4, the data user answers for its processor), or the GDPR (Art. 28, Chapter V) for EU users;
    elsewhere the local law, which this plan does not state (and cites nothing else)."""
    c = f.ctx
    if f.region == "mainland_plus_overseas":  # the overseas users' data on the overseas node (review 13: q05)
        node = market_region(c.overseas_markets)
    elif f.offshore and not c.has_mainland_users:
        node = f.region
    elif f.offshore and c.mainland_share < 1 and not _hk_pdpo_says_it(f):
        # overseas users beside mainland ones on one offshore node (q13: a Singapore company's sellers, 80 % in
        # South-East Asia, on a Singapore node): their data is held under the node's law too — the tenth blind
        # review found Singapore's PDPA missing while Indonesia's, Vietnam's and Thailand's were named (s20-duties20)
        node = f.region
    else:
        return None
    if not c.personal_info:
        return None
    own = f.form in OWN_HARDWARE
    region = {"tr": f"plan.region.{node}"}
    if _eu_users(f) and node == "europe":  # (the engine puts EU users on a European node)
        law: str | None = "eu"
    else:
        law = REGION_LAW.get(node)  # None: the local law, not stated
    where = {"tr": "plan.residency.own" if own else "plan.residency.provider", "region": region}
    supervisor = FINANCE_SUPERVISOR.get(law or "") if c.sector == "finance" else None
    if supervisor and law == "hk" and own:  # no provider: no SA-2 finding to point to (s15-duties)
        supervisor = "plan.residency.hkma"
    if supervisor and law == "sg" and not own:  # the MAS finding is in the memo: point to it, never "not stated
        supervisor = "duties19b.residency.mas_outsourcing"  # here" (q37, s19-duties19b)
    if supervisor == "plan.residency.hkma_sa2":  # a bank on a provider: the HKMA's expectation decides where the data
        # is held, the PDPO alone does not require Hong Kong (re-check of s19, q25: "a choice, not a rule" beside a
        # brief that says the regulator expects the data in Hong Kong read as a contradiction; s20-finance20)
        found = finding("pi.region_residency", variant=law, where=where, region=region)
        return found.model_copy(update={"detail_key": "obligations20.residency.hk_bank.detail"})
    extra = {"tr": supervisor} if supervisor else ""
    found = finding("pi.region_residency", variant=law, where=where, region=region, extra=extra)
    if c.sector == "finance":
        return found
    # a financial supervisor's guidelines, cited "named only", say nothing to a firm it does not supervise: not cited
    # outside finance (s21-pages21, issue 25: q13's and q34's source lists carried the MAS guidelines)
    return found.model_copy(update={"sources": [s for s in found.sources if not s.title.startswith(SUPERVISOR_TITLES)]})


SUPERVISOR_TITLES = ("MAS Guidelines on Outsourcing and Technology Risk", "HKMA Supervisory Policy Manual")


@rule("region.no_mainland_rules", "constraint")
def no_mainland_rules(f: Facts) -> Finding | None:
    """No users and no company in the mainland, served offshore: no mainland rule applies, said plainly (ICP,
    generative-AI filing, PIPL and its export procedure all attach to the mainland: PIPL Art. 3, Measures Art. 2)."""
    c = f.ctx
    if c.has_mainland_users or c.answers.mainland_entity is not False or not f.offshore:
        return None
    # s25-numbers25 (fifteenth blind review, q15: "a ⚠-flagged 'no mainland China rules apply' paragraph that a US
    # team does not need"): the conclusion rests on the team's answers (no users, no company there); the articles'
    # mainland scope is not in doubt, so the finding carries no ⚠ (its sources keep their own grades in the list)
    # review 24, q18: on the team's own fleet the node is where that fleet stands, not the market's nearest region
    # near_mainland: where the node stands close to the mainland (Hong Kong, Singapore, Japan), a team weighs mainland
    # rules as an alternative, so the finding is one of page 1's reasons; a node in Europe or the US is not where
    # anyone expects them, so it stays a finding of section 7 (blind review 25, q09 zh: "'本服务不涉及中国大陆规则' is
    # irrelevant to a German team and should leave the summary"; reasons.deciding reads it)
    return finding("region.no_mainland_rules", verify=False, region=node_region(f.form, f.cost, f.region),
                   near_mainland=f.region in NEAR_MAINLAND)


NEAR_MAINLAND = frozenset({"hong_kong", "singapore", "japan"})


@rule("gpu.not_offered_offshore", "constraint")
def not_offered_offshore(f: Facts) -> Finding | None:
    """Only China-market parts (H20, L20, 4090D, H800, A800) allowed, for a node outside the mainland where none
    is offered: no plan runs on them there (a blocker); the fix re-plans on the parts sold in the region."""
    c = f.ctx
    if not c.gpu_constraint or not f.offshore or f.form == "hosted_api":
        return None
    if any(gchoice.offered_in(f.region, g) for g in c.gpu_constraint):
        # an allowed part is sold there: the plan uses it (the others are named in the assumptions)
        return None

    # a list: render joins it per language ("H20、L20" in Chinese: s42-zhx, q20)
    table = gpus_by_id()
    return finding("gpu.not_offered_offshore", gpus=[table[g].name if g in table else g for g in c.gpu_constraint],
                   region={"tr": f"plan.region.{f.region}"})
