"""A plan made as if the fleet's owners did not sign off the spare replica on busy cards (s33-fleet33).

``fleet.signoff_spares`` takes one spare replica onto busy cards of the team's own 8-GPU servers, on the condition
that their other work moves off with its owners' sign-off (blind review 21, q04 and q08: "the 4-replica / 16-card
layout should be the headline, not an add-on"). Without it the plan keeps the replicas on the free cards and
recommends the next one (``fleet_next_replica``): the path that tests of that recommendation, and of q04's
past-the-knee choice, read. Not the shared cached plan: made fresh with the sign-off off."""

from __future__ import annotations

from typing import Any

from advisor.plan import answers_from_dict, fleet, make_plan


def plan_without_signoff(monkeypatch: Any, answers: dict[str, Any]) -> Any:
    monkeypatch.setattr(fleet, "signoff_spares", lambda *a, **k: 0)
    return make_plan(answers_from_dict(answers))


__all__ = ["plan_without_signoff"]
