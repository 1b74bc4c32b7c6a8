"""A plan without the KV pick (``advisor.plan.kv_pick`` off): the GPU the engine's other picks chose, whose KV cache
may not hold its failover load at the full context. Since s34-kvpick36 q30, q36 and q41 move from the A10 to an L20;
the tests that pin what the A10 plan says (the card ``kv_card`` names, the rent finding's wording on its month, the
month's volume counted on its setup) keep it as their example through this (and without ``kv_plan42``'s replicas,
which would hold its failover load on more A10s), every other rule as it is. Made once per
answers a session; a fresh copy each call, as ``tests.support.planned`` does."""

from __future__ import annotations

import json
import pickle
from functools import cache
from typing import Any
from unittest import mock

from advisor.plan import answers_from_dict, engine, kv_pick, make_plan, supply_lead
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, rule_on


@cache
def _once(answers_json: str, unled: bool, rule: bool = True) -> bytes:
    # nor the replicas kv_plan42 adds where the budget carries them (s40-kvp42): the A10 plan as the reviewers read it,
    # its cache short on failover
    with mock.patch.object(kv_pick, "prefer", lambda *args, **kwargs: None), \
            mock.patch.object(engine, "_kv_more", lambda *args, **kwargs: None):
        if not unled:
            plan = make_plan(answers_from_dict(json.loads(answers_json)))
        else:  # nor the supply lead's re-plan on the part had in the region (s34-supply36: q37's L40S → L4)
            with mock.patch.object(supply_lead, "pick", lambda result: None):
                plan = make_plan(answers_from_dict(json.loads(answers_json)))
    return pickle.dumps(plan, protocol=pickle.HIGHEST_PROTOCOL)


def unpicked(answers: dict[str, Any], unled: bool = False) -> PlanResult:
    """The plan of ``answers`` without the KV pick (``unled``: nor the supply lead); a fresh copy each call."""
    key = json.dumps(answers, sort_keys=True, ensure_ascii=False)
    copy: PlanResult = pickle.loads(_once(key, unled, rule_on()))  # noqa: S301
    return copy


def plan_unpicked(name: str, unled: bool = False) -> PlanResult:
    """The plan of advice scenario ``name`` without the KV pick (``unled``: nor the supply lead)."""
    return unpicked(advice_answers(name), unled)
