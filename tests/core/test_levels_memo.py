"""The plan's remembered running maxima (``advisor.plan.sizing._monotone_below``, #27): an entry is what
``monotone_latency`` gives for the very level objects it was made from; a different set of levels, or any one level
replaced in the candidate's ``checked``, is worked out afresh."""

from __future__ import annotations

from typing import Any

from advisor.plan.sizing import Candidate, _monotone_below
from advisor.sim.monotone import monotone_latency
from tests.core.test_plan_tpot_monotone import _level


def _candidate() -> Candidate:
    blank: Any = None  # the memo reads only `checked` and `monotone_memo`
    return Candidate(gpu=blank, weights="bf16", kv_dtype="bf16", tp=1, memory=blank, costs=blank, c_max=10,
                     replicas=1, ttft_p99_ms=0.0, tpot_p99_ms=0.0, tokens_per_s_replica=0.0)  # fmt: skip


def _tpots(levels: list) -> list[tuple[float | None, float | None]]:
    return [(lv.tpot_ms.p50, lv.tpot_ms.p99) for lv in levels]


def test_an_entry_is_the_running_maximum_and_is_reused() -> None:
    cand = _candidate()
    cand.checked.update({1: _level(1, 31.4, 20.0), 5: _level(5, 53.9, 35.3), 6: _level(6, 42.4, 36.0)})
    first = _monotone_below(cand, (1, 5, 6))
    assert _tpots(first) == _tpots(monotone_latency([cand.checked[k] for k in (1, 5, 6)]))
    assert first[2].tpot_ms.p99 == 53.9  # the dip at 6 raised
    assert _monotone_below(cand, (1, 5, 6)) is first  # nothing changed: the remembered list


def test_other_levels_below_are_worked_out_afresh() -> None:
    cand = _candidate()
    cand.checked.update({1: _level(1, 31.4, 20.0), 5: _level(5, 53.9, 35.3), 6: _level(6, 42.4, 36.0)})
    _monotone_below(cand, (1, 6))
    out = _monotone_below(cand, (1, 5, 6))  # level 5 now among them: 6 is raised to its 53.9
    assert [lv.tpot_ms.p99 for lv in out] == [31.4, 53.9, 53.9]


def test_a_level_replaced_in_checked_is_never_read_from_the_memo() -> None:
    base = {1: (31.4, 20.0), 5: (53.9, 35.3), 6: (42.4, 36.0)}
    for k in base:  # each level in turn: the entry must notice that one
        cand = _candidate()
        cand.checked.update({c: _level(c, *v) for c, v in base.items()})
        _monotone_below(cand, (1, 5, 6))
        cand.checked[k] = _level(k, 90.0, 80.0)  # another object, other figures
        out = _monotone_below(cand, (1, 5, 6))
        assert _tpots(out) == _tpots(monotone_latency([cand.checked[c] for c in (1, 5, 6)])), k
        assert any(lv.tpot_ms.p99 == 90.0 for lv in out), k
        # an equal copy is another object too: worked out again, the same figures
        cand.checked[k] = cand.checked[k].model_copy()
        again = _monotone_below(cand, (1, 5, 6))
        assert again is not out and _tpots(again) == _tpots(out), k
