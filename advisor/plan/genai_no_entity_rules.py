"""A paid business service with mainland users, answered "not public", sold by a company with no mainland entity,
whose sign-up is not said: the "public" question is the launch's first risk, said on page 1 (issue 25, blind
review 20, s31-publicsaas31).

q12 (a Hong Kong CRM assistant sold by subscription to mainland SMEs) and q13 (a Singapore seller tool open to
mainland sellers) planned "not public, no generative-AI filing" and asked the question in a caveat
(``genai.business_signup``); the reviewers: "a mainland SME subscription product is quite plausibly 'public' for
the Interim Measures; with no mainland entity they cannot file at all — make it a headline risk". The Interim
Measures cover services offered to the public in the mainland and exclude enterprise use not offered to it (Art. 2;
deployment facts §2.2); the filing is made by a company with a mainland business licence (``filer_note``). So where
a subscription any business could buy is not ruled out, the answer "not public" is kept (the eighth review read a
filing planned on a guess as overriding it) and page 1 says the risk and the three ways out: a legal opinion
before launch, only customers under contract on their own accounts or deployment, or a mainland partner or entity.

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in
``resources/i18n/*/publicsaas31_publicsaas31.json``, sources in ``resources/plan/publicsaas31.json``.
"""

from __future__ import annotations

from collections.abc import Sequence

from advisor.plan.duties18_rules import business_genai_reading, likely_public_genai
from advisor.plan.genai_paths import filer_note, with_filer_sources
from advisor.plan.result import Finding, OpenQuestion
from advisor.plan.rule_base import Facts, finding, rule

RULE_ID = "genai.signup_no_entity"


def applies(f: Facts) -> bool:
    """Sold to businesses (paid), mainland users, "not public" as answered, no mainland entity, the sign-up not
    said (a closed set of contracted customers answered ``open_signup`` false keeps the plan; true plans the filing
    in ``genai.business_only``)."""
    a = f.ctx.answers
    if a.open_signup is not None or a.mainland_entity is not False or not f.ctx.charges:
        return False
    return likely_public_genai(f) is None and business_genai_reading(f) is not None


@rule(RULE_ID, "constraint")
def signup_no_entity(f: Facts) -> Finding | None:
    """The risk, its article and what to do before launch; the days the filing would take (``business_genai_reading``)."""
    if not applies(f):
        return None
    kind, lo, hi = business_genai_reading(f) or ("genai_registration", 0, 0)
    return with_filer_sources(f.ctx, finding(RULE_ID, kind={"tr": f"plan.genai.{kind}"}, low=lo, high=hi,
                                             filer=filer_note(f.ctx)))


# s34-apilead34 (blind review 23, q22): the risk read as a requirement among "What decides it" although the plan
# files nothing; it decides nothing as answered (``reasons.NOT_DECIDING``), so page 1 says it as the condition it is,
# on the sign-up question the plan rests on (the question names the article and the ways out)
QUESTION_KEY = "apilead34.assume.open_signup_no_entity"


def question_says_risk(questions: Sequence[OpenQuestion], findings: Sequence[Finding]) -> list[OpenQuestion]:
    """``questions`` with the sign-up question's assumption saying the risk, where the risk's finding stands."""
    if not any(f.id == RULE_ID for f in findings):
        return list(questions)
    return [q.model_copy(update={"assumption_key": QUESTION_KEY}) if q.field == "open_signup" else q
            for q in questions]

