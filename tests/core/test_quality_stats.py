"""Paired statistics of the scored A/B against values worked out by hand (exact binomial sums, Connor's
sample-size formula with the normal quantiles written out) and against the normal approximation of the
bootstrap for a large sample."""

import math

import pytest

from advisor.bench.quality.stats import (
    binomial_cdf_half,
    bootstrap_diff_ci,
    detectable_drop,
    mcnemar_exact_p,
    paired_counts,
    samples_needed,
)


def test_binomial_half_cdf_is_the_exact_sum():
    # P(X <= 5), X ~ Bin(20, 1/2): (1 + 20 + 190 + 1140 + 4845 + 15504) / 2^20 = 21700 / 1048576
    assert binomial_cdf_half(5, 20) == pytest.approx(21700 / 1048576, abs=1e-15)
    assert binomial_cdf_half(-1, 5) == 0.0 and binomial_cdf_half(5, 5) == 1.0


def test_mcnemar_exact_p_values_by_hand():
    # 10 pairs right only on A, 2 right only on B: n = 12, P(X <= 2) = (1 + 12 + 66) / 4096, two-sided doubles it
    assert mcnemar_exact_p(10, 2) == pytest.approx(2 * 79 / 4096, abs=1e-15)  # 0.03857...
    assert mcnemar_exact_p(2, 10) == mcnemar_exact_p(10, 2)  # symmetric
    assert mcnemar_exact_p(0, 5) == pytest.approx(2 / 32)  # all five one way: 0.0625, not significant
    assert mcnemar_exact_p(0, 6) == pytest.approx(2 / 64)  # six: 0.03125, significant at 5 %
    assert mcnemar_exact_p(4, 4) == 1.0  # capped at 1
    assert mcnemar_exact_p(0, 0) == 1.0  # no discordant pair: no evidence


def test_paired_counts_table():
    a = [1, 1, 0, 0, 1, 1]
    b = [1, 0, 1, 0, 0, 1]
    c = paired_counts(a, b)
    assert (c.both_right, c.only_a, c.only_b, c.both_wrong) == (2, 2, 1, 1)
    assert c.n == 6 and c.discordant == 3
    with pytest.raises(ValueError):
        paired_counts([1], [1, 0])


def test_bootstrap_degenerate_cases_are_exact():
    assert bootstrap_diff_ci([1.0] * 50, [1.0] * 50) == (0.0, 0.0)  # identical sides
    assert bootstrap_diff_ci([1.0] * 40, [0.0] * 40) == (-1.0, -1.0)  # every pair one way
    with pytest.raises(ValueError):
        bootstrap_diff_ci([], [])


def test_bootstrap_matches_the_normal_approximation_on_a_large_sample():
    # 200 pairs: 20 right only on A, 5 right only on B. Per-pair differences: -1 (20), +1 (5), 0 (175).
    # mean = -0.075; variance = 25/200 - 0.075^2 = 0.119375; standard error = sqrt(0.119375 / 200) = 0.024431
    # normal 95 % interval: -0.075 -+ 1.96 * 0.024431 = (-0.12289, -0.02711)
    a = [1.0] * 20 + [0.0] * 5 + [1.0] * 150 + [0.0] * 25
    b = [0.0] * 20 + [1.0] * 5 + [1.0] * 150 + [0.0] * 25
    lo, hi = bootstrap_diff_ci(a, b, resamples=10_000, seed=0)
    assert lo == pytest.approx(-0.12289, abs=0.006) and hi == pytest.approx(-0.02711, abs=0.006)
    # the same seed gives the same interval; the interval is a property of the data, not of the order
    assert bootstrap_diff_ci(a, b, resamples=10_000, seed=0) == (lo, hi)


def test_sample_size_connor_1987_by_hand():
    # n = (z_.975 sqrt(psi) + z_.80 sqrt(psi - d^2))^2 / d^2 with z_.975 = 1.959964, z_.80 = 0.841621
    # d = 0.03, psi = 0.10: (0.619795 + 0.264944)^2 / 0.0009 = 869.7 -> 870
    assert samples_needed(0.03, discordance=0.10) == 870
    # d = 0.03, psi = 0.03 (B only ever loses answers): (0.339476 + 0.143569)^2 / 0.0009 = 259.3 -> 260
    assert samples_needed(0.03, discordance=0.03) == 260
    # d = 0.05, psi = 0.20: (0.876524 + 0.374025)^2 / 0.0025 = 625.6 -> 626
    assert samples_needed(0.05, discordance=0.20) == 626
    # the discordance can never be below the drop itself
    assert samples_needed(0.05, discordance=0.01) == samples_needed(0.05, discordance=0.05)
    with pytest.raises(ValueError):
        samples_needed(0.0)


def test_detectable_drop_inverts_the_sample_size():
    drop = detectable_drop(870, discordance=0.10)
    assert drop == pytest.approx(0.03, abs=0.0005)
    assert samples_needed(drop, discordance=0.10) <= 870
    assert detectable_drop(30, discordance=0.10) > detectable_drop(300, discordance=0.10)
    assert math.isclose(detectable_drop(0), 1.0)
