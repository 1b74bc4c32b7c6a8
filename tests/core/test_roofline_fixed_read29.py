"""``StepCostModel._terms_of`` works a dense model's weight read out once (``_dense_linear_seconds``, issue #27): its
linear term must be ``_linear_seconds``' float to the bit at every batch shape, whichever shape comes first, and the
shortcut must be taken only where the read does not depend on the tokens (no routed experts, no per-shape table)."""

from __future__ import annotations

import random

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.sizing.roofline import StepCostModel

SETUPS = (
    ("qwen3-14b", "a800-80g", 1, True),  # dense, no shape table for this GPU (test_gemm_shapes): the shortcut
    ("llama-3.1-70b-instruct", "a100-sxm-80g", 4, None),  # TP 4 (all-reduces); a shape table or not, as built
    ("qwen3-14b", "a100-sxm-80g", 1, False),  # per-shape GEMM table (test_gemm_shapes): the reference path
    ("qwen3-30b-a3b", "l20", 2, False),  # routed experts: the read grows with the tokens, the reference path
)


@pytest.mark.parametrize(("model", "gpu", "tp", "shortcut"), SETUPS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_linear_term_is_linear_seconds_to_the_bit(model, gpu, tp, shortcut, seed):
    rng = random.Random(seed)
    costs = StepCostModel.build(get_model(model), "bf16", "bf16", get_gpu(gpu), tp)
    reference = StepCostModel.build(get_model(model), "bf16", "bf16", get_gpu(gpu), tp)  # its own caches
    if shortcut is None:
        shortcut = costs.shape_times is None and not costs.num_experts
    shapes = [(1, 1), (8192, 1)] + [(t, rng.randint(1, t)) for t in (rng.randint(1, 16_384) for _ in range(200))]
    rng.shuffle(shapes)  # the fixed read is worked out at whichever shape comes first
    crossed = set()
    for tokens, logits in shapes:
        linear, comm, elementwise = costs._terms_of(tokens, logits)
        assert linear == reference._linear_seconds(tokens, logits), (tokens, logits)
        compute = reference.linear_compute_seconds(tokens, logits)
        crossed.add(linear == compute)
    assert bool(costs._fixed_read) is shortcut
    if shortcut:
        assert crossed == {True, False}  # both sides of the max were the answer somewhere: both were checked


def test_step_seconds_agrees_with_a_model_whose_read_was_never_kept():
    """The whole step, prefill and mixed, against a model built afresh for each step (its read worked out at that
    very step): the same floats."""
    rng = random.Random(7)
    costs = StepCostModel.build(get_model("qwen3-14b"), "bf16", "bf16", get_gpu("a800-80g"), 1)
    for _ in range(100):
        prefill, decode = rng.randint(0, 4096), rng.randint(0, 256)
        pairs = prefill * rng.randint(0, 8000) + prefill * (prefill + 1) // 2
        kv = decode * rng.randint(1, 30_000)
        fresh = StepCostModel.build(get_model("qwen3-14b"), "bf16", "bf16", get_gpu("a800-80g"), 1)
        assert costs.step_seconds(prefill, pairs, decode, kv) == fresh.step_seconds(prefill, pairs, decode, kv)
    assert costs._fixed_read  # the shortcut was taken
