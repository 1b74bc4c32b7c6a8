"""Which generative-AI path a service takes (the filing, registration, or for a self-hosted open-weight model either)
and how many days of it remain, and who makes it when the company has no mainland entity (s18-genai3). Below both the rules (``advisor.plan.rules``) and the rule modules that plan the
filing (``duties18_rules``), so neither imports the other for it (no import cycle: tests/core/test_layering.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from advisor.plan.context import Ctx
from advisor.plan.data import duration, rule_sources
from advisor.plan.result import Finding


def genai_kind(c: Ctx, form: str | None = None) -> str:
    """genai_filing (a self-developed or fine-tuned model: provincial then central review), genai_registration
    (a service that only calls an already-filed model's API unchanged: provincial review only), or, for an
    open-weight model the team hosts itself unchanged, genai_open_weights: which of the two applies is not settled
    in the sources (deployment facts §2.2 describe registration for calling a filed model via its API), so both are
    shown and the launch spans the two (s16-duties, q07/q14). ``form`` None: before the form is decided (the region
    step reads only the low end, the same for registration and for the span)."""
    if c.fine_tuned:
        return "genai_filing"
    return "genai_registration" if form in (None, "hosted_api") else "genai_open_weights"


def genai_remaining(c: Ctx, form: str | None = None) -> tuple[int, int]:
    """Days the generative-AI filing/registration still takes, as the plan counts them: the whole of it, what is
    left of one under review, or none when it is done. A self-hosted open-weight model not yet under review is
    planned on the full filing (180–240 days), the path its finding says to plan on, with registration's shorter
    days as the earliest case (``genai_shorter``): the span of both (90–240) put the launch at registration's low
    end beside a finding that says to plan on the filing (round 14, q07/q14; s25-dates25)."""
    if c.genai_covered:
        return 0, 0
    kind = genai_kind(c, form)
    if c.genai_filing == "in_progress":
        return duration(f"{kind}_in_progress")
    return duration("genai_filing" if kind == "genai_open_weights" else kind)


def genai_shorter(c: Ctx, form: str | None = None) -> tuple[int, int] | None:
    """The registration's days where the plan counts the full filing but the provincial CAC may accept registration
    (a self-hosted open-weight model, not yet under review): the earliest case beside the planned one; None where
    the path is settled (a fine-tune files, an API call registers) or the step is under review or done."""
    if c.genai_covered or c.genai_filing == "in_progress" or genai_kind(c, form) != "genai_open_weights":
        return None
    return duration("genai_registration")


def genai_earliest(c: Ctx, form: str | None = None) -> tuple[int, int]:
    """The days the generative-AI step takes on its shortest path: registration where it may be accepted, else
    what ``genai_remaining`` counts. A deadline is called unreachable only when even this misses it."""
    return genai_shorter(c, form) or genai_remaining(c, form)


def canonical_days() -> dict[str, str]:
    """The two paths' days as every sentence states them (deployment facts §2.2: consultancies, grade C): the
    registration's and the full filing's, one range each ("3–4 months" in one finding beside "90–120 days" in
    another read as two figures, round 14 q07 zh)."""
    (r_lo, r_hi), (f_lo, f_hi) = duration("genai_registration"), duration("genai_filing")
    return {"reg": f"{r_lo}–{r_hi}", "filing": f"{f_lo}–{f_hi}"}


def filer_note(c: Ctx) -> dict[str, str] | str:
    """Who makes the filing, for a company that answered it has no mainland entity: the filing goes through the
    cyberspace office where the provider is registered (属地网信部门, CAC notice) with a mainland business licence,
    so it cannot make it itself and needs a mainland entity or a partner (eighth blind review: q13, q22, q43).
    Empty otherwise (a mainland company files itself; an unknown entity is not guessed at)."""
    return {"tr": "plan.genai3.filer.no_entity"} if c.answers.mainland_entity is False else ""


def with_filer(c: Ctx, text: Mapping[str, object] | str) -> Mapping[str, object] | str:
    """``text`` (a sentence parameter of a filing finding) followed by who files, when that needs saying."""
    note = filer_note(c)
    return {"tr": "plan.genai3.then", "first": text, "then": note} if note else text


def with_filer_sources(c: Ctx, found: Finding) -> Finding:
    """``found`` citing, beside its own sources, those of who files (the CAC's filing notice, filing guides) when
    its text says it (``filer_note``); a company that files itself is not sent to them."""
    if not filer_note(c):
        return found
    sources = [*found.sources, *(s for s in rule_sources("genai.business_signup", "filer") if s not in found.sources)]
    return found.model_copy(update={"sources": sources, "verify": found.verify or any(s.needs_verify for s in sources)})
