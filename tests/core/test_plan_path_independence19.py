"""The same answers give the same plan whatever was planned before them, in one process or another (s19-engine19).

Once, q10 at a 120,000 CNY budget planned TP4×2 and later TP2×4 in fresh processes (session 18 note). The plan keeps
module-level caches (screened setups, predictor levels keyed on everything they depend on; ``sizing``), per-candidate
levels, and registries filled at import (the rules: ``rules.RULE_MODULES``); strings hash differently in every
process (PYTHONHASHSEED), so a choice made by iterating a set of names would differ between processes. These tests
plan the same answers cold, warm after other scenarios in two different orders, and in processes with different
hash seeds, and compare the chosen layout and the whole plan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan, sizing
from tests.support.planned import advice_answers

ROOT = Path(__file__).parents[2]
Q10_120K = {**advice_answers("q10_128k_document_assistant"), "monthly_budget": {"amount": 120000, "currency": "CNY"}}
# scenarios that screen and simulate other models, GPUs, formats and TP sizes in between
OTHERS = ("q04_securities_h20_l20_fleet", "q09_eu_voice_agent", "q11_paid_api_b25", "q26_steady_3y_strong_ops_buy",
          "q10_128k_document_assistant", "q35_deepseek_v3_h20_internal", "q39_hybrid_l20_base_cloud_burst")  # fmt: skip


def _layout(answers: dict) -> tuple:
    r = make_plan(answers_from_dict(answers))
    hw = r.hardware
    return (hw.gpu, hw.tp, hw.replicas, hw.weights, hw.max_num_seqs, r.feasible), r.model_dump_json(
        exclude={"generated_at"})


def test_the_same_answers_plan_the_same_layout_cold_and_after_other_scenarios_in_either_order(cold_plan_caches):
    sizing.clear_level_cache()
    cold, cold_json = _layout(Q10_120K)
    seen = []
    for order in (OTHERS, tuple(reversed(OTHERS))):
        for name in order:
            make_plan(answers_from_dict(advice_answers(name)))
        seen.append(_layout(Q10_120K))
    for layout, text in seen:
        assert layout == cold
        assert text == cold_json  # not only the layout: every figure and sentence


_CHILD = """
import json, sys
from advisor.plan import answers_from_dict, make_plan
r = make_plan(answers_from_dict(json.loads(sys.argv[1])))
print(json.dumps([r.hardware.gpu, r.hardware.tp, r.hardware.replicas, r.hardware.weights, r.feasible]))
"""


def test_processes_with_different_string_hashes_plan_the_same_layout():
    # the two processes run at once, not one after the other: each is a cold plan of ~4 s of CPU, and this file runs
    # in `make test`'s slowest process (tests/core), which then waits for one of them, not both in turn (issue #27)
    procs = [subprocess.Popen([sys.executable, "-c", _CHILD, json.dumps(Q10_120K)], cwd=ROOT,
                              env={**os.environ, "PYTHONHASHSEED": seed}, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for seed in ("1", "2")]  # fmt: skip
    out = []
    for proc in procs:
        stdout, stderr = proc.communicate(timeout=120)
        assert proc.returncode == 0, stderr
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    assert out[0] == out[1]
