"""A scenario's plan as the screen sized it, with the KV cache kept as screened (the FP8 switch of
``advisor.plan.kv_fp8_set`` off): what the 16-bit cache holds, the remedies offered, and whether the plan with the
switch on set FP8 exactly where that plan's cache fell short and FP8 held the load. Made once per name a session."""

from __future__ import annotations

import json
import pickle
from functools import cache
from unittest import mock

from advisor.plan import answers_from_dict, engine, kv_fp8_set, make_plan, supply_lead
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, rule_on


@cache
def _once(name: str, rule: bool = True, change: str = "{}") -> bytes:
    # the cheaper part as sized (``supply_lead`` off), as the switched plan these are compared with is (``unled``)
    # nor kv_plan42's replicas (s40-kvp42), which would hold the 16-bit cache's failover load on more cards
    with mock.patch.object(kv_fp8_set, "switched", lambda ctx, ch: None), \
            mock.patch.object(supply_lead, "pick", lambda result: None), \
            mock.patch.object(engine, "_kv_more", lambda *args, **kwargs: None):
        plan = make_plan(answers_from_dict({**advice_answers(name), **json.loads(change)}))
    return pickle.dumps(plan, protocol=pickle.HIGHEST_PROTOCOL)


def plan_kept_bf16(name: str, change: dict | None = None) -> PlanResult:
    """The plan of advice scenario ``name`` (its answers changed by ``change``) without the FP8 KV switch (nor
    ``supply_lead``); a fresh copy each call."""
    key = json.dumps(change or {}, sort_keys=True)
    copy: PlanResult = pickle.loads(_once(name, rule_on(), key))  # noqa: S301 (our own bytes)
    return copy
