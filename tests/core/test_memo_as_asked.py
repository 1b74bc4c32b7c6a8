"""A plan blocked because the GPUs asked for cannot be had where it runs (q19: H100 on the mainland) labels its
sizing "as asked, not possible", never prints a start command for them, and shows the fix's re-planned setup (GPUs,
replicas, format, N+1) with the reminder that the benchmark figures do not carry over (issue 25, self-consistency:
"next steps only for the chosen plan")."""

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
H100 = json.loads((SCEN / "q19_export_controlled_h100_mainland.json").read_text(encoding="utf-8"))["answers"]


def test_h100_on_the_mainland_is_labelled_as_asked_and_the_fix_shows_the_setup_that_works():
    r = make_plan(answers_from_dict(H100))
    assert not r.feasible and "gpu.not_in_region" in r.finding_ids
    fix = next(f for f in r.fixes if f.id == "other_gpus")
    assert fix.params["gpu"] != r.hardware.gpu_name and fix.params["total"] >= 1 and fix.params["replicas"] >= 2
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "Hardware as asked (not possible)" in en and "按原要求的硬件（无法实现）" in zh
    assert f"{fix.params['total']} × {fix.params['gpu']}" in en and "measure it again" in en and "须重新压测" in zh
    assert "vllm serve" not in en and "vllm serve" not in zh  # no start command for GPUs that cannot be had
    page1 = en.split("\n## 2.")[0]
    assert "meets the target at the peak" not in page1 and "only once the blockers are solved" in page1
    # with the GPUs allowed, the plan is the fix's setup and nothing is labelled "as asked"
    ok = make_plan(answers_from_dict({k: v for k, v in H100.items() if k != "gpu_constraint"}))
    assert ok.feasible and ok.hardware.gpu_name == fix.params["gpu"] and ok.hardware.total_gpus == fix.params["total"]
    assert "Hardware as asked" not in render_memo_markdown(ok, "en")


def test_a_plan_already_on_a_part_sold_there_is_not_labelled_as_asked():
    """China-market parts asked for on a Singapore node: the engine plans on a part sold there (the fix's), so the
    body is that plan with its start command, never "NVIDIA L4 cannot be had there" beside the fix recommending it."""
    sg = json.loads((SCEN / "q20_china_parts_offshore_sg.json").read_text(encoding="utf-8"))["answers"]
    r = make_plan(answers_from_dict(sg))
    assert not r.feasible and "gpu.not_offered_offshore" in r.finding_ids
    assert r.hardware.gpu not in sg["gpu_constraint"]
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "Hardware as asked" not in en and "按原要求的硬件" not in zh and "cannot be had there" not in en
    assert "vllm serve" in en
