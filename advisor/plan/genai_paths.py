"""Which generative-AI path a service takes (the filing, registration, or for a self-hosted open-weight model either)
and how many days of it remain. Below both the rules (``advisor.plan.rules``) and the rule modules that plan the
filing (``duties18_rules``), so neither imports the other for it (no import cycle: tests/core/test_layering.py).
"""

from __future__ import annotations

from advisor.plan.context import Ctx
from advisor.plan.data import duration


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
    """Days the generative-AI filing/registration still takes: the whole of it, what is left of one under review,
    or none when it is done."""
    if c.genai_covered:
        return 0, 0
    kind = genai_kind(c, form)
    return duration(f"{kind}_in_progress" if c.genai_filing == "in_progress" else kind)
