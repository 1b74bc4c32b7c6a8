"""`advisor bench` against `advisor sim --time-scale 0.1` (issue #26 item 2, the CLI): the run learns the scale
from the simulator itself (/debug/stats), says it, labels the run as the app does (History reads the scale back)
and reports every figure at the simulated GPU's real speed — it printed ~150 tok/s for one user of a 7B model on
an L4, ten times what the simulator models."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bench.provenance import read_simulator
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.costs import setup_from_ids
from advisor.sim.launcher import SimLauncher, SimLaunchSpec
from advisor.sim.predict import simulate_concurrency
from tests.support.replay import ReplayServer

ROOT = Path(__file__).resolve().parents[2]
MODEL, GPU = "qwen2.5-7b-instruct", "l4"


def advisor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=180, env={**os.environ, "PYTHONPATH": str(ROOT)})  # fmt: skip


def test_bench_against_a_sped_up_simulator_reports_the_gpus_real_speed(tmp_path):
    db = tmp_path / "b.sqlite3"
    with SimLauncher(SimLaunchSpec(model=MODEL, gpu=GPU, weights="bf16", time_scale=0.1)) as sim:
        assert read_simulator(sim.base_url) == {"time_scale": 0.1, "model": MODEL, "gpu": GPU, "weights": "bf16",
                                                "gpus": 1}  # fmt: skip
        p = advisor("bench", "--url", sim.base_url, "--model", MODEL, "--concurrency", "1", "--requests", "4",
                    "--max-tokens", "32", "--prompt-tokens", "64", "--json", "--db", str(db), "--lang", "en")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    prov = data["provenance"]  # run_benchmark's provenance, plus the scale the figures were converted from
    assert (prov["simulated"], prov["time_scale"], prov["shown_at_real_speed"], prov["gpu"]) == (True, 0.1, True, "l4")
    assert data["setup"]["gpu"] == GPU and data["setup"]["time_scale"] == 0.1
    assert "time scale 0.1" in p.stderr and "10× faster" in p.stderr
    # one user's TPOT is the simulator's model of the L4 at real time, not a tenth of it
    setup = setup_from_ids(MODEL, GPU, "bf16")
    one = simulate_concurrency(setup.costs, setup.limits, SimWorkload(prompt=LengthDistribution.fixed(64),
                               output=LengthDistribution.fixed(32)), 1)  # fmt: skip
    step = data["steps"][0]
    assert step["tpot_ms"]["p50"] == pytest.approx(one.tpot_ms.p50, rel=0.3)
    assert step["output_tokens_per_s"] < 1.5 * 1000 / one.tpot_ms.p50
    assert f"{step['output_tokens_per_s']:.1f} tok/s" in p.stderr  # the printed step line is at real speed too
    # History reads the scale back from the run's label, as for the app's own simulated runs
    listed = json.loads(advisor("history", "--json", "--db", str(db)).stdout)
    run = listed[0] if isinstance(listed, list) else listed["runs"][0]
    assert "×0.1" in json.dumps(run, ensure_ascii=False)


def test_a_real_server_is_not_taken_for_the_simulator(tmp_path):
    with ReplayServer(default="vllm_chat_continuous_usage", owned_by="vllm", interval_ms=1) as srv:
        assert read_simulator(srv.url) is None
        p = advisor("bench", "--url", srv.url + "/v1", "--model", "m", "--concurrency", "1", "--requests", "2",
                    "--max-tokens", "8", "--prompt-tokens", "16", "--json", "--db", str(tmp_path / "b.sqlite3"))
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert "provenance" not in data or not data["provenance"].get("shown_at_real_speed")
    assert "time scale" not in p.stderr
