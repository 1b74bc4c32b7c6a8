"""A paid API whose longest context was assumed: page 1 asks product to confirm that longer requests are refused
(issue 25, blind review 26, q18 en and zh: "for a paid B2B API, confirm with product that requests over
max-model-len 5,120 should be refused, since Llama 3.3 supports far longer contexts"; "tell product that
'--max-model-len 5120' caps a paid enterprise API on a 128k model at about 5k tokens").

The assumption itself (``plan.assume.max_context_tokens``: p95 prompt + p95 answer, rounded up; the server refuses
longer requests) was said only among section 7's assumptions. For a service sold by the token, a turned-away request
is a customer's error, and the model accepts far more than the plan sized for: that is a product decision, said on
page 1 among the answers not given, and not again in the appendix.
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan.models import resolve_plan_model
from advisor.plan.money_text import number_text
from advisor.plan.result import Assumption, PlanResult

FIELD = "max_context_tokens"


def _assumed(result: PlanResult) -> Assumption | None:
    return next((a for a in result.assumptions if a.field == FIELD), None)


def line(result: PlanResult, lang: str) -> tuple[str, str] | None:
    """(page 1's line, the assumption's own text it replaces in section 7), or None: not a paid API, the context
    given, no serve command to carry the cap, or the model accepts no more than the plan's context."""
    a = result.answers or {}
    # a paid API, or one open to the public (blind review 27, q18: "a product decision … should go to the product
    # owner explicitly"): a request turned away is a user's error either way
    paid, public = a.get("charges_users") is True, a.get("audience") == "public"
    if a.get("use_case") != "api" or not (paid or public) or result.deployment_form == "hosted_api":
        return None
    assumed, hw = _assumed(result), result.hardware
    if assumed is None or not hw.command or not hw.max_model_len or not a.get("model"):
        return None
    try:
        limit = int(resolve_plan_model(str(a["model"])).spec.max_context)
    except Exception:  # a model the catalog cannot resolve: nothing to compare against, nothing said
        return None
    if limit <= hw.max_model_len:
        return None
    said = assumed.text_in(lang)  # the figure's basis and the refusal, as section 7 said them, then the question
    text = translate(lang, "ownedcost37_context.confirm" if paid else "misc38_context.public", assumed=said, flag=str(hw.max_model_len),
                     model=hw.model_name or str(a["model"]), limit=number_text(limit))
    return text, said


__all__ = ["line"]
