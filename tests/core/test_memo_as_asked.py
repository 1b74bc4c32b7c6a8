"""A plan blocked because the GPUs asked for cannot be had where it runs (q19: H100 on the mainland) is sized on the
fix's part (its setup, start command, latency table and next steps: blind review s15), with the setup as asked shown
beside it as "not possible"; with no workable fix the sizing is labelled "as asked, not possible" (issue 25,
self-consistency: "next steps only for the chosen plan")."""

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
H100 = json.loads((SCEN / "q19_export_controlled_h100_mainland.json").read_text(encoding="utf-8"))["answers"]


def test_h100_on_the_mainland_is_sized_on_the_fix_with_the_setup_as_asked_beside_it():
    """Blind review q19: the L20 fix was not sized in detail and the next steps tested a server that cannot exist.
    The body is now the fix's re-planned setup (its command, latency table, next steps); the H100 setup is shown as
    asked, not possible, and the plan stays infeasible as asked."""
    r = make_plan(answers_from_dict(H100))
    assert not r.feasible and "gpu.not_in_region" in r.finding_ids
    fix = next(f for f in r.fixes if f.id == "other_gpus")
    assert r.as_asked_hardware is not None and r.as_asked_hardware.gpu == "h100-sxm-80g"
    assert r.hardware.gpu_name == fix.params["gpu"] and r.hardware.total_gpus == fix.params["total"]
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "Hardware as asked (not possible)" in en and "按原要求的硬件（无法实现）" in zh
    assert f"{fix.params['total']} × {fix.params['gpu']}" in en
    for memo in (en, zh):  # the start command and the next steps are the fix's GPU, never the blocked one
        serve = next(line for line in memo.splitlines() if "vllm serve" in line)
        assert "--tensor-parallel-size" not in serve or "H100" not in serve
        assert r.hardware.command is not None and r.hardware.command in memo
    assert any(s.id == "serve" for s in r.next_steps)
    assert all("H100" not in (s.command or "") for s in r.next_steps)
    page1 = en.split("\n## 2.")[0]
    # the launch on the fix's GPUs, not "only once the blockers are solved" (vrd44, review 35: q19)
    assert "1–5 days on 5 × NVIDIA L20 48GB" in page1 and "H100 SXM5 80GB: export-controlled" in page1
    assert "only once the blockers are solved" not in page1
    # with the GPUs allowed, the plan is the fix's setup and nothing is labelled "as asked"
    ok = make_plan(answers_from_dict({k: v for k, v in H100.items() if k != "gpu_constraint"}))
    assert ok.feasible and ok.hardware.gpu_name == fix.params["gpu"] and ok.hardware.total_gpus == fix.params["total"]
    assert ok.as_asked_hardware is None and "Hardware as asked" not in render_memo_markdown(ok, "en")


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
