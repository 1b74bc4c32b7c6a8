"""The simulator alone on the levels the plans simulate: captured once, replayed, CPU timed, outputs hashed.

Every tests/fixtures/plan_scenarios/*.json is planned once with empty caches while ``simulate_concurrency`` is
watched; each distinct level it ran (step costs, engine limits, workload, concurrency, requests measured) is then
replayed ``--repeat`` times in this process, at the plan's own sample (``plan``) and at the 200-request sample
``advisor predict`` and the Sizing page measure where lengths vary (``p99``: ``advisor.sim.predict.p99_measure``).
Prints the CPU milliseconds of each replay (best and median), and a SHA-256 of every level's figures: a change to
the simulator that keeps the hash keeps every plan's levels to the bit.

Run: ``.venv/bin/python bench/plan_levels_replay.py [--repeat 3] [--only 12] [--sample plan,p99]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCENARIOS = sorted((ROOT / "tests" / "fixtures" / "plan_scenarios").glob("*.json"))


def capture(only: str | None) -> list[tuple]:
    """The distinct levels the plan scenarios (those whose name starts with ``only``) simulate, in first-run order."""
    from advisor.plan import answers_from_dict, make_plan, sizing

    seen: dict[tuple, None] = {}
    real = sizing.simulate_concurrency

    def watch(costs, limits, workload, c, *, measure=None):
        seen.setdefault((costs, limits, workload, c, measure), None)
        return real(costs, limits, workload, c, measure=measure)

    sizing.simulate_concurrency = watch
    try:
        for path in SCENARIOS:
            if only and not path.stem.startswith(only):
                continue
            sizing.clear_level_cache()
            make_plan(answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"]))
    finally:
        sizing.simulate_concurrency = real
    return list(seen)


def replay(levels: list[tuple], sample: str) -> tuple[float, str]:
    """CPU ms to simulate every level once at ``sample``, and the SHA-256 of their figures."""
    from advisor.sim.predict import p99_measure, simulate_concurrency

    digest = hashlib.sha256()
    started = time.process_time()
    for costs, limits, workload, c, measure in levels:
        n = measure if sample == "plan" else p99_measure(workload, c) or measure
        lv = simulate_concurrency(costs, limits, workload, c, measure=n)
        digest.update(lv.model_dump_json().encode())
    return (time.process_time() - started) * 1000, digest.hexdigest()[:16]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", help="plan scenarios whose file name starts with this (e.g. 12)")
    ap.add_argument("--sample", default="plan,p99", help="comma-separated: plan, p99")
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    levels = capture(args.only)
    print(f"{len(levels)} distinct levels from {args.only or 'every'} plan scenario")
    for sample in args.sample.split(","):
        times, hashes = [], set()
        for _ in range(args.repeat):
            ms, h = replay(levels, sample)
            times.append(ms)
            hashes.add(h)
        same = "" if len(hashes) == 1 else " (HASH DIFFERS BETWEEN REPEATS)"
        print(f"{sample:>4}: CPU best {min(times):.0f} ms, median {statistics.median(times):.0f} ms over {args.repeat}; "
              f"figures sha256 {'/'.join(sorted(hashes))}{same}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
