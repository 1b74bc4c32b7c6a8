"""What a setup gives for one request on the predictor, the one figure the memo quotes where it sets a layout aside
for missing the target "even for one request" (s22-cleanup22b, issue 25).

The screen (``sizing.screen``) drops a setup whose analytic first token (a P99 factor over the steady state) misses
the target at one request; the predictor, which the plan trusts for every final check, can disagree: q03's TP1 FP8
on one L20 read 4,577 ms on the screen against a 4,000 ms target, where the predictor gives about 3,600 ms. The memo
quoted the screen's figure beside predictor figures for every other layout. A setup is said to miss the target for
one request only with the predictor's figure (``miss``); a setup the predictor finds within the target is sized
(``layout_rescue``), and one the screen could not hold is said by its memory, never by an unchecked latency."""

from __future__ import annotations

from dataclasses import dataclass

from advisor.domain.gpu import GpuSpec
from advisor.plan import sizing
from advisor.plan.context import Ctx


@dataclass(frozen=True)
class OneRequestMiss:
    """The target a setup misses at one request on the predictor: "ttft" or "tpot", the P99 ms, the target ms."""

    what: str
    value: float
    target: float


def miss(c: Ctx, k: sizing.Candidate) -> OneRequestMiss | None:
    """The first target (TTFT, then TPOT) one request on ``k`` misses on the predictor (its P99 at one request, as
    the latency table reads it); None where one request meets both."""
    lv = sizing.levels_at(c, k, [1])[0]
    ttft, tpot = lv.ttft_ms.p99, lv.tpot_ms.p99
    if c.ttft_slo_ms is not None and ttft is not None and ttft > c.ttft_slo_ms:
        return OneRequestMiss("ttft", ttft, c.ttft_slo_ms)
    if c.tpot_slo_ms is not None and tpot is not None and tpot > c.tpot_slo_ms:
        return OneRequestMiss("tpot", tpot, c.tpot_slo_ms)
    return None


def setup(c: Ctx, gpu: GpuSpec, weights: str, kv: str, tp: int) -> sizing.Candidate | None:
    """The screen's setup of ``gpu`` at ``weights``/``kv`` on ``tp`` cards as a candidate the predictor can run (no
    replicas: only its one-request figures are read); None where it does not hold one full-context request."""
    engine = sizing._engine(c, gpu)
    got = sizing._screened(c, gpu, weights, kv, tp, engine, (sizing._workload_token(c), sizing._token((gpu, engine))))
    if got is None:
        return None
    mem, costs, best_tpot, best_ttft, _fit = got
    return sizing.Candidate(gpu, weights, kv, tp, mem, costs, 0, 0, best_ttft, best_tpot, 0.0,
                            best_ttft_ms=best_ttft, best_tpot_ms=best_tpot)


__all__ = ["OneRequestMiss", "miss", "setup"]
