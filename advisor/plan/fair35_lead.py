"""Page 1's "Why not a hosted API" where the API's model is deprecated: the gap and the condition said plainly.

Blind review 24 (q34): "¥782–¥955 a month against ¥28,688–¥39,807 is a 30–40× gap, set aside only because Qwen2.5-14B
is 'deprecated'". The decision stands (a deprecated model's price is a yardstick, not a plan), but page 1 now says the
gap as a ratio in one plain sentence and the one condition under which the API is taken instead: the model that
succeeds it there, priced near the yardstick and passing the quality test on the team's own prompts.
"""

from __future__ import annotations

from typing import Any

KEY = "fair35.lead.deprecated"


def _ratio(x: float) -> str:
    """A ratio as a reader says it: whole above 10, one decimal below."""
    return f"{round(x):,}" if x >= 10 else f"{x:.1f}"


def times(hosted_low: float, hosted_high: float, plan_low: float, plan_high: float) -> dict[str, Any]:
    """How many times the plan's month is the API's, low to high (plan's low over the API's high, plan's high over
    the API's low), as the ``{times}`` parameter: "30–51"; one figure where both ends round alike."""
    low = plan_low / hosted_high if hosted_high > 0 else 0.0
    high = plan_high / hosted_low if hosted_low > 0 else low
    lo, hi = _ratio(low), _ratio(high)
    return {"tr": "fair35.times", "span": lo if lo == hi else f"{lo}–{hi}"}


__all__ = ["KEY", "times"]
