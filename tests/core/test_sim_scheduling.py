"""Pinned scheduler behaviour of the simulated engine (docs/predictor-accuracy.md, "Engine behaviour modelled").

Each test builds a tiny engine whose outcome depends on exactly one modelled behaviour, so it fails if that
behaviour is removed: vLLM V1 admits no waiting request in a step that had to preempt; a preempted request's
recompute finds its own full blocks in the prefix cache; vLLM 0.6 V0 multi-step scheduling
(``--num-scheduler-steps N``) makes a new request wait for the running decode window; SGLang (mixed prefill
off) runs a prefill batch alone while the decoding requests wait. Also: the predictor's request lengths are
drawn lazily and never cycle.
"""

from __future__ import annotations

import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.engine import DECODE, FINISHED, PREFILL, WAITING, Engine, EngineLimits
from advisor.sim.predict import RequestSource


class UnitCosts:
    """Every step lasts 10 ms whatever it does: outcomes then count steps, not roofline seconds."""

    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read) -> float:
        return 0.01


def _two_requests_that_outgrow_the_cache(prefix_caching: bool) -> tuple[Engine, object, object]:
    """Two 64-token prompts, 200 tokens each, in a 20-block (320-token) cache: both fit at first, and the later
    one (the tail of the running list) is preempted when the other's next token needs a block."""
    limits = EngineLimits(kv_blocks=20, block_size=16, max_num_seqs=8, max_num_batched_tokens=48, prefix_caching=prefix_caching)
    engine = Engine(UnitCosts(), limits)
    return engine, engine.add_request(64, 200, 0.0), engine.add_request(64, 200, 0.0)


# ------------------------------------------------------------------------------------------ vLLM V1 preemption
def test_a_step_that_had_to_preempt_admits_no_waiting_request():
    """vLLM V1's scheduler schedules WAITING requests only ``if not preempted_reqs`` (vllm/v1/core/sched/
    scheduler.py): the victim is not readmitted in the step that evicted it, though blocks and budget allow."""
    engine, first, victim = _two_requests_that_outgrow_the_cache(prefix_caching=False)
    while not engine.preemptions:
        assert engine.step()
    assert victim.preemptions == 1 and first.state == DECODE
    assert victim.state == WAITING and engine.waiting[0] is victim
    budget = engine.limits.max_num_batched_tokens - engine.n_dec
    first_chunk_blocks = -(-min(victim.target, budget) // engine.limits.block_size)
    assert engine.free_blocks >= first_chunk_blocks  # only the rule held it back ...
    assert engine.step()
    assert victim.state == PREFILL  # ... the next step admits it


def test_a_preempted_request_recomputes_only_what_left_the_prefix_cache():
    """vLLM V1 frees a preempted request's blocks but keeps their hashes: its prompt recompute finds its own full
    blocks in the prefix cache unless they were evicted meanwhile. Without prefix caching it recomputes all."""
    on, first_on, victim_on = _two_requests_that_outgrow_the_cache(prefix_caching=True)
    off, first_off, victim_off = _two_requests_that_outgrow_the_cache(prefix_caching=False)
    while not on.preemptions:
        assert on.step()
    target = victim_on.target  # prompt + tokens already emitted: what a recompute must rebuild
    assert target == 160 and victim_on.cached > 0
    on.run()
    off.run()
    for r in (first_on, victim_on, first_off, victim_off):
        assert r.state == FINISHED and r.generated == 200
    assert on.recompute_hits == 1 and off.recompute_hits == 0
    recomputed = on.prompt_tokens_computed - 2 * 64
    assert 0 < recomputed < target - 16  # at least one whole block came from the cache
    assert off.prompt_tokens_computed >= 2 * 64 + target  # the whole prompt + output again, at least once


# ------------------------------------------------------------------------------- vLLM 0.6 V0 multi-step
def _first_scheduled(scheduler_steps: int, second_arrival: float) -> tuple[float, float]:
    engine = Engine(UnitCosts(), EngineLimits(kv_blocks=100, scheduler_steps=scheduler_steps))
    first = engine.add_request(32, 100, 0.0)
    second = engine.add_request(32, 100, second_arrival)
    while second.first_sched is None:
        assert engine.step()
    return first.first_token_t, second.first_sched


def test_multi_step_scheduling_makes_a_new_request_wait_for_the_running_window():
    """--num-scheduler-steps 8 (vLLM 0.6 V0): the scheduler runs once per 8 decode steps, so a request arriving
    during step 1 (the first of a window) waits until step 9; with scheduling every step it starts at step 2."""
    first_token, every_step = _first_scheduled(1, 0.015)
    assert first_token == 0.01  # step 0 prefilled the first request
    assert every_step == 0.02  # the next step
    _, windowed = _first_scheduled(8, 0.015)
    assert round(windowed, 6) == 0.09  # steps 1–8 are one decode window; step 9 schedules
    # nothing is decoding: no window to wait for
    _, idle = _first_scheduled(8, 2.0)
    assert idle >= 2.0 and round(idle - 2.0, 6) <= 0.01


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


# ------------------------------------------------------------------------------------ shared prefix (blocks)
def test_a_shared_prefix_is_reused_in_whole_blocks_only():
    """100 shared tokens = 6 whole 16-token blocks (96 tokens) + 4 in a partial block each request computes and
    holds itself; the first request computes the prefix, the later ones start after its whole blocks."""
    limits = EngineLimits(kv_blocks=200, block_size=16, shared_prefix_tokens=100)
    assert limits.cached_prefix_blocks == 6
    engine = Engine(UnitCosts(), limits)
    first = engine.add_request(200, 10, 0.0)
    engine.run()
    assert engine.prompt_tokens_computed == 200 and engine.prefix_blocks == 6
    later = [engine.add_request(200, 10, engine.t) for _ in range(2)]
    engine.run()
    assert all(r.state == FINISHED for r in (first, *later))
    assert engine.prefix_hits == 2
    assert engine.prompt_tokens_computed == 200 + 2 * (200 - 96)
    assert engine.blocks_used == 6  # only the shared prefix stays resident once everything finished
    off = Engine(UnitCosts(), EngineLimits(kv_blocks=200, block_size=16, shared_prefix_tokens=100, prefix_caching=False))
    for _ in range(3):
        off.add_request(200, 10, 0.0)
    off.run()
    assert off.prompt_tokens_computed == 3 * 200 and off.prefix_hits == 0


# ------------------------------------------------------------------------------------------ SGLang prefill first
def _decoding_request_then_a_long_prompt(mixed: bool) -> tuple[Engine, object, object]:
    """A request decoding alone when a 64-token prompt arrives that takes 4 steps of 16-token chunks."""
    limits = EngineLimits(kv_blocks=100, block_size=16, max_num_seqs=8, max_num_batched_tokens=16, mixed_prefill=mixed)
    engine = Engine(UnitCosts(), limits)
    first = engine.add_request(8, 20, 0.0)
    second = engine.add_request(64, 5, 0.045)  # arrives while the first decodes
    engine.run()
    return engine, first, second


def test_sglang_prefill_first_pauses_decoding_requests():
    """SGLang's scheduler runs a new prefill batch first and alone (get_next_batch_to_run; --enable-mixed-chunk off
    by default): the decoding request emits nothing in the new prompt's prefill steps. vLLM V1 mixes the chunks
    into its decode steps (the budget goes to decode tokens first), so there it keeps one token per step."""
    sgl, first_sgl, second_sgl = _decoding_request_then_a_long_prompt(mixed=False)
    vllm, first_vllm, second_vllm = _decoding_request_then_a_long_prompt(mixed=True)
    for r in (first_sgl, second_sgl, first_vllm, second_vllm):
        assert r.state == FINISHED and sum(b - a + 1 for a, b in r.segments) == r.output
    assert len(first_vllm.segments) == 1  # one token in every step from its first to its last
    # SGLang: its token run breaks for exactly the 4 prefill steps (64 tokens / 16 per step) of the second prompt
    assert len(first_sgl.segments) == 2
    (a0, a1), (b0, b1) = first_sgl.segments
    assert b0 - a1 - 1 == 4
    assert first_sgl.finish_t - first_vllm.finish_t == pytest.approx(4 * 0.01)
    # with the budget all its own, the prompt's chunks are 16 tokens, not 16 minus the decoding one
    assert second_sgl.first_token_t < second_vllm.first_token_t
