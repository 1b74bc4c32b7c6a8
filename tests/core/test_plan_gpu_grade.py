"""Deployment-facts rule 12: consumer cards suit internal tools and dev/test; a production service (paid, public or
business-facing) runs on a data-centre part when one meets the target, and the memo says why the cheaper consumer
card was set aside (blind review 3: a business API on 8 × RTX 4090 D "on price alone")."""

from __future__ import annotations

from advisor.plan import answers_from_dict
from advisor.plan.engine import plan

BASE = {
    "schema_version": 1, "use_case": "interactive", "model": "qwen2.5-7b-instruct", "peak_concurrency": 10,
    "prompt_tokens": {"avg": 500, "p95": 1500}, "output_tokens": {"avg": 300, "p95": 800},
    "quantization_acceptable": "fp8_only", "user_location": "mainland", "mainland_carriers": "all_three",
    "icp_status": "filed", "mainland_entity": True, "monthly_budget": {"amount": 100000, "currency": "CNY"},
    "ops_capability": "basic", "gpu_constraint": ["rtx-4090d", "l20-48g"],
}  # fmt: skip


def test_a_business_api_runs_on_the_data_centre_part_and_says_why():
    r = plan(answers_from_dict({**BASE, "audience": "business"}), check_fixes=False)
    assert r.hardware.gpu == "l20-48g"
    assert r.gpu_choice is not None and r.gpu_choice.reason == "grade"
    assert "consumer card" in r.gpu_choice.text_in("en") and "消费级" in r.gpu_choice.text_in("zh_CN")


def test_an_office_tool_keeps_the_cheaper_consumer_card():
    r = plan(answers_from_dict({**BASE, "audience": "internal", "reach": "lan"}), check_fixes=False)
    assert r.hardware.gpu == "rtx-4090d" and r.gpu_choice is not None and r.gpu_choice.reason == "cost"


def test_a_server_room_tool_sets_the_consumer_card_aside_for_its_licence():
    """s18-rows (q38): reached over a private network, the box stands in a server room, where NVIDIA's GeForce
    licence does not license data-centre deployment."""
    r = plan(answers_from_dict({**BASE, "audience": "internal", "reach": "private_network"}), check_fixes=False)
    assert r.hardware.gpu == "l20-48g" and r.gpu_choice is not None and r.gpu_choice.reason == "grade"
    assert r.gpu_choice.reason_params.get("internal") == "licence"


def test_ascend_tensor_parallel_is_not_called_pcie_without_nvlink():
    """Ascend 910B servers link their cards with HCCS: "TP over PCIe, no NVLink" was wrong for q08's fleet."""
    import json
    from pathlib import Path

    q08 = Path(__file__).parents[2] / "bench" / "advice_scenarios" / "q08_ascend_fleet_internal.json"
    r = plan(answers_from_dict(json.loads(q08.read_text(encoding="utf-8"))["answers"]), check_fixes=False)
    assert r.hardware.gpu == "ascend-910b" and (r.hardware.tp or 1) > 1
    assert "gpu.pcie_tp" not in r.finding_ids and "gpu.domestic" in r.finding_ids
