"""Simulation speed: requests simulated per CPU second by the capacity predictor (virtual time).

Prints one line per scenario: the full concurrency curve 1…256, requests the engine ran (warm-up included),
engine steps, CPU seconds, and requests / CPU second. Run: `.venv/bin/python bench/sim_speed.py`.
"""

from __future__ import annotations

import time

from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.domain.sizing import EngineSettings
from advisor.sim.costs import setup_from_ids
from advisor.sim.predict import predict_curve

SCENARIOS = [
    # (model, gpu, weights, prompt, output, spread)
    ("qwen2.5-7b-instruct", "h100-sxm-80g", "bf16", 1024, 256, "fixed"),
    ("qwen2.5-7b-instruct", "rtx-4090", "bf16", 512, 512, "lognormal"),
    ("qwen2.5-14b", "l40s", "bf16", 2048, 512, "fixed"),
    ("qwen2.5-32b", "l40s", "awq-int4", 4096, 1024, "lognormal"),
    ("llama-3.3-70b-instruct", "h100-sxm-80g", "fp8", 2048, 512, "fixed"),
]


def main() -> None:
    print(f"{'scenario':<58} {'requests':>9} {'steps':>9} {'cpu_s':>7} {'req/cpu_s':>10} {'steps/cpu_s':>12}  knee")
    total_req = total_cpu = 0.0
    # Fixed batch settings, not each GPU's engine defaults, so the figures stay comparable between versions (with
    # vLLM's own 1024 sequences an H100 keeps too little KV cache for the 70B FP8 scenario's requests)
    engine = EngineSettings(max_num_seqs=256, max_num_batched_tokens=8192)
    for model, gpu, weights, prompt, output, spread in SCENARIOS:
        setup = setup_from_ids(model, gpu, weights, engine=engine)
        wl = SimWorkload(
            prompt=LengthDistribution(kind=spread, mean=prompt, cv=0.5, max=prompt if spread == "fixed" else None),
            output=LengthDistribution(kind=spread, mean=output, cv=0.5, max=output if spread == "fixed" else None),
        )
        started = time.process_time()
        curve = predict_curve(setup.costs, setup.limits, wl)
        cpu = time.process_time() - started
        requests = sum(lv.simulated_requests for lv in curve.levels)
        steps = sum(lv.steps for lv in curve.levels)
        if not steps:
            raise SystemExit(f"{model} on {gpu}: the simulator served nothing (the requests do not fit): not a speed figure")
        total_req += requests
        total_cpu += cpu
        name = f"{model} {gpu} {weights} {prompt}/{output} {spread}"
        print(f"{name:<58} {requests:>9} {steps:>9} {cpu:>7.3f} {requests / cpu:>10.0f} {steps / cpu:>12.0f}  "
              f"{curve.knee.concurrency} ({curve.knee.reason})")
    print(f"overall: {total_req / total_cpu:.0f} requests simulated per CPU second; "
          f"mean curve (9 levels) {total_cpu / len(SCENARIOS) * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
