"""The Benchmark page's worker and ``advisor bench`` run the same config through the same entry point: the same
result fields, the same status word, the same definitions, SLO, workload and provenance (they used to differ:
the CLI added ``definitions``, the app ``slo`` and ``stopped``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

from advisor.bench.runner import EventQueue
from advisor.cancel import CancelToken
from advisor.catalog import get_gpu, get_model
from advisor.sim.costs import build_setup
from advisor.sim.server import SimServer, SimServerConfig
from ui.bench_session import _run

ROOT = Path(__file__).resolve().parents[2]
MODEL = "qwen2.5-3b"
ARGS = ["--concurrency", "1,2", "--requests", "3", "--max-tokens", "8", "--prompt-tokens", "32", "--slo-ttft-ms",
        "4000", "--label", "parity"]


def _cli_config(url: str):
    import argparse

    from advisor.cli import bench

    parser = argparse.ArgumentParser()
    bench.register(parser.add_subparsers())
    args = parser.parse_args(["bench", "--url", url, "--model", MODEL, *ARGS])
    return bench.build_config(args)


def test_the_app_worker_and_the_cli_give_the_same_result_fields(tmp_path):
    setup = build_setup(get_model(MODEL), get_gpu("h100-sxm-80g"), "bf16")
    with SimServer(SimServerConfig.from_setup(setup, time_scale=0.2)) as srv:
        cli = subprocess.run([sys.executable, "-m", "advisor", "bench", "--url", srv.base_url, "--model", MODEL, *ARGS,
                              "--json", "--quiet", "--db", str(tmp_path / "cli.sqlite3")],
                             cwd=ROOT, capture_output=True, text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert cli.returncode == 0, cli.stderr
        page = SimpleNamespace(telemetry=None)
        app = _run(_cli_config(srv.base_url), CancelToken(), CancelToken(), EventQueue(), None, None,
                   tmp_path / "app.sqlite3", True, None, None, page, True, None)
    out = json.loads(cli.stdout)
    assert set(app) == set(out), set(app) ^ set(out)
    for key in ("status", "schedule", "label", "definitions", "slo", "exit_code", "dialect", "api", "model",
                "result_schema", "simulated"):
        assert app[key] == out[key], key
    assert set(app["workload"]) == set(out["workload"]) and app["workload"] == out["workload"]
    # the CLI prints a sped-up simulator's figures at the GPU's real speed and says so; the stored result is raw
    def raw(p: dict) -> dict:
        return {k: v for k, v in p.items() if k != "shown_at_real_speed"}

    assert raw(app["provenance"]) == raw(out["provenance"]) and out["provenance"]["shown_at_real_speed"] is True
    assert app["setup"]["time_scale"] == out["setup"]["time_scale"] == 0.2  # both learned it from the simulator
    assert set(app["probe"]) == set(out["probe"]) and app["probe"]["ok"] == out["probe"]["ok"] is True
    assert [set(s) for s in app["steps"]] == [set(s) for s in out["steps"]]
    assert [s["concurrency"] for s in app["steps"]] == [s["concurrency"] for s in out["steps"]] == [1, 2]
    assert page.telemetry is not None  # the page's GPU panel gets the live samplers through the worker's events
