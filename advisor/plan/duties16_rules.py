"""Duties the fifth blind review found missing (issue 25, s16-duties), each from a public source graded in
``resources/plan/duties.json``: an offshore company's mainland representative (PIPL Art. 53), Singapore users' data
sent to a node outside Singapore (PDPA s. 26), a mainland bank's or insurer's IT outsourcing (the CBIRC's 2021
Measures), a Singapore financial institution's outsourcing to a cloud (the MAS Guidelines), and whether the
generative-AI rules reach a service offered to business customers only.

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/duties16.json``.
"""

from __future__ import annotations

from advisor.plan import batch_clock43
from advisor.plan.duties18_rules import likely_public_genai
from advisor.plan.duties_rules import OWN_HARDWARE
from advisor.plan.genai_paths import with_filer, with_filer_sources
from advisor.plan.pi_exporter import customers_export
from advisor.plan.regions import market_region
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule
from advisor.plan.sector_kinds import FINANCE_SECTORS, is_securities

SG_MARKETS = ("SG", "SEA")  # "SEA" names South-East Asia, Singapore included


def _finance(f: Facts) -> bool:
    return any(s in f.ctx.sector for s in FINANCE_SECTORS)


@rule("pi.mainland_representative", "constraint")
def mainland_representative(f: Facts) -> Finding | None:
    """A company with no entity in the mainland that processes mainland people's personal information to serve them:
    PIPL reaches it (Art. 3(2)) and Art. 53 asks it for a dedicated office or a named representative in the mainland,
    reported to the authorities; who exports the data (and signs a standard contract) depends on who decides the
    purposes of the processing (interpretation, said as such)."""
    c = f.ctx
    if c.answers.mainland_entity is not False or not c.has_mainland_users or not c.personal_info:
        return None
    if c.internal_only or c.is_batch:
        return None
    # business customers upload their own customers' data: say who the handler (and so the exporter) may be
    # — unless the node is offshore and the export-tier finding already says the customers export (s19-duties19b:
    # said once, where the tier is)
    said = f.offshore and customers_export(c)
    who = {"tr": "plan.duties16.exporter.business"} if c.audience == "business" and not said else ""
    return finding("pi.mainland_representative", who=who)


def _node_outside_singapore(f: Facts) -> str | None:
    """The region of the node that holds the overseas users' data, when it is not Singapore."""
    node = market_region(f.ctx.overseas_markets) if f.region == "mainland_plus_overseas" else f.region
    return None if node in ("singapore", "mainland") else node


@rule("pi.sg_transfer", "constraint")
def sg_transfer(f: Facts) -> Finding | None:
    """Users in Singapore and a node outside it: their personal data leaves Singapore, so the PDPA's Transfer
    Limitation Obligation (s. 26) binds the recipient to comparable protection (PDP Regulations 2021 reg. 10); a
    Singapore node would avoid the transfer for them."""
    c = f.ctx
    if not c.personal_info or not any(m in SG_MARKETS for m in c.overseas_markets):
        return None
    node = _node_outside_singapore(f)
    if node is None:
        return None
    return finding("pi.sg_transfer", region={"tr": f"plan.region.{node}"})


@rule("fin.cn_it_outsourcing", "constraint")
def cn_it_outsourcing(f: Facts) -> Finding | None:
    """A mainland bank or insurer running the model on a provider's cloud or API: information-technology outsourcing
    under the CBIRC's 2021 Measures (银保监办发〔2021〕141号) — responsibility stays with the institution, due
    diligence before an important outsourcing, customer data protected, concentration risk managed."""
    if not _finance(f) or f.region not in ("mainland", "mainland_plus_overseas") or f.form in OWN_HARDWARE:
        return None
    if is_securities(f.ctx.sector):  # the CSRC's firms: fin.csrc_it_security says their rule (s34-duties36)
        return None
    # a service on rented GPUs: the provider to pick, a financial-cloud zone or one already approved (review 34, q41)
    return finding("fin.cn_it_outsourcing", rented=batch_clock43.rented_clause(f.form, f.ctx.is_batch))


@rule("fin.mas_outsourcing", "constraint")
def mas_outsourcing(f: Facts) -> Finding | None:
    """A financial firm on a Singapore node, on a provider's cloud, servers or API: outsourcing under the MAS
    Guidelines on Outsourcing (all MAS-regulated institutions, cloud included) and the Technology Risk Management
    Guidelines (2021): due diligence, board accountability, customer data protected, audit and MAS access."""
    node = market_region(f.ctx.overseas_markets) if f.region == "mainland_plus_overseas" else f.region
    if node != "singapore" or not _finance(f) or f.form in OWN_HARDWARE:
        return None
    return finding("fin.mas_outsourcing")


@rule("genai.business_only", "constraint")
def genai_business_only(f: Facts) -> Finding | None:
    """Mainland users, offered to business customers, not said to be public: the Interim Measures cover services to
    the public (Art. 2) and exclude enterprise use not offered to the public. A service any business can sign up for
    is, on the likely reading, offered to the public (seventh blind review, s18-duties), so the finding names the
    filing or registration with its days, and the timeline plans it (``duties18_rules``): counted in the earliest
    launch when no deadline was given, else its time cost stated beside the plan as answered. s18-genai3 (eighth
    blind review): only when the answers say any business can sign up (``open_signup``); unanswered, the plan keeps
    "not public" and asks (``genai.business_signup``). With no mainland entity, the text says who files."""
    c = f.ctx
    likely = likely_public_genai(f)  # said where it is asked: a node offshore (q43), a service sold to any business
    if likely is None:  # (q11); a mainland tool for contracted customers is left to the general filing rules
        return None
    kind, lo, hi = likely
    launch: dict[str, object] = ({"tr": "plan.duties18.likely.counted"} if c.deadline_days is None else
                                 {"tr": "plan.duties18.likely.deadline", "deadline": c.deadline_days, "low": lo,
                                  "high": hi})
    # the sign-up unanswered on a per-token API (q11): the text says why the filing is planned, not "you answered"
    variant = "offshore" if f.offshore else "per_token" if c.answers.open_signup is None else None
    return with_filer_sources(c, finding("genai.business_only", variant=variant,
                                         region={"tr": f"plan.region.{f.region}"}, kind={"tr": f"plan.genai.{kind}"},
                                         low=lo, high=hi, launch=with_filer(c, launch)))
