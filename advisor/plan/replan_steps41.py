"""The steps after an infeasible plan's decision follow the path that decision names (issue 25, blind review 31, q40
and q30).

An infeasible plan's next steps start with the change that makes it feasible ("first decide on … and re-plan with
it; the tests below are for the setup that re-plan names, not the one ruled out above"), then the technical steps the
plan made for its own, ruled-out setup. Two cases read wrong:

- the one change is a hosted API (q40: "Next step 2 ('get a quote for NVIDIA H20 96GB instances of 4 cards') and the
  ramp test contradict step 1 and the blocker. Drop them or label them as for a self-hosted re-plan only"): the API
  runs no GPU of the team's, so the quote and load tests of the self-hosted setup are dropped, and the decision says
  that a self-hosted re-plan lists its own; an API trial step, where the plan has one, stays;
- the one change keeps the setup and moves only the date (q30, a launch after the filing; review 30: "'the tests
  below are for the setup that re-plan names, not the one ruled out above' is confusing when the recommended L20
  setup is the only one named"): the tests below run on the setup above, and the decision says so.
"""

from __future__ import annotations

from typing import Any

DECIDE_ONE = "steps18.next.decide_one"
API_FIXES = ("hosted_api", "hosted_api_job")  # the change is to stop self-hosting
SAME_SETUP_FIXES = ("extend_deadline",)  # the change moves the launch, not the setup
KEPT_ON_API = ("api_trial",)  # a step that tests the API itself


def after_decision(decide: Any, one: Any, steps: list[Any]) -> tuple[Any, list[Any]]:
    """(the decision step, the steps after it) as the path the one change names (see the module's text)."""
    if decide.key != DECIDE_ONE or one is None:
        return decide, steps
    if one.id in API_FIXES:
        return decide.model_copy(update={"key": "plan41_next.decide_api"}), [s for s in steps if s.id in KEPT_ON_API]
    if one.id in SAME_SETUP_FIXES:
        return decide.model_copy(update={"key": "plan41_next.decide_same_setup"}), steps
    return decide, steps


__all__ = ["after_decision"]
