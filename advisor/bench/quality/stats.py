"""Paired statistics for two sides scored on the same samples.

- **paired bootstrap**: resample the samples (pairs) with replacement, ``resamples`` times with a fixed seed;
  the 2.5th and 97.5th percentiles of B − A accuracy are the 95 % interval (percentile method, Efron &
  Tibshirani 1993, ch. 13). Works for any score in [0, 1].
- **McNemar's exact test** (0/1 scores): only the discordant pairs carry information; under "no difference"
  each discordant pair is equally likely to favour A or B, so the count favouring B is Binomial(n, ½) and the
  two-sided p-value is ``min(1, 2·P(X ≤ min(b, c)))`` (McNemar 1947; the exact form in Agresti, *Categorical
  Data Analysis*, 3rd ed., §11.1).
- **sample size** for paired proportions (Connor 1987, *Biometrics* 43:207): to detect a drop δ with a
  two-sided test at level α and power 1 − β when a share ψ of answers differ between the sides,
  ``n = (z₁₋α/₂·√ψ + z₁₋β·√(ψ − δ²))² / δ²``.

All pure functions over lists of numbers; no numpy needed (a few thousand samples at most).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from statistics import NormalDist

DEFAULT_RESAMPLES = 10_000
DEFAULT_DISCORDANCE = 0.10  # assumed share of answers that differ between the sides when nothing was measured


@dataclass(frozen=True)
class PairedCounts:
    """The 2×2 table of 0/1 scores: both right, only A right (b), only B right (c), both wrong."""

    both_right: int
    only_a: int
    only_b: int
    both_wrong: int

    @property
    def n(self) -> int:
        return self.both_right + self.only_a + self.only_b + self.both_wrong

    @property
    def discordant(self) -> int:
        return self.only_a + self.only_b


def paired_counts(a: list[float], b: list[float]) -> PairedCounts:
    if len(a) != len(b):
        raise ValueError("both sides must be scored on the same samples")
    counts = [0, 0, 0, 0]
    for x, y in zip(a, b, strict=True):
        counts[_cell(x, y)] += 1
    return PairedCounts(*counts)


def _cell(x: float, y: float) -> int:
    ra, rb = x >= 0.5, y >= 0.5
    if ra and rb:
        return 0
    if ra:
        return 1
    if rb:
        return 2
    return 3


def binomial_cdf_half(k: int, n: int) -> float:
    """P(X ≤ k) for X ~ Binomial(n, ½), exactly (integer sums, one division)."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    return float(sum(math.comb(n, i) for i in range(k + 1)) / 2**n)


def mcnemar_exact_p(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (1.0 when there are none)."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    return min(1.0, 2 * binomial_cdf_half(min(only_a, only_b), n))


def bootstrap_diff_ci(a: list[float], b: list[float], *, resamples: int = DEFAULT_RESAMPLES, seed: int = 0,
                      level: float = 0.95) -> tuple[float, float]:
    """Percentile interval of mean(B) − mean(A) over paired resamples (same seed → same interval)."""
    n = len(a)
    if n == 0 or n != len(b):
        raise ValueError("both sides need scores on the same, non-empty set of samples")
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(diffs, k=n)) / n for _ in range(resamples))
    tail = (1 - level) / 2
    lo = means[max(0, math.floor(tail * resamples))]
    hi = means[min(resamples - 1, math.ceil((1 - tail) * resamples) - 1)]
    return lo, hi


def samples_needed(drop: float, *, discordance: float | None = None, alpha: float = 0.05,
                   power: float = 0.80) -> int:
    """Pairs needed to detect a drop of ``drop`` (0.03 = 3 points) with a two-sided paired test (Connor 1987).
    ``discordance``: the share of samples answered differently by the two sides (at least ``drop``)."""
    if not 0 < drop < 1:
        raise ValueError("the drop must be between 0 and 1 (0.03 = 3 points)")
    psi = max(drop, discordance if discordance is not None else DEFAULT_DISCORDANCE)
    z_a = NormalDist().inv_cdf(1 - alpha / 2)
    z_b = NormalDist().inv_cdf(power)
    n = (z_a * math.sqrt(psi) + z_b * math.sqrt(max(psi - drop * drop, 0.0))) ** 2 / (drop * drop)
    return math.ceil(n)


def detectable_drop(n: int, *, discordance: float | None = None, alpha: float = 0.05, power: float = 0.80) -> float:
    """The smallest drop ``n`` pairs detect at that level and power (inverse of :func:`samples_needed`)."""
    if n < 1:
        return 1.0
    lo, hi = 1e-4, 0.999
    if samples_needed(hi, discordance=discordance, alpha=alpha, power=power) > n:
        return 1.0
    for _ in range(60):  # bisection: samples_needed falls as the drop grows
        mid = (lo + hi) / 2
        if samples_needed(mid, discordance=discordance, alpha=alpha, power=power) <= n:
            hi = mid
        else:
            lo = mid
    return hi
