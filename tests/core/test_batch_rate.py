"""Offline batch sizing: one replica's rate on a job, against published offline-throughput runs, and the plan it
sizes (issue 25: a 10-million-document Llama-3.3-70B job on L20s planned 433 × 8 = 3,464 GPUs).

Published figures: NVIDIA TensorRT-LLM performance overview, "Llama 3.3 70B" table, Total Output Throughput
(tokens/sec) of ``trtllm-bench throughput`` (every request queued at once: an offline batch), FP8 ModelOpt
checkpoint nvidia/Llama-3.3-70B-Instruct-FP8, H200 SXM TP1 and H100 SXM TP2
(https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html; NVIDIA/TensorRT-LLM
docs/source/performance/perf-overview.md at 00f37686aa854010d68bcbd0f4ab000221541ca6). The engine differs from
vLLM's, so the tolerance is the predictor's TPOT p90 goal (30 %), not an exact match.
"""

from __future__ import annotations

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.domain.engine_profiles import get_profile, resolve_engine
from advisor.domain.sizing import EngineSettings, SpeedFactors
from advisor.plan import answers_from_dict
from advisor.plan.batch_rate import batch_concurrency, batch_rate
from advisor.plan.engine import plan
from advisor.sizing.memory import estimate_memory
from advisor.sizing.quant import get_format
from advisor.sizing.roofline import StepCostModel

TOLERANCE = 0.30
# (GPU, TP, ISL, OSL, published output tokens/s of the whole TP group)
PUBLISHED = [
    ("h200-sxm-141g", 1, 5000, 500, 566),
    ("h200-sxm-141g", 1, 2048, 128, 442),
    ("h200-sxm-141g", 1, 1000, 1000, 2909),
    ("h100-sxm-80g", 2, 5000, 500, 898),
    ("h100-sxm-80g", 2, 2048, 128, 762),
    ("h100-sxm-80g", 2, 1000, 1000, 4205),
]


def _rate(gpu_id: str, tp: int, isl: int, osl: int, kv: str = "fp8"):
    model, gpu = get_model("llama-3.3-70b-instruct"), get_gpu(gpu_id)
    engine = resolve_engine(EngineSettings(max_num_batched_tokens=8192), get_profile("vllm"), gpu)
    mem = estimate_memory(model, get_format("fp8"), kv, isl + osl, 1, gpu.effective_memory_bytes, tp, engine)
    costs = StepCostModel.build(model, "fp8", kv, gpu, tp, SpeedFactors())
    return batch_rate(costs, isl, osl, batch_concurrency(mem.kv_tokens, isl, osl), engine.max_num_batched_tokens)


@pytest.mark.parametrize(("gpu", "tp", "isl", "osl", "published"), PUBLISHED)
def test_offline_rate_matches_published_trtllm_bench(gpu, tp, isl, osl, published):
    got = _rate(gpu, tp, isl, osl).output_tokens_per_s
    assert abs(got - published) / published <= TOLERANCE, (gpu, tp, isl, osl, round(got), published)


def test_prompt_is_not_counted_twice():
    """The prefill of the requests that finish is inside the steps: rate = requests per step / step time, with no
    TTFT added per request (which counted a 5,000-token prompt once in the steps and once more on its own)."""
    r = _rate("h100-sxm-80g", 2, 5000, 500)
    assert r.requests_per_s == pytest.approx(r.requests_per_step / r.step_s)
    assert r.output_tokens_per_s == pytest.approx(r.requests_per_s * 500)


Q29 = {
    "schema_version": 1, "use_case": "offline_batch", "model": "llama-3.3-70b-instruct", "total_requests": 10_000_000,
    "batch_deadline_hours": 12, "prompt_tokens": {"avg": 2000, "p95": 4000}, "output_tokens": {"avg": 500, "p95": 1000},
    "quantization_acceptable": "fp8_only", "gpu_constraint": ["l20-48g"], "user_location": "mainland",
    "mainland_entity": True, "data_sensitivity": {"level": "low", "personal_info": False, "sector": "general"},
    "monthly_budget": {"amount": 20000, "currency": "CNY"}, "ops_capability": "basic",
}


def test_batch_plan_names_the_setup_with_the_fewest_gpus():
    """A job no setup finishes in time names the setup that needs the fewest GPUs for it (it named 8 × L20 per
    replica, ranked by its single-request TTFT, at 3,464 GPUs where 2 × L20 replicas need about half)."""
    r = plan(answers_from_dict(Q29), check_fixes=False)
    fig = r.binding_constraint.figures
    # the GPUs that would finish it in 12 hours, had the job all 12 (the plan keeps a margin and the setup out of
    # them, fig["work"] hours of work: more replicas for the same GPU-hours)
    gpus = fig["replicas"] * fig["tp"] * fig["work"] / fig["deadline"]
    # first principles: 2e10 prompt + 5e9 answer tokens × 2 × 70.6e9 FLOP at most 239 TFLOPS FP8 per L20 is
    # ≥ 4,100 GPU-hours (≥ 340 L20 for 12 h) even at 100 % of peak; the old figure was 3,464
    assert 340 <= gpus < 3464 * 0.6, fig
