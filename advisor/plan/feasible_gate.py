"""The feasibility row's first-token condition (issue 25, blind reviews 25 and 26, q10: "'Feasible as asked: yes' is too
confident for a plan with … a P99 TTFT only 18 % under target (inside the predictor's error)").

Where the led plan's predicted P99 first token is under its target by less than the predictor's median first-token
error (``memo_one_server.thin_ttft``), the verdict holds only if the measurement confirms it: a plain "yes" becomes
"yes, if the measured P99 first token stays under the target", and a verdict already conditional (the quotes against
the budget) gains it as a second condition. Both point to the measuring step in section 6. The engine's ``feasible``
boolean is unchanged (the advice bench reads it).
"""

from __future__ import annotations

from advisor.i18n import translate
from advisor.plan.memo_one_server import thin_ttft
from advisor.plan.result import PlanResult


def feasible_text(result: PlanResult, lang: str, text: str, *, yes: str = "memo.yes", said: bool = False) -> str:
    """``text`` (the row's verdict so far) with the first-token condition where the predicted margin is inside the
    predictor's error; ``text`` unchanged otherwise. ``yes``: the key of the plain "yes" the row may hold. ``said``:
    the headline already makes the purchase wait on that measurement (a pilot server, ``quote_lead39.pilot``): not
    repeated beside it (blind review 28, q03: "say once")."""
    thin = thin_ttft(result) if result.feasible and not said else ""
    if not isinstance(thin, dict):
        return text
    params = {k: v for k, v in thin.items() if k != "tr"}
    if text == translate(lang, yes):
        return translate(lang, "q10gate_.yes_if_ttft", yes=text, **params)
    return text + translate(lang, "q10gate_.and_ttft", **params)


__all__ = ["feasible_text"]
