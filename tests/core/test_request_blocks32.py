"""RequestSource shares the blocks of lengths it draws between sources of the same workload and block size
(planspeed32: most of a plan's levels draw what another level drew): every source still reads exactly the sequence
its own seeded generator gives, block after block, whether it draws a block itself, reads one another source drew,
or the shared blocks are forgotten half-way through its stream."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim import predict
from advisor.sim.predict import RequestSource, sample_lengths


def _workload(seed: int) -> SimWorkload:
    return SimWorkload(prompt=LengthDistribution(kind="lognormal", mean=400, cv=1.2, min=1, max=4000),
                       output=LengthDistribution(kind="lognormal", mean=150, cv=0.9, min=1, max=2000), seed=seed)


def _own_generator(work: SimWorkload, n: int, blocks: int) -> list[tuple[int, int]]:
    """The stream as one generator draws it, block by block (prompts, then outputs), nothing shared."""
    rng = np.random.default_rng(work.seed)
    out: list[tuple[int, int]] = []
    for _ in range(blocks):
        prompts = sample_lengths(work.prompt, n, rng, side="prompt").tolist()
        outputs = sample_lengths(work.output, n, rng, side="output").tolist()
        out += zip(prompts, outputs, strict=True)
    return out


@pytest.mark.parametrize("seed", [0, 5])
def test_sources_sharing_blocks_read_their_own_generators_stream(seed: int) -> None:
    n, work = 64, _workload(seed)
    want = _own_generator(work, n, 4)
    first, second = RequestSource(work, n), RequestSource(work, n)  # the second reads what the first drew
    got_first, got_second = [], []
    for _ in range(3 * n + n // 2):  # interleaved: each draws some blocks and reads the others'
        got_first.append(first.next())
        got_second.append(second.next())
    assert got_first == got_second == want[: 3 * n + n // 2]
    late = RequestSource(work, n)  # every block already drawn
    assert [late.next() for _ in range(4 * n)] == want
    equal_apart = RequestSource(_workload(seed), n)  # an equal workload made apart: draws its own, the same lengths
    assert [equal_apart.next() for _ in range(2 * n)] == want[: 2 * n]


def test_a_source_goes_on_from_its_own_state_when_the_shared_blocks_are_forgotten() -> None:
    n, work = 64, _workload(11)
    want = _own_generator(work, n, 3)
    source = RequestSource(work, n)
    got = [source.next() for _ in range(n + 10)]
    predict._BLOCKS.clear()  # emptied when full, while this source is in its second block
    got += [source.next() for _ in range(2 * n - 10)]
    assert got == want


def test_another_block_size_or_seed_is_another_stream() -> None:
    a = RequestSource(_workload(1), 64)
    b = RequestSource(_workload(1), 65)
    c = RequestSource(_workload(2), 64)
    first = [a.next() for _ in range(64)]
    assert first != [c.next() for _ in range(64)]
    assert [b.next() for _ in range(65)] == _own_generator(_workload(1), 65, 1)
