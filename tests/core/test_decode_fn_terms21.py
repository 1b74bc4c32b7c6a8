"""The roofline's decode step function (``StepCostModel.decode_seconds_fn``, the simulator's per-step cost) spells
``max`` out (#27): it must stay ``step_seconds`` bit for bit whichever term wins — attention by compute or by reads,
the GPU, the scheduler (overlapped or added) or the token stream — the cases test_sim_engine's models never reach."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.sizing.roofline import StepCostModel

BASE = StepCostModel.build(get_model("qwen2.5-7b-instruct"), "bf16", "bf16", get_gpu("h100-sxm"), 1)
READS = [0, 1, 517, 4096 * 7 + 3, 10**6, 10**8, 3 * 10**9 + 7]


@pytest.mark.parametrize("overlaps", [True, False])
@pytest.mark.parametrize("scheduler_s", [0.0, 2e-5, 1.0])  # none, a share, one that outlasts every step
@pytest.mark.parametrize("stream_s", [0.0, 3e-5, 2.0])
@pytest.mark.parametrize("attn_flops_scale", [1.0, 1e-6])  # reads win / the attention's arithmetic wins
def test_the_decode_step_function_is_step_seconds_whichever_term_wins(overlaps, scheduler_s, stream_s,
                                                                     attn_flops_scale) -> None:
    costs = dataclasses.replace(BASE, scheduler_overlaps=overlaps, scheduler_s_per_seq=scheduler_s,
                                stream_token_s=stream_s, attn_flops_per_s=BASE.attn_flops_per_s * attn_flops_scale)
    for n in (1, 9, 256):
        one = costs.decode_seconds_fn(n)
        expected = [costs.step_seconds(0, 0, n, kv) for kv in READS]
        assert [one(kv) for kv in READS] == expected, (n, expected)


def test_the_cases_above_reach_every_branch() -> None:
    # the scheduler and the stream terms do win somewhere above (else the test would not test the spelt-out max)
    slow_sched = dataclasses.replace(BASE, scheduler_overlaps=True, scheduler_s_per_seq=1.0)
    assert slow_sched.decode_seconds_fn(9)(517) == 9.0
    slow_stream = dataclasses.replace(BASE, stream_token_s=2.0)
    assert slow_stream.decode_seconds_fn(9)(517) == 18.0
    compute = dataclasses.replace(BASE, attn_flops_per_s=BASE.attn_flops_per_s * 1e-6)
    assert compute.decode_seconds_fn(1)(10**8) > BASE.decode_seconds_fn(1)(10**8)  # the arithmetic now bounds it
