"""Decode speed with speculative decoding (issue #28, s26-spec28): what a step costs and what it yields.

A step of vLLM's speculative decoding (vllm/v1/spec_decode/: the proposer's ``propose`` after the target's forward,
the rejection sampler on the target's logits at every proposed position):

- the proposer drafts k tokens a sequence: a draft model or an EAGLE/EAGLE-3 head runs k forwards of its own (its
  weights, its one or few layers' KV over the context; an EAGLE-3 head's LM head over its draft vocabulary, EAGLE-1's
  the target's), MTP k forwards of the model's MTP layer (vLLM reuses its one layer for every position), n-gram a
  look-up on the CPU that costs the GPU nothing;
- the target verifies: one forward of k + 1 positions a sequence (``StepCostModel.verify_step_seconds``), each
  sequence's cache read once;
- it yields E = (1 − α^(k+1)) / (1 − α) tokens a sequence on average for per-token acceptance α (Leviathan et al.
  2023, arXiv 2211.17192), so the time per output token is (k × draft forward + verification) / E.

At one stream the decode step is a weight read, and verifying k + 1 positions costs about what one does: speculation
pays nearly E-fold less the drafting. With more streams the step does more arithmetic per weight read, until
verifying (k + 1) × streams positions is compute-bound and costs (k + 1) times a decode step: the gain falls with the
streams and turns into a loss. vLLM's documentation says the same ("reduce inter-token latency under medium-to-low
QPS, memory-bound workloads", docs/features/speculative_decoding/README.md), as do measurements on vLLM (SpecDecode-
Bench, arXiv 2601.11580: "speedups shrink as batch size grows (the system becomes compute-bound)") and EAGLE-3's own
(arXiv 2503.01840: 1.38× throughput at batch 64 in SGLang, against up to 6.5× at batch 1).

α is the pair's and the data's, not the hardware's: a speed-up is stated only where acceptance for the method on this
model is published (speculative_acceptance.py), as the range over the published data sets. Elsewhere only the cost
is stated, and the mean tokens a step would have to yield for speculation to pay at each load.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import (
    Range,
    SizingRequest,
    SpeculativeAcceptance,
    SpeculativeAtLoad,
    SpeculativeMeasurement,
    SpeculativeSettings,
    SpeculativeSpeed,
    SpeedFactors,
)
from advisor.i18n import tr
from advisor.sizing.roofline import StepCostModel
from advisor.sizing.speculative_acceptance import (
    alpha_range,
    other_drafters,
    published_acceptance,
    tokens_per_step,
)

STREAMS = (1, 2, 4, 8, 16, 32, 64, 128)  # the loads the regime sentence is read from
LEVIATHAN = "Leviathan et al. 2023, 'Fast Inference from Transformers via Speculative Decoding' (arXiv 2211.17192)"
VLLM_DOCS = ("vLLM docs, features/speculative_decoding: speculation reduces inter-token latency 'under medium-to-low "
             "QPS (queries per second), memory-bound workloads'")  # fmt: skip


def proposer_model(spec: SpeculativeSettings, target: ModelSpec) -> ModelSpec | None:
    """What the proposer runs each forward, as a model the step cost model can time; None for n-gram (the CPU).
    An EAGLE-3 head's LM head covers its draft vocabulary; MTP is the target's MTP layer(s) with its embedding and
    head (vLLM shares the target's, which a forward reads all the same)."""
    if spec.method == "ngram":
        return None
    if spec.method == "mtp":
        n = target.num_mtp_layers
        return target.model_copy(update={"id": f"{target.id}-mtp", "num_layers": n, "num_mtp_layers": 0,
                                         "moe_layers": (True,) * n if target.is_moe else (),
                                         "layer_types": ()})  # fmt: skip
    draft = spec.draft_model
    assert draft is not None  # SpeculativeSettings: given for the other methods
    if spec.method == "eagle3" and spec.draft_vocab_size:
        return draft.model_copy(update={"id": f"{draft.id}-draft-vocab", "vocab_size": spec.draft_vocab_size})
    return draft


def _proposer_factors(f: SpeedFactors) -> SpeedFactors:
    """The proposer's forwards run inside the target's engine step (one schedule, one streaming of the accepted
    tokens): the step's own overhead, the front end and the scheduler are counted once, on the verification."""
    return f.model_copy(update={"step_overhead_ms": 0.0, "stream_token_us": 0.0, "scheduler_us_per_seq": 0.0})


class SpeculativeStep:
    """One speculative step's cost for a request's setup, at any number of streams (one cost model each way)."""

    def __init__(self, req: SizingRequest, target: StepCostModel, draft_fmt: str, f: SpeedFactors, mfu: float | None, mbu: float | None,
                 context: float) -> None:
        spec = req.speculative
        assert spec is not None
        self.k, self.target, self.context = spec.num_speculative_tokens, target, context
        model = proposer_model(spec, req.model)
        weights = draft_fmt if spec.method in ("draft_model", "eagle", "eagle3") else req.weights
        self.proposer = (None if model is None else
                         StepCostModel.build(model, weights, req.kv_dtype, req.gpu, req.gpus, _proposer_factors(f), mfu=mfu, mbu=mbu))  # fmt: skip

    def at_context(self, context: float) -> SpeculativeStep:
        """The same step for sequences of ``context`` tokens (what ``at_load`` and the defaults read)."""
        other = copy.copy(self)
        other.context = context
        return other

    def draft_seconds(self, streams: int, context: float | None = None) -> float:
        """The proposer's k forwards at ``streams`` sequences of ``context`` tokens each (default: the request's)."""
        ctx = self.context if context is None else context
        return 0.0 if self.proposer is None else self.k * self.proposer.decode_step_seconds(streams, ctx)

    def seconds(self, streams: int, yielded: float, context: float | None = None) -> float:
        """One step at ``streams`` sequences of ``context`` tokens each (default: the request's), each streaming
        ``yielded`` tokens. The simulator (advisor/sim/speculative_costs.py) times its decode steps with this too."""
        ctx = self.context if context is None else context
        return self.draft_seconds(streams, ctx) + self.target.verify_step_seconds(streams, self.k + 1, ctx, streams * yielded)

    def base_seconds(self, streams: int) -> float:
        return self.target.decode_step_seconds(streams, self.context)

    def at_load(self, streams: int, alphas: tuple[float, float, float] | None) -> SpeculativeAtLoad:
        base = self.base_seconds(streams)
        # the mean tokens a step must yield for (step ÷ E) to equal the decode step; the stream term uses k + 1
        # tokens (the most a step streams), so the figure errs on the side of asking more
        need = self.seconds(streams, self.k + 1) / base if base else None
        # below 1 (verifying k + 1 positions timed no dearer than one): any acceptance pays
        need = max(need, 1.0) if need is not None and need <= self.k + 1 else None
        if alphas is None:
            return SpeculativeAtLoad(streams=streams, break_even_tokens_per_step=need)
        lo, mid, hi = (base / (self.seconds(streams, e) / e) for e in (tokens_per_step(a, self.k) for a in alphas))
        return SpeculativeAtLoad(streams=streams, speedup=Range(value=mid, low=lo, high=hi), break_even_tokens_per_step=need)


def acceptance_for(spec: SpeculativeSettings, target: ModelSpec) -> SpeculativeAcceptance | None:
    """The published acceptance for ``spec`` on ``target`` (its α range and the measurements), None where none is."""
    rows = published_acceptance(spec, target)
    if not rows:
        return None
    lo, hi = alpha_range(rows)
    return SpeculativeAcceptance(alpha_low=lo, alpha_high=hi, measurements=[
        SpeculativeMeasurement(k=p.k, tau_low=p.tau_low, tau_high=p.tau_high, drafter=p.drafter, data=tr(f"speculative26_spec28.data.{p.data}"), source=p.source)
        for p in rows])  # fmt: skip


def _first(streams: list[SpeculativeAtLoad], test: Callable[[SpeculativeAtLoad], bool]) -> int | None:
    return next((s.streams for s in streams if test(s)), None)


def _helps_up_to(streams: list[SpeculativeAtLoad]) -> int | None:
    """The most streams up to which every load's whole speed-up range is above 1."""
    last = None
    for s in streams:
        if s.speedup is None or s.speedup.low <= 1.0:
            break
        last = s.streams
    return last


def speculative_speed(
    req: SizingRequest, costs: dict[str, StepCostModel], f: SpeedFactors, context: float, base: tuple[float, float, float]
) -> SpeculativeSpeed:
    """Speculation's speed for the request: ``costs`` the target's mid/fast/slow step models (as estimate_perf builds
    them, with their MFU/MBU), ``base`` the decode step without speculation (mid, fast, slow seconds)."""
    spec = req.speculative
    assert spec is not None
    k, batch = spec.num_speculative_tokens, req.concurrency
    shares = {"mid": (f.mfu, f.mbu), "fast": (f.mfu_range[1], f.mbu_range[1]), "slow": (f.mfu_range[0], f.mbu_range[0])}
    steps = {name: SpeculativeStep(req, costs[name], spec.draft_weights, f, *shares[name], context) for name in shares}
    acceptance = acceptance_for(spec, req.model)
    alphas = None
    if acceptance is not None:
        a_lo, a_hi = acceptance.alpha_low, acceptance.alpha_high
        alphas = (a_lo, (a_lo + a_hi) / 2, a_hi)
    mid = steps["mid"]
    by_streams = [mid.at_load(s, alphas) for s in STREAMS]
    here = mid.at_load(batch, alphas)
    base_ms = Range(value=base[0] * 1000, low=base[1] * 1000, high=base[2] * 1000)
    base_tps = Range(value=1 / base[0], low=1 / base[2], high=1 / base[1])
    tpot = tps = yielded = None
    if alphas is not None:
        e_lo, e_mid, e_hi = (tokens_per_step(a, k) for a in alphas)
        yielded = Range(value=e_mid, low=e_lo, high=e_hi)
        t_mid = mid.seconds(batch, e_mid) / e_mid
        t_fast = steps["fast"].seconds(batch, e_hi) / e_hi
        t_slow = steps["slow"].seconds(batch, e_lo) / e_lo
        tpot = Range(value=t_mid * 1000, low=t_fast * 1000, high=t_slow * 1000)
        tps = Range(value=1 / t_mid, low=1 / t_slow, high=1 / t_fast)
    if here.speedup is not None:
        regime = "helps" if here.speedup.low > 1.0 else "no_gain" if here.speedup.high <= 1.0 else "uncertain"
    else:
        regime = "no_gain" if here.break_even_tokens_per_step is None else "unknown"
    sources = [LEVIATHAN, VLLM_DOCS] + [m.source for m in acceptance.measurements] if acceptance else [LEVIATHAN, VLLM_DOCS]
    return SpeculativeSpeed(
        method=spec.method, k=k, acceptance=acceptance, other_drafters=list(other_drafters(spec, req.model)) if acceptance is None else [],
        tokens_per_step=yielded,
        draft_ms=mid.draft_seconds(batch) * 1000,
        verify_ms=mid.target.verify_step_seconds(batch, k + 1, context, batch * (yielded.value if yielded else 1.0)) * 1000,
        base_tpot_ms=base_ms, tpot_ms=tpot, tokens_per_s=tps, base_tokens_per_s=base_tps,
        at_concurrency=here, by_streams=by_streams, helps_up_to=_helps_up_to(by_streams),
        no_gain_from=_first(by_streams, lambda s: s.speedup.high <= 1.0 if s.speedup else s.break_even_tokens_per_step is None),
        regime=regime, sources=sources,
        formula="TPOT = (k × proposer forward + target verification of k + 1 positions a sequence) / E, "
        "E = (1 − α^(k+1)) / (1 − α); α from the published mean accepted length τ at the measured k; speed-up = "
        "decode step ÷ TPOT, on the mid cost model",
    )  # fmt: skip


__all__ = ["STREAMS", "SpeculativeStep", "acceptance_for", "proposer_model", "speculative_speed"]
