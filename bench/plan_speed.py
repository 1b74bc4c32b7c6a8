"""How fast is a plan? ``make_plan`` on every decision scenario, cold (first call in a process) and warm.

Target: a plan in < 200 ms (issue 9), so the wizard can re-plan on every answer. The first call in a process
also pays for loading the catalogs and building the models' tensor lists; the wizard pays that once.

"Warm" plans simulate their predictor levels and screen their setups afresh (``sizing.clear_level_cache`` empties
both caches before each: what a plan for new hardware or a new workload costs); "cached" plans find them already
done (what a what-if that keeps the hardware and the workload costs, ``advisor.plan.sizing``'s caches).

Run: ``.venv/bin/python bench/plan_speed.py [--repeat 5] [--set advice] [--only q1] [--cli] [--profile 3]``. Prints a Markdown
table (ms per scenario: cold, then the median and max of the warm repeats, their CPU time, and the cached median)
and the overall figures. ``--set advice``: the 43 advice scenarios (``bench/advice_scenarios``) instead of the plan
scenarios; ``--cli``: also each scenario's ``advisor plan --answers FILE --json`` as a fresh process (wall and CPU
of the child, start-up and imports included: what one command costs a user); ``--profile N``: one more warm plan of
each of the N scenarios with the highest warm CPU median under cProfile, and its functions with the most cumulative
time (where a plan's time goes; cProfile's own cost inflates the figures, so read them as shares).
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SETS = {"plan": sorted((ROOT / "tests" / "fixtures" / "plan_scenarios").glob("*.json")),
        "advice": sorted((ROOT / "bench" / "advice_scenarios").glob("q*.json"))}
TARGET_MS = 200.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5, help="warm repeats per scenario (default 5)")
    ap.add_argument("--no-memo", action="store_true", help="skip the decision-memo timings (PDF and Markdown)")
    ap.add_argument("--set", choices=sorted(SETS), default="plan", help="which scenarios (default: plan)")
    ap.add_argument("--only", help="scenarios whose file name starts with this")
    ap.add_argument("--cli", action="store_true", help="also time `advisor plan --answers FILE --json` per scenario")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="profile one warm plan of each of the N slowest scenarios (warm CPU median)")
    args = ap.parse_args()
    logging.disable(logging.WARNING)
    scenarios = [p for p in SETS[args.set] if not args.only or p.stem.startswith(args.only)]

    t0 = time.perf_counter()
    from advisor.plan import answers_from_dict, make_plan, sizing

    import_ms = (time.perf_counter() - t0) * 1000
    rows = []
    slowest: list[tuple[float, str, object]] = []  # (warm CPU median, name, answers)
    warm_all: list[float] = []
    cpu_all: list[float] = []
    cached_all: list[float] = []
    for path in scenarios:
        answers = answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"])
        sizing.clear_level_cache()
        t = time.perf_counter()
        make_plan(answers)
        cold = (time.perf_counter() - t) * 1000
        warm, cpu, cached = [], [], []
        for _ in range(args.repeat):
            sizing.clear_level_cache()
            t, c = time.perf_counter(), time.process_time()
            make_plan(answers)
            warm.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            t = time.perf_counter()
            make_plan(answers)
            cached.append((time.perf_counter() - t) * 1000)
        warm_all += warm
        cpu_all += cpu
        cached_all += cached
        rows.append((path.stem, cold, statistics.median(warm), max(warm), statistics.median(cpu),
                     statistics.median(cached)))  # fmt: skip
        slowest.append((statistics.median(cpu), path.stem, answers))
    print(f"import advisor.plan: {import_ms:.0f} ms\n")
    print("| scenario | first call ms | warm median ms | warm max ms | warm CPU median ms | cached median ms |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, cold, med, mx, cpu, hit in rows:
        print(f"| {name} | {cold:.0f} | {med:.0f} | {mx:.0f} | {cpu:.0f} | {hit:.1f} |")
    med, mx = statistics.median(warm_all), max(warm_all)
    verdict = "meets" if mx < TARGET_MS else "misses"
    print(f"\nwarm plans: median {med:.0f} ms, max {mx:.0f} ms wall over {len(warm_all)} plans ({verdict} the "
          f"{TARGET_MS:.0f} ms target); CPU median {statistics.median(cpu_all):.0f} ms, max {max(cpu_all):.0f} ms")
    print(f"cached plans (levels already simulated): median {statistics.median(cached_all):.1f} ms, "
          f"max {max(cached_all):.1f} ms")
    if args.profile:
        _profile(sorted(slowest, key=lambda r: r[0], reverse=True)[: args.profile])
    if args.cli:
        _cli_speed(scenarios)
    if not args.no_memo:
        _memo_speed(args.repeat)
    try:
        import os

        print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time grows with other work)")
    except OSError:
        pass
    return 0


def _profile(slowest: list[tuple[float, str, object]], top: int = 25) -> None:
    """One warm plan (level caches emptied first, as the warm figures) of each scenario under cProfile: its ``top``
    functions by cumulative time."""
    import cProfile
    import io
    import pstats

    from advisor.plan import make_plan, sizing

    for cpu, name, answers in slowest:
        sizing.clear_level_cache()
        prof = cProfile.Profile()
        prof.runcall(make_plan, answers)
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(top)
        body = out.getvalue().strip().splitlines()
        start = next((i for i, line in enumerate(body) if line.lstrip().startswith("ncalls")), 0)
        print(f"\n### {name} (warm CPU median {cpu:.0f} ms): top {top} functions by cumulative time under cProfile\n")
        print("```")
        print("\n".join(line.replace(str(ROOT) + "/", "") for line in body[start:]))
        print("```")


def _cli_speed(scenarios: list[Path]) -> None:
    """``advisor plan --answers FILE --json`` per scenario, a fresh process each: wall, and the child's CPU."""
    import resource
    import subprocess
    import tempfile

    print("\n| scenario | `advisor plan --json` wall ms | its CPU ms |")
    print("|---|---:|---:|")
    walls, cpus = [], []
    with tempfile.TemporaryDirectory(prefix="plan-speed-") as tmp:
        for path in scenarios:
            answers = Path(tmp) / f"{path.stem}.json"
            answers.write_text(json.dumps(json.loads(path.read_text(encoding="utf-8"))["answers"]), encoding="utf-8")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([sys.executable, "-m", "advisor", "plan", "--answers", str(answers), "--json"], check=False,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)  # fmt: skip
            wall = (time.perf_counter() - t) * 1000
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
            walls.append(wall)
            cpus.append(cpu)
            print(f"| {path.stem} | {wall:.0f} | {cpu:.0f} |")
    print(f"\n`advisor plan --json`: wall median {statistics.median(walls):.0f} ms, max {max(walls):.0f} ms; CPU median "
          f"{statistics.median(cpus):.0f} ms over {len(walls)} processes")


MEMO_TARGET_MS = 2000.0


def _memo_speed(repeat: int) -> None:
    """The decision memo: PDF (charts painted, laid out, printed) and Markdown + PNGs, per language."""
    import os
    import tempfile

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from advisor.plan import answers_from_dict, make_plan
    from advisor.plan.memo import MemoError
    from ui.memo_export import write_memo

    names = ("01_fast_launch_no_icp", "07_public_genai_mainland", "10_large_moe")
    print("\n| memo | first PDF ms | warm PDF median ms | warm PDF max ms | Markdown + PNG median ms | pages |")
    print("|---|---:|---:|---:|---:|---:|")
    warm_all: list[float] = []
    with tempfile.TemporaryDirectory(prefix="memo-speed-") as tmp:
        for name in names:
            path = ROOT / "tests" / "fixtures" / "plan_scenarios" / f"{name}.json"
            result = make_plan(answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"]))
            for lang in ("en", "zh_CN"):
                out = Path(tmp) / f"{name}.{lang}.pdf"
                try:
                    t = time.perf_counter()
                    write_memo(result, out, lang)
                    first = (time.perf_counter() - t) * 1000
                except MemoError as exc:
                    print(f"| {name} ({lang}) | {exc} | | | | |")
                    continue
                warm, md = [], []
                for _ in range(repeat):
                    t = time.perf_counter()
                    write_memo(result, out, lang)
                    warm.append((time.perf_counter() - t) * 1000)
                    t = time.perf_counter()
                    write_memo(result, out.with_suffix(".md"), lang)
                    md.append((time.perf_counter() - t) * 1000)
                warm_all += warm
                pages = out.read_bytes().count(b"/Type /Page\n") or out.read_bytes().count(b"/Type /Page ")
                print(f"| {name} ({lang}) | {first:.0f} | {statistics.median(warm):.0f} | {max(warm):.0f} | "
                      f"{statistics.median(md):.0f} | {pages or '?'} |")
    if warm_all:
        mx = max(warm_all)
        verdict = "meets" if mx < MEMO_TARGET_MS else "misses"
        print(f"\nPDF memos: median {statistics.median(warm_all):.0f} ms, max {mx:.0f} ms over {len(warm_all)} "
              f"({verdict} the {MEMO_TARGET_MS:.0f} ms target; the first PDF also starts Qt and loads the fonts)")


if __name__ == "__main__":
    sys.exit(main())
