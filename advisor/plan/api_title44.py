"""The memo's title says what is recommended where that is a hosted API (s42-api, blind review 35: q13, q16, q22).

A plan whose answer is a hosted API, the asked model's or another one's (q13/q22: Qwen3-14B's API for a Qwen2.5 14B
asked), still read "Decision memo: how to serve Qwen2.5 14B Instruct" (zh: "Qwen2.5 14B Instruct 的部署方案"), which
a boss reads as a server to deploy. The title now names the API and the model it serves: "Decision memo: a hosted API
(Qwen3-14B) instead of self-hosting Qwen2.5 14B Instruct", or "Decision memo: Qwen2.5 14B Instruct on a hosted API".
Only a feasible plan whose form is the API, or whose page 1 leads with a live service's API (``lead_line``); an
infeasible plan keeps its title (its blockers lead).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.lead_line import LIVE_LEADS


def api_model(result: Any) -> str | None:
    """The model the recommended hosted API serves ("" for the model asked), or None where no API is recommended."""
    if not result.feasible:
        return None
    if result.deployment_form == "hosted_api":
        return ""
    start = result.start_with
    if start is None or start.form != "hosted_api" or not start.key.startswith(LIVE_LEADS):
        return None
    other = start.params.get("next")
    return str(other) if isinstance(other, str) else ""


def title(result: Any, lang: str, model: str) -> str | None:
    """The API's title for ``model`` (the asked model's words), or None where the usual title stands."""
    other = api_model(result)
    if other is None:
        return None
    if other:
        return translate(lang, "api44.title.other", api=other, model=model)
    return translate(lang, "api44.title.same", model=model)


__all__ = ["api_model", "title"]
