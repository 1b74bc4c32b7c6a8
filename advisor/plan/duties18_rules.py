"""Obligations read as a mainland deployment/compliance engineer reads them (issue 25, s18-duties, seventh blind
review), each from a public source graded in ``resources/plan/duties18.json``:

- 双减: the 2021 Opinions of the General Offices of the CPC Central Committee and the State Council on reducing
  compulsory-education pupils' homework and off-campus tutoring — no new subject-tutoring institutions approved,
  online subject tutoring moved from filing to approval, no "photo-search answers" — which a paid homework-help
  app for pupils meets before anything else (q07);
- a consumer chat app answered "no personal information" outside the mainland: almost certainly processes personal
  data (accounts, what people type), said as a caveat under the local law, never as a fact (q20);
- the timeline steps of two generative-AI readings: a service any business can sign up for is likely public
  (``genai.business_only``: q11–q13, q21, q22; since s18-genai3 only when the answers say so, ``open_signup``), and
  the algorithm filing of a filed service to confirm (q05, q32).

Registered in ``advisor.plan.rules``' registry (imported at its end); texts in ``resources/i18n/*/duties18.json``.
"""

from __future__ import annotations

from advisor.plan.genai_paths import genai_kind, genai_remaining, genai_shorter
from advisor.plan.per_token_public import per_token_sold
from advisor.plan.result import Finding, TimelineItem
from advisor.plan.rule_base import Facts, finding, rule

SG_MARKETS = ("SG", "SEA")


def business_genai_reading(f: Facts) -> tuple[str, int, int] | None:
    """(kind, low, high) of the generative-AI filing or registration a business service would need if it counts as
    offered to the public (Interim Measures Art. 2): the plan answered "not public", mainland users, a business
    audience outside the team, the filing not done (paid or free, from any node: s21-duties21). None when that reading does not arise.
    Whether it does count is the question ``open_signup`` asks (s18-genai3)."""
    c = f.ctx
    if c.public_genai or c.is_batch or c.answers.audience != "business" or not c.has_mainland_users:
        return None
    # a free service from a mainland node raises the same question (tenth blind review q10, q19: "a service to
    # external business clients, yet generative-AI filing applicability is not discussed at all", where the paid
    # q11 asked it; s21-duties21): whether outsiders can sign up decides it, not the price or the node
    if c.internal_only or c.genai_covered:
        return None
    lo, hi = genai_remaining(c, f.form)
    return genai_kind(c, f.form), lo, hi


def likely_public_genai(f: Facts) -> tuple[str, int, int] | None:
    """The reading above when the answers say any business can sign up (``open_signup`` true): likely offered to
    the public, so ``genai.business_only`` plans the filing. The eighth blind review (q11–q13, q21, q22) read the
    planned filing, made from a guess about the sign-up, as overriding the answer "enterprise customers, not
    public": left unanswered, the answer stands and the question is asked (``genai.business_signup``)."""
    a = f.ctx.answers
    # a per-token API sold to businesses, sign-up unanswered, from a mainland node: the facts answer it (twelfth blind
    # review q11; ``per_token_public``); offshore, who files and where stays the question (q12, q13, q22, q43)
    if a.open_signup is True or (per_token_sold(a) and not f.offshore):
        return business_genai_reading(f)
    return None


def likely_public_step(f: Facts) -> TimelineItem:
    """The filing or registration as a timeline step: counted in the earliest launch when no deadline was given
    (nothing as answered changes, the launch date becomes the realistic one); with a deadline, listed beside it and
    not counted, so the plan as answered keeps its date and the finding states what the filing would add."""
    kind, lo, hi = likely_public_genai(f) or ("genai_registration", 0, 0)
    # the sign-up unanswered on a per-token API (``per_token_public``): its own reason, not "any business can sign up"
    label = "duties22c.timeline.genai_likely_per_token" if f.ctx.answers.open_signup is None else \
        "plan.timeline.genai_likely_public"
    shorter = genai_shorter(f.ctx, f.form) if kind == "genai_open_weights" else None  # registration, if accepted
    return TimelineItem(id=f"{kind}_likely", label_key=label,
                        label_params={"kind": {"tr": f"plan.genai.{kind}"}}, days_low=lo, days_high=hi,
                        blocking=f.ctx.deadline_days is None, shorter_low=shorter[0] if shorter else None,
                        shorter_high=shorter[1] if shorter else None)


def algorithm_confirm_step(f: Facts) -> TimelineItem:
    """A filed service's algorithm filing: normally made with the generative-AI filing, so a check, not a months-long
    step. Not blocking (s21-duties21, tenth blind review q05/q32: "for a company that has already filed, that is an
    internal check, not a gate of unknown length"): the earliest launch does not wait on it; the finding says the
    launch waits only if it was never made."""
    return TimelineItem(id="algorithm_filing_confirm", label_key="plan.timeline.algorithm_confirm", days_low=None,
                        days_high=None, blocking=False, ask_key="plan.timeline.ask.algorithm")


def algorithm_confirm(f: Facts) -> bool:
    """Public generative AI whose generative-AI filing is done: the algorithm filing is to confirm, not to make."""
    return f.ctx.public_genai and f.ctx.genai_covered


@rule("edu.double_reduction", "constraint")
def double_reduction(f: Facts) -> Finding | None:
    """Minors in the mainland using a public education service: if it tutors school subjects for compulsory-education
    pupils (grades 1–9), the 2021 双减 Opinions apply — no new subject-tutoring institutions approved, online ones
    moved from filing to approval (a refusal cancels the filing and the ICP licence), no "photo-search answers",
    lessons of at most 30 minutes ending by 21:00. Said as a condition (the answers name the sector and minors, not
    the subjects or grades); the paid variant when pupils pay (a paid subject-tutoring service is what the Opinions
    stop)."""
    c = f.ctx
    if c.sector != "education" or c.answers.minors is not True or not c.has_mainland_users:
        return None
    if c.internal_only or c.is_batch or c.audience == "business":
        return None
    # paid: a blocker to resolve first, not a warning beside a later launch date — the Opinions may rule a paid
    # subject-tutoring subscription out altogether, which no launch date fixes (q07, ninth blind review; s20-duties20)
    if c.charges:
        return finding("edu.double_reduction", variant="paid", severity="blocker")
    return finding("edu.double_reduction")


def double_reduction_step(f: Facts) -> TimelineItem | None:
    """The paid case's blocker as the first step, of unknown length: the education authority says whether the
    service counts as subject tutoring before anything else is worth starting (q07, ninth blind review: "a
    blocker to resolve first"; s20-duties20). The free case is a condition among the findings, no step."""
    x = double_reduction(f)
    if not isinstance(x, Finding) or x.severity != "blocker":
        return None
    return TimelineItem(id="double_reduction_check", label_key="duties20.timeline.double_reduction", days_low=None,
                        days_high=None, blocking=True, ask_key="plan.timeline.ask.education")


@rule("pi.consumer_chat_none", "constraint")
def consumer_chat_none(f: Facts) -> Finding | None:
    """A consumer chat service outside the mainland answered "no personal information": accounts, contact details
    and what people type almost always carry personal data, so the answer is kept and the local law named as what
    applies if it does (Singapore's PDPA for a Singapore or South-East Asian market; Japan's APPI for Japan; else
    the local law, not stated). Mainland users have ``pi.none_as_answered``."""
    c = f.ctx
    ds = c.answers.data_sensitivity
    if ds is None or ds.personal_info is not False or c.has_mainland_users:
        return None
    if c.audience != "public" or c.use_case != "interactive" or c.internal_only:
        return None
    sg = any(m in SG_MARKETS for m in c.overseas_markets)
    if not sg and "JP" in c.overseas_markets:  # Japan's APPI named (tenth blind review q23: "这里未列出你们市场的法律"
        return finding("pi.consumer_chat_none", variant="jp")  # for a Tokyo game chat; s21-duties21)
    return finding("pi.consumer_chat_none", variant="sg" if sg else None)
