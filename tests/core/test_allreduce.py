"""Tensor-parallel all-reduces take what NVIDIA measured for vLLM's all-reduce on the same GPU class and TP degree
(resources/gpus/allreduce.json), interpolated between measured sizes; other GPUs and engines keep the formula."""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.resources import resource_path
from advisor.sizing.allreduce import allreduce_seconds, link_class, measured_points
from advisor.sizing.roofline import StepCostModel

H100, A100 = get_gpu("h100-sxm-80g"), get_gpu("a100-sxm-80g")


def _measured(cls: str, tp: int) -> dict[float, float]:
    raw = json.loads(resource_path("gpus", "allreduce.json").read_text(encoding="utf-8"))["measured"][cls][str(tp)]
    return {m: us * 1e-6 for m, us in raw}


def test_a_measured_size_takes_its_measured_time_and_sizes_between_lie_between():
    points = measured_points(H100, 8)
    table = _measured("hopper_nvlink", 8)
    assert allreduce_seconds(points, 4 * 2**20) == pytest.approx(table[4 * 2**20])  # 77 us for 4 MiB at TP 8
    between = allreduce_seconds(points, 3 * 2**20)
    assert table[2 * 2**20] < between < table[4 * 2**20]
    assert allreduce_seconds(points, 1) == pytest.approx(table[128.0])  # below the smallest: its time
    largest = max(table)
    assert allreduce_seconds(points, 2 * largest) == pytest.approx(2 * table[largest])  # beyond: by size


def test_only_measured_classes_use_the_table():
    assert link_class(H100) == "hopper_nvlink" and link_class(A100) == "ampere_nvlink"
    assert link_class(get_gpu("rtx-4090")) is None  # PCIe
    assert measured_points(H100, 16) is None  # no TP 16 in the table


def test_a_decode_batch_all_reduce_costs_what_was_measured_not_the_formula():
    # Qwen3-235B, TP 8 on H100s, 300 decoding requests: each all-reduce sends 300 x 4096 x 2 B = 2.4 MB. vLLM's
    # custom all-reduce took 34.5 us at 2 MiB and 77 us at 4 MiB there; the old formula said ~21 us
    model = get_model("qwen3-235b-a22b")
    vllm = StepCostModel.build(model, "bf16", "bf16", H100, 8, SpeedFactors(kernel_engine="vllm"))
    trt = StepCostModel.build(model, "bf16", "bf16", H100, 8, SpeedFactors(kernel_engine="trtllm"))
    per_call_vllm = vllm.comm_seconds(300) / vllm.allreduces
    per_call_formula = trt.comm_seconds(300) / trt.allreduces  # TensorRT-LLM's own all-reduce: not measured, formula
    assert 34.5e-6 < per_call_vllm < 77e-6
    assert per_call_formula < 25e-6
