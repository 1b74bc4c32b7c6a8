"""The predictor wired to the real sizing core: knees move the right way, and the CLI contracts hold."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.sim.costs import SimSetupError, setup_from_ids
from advisor.sim.predict import predict_curve, simulate_concurrency

ROOT = Path(__file__).resolve().parents[2]


def knee(model="qwen2.5-14b", gpu="l40s", weights="bf16", prompt=2048, output=512, gpus=1):
    setup = setup_from_ids(model, gpu, weights, gpus=gpus)
    workload = SimWorkload(prompt=LengthDistribution.fixed(prompt), output=LengthDistribution.fixed(output))
    return predict_curve(setup.costs, setup.limits, workload).knee


def test_setup_takes_kv_capacity_from_sizing():
    setup = setup_from_ids("qwen2.5-7b-instruct", "h100-sxm-80g", "bf16")
    assert setup.limits.kv_blocks == setup.sizing.memory.kv_blocks > 0
    assert setup.limits.block_size == setup.sizing.memory.block_size
    with pytest.raises(SimSetupError, match="does not fit"):
        setup_from_ids("qwen2-72b-instruct", "rtx-4090", "bf16")


def test_low_load_matches_the_roofline_of_the_sizing_core():
    setup = setup_from_ids("qwen2.5-7b-instruct", "h100-sxm-80g", "bf16")
    wl = SimWorkload(prompt=LengthDistribution.fixed(1000), output=LengthDistribution.fixed(200))
    level = simulate_concurrency(setup.costs, setup.limits, wl, 1)
    # TTFT = the server's per-request overhead (vLLM profile) + the prefill on the GPU
    assert setup.limits.request_overhead_s == setup.profile.request_overhead_s > 0
    expected = (setup.limits.request_overhead_s + setup.costs.prefill_seconds(1000)) * 1000
    assert level.ttft_ms.p50 == pytest.approx(expected, rel=0.02)
    decode = setup.costs.decode_step_seconds(1, 1100)
    assert 1000 / level.tpot_ms.mean == pytest.approx(1 / decode, rel=0.03)


def test_a_level_of_requests_that_never_fit_is_reported_not_a_recursion_error():
    # 256 users whose every request is longer than the KV cache: each refusal's user sends the next request at
    # once; that went one call deeper per refusal and raised RecursionError past ~1,000.
    setup = setup_from_ids("qwen2.5-7b-instruct", "rtx-4090", "bf16")
    too_long = setup.limits.kv_tokens + 1
    wl = SimWorkload(prompt=LengthDistribution.fixed(too_long), output=LengthDistribution.fixed(16))
    level = simulate_concurrency(setup.costs, setup.limits, wl, 256)
    assert level.rejected >= 256 * 4  # the warm-up round and every measured request, each refused


def test_knee_moves_up_with_a_bigger_gpu():
    small, big = knee(gpu="l40s"), knee(gpu="h100-sxm-80g")
    assert small.concurrency is not None and small.reason == "kv_cache"
    assert big.concurrency is None or big.concurrency > small.concurrency


def test_knee_moves_up_with_quantized_weights():
    # INT4 weights leave far more KV cache: the bf16 knee is the KV cache's; the INT4 one is later or, where the
    # GPU's compute runs out first (2048-token prompts on an L40S, prefill GEMMs plus attention over 64 users'
    # KV in one step), no earlier and no longer the KV cache's
    bf16, int4 = knee(weights="bf16"), knee(weights="awq-int4")
    assert bf16.reason == "kv_cache"
    assert int4.concurrency is None or int4.concurrency > bf16.concurrency or (
        int4.concurrency == bf16.concurrency and int4.reason == "compute"
    )


def test_knee_moves_up_with_more_gpus():
    one, two = knee(gpus=1), knee(gpus=2)
    assert two.concurrency is None or two.concurrency > one.concurrency


def test_knee_moves_down_with_longer_context():
    short, long = knee(prompt=512), knee(prompt=8192)
    assert long.concurrency < short.concurrency
    assert long.reason == "kv_cache"


def test_knee_does_not_rise_with_longer_answers():
    assert knee(output=2048).concurrency <= knee(output=128).concurrency


def _run_cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "advisor", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_predict_json_contract():
    out = _run_cli("predict", "--model", "qwen2.5-7b-instruct", "--gpu", "l40s", "--weights", "fp8",
                   "--prompt-tokens", "1024", "--max-tokens", "128", "--concurrency", "1,4,16", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [lv["concurrency"] for lv in data["levels"]] == [1, 4, 16]
    for lv in data["levels"]:
        for key in ("ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"):
            assert set(lv[key]) == {"mean", "p50", "p90", "p95", "p99"}
        assert lv["output_tokens_per_s"] > 0 and lv["requests_per_s"] > 0
        assert {"kv_usage", "queue"} <= set(lv)
    assert set(data["knee"]) >= {"concurrency", "reason", "evidence"}
    assert data["simulated"] is True
    # the predictor's measured error travels with every prediction (resources/engines/accuracy.json)
    acc = data["accuracy"]
    assert acc["measurements"] >= 30 and 0 < acc["ttft"]["median"] <= acc["ttft"]["p90"]
    assert 0 < acc["tpot"]["median"] <= acc["tpot"]["p90"] and acc["doc"] == "docs/predictor-accuracy.md"


def test_every_predicted_level_carries_the_range_of_its_regime():
    out = _run_cli("predict", "--model", "qwen2.5-14b", "--gpu", "l40s", "--prompt-tokens", "1200",
                   "--max-tokens", "300", "--concurrency", "1,8,64,256", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    knee = data["knee"]["concurrency"]
    assert knee is not None and knee < 256  # 256 users of 1.5k tokens overflow one L40S's KV cache
    regimes = {r["regime"]: r for r in data["accuracy"]["by_regime"]}
    for lv in data["levels"]:
        likely = lv["likely"]
        expected = "saturated" if lv["concurrency"] > knee else "below_knee"
        assert likely["regime"] == expected
        factors = regimes[expected]
        # qwen2.5-14b is dense: TPOT's range is the dense group's where the regime has one (else the regime's)
        dense = next((g["tpot_range"] for g in factors["tpot_by_architecture"] if g["architecture"] == "dense"), None)
        for metric in ("ttft", "tpot"):
            span, rng = likely[f"{metric}_ms"], (dense if metric == "tpot" and dense else factors[f"{metric}_range"])
            assert span["low"] == pytest.approx(lv[f"{metric}_ms"]["p50"] * rng["low"])
            assert span["high"] == pytest.approx(lv[f"{metric}_ms"]["p50"] * rng["high"])
            assert span["held"] == rng["coverage"] >= 0.8


def test_predict_request_rates():
    out = _run_cli("predict", "--model", "qwen2.5-7b-instruct", "--gpu", "l4", "--prompt-tokens", "512",
                   "--max-tokens", "128", "--spread", "lognormal", "--request-rate", "0.5,4,40", "--json")
    assert out.returncode == 0, out.stderr
    levels = json.loads(out.stdout)["levels"]
    assert [lv["request_rate"] for lv in levels] == [0.5, 4, 40]
    assert levels[2]["ttft_ms"]["p90"] > levels[0]["ttft_ms"]["p90"]
    knee = json.loads(out.stdout)["knee"]
    assert knee["reason"] == "not_reached" or knee["request_rate"] is not None


def test_predict_bad_input_is_one_line_and_exit_2():
    out = _run_cli("predict", "--model", "qwen2.5-7b-instruct", "--gpu", "no-such-gpu", "--json")
    assert out.returncode == 2 and "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    out = _run_cli("predict", "--model", "qwen2.5-7b-instruct", "--gpu", "l40s", "--concurrency", "0,x")
    assert out.returncode == 2 and "Traceback" not in out.stderr


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sim_cli_serves_and_stops_cleanly(sig):
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "sim", "--model", "qwen2.5-7b-instruct", "--gpu", "h100-sxm-80g",
         "--weights", "bf16", "--port", "0", "--time-scale", "0.2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on http://127.0.0.1:"), line + proc.stderr.read()
        base = line.split()[-1]
        models = httpx.get(base + "/v1/models", timeout=5).json()
        assert models["data"][0]["id"] == "qwen2.5-7b-instruct"
        body = {"model": "qwen2.5-7b-instruct", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 5,
                "stream": True}
        with httpx.stream("POST", base + "/v1/chat/completions", json=body, timeout=10) as resp:
            assert resp.headers["x-inference-advisor-simulated"] == "true"
            lines = [ln for ln in resp.iter_lines() if ln]
        assert lines[-1] == "data: [DONE]"
        proc.send_signal(sig)
        assert proc.wait(timeout=15) == 0
        assert proc.stdout.read() == ""  # exactly one line on stdout
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_sim_cli_rejects_bad_faults():
    out = _run_cli("sim", "--model", "qwen2.5-7b-instruct", "--gpu", "l40s", "--port", "0", "--faults", "boom:0.5")
    assert out.returncode == 2 and "unknown fault kind" in out.stderr


def test_littles_law_across_the_whole_curve():
    setup = setup_from_ids("qwen2.5-7b-instruct", "h100-sxm-80g", "bf16")
    wl = SimWorkload(prompt=LengthDistribution.fixed(1024), output=LengthDistribution.fixed(256))
    for level in predict_curve(setup.costs, setup.limits, wl).levels:
        assert level.requests_per_s * level.e2e_ms.mean / 1000 == pytest.approx(level.concurrency, rel=0.05)
