"""GUI responsiveness figures: process start → first window painted, and slider → repaint latency.

    python bench/gui_startup.py [--runs 3] [--moves 40]

Runs headless (QT_QPA_PLATFORM=offscreen) unless a display is set. Each startup run is a fresh
process with its own settings folder; the clock starts in the parent just before the process is
spawned and stops when the main window receives its first paint event. The slider figure is the time
from moving the concurrency slider until the memory bar has repainted with the new estimate.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
imported = time.time()
from ui.app import create_window

app = QApplication([])
window = create_window(app, "en")
created = time.time()
marks = {{}}

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and "painted" not in marks:
            marks["painted"] = time.time()
            QTimer.singleShot(0, finish)
        return False

def finish():
    print(json.dumps({{"imported": imported, "created": created, "painted": marks["painted"]}}), flush=True)
    window.set_modified(False)
    window.close()
    app.quit()

spy = FirstPaint()
window.installEventFilter(spy)
window.show()
QTimer.singleShot(20000, app.quit)
app.exec()
"""


def startup_runs(runs: int) -> list[dict[str, float]]:
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, ADVISOR_HOME=home)
            if not env.get("DISPLAY"):
                env["QT_QPA_PLATFORM"] = "offscreen"
            t0 = time.time()
            proc = subprocess.run([sys.executable, "-c", CHILD.format(root=str(ROOT))], env=env, capture_output=True,
                                  text=True, timeout=120)  # fmt: skip
            line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("{")), None)
            if proc.returncode != 0 or line is None:
                raise SystemExit(f"startup run failed:\n{proc.stderr[-2000:]}")
            marks = json.loads(line)
            out.append({k: (v - t0) * 1000 for k, v in marks.items()})
    return out


def slider_latency(moves: int) -> dict[str, float]:
    if not os.environ.get("DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("ADVISOR_HOME", tempfile.mkdtemp(prefix="advisor-bench-"))
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    from ui.app import create_window

    app = QApplication.instance() or QApplication([])
    window = create_window(app, "en")
    window.resize(1360, 860)
    window.show()
    page = window.sizing_page
    viewport = page.memory_bar.plot.viewport()
    state = {"painted": 0.0, "shown": False}

    class Spy(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and state["shown"] and not state["painted"]:
                state["painted"] = time.perf_counter()
            return False

    spy = Spy()
    viewport.installEventFilter(spy)
    page.results_shown.connect(lambda: state.update(shown=True))
    for _ in range(20):
        app.processEvents()
    latencies, computes = [], []
    for i in range(moves):
        time.sleep(0.06)  # a user's pause between moves (longer than the throttle window)
        app.processEvents()
        state.update(painted=0.0, shown=False)
        t0 = time.perf_counter()
        page.concurrency_slider.setValue(2 + (i * 13) % 120)
        deadline = t0 + 2.0
        while not state["painted"] and time.perf_counter() < deadline:
            app.processEvents()
        if state["painted"]:
            latencies.append((state["painted"] - t0) * 1000)
            computes.append(page.last_compute_ms)
    window.set_modified(False)
    window.close()
    latencies.sort()
    return {
        "moves": len(latencies),
        "median_ms": statistics.median(latencies),
        "p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
        "max_ms": latencies[-1],
        "estimate_median_ms": statistics.median(computes),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    platform = "display " + os.environ["DISPLAY"] if os.environ.get("DISPLAY") else "offscreen"
    runs = startup_runs(args.runs)
    print(f"GUI startup ({platform}, {args.runs} fresh processes):")
    for key, label in (("imported", "PySide6 imported"), ("created", "main window built"), ("painted", "first window painted")):
        values = sorted(r[key] for r in runs)
        print(f"  {label:<28} median {statistics.median(values):7.0f} ms   (min {values[0]:.0f}, max {values[-1]:.0f})")
    s = slider_latency(args.moves)
    print(f"Slider → repaint ({s['moves']} moves of the concurrency slider, memory bar repainted):")
    print(f"  median {s['median_ms']:.1f} ms   p95 {s['p95_ms']:.1f} ms   max {s['max_ms']:.1f} ms"
          f"   (the estimate itself: median {s['estimate_median_ms']:.2f} ms)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
