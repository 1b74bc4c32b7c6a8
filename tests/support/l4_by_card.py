"""Singapore's price list as it was before issue #25 (s39-sgp): Google Cloud's L4 at g2-standard-4's rate for any
tensor-parallel size (as a host renting L4 servers by the card would price it), no Google Cloud A100 80GB row.

Since s39 the L4 rows are sized (g2-standard-4 holds one L4; a TP2/TP4 replica is priced on g2-standard-24/48, whose
VM part a GPU is three times as dear) and Google Cloud's a2-ultragpu A100 80GB is priced one GPU at a time: q13's
Singapore fallback moved from an L4 pair (TP2) to one L4 a replica, q34's Singapore node likewise, q37 to 4 × A100.
The tests that pin rules read on those earlier setups (the single card declined past its premium, the failover
TPOT's single-card pick, the overseas node leaving a stand-in for a part priced there, …) keep them as their example
through this synthetic price list, every rule and every other row as they are, as ``planned.loose_tpot`` keeps
the plans made before the chat rule."""

from __future__ import annotations

import json
import pickle
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any
from unittest import mock

from advisor.plan import answers_from_dict, data, make_plan, sure_fallback
from advisor.plan.result import PlanResult, PriceRow
from tests.support.planned import rule_on

ADDED = ("l4.gcp_singapore_multi", "a100_80.gcp_singapore")  # the rows s39-sgp added
_BUILT = data.builtin_rows  # the real list, read before any patch


@cache
def _rows() -> tuple[PriceRow, ...]:
    return tuple(r.model_copy(update={"vm_gpus": None}) if r.id == "l4.gcp_singapore" else r
                 for r in _BUILT() if r.id not in ADDED)  # fmt: skip


@contextmanager
def l4_by_card() -> Iterator[None]:
    """Plans made inside it price Singapore's L4 by the card and have no Google Cloud A100 80GB row."""
    with mock.patch.object(data, "builtin_rows", _rows), mock.patch.object(sure_fallback, "builtin_rows", _rows):
        yield


@cache
def _once(answers_json: str, rule: bool) -> bytes:
    with l4_by_card():
        return pickle.dumps(make_plan(answers_from_dict(json.loads(answers_json))), protocol=pickle.HIGHEST_PROTOCOL)


def planned_by_card(answers: dict[str, Any]) -> PlanResult:
    """``planned`` on the price list above: made once per session, a fresh copy each call."""
    key = json.dumps(answers, sort_keys=True, ensure_ascii=False)
    return pickle.loads(_once(key, rule_on()))  # noqa: S301 (our own bytes)


@cache
def _unled(answers_json: str, rule: bool) -> bytes:
    from tests.support import planned as shared

    with l4_by_card():
        return shared._unled_once.__wrapped__(answers_json, rule)  # type: ignore[attr-defined]  # uncached: our own


def unled_by_card(answers: dict[str, Any]) -> PlanResult:
    """``planned.unled`` (the plan before ``supply_lead`` re-sizes it) on the price list above."""
    key = json.dumps(answers, sort_keys=True, ensure_ascii=False)
    return pickle.loads(_unled(key, rule_on()))  # noqa: S301 (our own bytes)
