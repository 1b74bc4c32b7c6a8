"""bench/moe_corner.py compares aiconfigurator's fused-MoE timings with "the roofline's time": it must be the app's.

The script restates the roofline's routed-expert cost (max of reading the touched experts at MBU plus
MOE_LAYER_FIXED_S, and their FLOPs at vLLM 0.14.0's measured fused-MoE share) so that it can run on bare table rows;
these tests pin that restatement to StepCostModel.routed_parts for the shapes it prints, so the ratios recorded in
docs/predictor-accuracy.md (session 34) are measured against what the app computes.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SpeedFactors
from advisor.sizing.roofline import StepCostModel

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "moe_corner.py"


@pytest.fixture(scope="module")
def corner():
    spec = importlib.util.spec_from_file_location("moe_corner_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.mark.parametrize(
    ("model", "weights", "gpus", "shape"),
    [
        ("deepseek-r1", "fp8-block", 8, (7168, 2048, 256, 8, "fp8_block")),
        ("qwen3-30b-a3b", "bf16", 1, (2048, 768, 128, 8, "bfloat16")),
    ],
)
@pytest.mark.parametrize("tokens", [1, 8, 256, 2048, 8192])
def test_modelled_time_is_the_rooflines(corner, model, weights, gpus, shape, tokens):
    costs = StepCostModel.build(
        get_model(model), weights, "bf16", get_gpu("h100-sxm-80g"), gpus,
        SpeedFactors(kernel_engine="vllm", engine_version="0.14.0"),
    )  # fmt: skip
    app_per_layer = max(costs.routed_parts(tokens)) / costs.moe_layers
    hidden, inter, experts, topk, dtype = shape
    script = corner.modelled_s(tokens, hidden, inter // gpus, experts, topk, dtype)
    # the checkpoint's block scales make the app's expert a few hundredths of a per cent larger
    assert script == pytest.approx(app_per_layer, rel=1e-3)


def test_skips_without_a_checkout(corner, capsys, tmp_path):
    assert corner.main([str(tmp_path)]) == 0
    assert "skipped" in capsys.readouterr().out
