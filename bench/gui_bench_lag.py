"""GUI lag and measurement fidelity while the Benchmark page shows a many-stream run against the simulated server.

Three configurations run the same closed-loop load (``--streams`` concurrent requests, ``--requests`` in all)
against one ``advisor sim`` child process that records the true send time of every chunk:

- ``headless``: the engine alone in a thread (``run_benchmark``), no Qt — the reference;
- ``gui-thread``: the Benchmark page shown, the load in a thread of the GUI process (the page's default);
- ``gui-Nproc``: the page shown, the load split over N spawned client processes (``client processes`` field).

For each: the GUI event-loop lag (a 10 ms precise QTimer: how late each tick fires; p50/p99/max), the page's
drain cost per tick, and the benchmark's own ITL and TTFT error against the server's ground truth
(|measured gap − true gap| per token, as bench/client_fidelity.py computes it). Goal: lag p99 < 50 ms, and ITL
error with the GUI equal to headless.

Run: ``xvfb-run -a .venv/bin/python bench/gui_bench_lag.py [--streams 256] [--requests 768] [--procs 2]``.
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.bench.metrics import quantile  # noqa: E402
from advisor.bench.session import run_benchmark  # noqa: E402
from advisor.bench.store import BenchStore  # noqa: E402
from advisor.domain.bench import BenchConfig  # noqa: E402
from advisor.sim.launcher import SimLauncher, SimLaunchSpec  # noqa: E402


def q(values: list[float], p: float) -> float | None:
    return quantile(sorted(values), p) if values else None


def fmt(v: float | None) -> str:
    return "—" if v is None else f"{v:.2f}"


def config(url: str, model: str, streams: int, requests: int, tokens: int, procs: int) -> BenchConfig:
    return BenchConfig(
        endpoint={"url": url, "model": model},
        workload={"prompt_tokens": {"mean": 64}, "output_tokens": {"mean": tokens}, "ignore_eos": True},
        schedule={"kind": "fixed", "concurrency": [streams], "requests": requests, "warmup_requests": 0,
                  "client_processes": procs},
    )  # fmt: skip


def fidelity(url: str, records: list) -> dict[str, float | None]:
    import httpx

    itl_err: list[float] = []
    ttft_err: list[float] = []
    matched = 0
    merged = 0
    tokens = 0
    with httpx.Client(timeout=30) as client:
        for r in records:
            if not r.ok or not r.request_id:
                continue
            resp = client.get(url + "/debug/ground-truth", params={"request_id": r.request_id})
            if resp.status_code != 200:
                continue
            sent = [c["t"] for c in resp.json()["chunks"] if c["kind"] == "content"]
            got = r.token_times
            if len(sent) != len(got) or not got:
                continue
            matched += 1
            tokens += len(got)
            merged += r.late_merged_tokens
            ttft_err.append((got[0] - sent[0]) * 1e3)
            itl_err.extend(
                abs((got[i] - got[i - 1]) - (sent[i] - sent[i - 1])) * 1e3 for i in range(1, len(got))
            )
    return {"matched": matched, "itl_p50": q(itl_err, 0.5), "itl_p99": q(itl_err, 0.99),
            "ttft_p50": q(ttft_err, 0.5), "ttft_p99": q(ttft_err, 0.99),
            "merged_pct": 100.0 * merged / tokens if tokens else None}  # fmt: skip


def run_headless(url: str, cfg: BenchConfig, db: Path) -> dict:
    store = BenchStore(db)
    t0 = time.monotonic()
    result = run_benchmark(cfg, store=store).as_dict()  # the entry point the page's worker calls too
    wall = time.monotonic() - t0
    records = store.records(result["run_id"])
    store.connection.close()
    return {
        "mode": "headless",
        "wall_s": wall,
        "status": result["status"],
        **fidelity(url, records),
        "lag_p50": None,
        "lag_p99": None,
        "lag_max": None,
        "drain_p99": None,
        "ok": result["requests_ok"],
        "slice_p99": None,
        "slice_max": None,
        "stage_max": {},
    }


def run_gui(url: str, cfg: BenchConfig, db: Path, mode: str, app) -> dict:
    from PySide6.QtCore import Qt, QTimer

    from ui.pages.benchmark import BenchmarkPage
    from ui.workers import TaskRunner

    runner = TaskRunner()
    page = BenchmarkPage(runner, db_path=db)
    page.resize(1400, 900)
    page.show()
    page.url_radio.setChecked(True)
    page.url_edit.setText(url)
    page._levels = [cfg.schedule.concurrency[0]]
    page._run_started_at = time.monotonic()
    lags: list[float] = []
    last = [time.perf_counter()]
    timer = QTimer()
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.setInterval(10)

    def tick() -> None:
        now = time.perf_counter()
        if page.session.running:  # while the run is shown (not the result view drawn after it)
            lags.append(max(0.0, (now - last[0]) * 1e3 - 10.0))
        last[0] = now

    timer.timeout.connect(tick)
    done = threading.Event()
    box: dict = {}

    def finished(result: dict) -> None:
        box["result"] = result
        done.set()

    page.session.finished.connect(finished)
    page.session.failed.connect(lambda text: box.setdefault("error", text))
    for _ in range(20):
        app.processEvents()
    t0 = time.monotonic()
    timer.start()
    last[0] = time.perf_counter()
    page.session.start(cfg, db_path=db, sample_text=True)
    page.right.setCurrentIndex(0)
    slices: list[float] = []  # perf_counter around each pass of the event loop: the GUI thread's busy slices
    while not done.is_set():
        t = time.perf_counter()
        app.processEvents()
        if page.session.running:
            slices.append((time.perf_counter() - t) * 1e3)
        time.sleep(0.001)
    timer.stop()
    wall = time.monotonic() - t0
    drain = list(page.session.drain_cost_ms)
    stages = {k: max(v) for k, v in page.live.stage_cost_ms.items() if v}
    result = box["result"]
    page.stop()
    runner.shutdown()
    page.close()
    store = BenchStore(db)
    records = store.records(result["run_id"])
    store.connection.close()
    return {"mode": mode, "wall_s": wall, "status": result["status"], **fidelity(url, records),
            "lag_p50": q(lags, 0.5), "lag_p99": q(lags, 0.99), "lag_max": max(lags) if lags else None,
            "drain_p99": q(drain, 0.99), "ok": result["requests_ok"], "slice_p99": q(slices, 0.99),
            "slice_max": max(slices) if slices else None, "stage_max": stages}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--streams", type=int, default=256)
    ap.add_argument("--requests", type=int, default=768)
    ap.add_argument("--tokens", type=int, default=64)
    ap.add_argument("--procs", type=int, default=2, help="client processes for the gui-Nproc row (0: skip)")
    ap.add_argument("--model", default="qwen2.5-3b")
    ap.add_argument("--gpu", default="h100-sxm-80g")
    ap.add_argument("--time-scale", type=float, default=1.0)
    ap.add_argument("--modes", default="headless,gui-thread,gui-proc")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    import pyqtgraph as pg

    pg.setConfigOptions(antialias=True)  # as the app sets it (ui/app.py)
    spec = SimLaunchSpec(model=args.model, gpu=args.gpu, weights="bf16", time_scale=args.time_scale,
                         max_num_seqs=max(256, args.streams))  # fmt: skip
    rows = []
    with tempfile.TemporaryDirectory() as tmp, SimLauncher(spec) as sim:
        url = sim.base_url
        assert url
        for mode in args.modes.split(","):
            db = Path(tmp) / f"{mode}.sqlite3"
            if mode == "headless":
                row = run_headless(
                    url, config(url, args.model, args.streams, args.requests, args.tokens, 1), db
                )
            elif mode == "gui-thread":
                cfg = config(url, args.model, args.streams, args.requests, args.tokens, 1)
                row = run_gui(url, cfg, db, mode, app)
            elif mode == "gui-proc" and args.procs > 1:
                cfg = config(url, args.model, args.streams, args.requests, args.tokens, args.procs)
                row = run_gui(url, cfg, db, f"gui-{args.procs}proc", app)
            else:
                continue
            rows.append(row)
            print(f"{row['mode']}: done in {row['wall_s']:.1f} s, {row['ok']} ok ({row['status']}), "
                  f"ITL err p99 {fmt(row['itl_p99'])} ms, lag p99 {fmt(row['lag_p99'])} ms", file=sys.stderr,
                  flush=True)  # fmt: skip
    print(f"\nmachine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end; server: advisor sim "
          f"{args.model} on {args.gpu} (time scale {args.time_scale:g}); {args.streams} streams, {args.requests} "
          f"requests of {args.tokens} tokens\n")  # fmt: skip
    print(
        "| load runs in | GUI lag p50 | GUI lag p99 | GUI lag max | drain p99 | ITL err p50 | ITL err p99 | "
        "TTFT err p50 | TTFT err p99 | merged by a late read | requests matched | wall |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        merged = "—" if r["merged_pct"] is None else f"{r['merged_pct']:.2f}%"
        print(
            f"| {r['mode']} | {fmt(r['lag_p50'])} | {fmt(r['lag_p99'])} | {fmt(r['lag_max'])} | "
            f"{fmt(r['drain_p99'])} | {fmt(r['itl_p50'])} | {fmt(r['itl_p99'])} | {fmt(r['ttft_p50'])} | "
            f"{fmt(r['ttft_p99'])} | {merged} | {r['matched']}/{r['ok']} | {r['wall_s']:.1f} s |"
        )
    print(
        "\n(ms; GUI lag = how late a 10 ms timer fires on the GUI thread; ITL/TTFT err against the server's "
        "ground truth)"
    )
    print("\n| load runs in | GUI slice p99 | GUI slice max | worst stage of a live refresh (max ms) |")
    print("|---|---:|---:|---|")
    for r in rows:
        if r["slice_max"] is None:
            continue
        worst = ", ".join(f"{k} {v:.1f}" for k, v in sorted(r["stage_max"].items(), key=lambda kv: -kv[1]))
        print(f"| {r['mode']} | {fmt(r['slice_p99'])} | {fmt(r['slice_max'])} | {worst} |")
    print("\n(GUI slice = perf_counter around one pass of the event loop while the run is shown)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
