"""What decides the size, as an engineer says it: a batch by its deadline (with the prefill share of the GPU time)
and a mixture-of-experts model by its total parameters while the speed follows the active ones."""

from __future__ import annotations

from advisor.plan import answers_from_dict
from advisor.plan.engine import plan

BATCH = {
    "schema_version": 1, "use_case": "offline_batch", "model": "qwen2.5-14b-instruct", "total_requests": 2000000,
    "batch_deadline_hours": 72, "prompt_tokens": {"avg": 1500, "p95": 3000}, "output_tokens": {"avg": 100, "p95": 200},
    "quantization_acceptable": "fp8_only", "gpu_constraint": ["l20-48g"], "user_location": "mainland",
    "mainland_entity": True, "monthly_budget": {"amount": 60000, "currency": "CNY"}, "ops_capability": "basic",
}  # fmt: skip


def _binding(answers: dict):
    r = plan(answers_from_dict(answers), check_fixes=False)
    assert r.binding_constraint is not None
    return r.binding_constraint


def test_a_batch_that_finishes_is_sized_by_its_deadline():
    """It said "KV memory decides … 79 requests per replica" for a job whose replica count the deadline sets."""
    b = _binding(BATCH)
    f = b.figures
    assert (b.kind, b.variant) == ("batch_throughput", "met")
    # the replicas named finish the job within the deadline at the stated rate, and one fewer would not
    assert f["replicas"] * f["per_hour"] * f["deadline"] >= f["requests"] * 0.99
    assert (f["replicas"] - 1) * f["per_hour"] * f["deadline"] < f["requests"]
    assert f["hours"] <= f["deadline"]
    assert "deadline decides" in b.text_in("en") and "时限决定规模" in b.text_in("zh_CN")


def test_prefill_share_follows_the_prompt_length():
    """1,500-token prompts with 100-token answers are prefill-heavy; 100-token prompts with 1,500-token answers
    are not (the share is the step-cost model's prefill part of one replica's step)."""
    long_prompts = _binding(BATCH).figures["prefill_pct"]
    short = {**BATCH, "prompt_tokens": {"avg": 100, "p95": 200}, "output_tokens": {"avg": 1500, "p95": 3000}}
    short_prompts = _binding(short).figures["prefill_pct"]
    assert long_prompts > 50 > short_prompts, (long_prompts, short_prompts)


def test_a_moe_model_says_every_expert_stays_in_memory():
    """DeepSeek-V3's model card: 671B total parameters, 37B activated per token (MTP module excluded)."""
    answers = {
        "schema_version": 1, "use_case": "interactive", "audience": "internal", "reach": "private_network",
        "model": "deepseek-v3", "peak_concurrency": 20, "prompt_tokens": {"avg": 2000, "p95": 6000},
        "output_tokens": {"avg": 600, "p95": 1500}, "quantization_acceptable": "fp8_only",
        "gpu_constraint": ["h20-96g"], "user_location": "mainland", "mainland_entity": True,
        "monthly_budget": {"amount": 300000, "currency": "CNY"}, "ops_capability": "basic",
    }  # fmt: skip
    b = _binding(answers)
    assert (b.kind, b.variant) == ("weights_memory", "moe")
    assert round(b.figures["total_b"]) == 671 and 36.5 <= b.figures["active_b"] <= 38.0
    assert "every expert" in b.text_in("en") and "所有专家" in b.text_in("zh_CN")
    dense = _binding({**answers, "model": "qwen2.5-72b-instruct", "gpu_constraint": ["h20-96g"]})
    assert dense.variant == ""
