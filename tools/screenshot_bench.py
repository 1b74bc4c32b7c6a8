"""Screenshots of the Benchmark page (live view mid-run, and the result) in both languages, light and dark.

    python tools/screenshot_bench.py            # re-runs itself under xvfb-run when there is no display
    python tools/screenshot_bench.py --lang en --theme dark

Each (language, theme) runs in a fresh process with settings isolated in a temporary ADVISOR_HOME: the real
main window, the Benchmark tab, the embedded simulated server started with one click, the default step ramp.
Writes docs/screenshots/bench-<lang>-<theme>-live.png and -result.png.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCREEN = "1400x900x24"


def _shoot(lang: str, theme: str, out: Path, model: str, gpu: str, speed: float) -> None:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool
    from PySide6.QtWidgets import QApplication  # noqa: TID251

    from ui.app import create_window  # noqa: TID251
    from ui.theme import apply_theme  # noqa: TID251

    app = QApplication([sys.argv[0]])
    window = create_window(app, lang)
    apply_theme(app, theme)
    window.resize(1380, 880)
    window.move(10, 10)
    page = window.benchmark_page
    window.tabs.setCurrentWidget(page)
    page.preconfigure(model=model, gpu=gpu, prompt_tokens=256, output_tokens=64, ttft_p99_ms=2000,
                      tpot_p99_ms=150, shape="ramp")  # fmt: skip
    page.sim_speed.setValue(speed)
    page.max_concurrency.setValue(16)
    page.requests.setValue(64)
    window.show()
    page.apply_theme()

    def grab(name: str) -> None:
        app.processEvents()
        pixmap = window.grab()
        path = out / f"bench-{lang}-{theme}-{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        pixmap.save(str(path))
        print(f"{path} ({pixmap.width()}×{pixmap.height()})")

    state = {"live": False}

    def on_live() -> None:
        b = page.session.buffers
        if not state["live"] and page.session.running and b.concurrency >= 8 and b.ok >= 24 \
                and page.sample_text.toPlainText():  # fmt: skip
            state["live"] = True
            QTimer.singleShot(300, lambda: grab("live"))

    def on_finished(_result: object) -> None:
        def later() -> None:
            grab("result")
            window.set_modified(False)
            window.close()
            app.quit()

        QTimer.singleShot(1500, later)  # the predicted curve arrives from a background task

    page.sim_state_changed.connect(lambda s: print("sim", s, page.sim_status.text(), flush=True))
    page.message.connect(lambda t: print("message", t, flush=True))
    page.run_finished.connect(lambda r: print("finished", r.get("status"), flush=True))
    page.live_updated.connect(on_live)
    page.run_finished.connect(on_finished)
    page.sim_state_changed.connect(
        lambda s: QTimer.singleShot(200, page.start_run) if s == "running" else None
    )
    QTimer.singleShot(500, page.start_sim)
    QTimer.singleShot(400_000, app.quit)  # never hang
    app.exec()
    window.shutdown()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--theme", nargs="+", default=["light", "dark"])
    parser.add_argument("--model", default="qwen2.5-7b-instruct")
    parser.add_argument("--gpu", default="l4")
    parser.add_argument("--speed", type=float, default=0.5, help="the simulated server's time scale")
    parser.add_argument("--one", nargs=2, metavar=("LANG", "THEME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        _shoot(args.one[0], args.one[1], Path(args.out), args.model, args.gpu, args.speed)
        return 0
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
        return subprocess.call(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable, *sys.argv])
    for lang in args.lang:
        for theme in args.theme:
            with tempfile.TemporaryDirectory() as home:
                env = {**os.environ, "ADVISOR_HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
                cmd = [sys.executable, __file__, "--out", args.out, "--model", args.model, "--gpu", args.gpu,
                       "--speed", str(args.speed), "--one", lang, theme]  # fmt: skip
                code = subprocess.call(cmd, env=env)
                if code:
                    return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
