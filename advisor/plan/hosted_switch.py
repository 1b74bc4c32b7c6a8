"""A hosted API priced on another model's list, led with: the model switch and its quality test said in the lead
(s23-apisg23, issue 25, re-check 12b of the twelfth blind review).

q24: "the headline 100× API saving is priced on Qwen2.5-Coder-32B / Qwen3-32B, not Qwen2.5-32B-Instruct, so name a
US provider that serves this model, or make the model switch and its quality test explicit"; q10: Llama-3.3-70B's
API priced on Qwen2.5-72B lists. No sourced list of either model at a provider serving the plan's region was found
(a search of providers' model pages for Qwen2.5-32B-Instruct in the US found none), so where the lead starts on
such an API it says, in its first lines, that taking it means switching model once the listed one passes the team's
quality test on its own prompts. A row of a larger model's list for a smaller one (``proxy`` "larger") is an upper
bound on the same model's price, said at the figure, and no switch.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_prices

KEY = "plan.apisg23"


def model_shown(c: Any) -> str:
    """The plan's model as its repository names it ("Qwen2.5-32B-Instruct")."""
    return str(c.model.hf_repo or c.model.id).split("/")[-1]


def switch_clause(c: Any) -> dict[str, Any] | str:
    """" No provider priced here lists X itself: …" where the API's figure is another model's of the same size; ""
    elsewhere (the model's own list, a larger model's as an upper bound, or the placeholder)."""
    p = hosted_prices.proxy(c)
    if p is None or p[0] != "other":
        return ""
    return {"tr": f"{KEY}.switch", "model": model_shown(c), "priced_on": p[1]}


__all__ = ["model_shown", "switch_clause"]
