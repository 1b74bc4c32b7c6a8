"""The sizing reason's target named where the memo set it itself (issue #25, blind review 36, q04: "'What decides it'
then says '5 × (2 × H20, fp8) meets the target' as if the target were given. Say 'meets a 10 s target' there").

Where no first-token target was given and the usual one's layout takes more cards than are free, the plan raises the
assumed target to fit the free cards (``fleet_choice43.raised``) and page 1 puts that choice to the business owner.
The sizing reason then names the raised target, so nobody reads "the target" as one the team set.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fleet_choice43

# the sizing reason's titles that say "meets the target at the peak of …", each with its own-target twin
TITLES = {
    "plan.rule.sizing.plan.title": "own44.sizing.plan.title",
    "plan.rule.sizing.plan.room.title": "own44.sizing.plan.room.title",
    "agree18.sizing.plan.room.title": "own44.sizing.plan.knee.title",
    "plan.owned20.knee.room.title": "own44.sizing.plan.choice.title",
}


def _seconds(ms: float) -> str:
    """10000 → "10", 7876 → "7.9": seconds as a reader says them (``ttft_rule41._s``)."""
    return f"{round(float(ms) / 1000, 1):g}"


def name_target(result: Any) -> list[Any]:
    """The findings with the sizing reason naming the raised first-token target, where the plan raised it; as they
    were elsewhere."""
    raised = fleet_choice43.raised(result)
    if raised is None or not raised.get("value") or result.deployment_form == "hybrid":
        return list(result.findings)
    target = _seconds(raised["value"])
    return [f.model_copy(update={"title_key": TITLES[f.title_key], "params": {**f.params, "target_s": target}})
            if f.id == "sizing.plan" and f.title_key in TITLES else f for f in result.findings]


__all__ = ["TITLES", "name_target"]
