"""The steps that run on a finished plan, in order: one shape for what ``engine.plan`` does once its result is built.

Each wave added a hook at the end of ``plan()`` (the fixes re-planned alone, the critical path first, the API's steps
first, the overseas node's part, the part to quote first, …), each written its own way: one mutated the result, one
returned new next steps, one a new result. Here a step is a name and a function of the plan that returns the plan it
becomes, or None where it changed the plan in place (or not at all); ``run`` applies them in order. The next such
step is one entry in ``engine._post_plan_steps`` (issue #27). The name says which step it is in a profile or a
debugger, and lets a test run the list up to a step.

Steps that choose among candidates before the result exists (``kv_pick``, ``ttft_free_cards``, ``decode_pick``) are
not of this shape: they act on the sizing's candidates, inside the plan.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from advisor.plan.result import NextStep, PlanResult

Step = tuple[str, Callable[[PlanResult], PlanResult | None]]


def run(result: PlanResult, steps: Iterable[Step]) -> PlanResult:
    """``result`` through every step in order (a step's None: the plan as it left it)."""
    for _name, step in steps:
        out = step(result)
        if out is not None:
            result = out
    return result


def next_steps(rewrite: Callable[[PlanResult], list[NextStep]]) -> Callable[[PlanResult], None]:
    """A step that rewrites the plan's next steps (``rewrite(result)``: the new list)."""

    def step(result: PlanResult) -> None:
        result.next_steps = rewrite(result)

    return step


def only_if(flag: bool, step: Callable[[PlanResult], Any]) -> Callable[[PlanResult], Any]:
    """``step`` where ``flag`` holds; else a step that leaves the plan as it is (the list keeps one order)."""
    return step if flag else (lambda _result: None)


__all__ = ["Step", "next_steps", "only_if", "run"]
