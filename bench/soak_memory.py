"""RSS of ``advisor bench`` over a long soak against ``advisor sim`` (issue #13: goal < 50 MB growth over
100,000 requests).

    .venv/bin/python bench/soak_memory.py                    # 20,000 requests (fits 2 shared cores), extrapolated
    .venv/bin/python bench/soak_memory.py --requests 100000  # the full goal

Starts the simulated server (fast time scale, short outputs, so requests are cheap), runs one fixed-concurrency
step of N requests with the store on (records stream to SQLite), samples the bench process's RSS from
/proc every 0.5 s, and prints the RSS after the first 10 % of requests (the baseline: imports, pools, caches
warmed), at the end, the growth, and the growth per 100,000 requests by a straight-line fit over the samples.
The figure is the client's: the simulator's own memory is not counted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_mb(pid: int) -> float | None:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def start_sim(time_scale: float) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "advisor", "sim", "--model", "qwen2.5-3b", "--gpu", "h100-sxm-80g", "--weights", "bf16",
         "--port", "0", "--time-scale", str(time_scale)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if line.startswith("listening on "):
            return proc, line.split("listening on ", 1)[1].strip()
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit("the simulated server did not start")


def fit_slope(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs) or 1.0
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=20_000)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--max-tokens", type=int, default=16)
    ap.add_argument("--time-scale", type=float, default=0.02, help="simulator time scale (smaller = faster)")
    args = ap.parse_args()

    sim, url = start_sim(args.time_scale)
    tmp = tempfile.mkdtemp(prefix="soak-memory-")
    db = Path(tmp) / "bench.sqlite3"
    samples: list[tuple[float, float, int]] = []  # (seconds, RSS MB, requests stored so far)
    try:
        bench = subprocess.Popen(
            [sys.executable, "-m", "advisor", "bench", "--url", url, "--model", "qwen2.5-3b",
             "--concurrency", str(args.concurrency), "--requests", str(args.requests),
             "--max-tokens", str(args.max_tokens), "--prompt-tokens", "64", "--db", str(db), "--json", "--quiet",
             "--no-telemetry"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )
        t0 = time.monotonic()
        import sqlite3

        while bench.poll() is None:
            time.sleep(0.5)
            rss = rss_mb(bench.pid)
            done = 0
            if db.exists():
                try:
                    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0.2) as conn:
                        done = conn.execute("SELECT COUNT(*) FROM requests").fetchone()[0]
                except sqlite3.Error:
                    done = samples[-1][2] if samples else 0
            if rss is not None:
                samples.append((time.monotonic() - t0, rss, done))
        out, err = bench.communicate()
        wall = time.monotonic() - t0
    finally:
        sim.send_signal(signal.SIGTERM)
        try:
            sim.wait(15)
        except subprocess.TimeoutExpired:
            sim.kill()
    if bench.returncode not in (0, 5):
        print(err[-3000:], file=sys.stderr)
        return 1
    result = json.loads(out)
    step = result["steps"][0]
    total = step["requests_ok"] + step["requests_failed"]
    warm = [s for s in samples if s[2] >= 0.1 * total]
    if len(warm) < 3:
        print("too few samples; run with more requests", file=sys.stderr)
        return 1
    base, end, peak = warm[0][1], samples[-1][1], max(s[1] for s in samples)
    slope = fit_slope([s[2] for s in warm], [s[1] for s in warm])  # MB per request
    late = warm[len(warm) // 2:]  # the second half: caches (SQLite pages, allocator arenas) have filled by then
    late_slope = fit_slope([s[2] for s in late], [s[1] for s in late]) if len(late) >= 3 else slope
    print(f"requests: {total} ({step['requests_ok']} ok) at concurrency {args.concurrency} in {wall:.0f} s "
          f"({total / wall:.0f} req/s), exit {bench.returncode}")
    print(f"RSS after 10 % of the requests: {base:.1f} MB; at the end: {end:.1f} MB; peak {peak:.1f} MB")
    print(f"growth after warm-up: {end - base:+.1f} MB over {total - warm[0][2]} requests")
    print(f"fitted growth: {slope * 100_000:+.1f} MB per 100,000 requests (goal < 50 MB)"
          + ("" if total >= 100_000 else f" — extrapolated from {total} requests"))
    print(f"fitted over the second half only: {late_slope * 100_000:+.1f} MB per 100,000 requests")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
