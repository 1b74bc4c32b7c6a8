"""How fast the calculator answers: the UI's sliders need < 1 ms per estimate, < 50 ms for the catalog table.

Run: .venv/bin/python bench/sizing_speed.py
"""

from __future__ import annotations

import statistics
import time

from advisor.catalog import get_gpu, load_gpus, load_models
from advisor.domain.sizing import SizingRequest
from advisor.sizing import size
from advisor.sizing.fleet import catalog_table


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def main() -> None:
    gpu = get_gpu("h100-sxm-80g")
    gpus = load_gpus()
    print(f"{'model':30} {'estimate p50':>13} {'p99':>9} {'catalog table':>14} {'GPUs':>5}")
    for model in load_models():
        req = SizingRequest(model=model, gpu=gpu, weights=model.checkpoint_quant or "bf16", context=8192, concurrency=8)
        size(req)  # first call builds the cached tensor list
        single = timed(lambda req=req: size(req), 200)
        table = timed(lambda req=req: catalog_table(req, gpus), 10)
        print(
            f"{model.id:30} {statistics.median(single):10.3f} ms {sorted(single)[int(len(single) * 0.99) - 1]:6.3f} ms "
            f"{statistics.median(table):11.1f} ms {len(gpus):5}"
        )
    print("goal: estimate < 1 ms, catalog table < 50 ms")


if __name__ == "__main__":
    main()
