"""An export-controlled GPU asked for on a mainland node (s15 blind review of q19): the blocker says the export rules
keep changing (check the rules in force) and that grey-market parts are a compliance risk, cites the rules' history,
and the plan is sized on the part sold there — its start command and next steps never name the blocked GPU."""

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
Q19 = json.loads((SCEN / "q19_export_controlled_h100_mainland.json").read_text(encoding="utf-8"))["answers"]


def test_the_blocker_says_the_rules_keep_changing_and_grey_market_parts_are_a_compliance_risk():
    r = planned(Q19)  # planned once per session, shared with every file that reads it (issue #27)
    f = r.finding("gpu.not_in_region")
    assert f is not None and f.severity == "blocker"
    en, zh = f.detail_in("en"), f.detail_in("zh_CN")
    assert "keep changing" in en and "grey channels" in en and "compliance risk" in en
    assert "不断变化" in zh and "灰色渠道" in zh and "合规风险" in zh
    assert "export-controlled" in f.title_in("en") and "出口管制" in f.title_in("zh_CN")
    assert any("arthurchiao" in s.url.lower() for s in f.sources)  # the export-rule history it rests on


def test_the_command_and_next_steps_use_the_replacement_gpu():
    r = planned(Q19)
    assert not r.feasible and r.hardware.gpu not in Q19["gpu_constraint"]
    assert r.hardware.gpu in {"h20-96g", "l20-48g", "a10", "a30", "rtx-4090d", "h800-sxm-80g", "a800-80g"}
    assert r.hardware.command and "vllm serve" in r.hardware.command
    serve = next(s for s in r.next_steps if s.id == "serve")
    assert r.hardware.gpu_name in serve.text_in("en")
    assert r.latency_curve.points and r.latency_curve.gpu == r.hardware.gpu  # the replacement's predicted latency table
    assert r.as_asked_hardware.gpu == "h100-sxm-80g"


def test_a_warning_only_case_keeps_its_general_text():
    """The plan on an in-region part while an export-controlled one was also allowed: a note, not the blocker text."""
    r = make_plan(answers_from_dict({**Q19, "gpu_constraint": ["h100-sxm-80g", "h20-96g"]}))
    f = r.finding("gpu.not_in_region")
    assert r.as_asked_hardware is None
    assert f is None or (f.severity != "blocker" and "grey channels" not in f.detail_in("en"))
