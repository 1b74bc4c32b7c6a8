"""Speculative decoding in the simulated curve (`advisor predict --speculative`, issue #28).

The simulator's engine advances each decoding sequence one token a step. A speculative step (advisor/sizing/
speculative_speed.py: the proposer's k forwards, then the target verifying k + 1 positions a sequence) yields
E = (1 − α^(k+1)) / (1 − α) tokens a sequence on average, so the engine's step stands for 1/E of it: a pure decode
step costs ``SpeculativeStep.seconds(n, E, context) / E``, the same pieces and the same formula `advisor calc` states
(one source). The curve is the mean: a real step streams its accepted tokens together, so the predicted ITL is the
mean gap a token, not the bursts a client sees.

A step that also prefills a prompt chunk costs what the chunk adds to a plain decode step of the same batch (the
target's ``step_seconds`` with and without it) on top of the decoders' share: the chunk's cost is the target's as
without speculation, and vLLM verifies the decoders in the same forward.

Where no acceptance is published for the method on this target the curve claims no speed-up: decode steps cost
what they cost without speculation (the KV cache still loses what the proposer holds; build_setup sizes it), and the
JSON says at each level how many tokens a step would have to yield to pay (``SpeculativeStep.at_load``).
"""

from __future__ import annotations

from functools import partial

from advisor.domain.engine_profiles import EngineProfile, factors_for
from advisor.domain.sizing import SizingRequest, SpeculativeAcceptance, SpeedFactors
from advisor.sizing.roofline import StepCostModel
from advisor.sizing.speculative_acceptance import tokens_per_step
from advisor.sizing.speculative_speed import SpeculativeStep, acceptance_for


class SpeculativeStepCosts:
    """The simulator's step costs (``StepCosts``) with speculative decoding at ``yielded`` tokens a step."""

    def __init__(self, target: StepCostModel, step: SpeculativeStep, yielded: float) -> None:
        self.target, self.step, self.yielded = target, step, yielded

    def step_seconds(self, prefill_tokens: int, prefill_attention_pairs: float, decode_seqs: int, kv_tokens_read: float) -> float:
        if decode_seqs <= 0:
            return self.target.step_seconds(prefill_tokens, prefill_attention_pairs, 0, 0)
        decode = self.step.seconds(decode_seqs, self.yielded, kv_tokens_read / decode_seqs) / self.yielded
        if not prefill_tokens:
            return decode
        chunk = (self.target.step_seconds(prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read)
                 - self.target.step_seconds(0, 0, decode_seqs, kv_tokens_read))  # fmt: skip
        return decode + chunk

    def decode_seconds_fn(self, decode_seqs: int):
        return partial(self.step_seconds, 0, 0, decode_seqs)


def speculative_step(req: SizingRequest, target: StepCostModel, profile: EngineProfile, factors: SpeedFactors, context: float) -> SpeculativeStep:
    """The speculative step of ``req`` (with ``speculative`` set) on the target's step costs, its proposer timed with the
    same MFU/MBU as the target (the simulator's costs are the mid cost model's)."""
    assert req.speculative is not None
    f = factors_for(profile, factors)
    return SpeculativeStep(req, target, req.speculative.draft_weights, f, None, None, context)


def simulated_tokens_per_step(acceptance: SpeculativeAcceptance | None, k: int) -> float | None:
    """Tokens a step yields in the simulated curve: E at the middle of the published α range; None where unknown."""
    if acceptance is None:
        return None
    return tokens_per_step((acceptance.alpha_low + acceptance.alpha_high) / 2, k)


__all__ = ["SpeculativeStepCosts", "acceptance_for", "simulated_tokens_per_step", "speculative_step"]
