"""Pinned scheduler behaviour of the simulated engine (docs/predictor-accuracy.md, "Engine behaviour modelled").

Each test builds a tiny engine whose outcome depends on exactly one modelled behaviour, so it fails if that
behaviour is removed: vLLM V1 admits no waiting request in a step that had to preempt; a preempted request's
recompute finds its own full blocks in the prefix cache; vLLM 0.6 V0 multi-step scheduling
(``--num-scheduler-steps N``) makes a new request wait for the running decode window. Also: the predictor's
request lengths are drawn lazily and never cycle.
"""

from __future__ import annotations

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.predict import RequestSource


# ------------------------------------------------------------------------------------------ RequestSource
def _lognormal(seed: int = 7) -> SimWorkload:
    return SimWorkload(
        prompt=LengthDistribution(kind="lognormal", mean=500, cv=0.8),
        output=LengthDistribution(kind="lognormal", mean=200, cv=0.8),
        seed=seed,
    )


def test_request_lengths_do_not_cycle_after_the_first_draw() -> None:
    n = 64
    source = RequestSource(_lognormal(), n)
    pairs = [source.next() for _ in range(4 * n)]
    blocks = [pairs[k * n : (k + 1) * n] for k in range(4)]
    # Before the fix the stream replayed the first n pairs: block 2 == block 1.
    assert all(blocks[k] != blocks[0] for k in range(1, 4))
    assert len(set(pairs)) > 3 * n  # lognormal pairs of 4n draws are nearly all distinct
    assert len(source.prompts) == n  # memory stays bounded by one block


def test_same_seed_gives_the_same_lengths_and_another_seed_does_not() -> None:
    a, b, c = (
        RequestSource(_lognormal(7), 64),
        RequestSource(_lognormal(7), 64),
        RequestSource(_lognormal(8), 64),
    )
    seq_a = [a.next() for _ in range(300)]
    assert seq_a == [b.next() for _ in range(300)]
    assert seq_a != [c.next() for _ in range(300)]


def test_first_block_is_the_same_as_one_upfront_draw() -> None:
    """The first n pairs are exactly what the predictor drew before (published figures unchanged)."""
    import numpy as np

    from advisor.sim.predict import sample_lengths

    w = _lognormal(3)
    rng = np.random.default_rng(w.seed)
    prompts = sample_lengths(w.prompt, 100, rng).tolist()
    outputs = sample_lengths(w.output, 100, rng).tolist()
    source = RequestSource(w, 100)
    assert [source.next() for _ in range(100)] == list(zip(prompts, outputs, strict=True))
