"""Whether a business service is offered to the public under the generative-AI rules, asked rather than assumed
(issue 25, eighth blind review, s18-genai3).

The Interim Measures cover services offered to the public in the mainland (Art. 2) and exclude enterprise use not
offered to the public. A service any business can sign up for may be read as public; a closed set of customers
under contract fits the exclusion. s18-duties planned the filing on the first reading for every business service
answered "not public", and the reviewers read it as overriding the answer (q11–q13, q21, q22). Now the answer
stands: unless ``open_signup`` says any business can sign up (then ``genai.business_only`` plans the filing as
before), the plan asks the question (``advisor.plan.unknowns``) and states here, as a caveat, what the other
reading would cost in days.

Registered in ``advisor.plan.rules``' registry (``RULE_MODULES``); texts in ``resources/i18n/*/genai18_genai3.json``,
sources in ``resources/plan/duties18.json``.
"""

from __future__ import annotations

from advisor.plan import genai_no_entity_rules
from advisor.plan.duties18_rules import business_genai_reading, likely_public_genai
from advisor.plan.genai_paths import filer_note, with_filer_sources
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule


@rule("genai.business_signup", "constraint")
def business_signup(f: Facts) -> Finding | None:
    """A business service answered "not public" whose sign-up is not said (``open_signup`` unknown): the plan
    keeps the answer — no filing planned, the launch as answered — and says that if any business can sign up,
    the service may count as public and the filing or registration would take its days before launch; who files
    when the company has no mainland entity. ``open_signup`` false (contracted customers): nothing to say."""
    c = f.ctx
    if c.answers.open_signup is not None or likely_public_genai(f) is not None:
        return None  # answered, or a per-token API whose filing ``genai.business_only`` plans (q11)
    if genai_no_entity_rules.applies(f):  # no mainland entity to file: page 1's risk says it (s31-publicsaas31)
        return None
    reading = business_genai_reading(f)
    if reading is None:
        return None
    kind, lo, hi = reading
    found = finding("genai.business_signup", variant="offshore" if f.offshore else None,
                    region={"tr": f"plan.region.{f.region}"}, kind={"tr": f"plan.genai.{kind}"}, low=lo, high=hi,
                    filer=filer_note(c))
    return with_filer_sources(c, found)
