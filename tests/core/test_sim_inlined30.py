"""The closed loop's hot paths spell out what their helpers say (simspeed30): ``summarise`` reads the engine's step times
as numpy arrays of the same bits as ``np.asarray(list[i:j])`` (``_floats``, ``np.fromiter`` over a list's slice, since
planspeed32 ``_history`` over the engine's typed ``array("d")``), and ``_Issuer`` sends exactly
``RequestSource.next``'s lengths in order (an inlined copy of ``next`` was tried and taken back at the lead's re-read:
a copy of another class's private state for ~1 %). A change that moves a plan's figures in the last bit fails here."""

from __future__ import annotations

import random
from array import array

import numpy as np
import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.engine import REJECTED, Engine, EngineLimits
from advisor.sim.predict import RequestSource, _history, _Issuer


@pytest.mark.parametrize("seed", range(4))
def test_the_history_is_numpys_asarray_of_the_slice_to_the_bit(seed: int) -> None:
    """The engine appends its step times (Python floats, numpy float64s, an int) to ``array("d")``; ``summarise`` reads
    them with ``_history``: the same float64s as ``np.asarray`` of the list the engine kept before (planspeed32)."""
    rng = random.Random(seed)
    values: list[float] = [rng.uniform(-1e3, 1e3) * 10 ** rng.randint(-12, 6) for _ in range(rng.randint(0, 3000))]
    values += [0.0, -0.0, 1e-308, 5e-324, 2.0**53 + 1, 7, np.float64(0.1) * 3]  # signed zero, subnormals, an int as the engine may hold
    n = len(values)
    for start, stop in [(0, None), (0, 0), (n, n), (0, n), (n // 3, 2 * n // 3), (1, 2), (n - 1, n)]:
        want = np.asarray(values[start:stop], dtype=float)
        got = _history(array("d", values), start, stop)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()  # the same bits (-0.0 stays -0.0)


class _Flat:
    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read):
        return 0.01


def test_the_issuer_sends_the_sources_lengths_in_order_across_blocks_and_refusals() -> None:
    """Past the first block of lengths (the inline path gives way to ``RequestSource.next``, which draws the next
    block) and with refused requests issued from inside ``add_request`` (their users send again at once), the
    requests carry exactly the lengths ``RequestSource.next`` gives, in order."""
    work = SimWorkload(prompt=LengthDistribution(kind="lognormal", mean=300, cv=1.5, min=1, max=4000),
                       output=LengthDistribution(kind="lognormal", mean=200, cv=1.0, min=1, max=2000), seed=7)  # fmt: skip
    limits = EngineLimits(kv_blocks=80, block_size=16)  # 1,280 tokens: the longest requests are refused
    engine = Engine(_Flat(), limits)
    issued: list = []
    source = RequestSource(work, 64)
    issue = _Issuer(engine, source, issued)
    engine.on_finish = lambda seq: issue(seq.finish_t) if len(issued) < 300 else None
    for i in range(5):
        issue(0.01 * i)
    engine.run()
    reference = RequestSource(work, 64)
    expected = [reference.next() for _ in issued]
    assert [(s.prompt, s.output) for s in issued] == [(max(1, p), max(1, o)) for p, o in expected]
    assert source.i == len(issued)  # the count of lengths drawn, as next() keeps it
    assert len(issued) >= 300 and sum(s.state == REJECTED for s in issued) >= 5  # past four blocks, some refused
