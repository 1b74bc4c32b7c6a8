"""The simulator's hot paths spell out what its helpers say (simspeed28): ``Engine.plan_step`` admits the head of the
queue with ``Engine._admission``'s figures (worked out inline there, once a request), and ``step_seconds`` is the
builtin ``max`` of its own parts (spelt out as comparisons there). A change to one side that the other does not follow
fails here, before it moves a plan's figures in the last bit."""

from __future__ import annotations

import heapq
import random

import pytest

from advisor.sim.engine import PREFILL, Engine, EngineLimits


class Linear:
    """A step that costs a fixed time plus a little per token: enough to order events, nothing to round."""

    def step_seconds(self, prefill_tokens, prefill_attention_pairs, decode_seqs, kv_tokens_read):
        return 0.01 + 1e-6 * (prefill_tokens + decode_seqs) + 1e-9 * kv_tokens_read


def _admissions_checked(seed: int, *, prefix: int, blocks: int) -> tuple[int, int, int]:
    """Steps an engine (tight KV: it preempts, and prefix caching keeps a preempted request's blocks) one plan at a
    time; before every plan in which the head of the queue is admitted at once (no prompt being prefilled, no KV
    block event due, so nothing is evicted or preempted first), ``_admission`` says what it gets, and the plan must
    give exactly that. Returns (admissions checked, of them with own cached blocks, with the shared prefix)."""
    rng = random.Random(seed)
    limits = EngineLimits(kv_blocks=blocks, block_size=16, max_num_seqs=24, max_num_batched_tokens=512,
                          shared_prefix_tokens=prefix)  # fmt: skip
    engine = Engine(Linear(), limits)
    engine.fast_decode = False
    for _ in range(120):
        engine.add_request(prefix + rng.randint(1, 300), rng.randint(20, 400), arrival=rng.uniform(0, 2.0))
    checked = own_cached = shared_prefix = 0
    for _ in range(200_000):
        while engine._arrivals and engine._arrivals[0][0] <= engine.t:  # plan_step's first move, made here first
            engine.waiting.append(heapq.heappop(engine._arrivals)[2])
        g, bs = engine.steps, limits.block_size
        expected = None
        if (engine.waiting and not engine.prefilling and not engine._blk_buckets[g % bs]
                and len(engine.running) < limits.max_num_seqs):  # fmt: skip
            head = engine.waiting[0]
            budget = limits.max_num_batched_tokens - engine.n_dec
            shared, own, chunk, need = engine._admission(head, budget)
            if own + need <= engine.free_blocks:
                expected = (head, shared, own, chunk, need)
        planned = engine.plan_step()
        if expected is not None:
            head, shared, own, chunk, need = expected
            assert planned is not None and planned[1][0] == (head, chunk)
            assert head.state == PREFILL
            assert (head.shared, head.prefilled, head.blocks) == (shared, (shared + own) * bs, own + need)
            checked += 1
            own_cached += own > 0
            shared_prefix += shared > 0
        if planned is not None:
            engine.commit_step(*planned)
        elif engine.next_arrival is not None:
            engine.t = max(engine.t, engine.next_arrival)
        else:
            break
    assert not engine.running and not engine.waiting
    return checked, own_cached, shared_prefix


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_plan_step_admits_as_admission_says(seed):
    checked, own_cached, shared_prefix = _admissions_checked(seed, prefix=40, blocks=260)
    assert checked >= 50
    assert shared_prefix > 0  # the shared prefix's blocks were read from the cache
    checked, own_cached, _ = _admissions_checked(seed, prefix=0, blocks=200)
    assert checked >= 50 and own_cached > 0  # preempted requests came back to their own cached blocks


def _roofline_costs(model: str, gpu: str, tp: int):
    from advisor.catalog import get_gpu, get_model
    from advisor.sizing.roofline import StepCostModel

    return StepCostModel.build(get_model(model), "bf16", "bf16", get_gpu(gpu), tp)


def test_step_seconds_is_the_builtin_max_of_its_parts():
    for model, gpu, tp in (("qwen2.5-7b-instruct", "h100-sxm", 1), ("llama-3.1-70b-instruct", "a100-sxm-80g", 4),
                           ("qwen3-30b-a3b", "l20", 2)):  # fmt: skip
        costs = _roofline_costs(model, gpu, tp)
        for prefill, pairs, decode, kv in ((512, 512 * 513 // 2, 0, 0), (300, 300 * 2000 + 45150, 63, 63 * 900),
                                           (1, 1, 255, 255 * 30_000), (8192, 8192 * 8193 // 2, 0, 0),
                                           (0, 0, 1, 0), (0, 0, 1, 10**7), (0, 0, 0, 0)):  # fmt: skip
            tokens, logits = prefill + decode, decode + (1 if prefill else 0)
            if tokens == 0:
                assert costs.step_seconds(prefill, pairs, decode, kv) == 0.0
                continue
            linear, comm, elementwise = costs._terms_of(tokens, logits)
            attention = max(costs.op_parts(prefill, pairs, decode, kv)[1])
            gpu_s = linear + attention + comm + elementwise + costs.overhead_s
            scheduler = logits * costs.scheduler_s_per_seq
            if not costs.scheduler_overlaps:
                gpu_s, scheduler = gpu_s + scheduler, 0.0
            assert costs.step_seconds(prefill, pairs, decode, kv) == max(gpu_s, scheduler, logits * costs.stream_token_s)
