"""A hosted API priced on a hybrid-thinking model's list says that its price holds with thinking off (blind review
22, q24: "the API price is for Qwen3-32B … one listed source (Cerebras) runs it with reasoning on by default.
Thinking must be disabled, or output tokens and cost rise, and the memo should say so as it does in q29").

Where page 1 starts on an API priced on another model's list (``hosted_switch``) or on a deprecated model's next
generation (``hosted_next``), and that model is one of Qwen3's hybrid-thinking releases (``thinking_default``: the
same repositories, by their published names), the lead says it after the switch: the costs are the answers' answer
lengths, which hold only with thinking switched off (``enable_thinking: false``, Qwen's switch, which OpenAI-style
providers take in the request; or the provider's own switch), and left on its reasoning tokens add to every answer's
output and cost. A served Qwen3 model says it among the assumptions already (``context``); other families are not
known here and stay unsaid.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.thinking_default import _HYBRID

KEY = "apiterms33.api_thinks"


def thinkers(priced_on: str) -> list[str]:
    """The hybrid-thinking models among a price row's names ("Qwen3-32B / Qwen3-30B-A3B"), in their order."""
    names = [n.strip() for n in str(priced_on or "").split("/")]
    return [n for n in names if n and _HYBRID.match(f"Qwen/{n}") is not None]


def clause(priced_on: str) -> dict[str, Any] | str:
    """The sentence where the API's price is a hybrid-thinking model's list; "" elsewhere."""
    named = thinkers(priced_on)
    if not named:
        return ""
    return {"tr": KEY, "model": " / ".join(named), "repo": f"Qwen/{named[0]}"}


__all__ = ["KEY", "clause", "thinkers"]
