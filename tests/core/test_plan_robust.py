"""make_plan never fails on valid answers: any combination of answers (extremes included) gives a PlanResult
that renders in both languages."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.plan import answers_from_dict, make_plan

opt = lambda s: st.none() | s  # noqa: E731

answers = st.fixed_dictionaries({}, optional={
    "use_case": st.sampled_from(["interactive", "api", "offline_batch"]),
    "audience": st.sampled_from(["internal", "business", "public"]),
    "model": st.sampled_from(["qwen2.5-7b-instruct", "qwen3-8b", "Qwen/Qwen2.5-72B-Instruct", "qwen3-30b-a3b",
                              "deepseek-v3", "llama-3.3-70b-instruct", "gemma-2-9b-it", "qwen2.5-7b-instruct-awq"]),
    "peak_concurrency": st.integers(1, 5000),
    "requests_per_day": st.integers(0, 10**8) | st.builds(lambda a, b: {"low": min(a, b), "high": max(a, b)},
                                                         st.integers(0, 10**7), st.integers(0, 10**7)),
    "latency_slo": st.fixed_dictionaries({}, optional={"ttft_p99_ms": st.floats(50, 120_000), "tpot_p99_ms": st.floats(5, 1000),
                                                       "min_output_tok_s_per_user": st.floats(1, 200)}),
    "prompt_tokens": st.fixed_dictionaries({}, optional={"avg": st.integers(1, 200_000)}),
    "output_tokens": st.fixed_dictionaries({}, optional={"avg": st.integers(1, 20_000)}),
    "max_context_tokens": st.integers(16, 1_000_000),
    "quantization_acceptable": st.sampled_from(["no", "fp8_only", "yes_after_quality_check", "yes"]),
    "user_location": st.sampled_from(["mainland", "hk_tw", "overseas", "mixed"]),
    "user_mix": st.builds(lambda m: {"mainland": m, "overseas": 1 - m}, st.floats(0, 1)),
    "overseas_markets": st.lists(st.sampled_from(["US", "JP", "SG", "DE", "SEA", "EU", "global", "BR"]), max_size=3),
    "mainland_carriers": st.sampled_from(["telecom", "all_three", "n/a"]),
    "icp_status": st.sampled_from(["none", "in_progress", "filed"]),
    "mainland_entity": st.booleans(),
    "launch_deadline_days": st.integers(0, 3650),
    "data_sensitivity": st.fixed_dictionaries({}, optional={"level": st.sampled_from(["low", "medium", "high"]),
                                                            "personal_info": st.booleans(),
                                                            "pi_subjects_per_year": st.integers(0, 10**8),
                                                            "sensitive_pi_subjects_per_year": st.integers(0, 10**6),
                                                            "sector": st.sampled_from(["medical", "finance", "general"])}),
    "public_genai_in_mainland": st.booleans(),
    "charges_users": st.booleans(),
    "monthly_budget": st.builds(lambda a, c: {"amount": a, "currency": c}, st.floats(0, 1e9), st.sampled_from(["CNY", "USD"])),
    "ops_capability": st.sampled_from(["none", "basic", "strong"]),
    "expected_duration_months": st.integers(1, 120),
    "load_pattern": st.sampled_from(["stable", "diurnal", "bursty", "one_off_batch"]),
    "measured_utilisation": st.floats(0, 1),
    "gpu_constraint": st.lists(st.sampled_from(["h20-96g", "l4", "t4", "rtx-4090", "h100-sxm-80g", "a10", "ascend-910b"]),
                               min_size=1, max_size=2),
    "total_requests": st.integers(1, 10**8),
    "batch_deadline_hours": st.floats(0.1, 1000),
})  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(answers)
def test_any_valid_answers_give_a_plan(data):
    r = make_plan(answers_from_dict(data))
    for lang in ("en", "zh_CN"):
        out = r.to_json(lang)
        json.dumps(out, ensure_ascii=False)
        assert all("{" not in f["title"] for f in out["findings"])
        texts = [a["text"] for a in out["assumptions"]] + [x["text"] for x in out["fixes"]]
        texts += [s["text"] for s in out["next_steps"]] + [i["label"] for i in out["timeline"]["items"]]
        assert not [t for t in texts if t.startswith("plan.") or "{" in t], texts
    assert r.feasible == (not any(f.severity == "blocker" for f in r.findings))
    if r.hardware.gpu is not None:
        assert r.hardware.replicas >= 1 and r.hardware.gpus_per_replica >= 1
    # An infeasible plan may offer no fix: every fix shown is re-planned alone (or with the budget it needs) and
    # must make the plan feasible; one that does not is not offered (test_plan_consistency checks each one).
    assert r.feasible or all(f.monthly_cost is not None or f.change for f in r.fixes)
