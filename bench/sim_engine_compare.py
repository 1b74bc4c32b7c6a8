"""The simulator's speed against an earlier commit, with its outputs compared bit for bit, in one run.

Exports ``--base`` (a git revision, default ``HEAD``) with ``git archive`` into a temporary folder, then runs the same
work in a fresh interpreter against each tree (this file's ``--worker`` mode, with the tree first on ``sys.path``):

- ``predictor``: bench/predictor_accuracy.py's ``predict`` over every row of tests/fixtures/predictor_accuracy.csv
  (each row's predicted TTFT/TPOT, knee and flags, as ``repr`` of the floats) and its held-out figures: what
  tests/core/test_predictor_accuracy_bench.py runs;
- ``plans``: ``advisor.plan.engine.plan`` on every tests/fixtures/plan_scenarios/*.json, the whole ``to_json("en")``
  (what tools/plan_scenario_table.py prints is a part of it);
- ``curves``: bench/sim_speed.py's five concurrency curves (``predict_curve``), every level's figures.

Each group's output is hashed (SHA-256 of its JSON); a group whose hash differs between the two trees is a failure
(exit status 1, the first differing item printed). CPU seconds (``time.process_time``) per group and tree, and their
ratio, are printed: CPU time, because a shared machine inflates wall time.

Run: ``.venv/bin/python bench/sim_engine_compare.py [--base REV] [--only predictor,plans,curves]``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parents[1]
GROUPS = ("predictor", "plans", "curves")
# what differs from one run to the next by design (a clock reading), left out of the comparison
VOLATILE = frozenset({"cpu_seconds", "generated_at"})


def _scrub(value: object) -> object:
    if isinstance(value, dict):
        return {k: _scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


def _load_bench(root: Path, name: str):
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"bench_{name}", root / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _predictor(root: Path) -> list:
    import csv

    accuracy = _load_bench(root, "predictor_accuracy")
    with accuracy.CSV.open(encoding="utf-8") as fh:
        points = [accuracy.predict(row) for row in csv.DictReader(fh)]
    out: list = [[p.row["id"] if "id" in p.row else i, repr(p.ttft_pred), repr(p.tpot_pred), p.knee, p.saturated,
                  p.started_spread] for i, p in enumerate(points)]  # fmt: skip
    out.append(accuracy.held_out_accuracy(points).model_dump(mode="json"))
    return out


def _plans(root: Path) -> list:
    from advisor.plan.answers import PlanAnswers
    from advisor.plan.engine import plan

    out = []
    for path in sorted((root / "tests" / "fixtures" / "plan_scenarios").glob("*.json")):
        answers = PlanAnswers.model_validate(json.loads(path.read_text(encoding="utf-8"))["answers"])
        out.append([path.stem, plan(answers).to_json("en")])
    return out


def _curves(root: Path) -> list:
    from advisor.domain.sim import LengthDistribution, SimWorkload
    from advisor.domain.sizing import EngineSettings
    from advisor.sim.costs import setup_from_ids
    from advisor.sim.predict import predict_curve

    speed = _load_bench(root, "sim_speed")
    engine = EngineSettings(max_num_seqs=256, max_num_batched_tokens=8192)
    out = []
    for model, gpu, weights, prompt, output, spread in speed.SCENARIOS:
        setup = setup_from_ids(model, gpu, weights, engine=engine)
        wl = SimWorkload(
            prompt=LengthDistribution(kind=spread, mean=prompt, cv=0.5, max=prompt if spread == "fixed" else None),
            output=LengthDistribution(kind=spread, mean=output, cv=0.5, max=output if spread == "fixed" else None),
        )
        out.append([model, gpu, predict_curve(setup.costs, setup.limits, wl).model_dump(mode="json")])
    return out


def worker(root: Path, groups: list[str]) -> None:
    sys.path.insert(0, str(root))
    import logging

    import advisor

    assert Path(advisor.__file__).resolve().is_relative_to(root), f"advisor imported from {advisor.__file__}, not {root}"
    logging.disable(logging.WARNING)
    result = {}
    for group in groups:
        started = time.process_time()
        data = _scrub({"predictor": _predictor, "plans": _plans, "curves": _curves}[group](root))
        cpu = time.process_time() - started
        text = json.dumps(data, sort_keys=True, default=repr)
        result[group] = {"cpu_s": cpu, "sha256": hashlib.sha256(text.encode()).hexdigest(), "items": data}
    json.dump(result, sys.stdout)


def _run(root: Path, groups: list[str]) -> dict:
    proc = subprocess.run(
        [sys.executable, str(HERE), "--worker", str(root), "--only", ",".join(groups)],
        cwd=root, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if proc.returncode:
        sys.exit(f"worker in {root} failed:\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout)


def _first_difference(a: object, b: object, where: str = "") -> str:
    """Where two JSON values first differ (a path of keys and indices) and the two values there."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return _first_difference(a.get(key), b.get(key), f"{where}/{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{where}/{i}")
    return f"{where or '/'}: {json.dumps(a, default=repr)[:300]}\n   now: {json.dumps(b, default=repr)[:300]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default="HEAD", help="git revision to compare against (default HEAD)")
    ap.add_argument("--only", default=",".join(GROUPS), help="comma-separated groups: " + ", ".join(GROUPS))
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    groups = [g for g in args.only.split(",") if g]
    if unknown := set(groups) - set(GROUPS):
        ap.error(f"unknown group(s): {', '.join(sorted(unknown))}")
    if args.worker:
        worker(args.worker.resolve(), groups)
        return 0
    with tempfile.TemporaryDirectory(prefix="sim-base-") as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.base], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        base = _run(Path(tmp), groups)
    now = _run(ROOT, groups)
    same = True
    print(f"{'group':<10} {'base cpu_s':>10} {'now cpu_s':>10} {'ratio':>6}  outputs")
    for g in groups:
        b, n = base[g], now[g]
        identical = b["sha256"] == n["sha256"]
        same &= identical
        print(f"{g:<10} {b['cpu_s']:>10.2f} {n['cpu_s']:>10.2f} {b['cpu_s'] / n['cpu_s']:>5.2f}×  "
              f"{'identical' if identical else 'DIFFERENT'} ({n['sha256'][:12]})")  # fmt: skip
        if not identical:
            print("  base " + _first_difference(b["items"], n["items"]))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
