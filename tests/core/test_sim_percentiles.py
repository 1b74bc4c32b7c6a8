"""``percentiles_ms`` works the quantiles out itself (issue 27: np.percentile's fixed cost per call was half of a small
level's ``summarise``): every figure must be the very float np.percentile gives, for any sample size and spread."""

from __future__ import annotations

import numpy as np
import pytest

from advisor.sim.predict import percentiles_ms


def _numpy(values: np.ndarray) -> list[float]:
    return [float(x) for x in np.percentile(values, [50, 90, 95, 99]) * 1000.0]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 11, 20, 21, 99, 100, 101, 128, 200, 1001, 4097])
def test_the_same_bits_as_numpy_for_every_sample_size(n: int) -> None:
    rng = np.random.default_rng(n)
    for values in (rng.lognormal(-3.0, 1.2, n), rng.uniform(0.0, 2.0, n), np.round(rng.uniform(0, 1, n), 2),
                   np.full(n, 0.0123), rng.exponential(0.05, n) + 1e-9):  # fmt: skip
        got = percentiles_ms(values)
        assert [got.p50, got.p90, got.p95, got.p99] == _numpy(values)  # exact: not approx
        assert got.mean == float(values.mean() * 1000.0)


def test_ties_and_lists_and_unsorted_input() -> None:
    values = [0.3, 0.1, 0.1, 0.2, 0.3, 0.3, 0.05]
    got = percentiles_ms(values)
    assert [got.p50, got.p90, got.p95, got.p99] == _numpy(np.asarray(values))


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # inf − inf in numpy's interpolation
def test_non_finite_samples_keep_numpys_handling_and_empty_is_unknown() -> None:
    values = np.array([0.1, np.inf, 0.2])
    got = percentiles_ms(values)
    np.testing.assert_array_equal([got.p50, got.p90, got.p95, got.p99], _numpy(values))  # NaN where numpy gives NaN
    empty = percentiles_ms([])
    assert empty.p50 is None and empty.p99 is None and empty.mean is None
