"""Screenshots of the Benchmark page (live view mid-run, and the result) in both languages, light and dark.

    python tools/screenshot_bench.py            # re-runs itself under xvfb-run when there is no display
    python tools/screenshot_bench.py --lang en --theme dark

Each (language, theme) runs in a fresh process with settings isolated in a temporary ADVISOR_HOME: the real
main window, the Benchmark tab, the embedded simulated server started with one click, the default step ramp.
Writes docs/screenshots/bench-<lang>-<theme>-live.png and -result.png; with --url-form, -url.png (the Target
panel for a server by URL, with the CA bundle and client certificate rows) instead; with --before-run, -idle.png
(the page as first opened: the Live tab says no run has started).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.shots import ROOT, open_window, rerun_under_xvfb, run_isolated, save_png  # noqa: E402


def _shoot(lang: str, theme: str, out: Path, model: str, gpu: str, speed: float) -> None:
    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool

    app, window = open_window(lang, theme=theme, size=(1380, 880))
    page = window.benchmark_page
    window.tabs.setCurrentWidget(page)
    page.preconfigure(model=model, gpu=gpu, prompt_tokens=256, output_tokens=64, ttft_p99_ms=2000,
                      tpot_p99_ms=150, shape="ramp")  # fmt: skip
    page.sim_speed.setValue(speed)
    page.max_concurrency.setValue(16)
    page.requests.setValue(64)
    page.apply_theme()

    def grab(name: str) -> None:
        save_png(app, window, out / f"bench-{lang}-{theme}-{name}.png", settle=1)

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


def _shoot_url(lang: str, theme: str, out: Path) -> None:
    """The Target panel for a server by URL: API key, GPU exporter, CA bundle, client certificate and key (left
    empty, so their placeholders show in this language)."""
    app, window = open_window(lang, theme=theme, size=(1380, 880))
    page = window.benchmark_page
    window.tabs.setCurrentWidget(page)
    page.target.url_radio.setChecked(True)
    page.target.url.url_edit.setText("https://gpu-server.example:8443")
    page.apply_theme()
    save_png(app, window, out / f"bench-{lang}-{theme}-url.png", settle=20)
    window.set_modified(False)
    window.close()
    window.shutdown()


def _shoot_idle(lang: str, theme: str, out: Path) -> None:
    """The page as first opened, before any run: the Live tab's neutral "not started" line, empty charts."""
    app, window = open_window(lang, theme=theme, size=(1380, 880))
    page = window.benchmark_page
    window.tabs.setCurrentWidget(page)
    page.apply_theme()
    save_png(app, window, out / f"bench-{lang}-{theme}-idle.png", settle=20)
    window.set_modified(False)
    window.close()
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
    parser.add_argument("--url-form", action="store_true",
                        help="only the Target panel for a server by URL (no run): bench-<lang>-<theme>-url.png")
    parser.add_argument("--before-run", action="store_true",
                        help="only the page before any run (the Live tab's 'not started'): bench-<lang>-<theme>-idle.png")
    parser.add_argument("--one", nargs=2, metavar=("LANG", "THEME"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one and args.url_form:
        _shoot_url(args.one[0], args.one[1], Path(args.out))
        return 0
    if args.one and args.before_run:
        _shoot_idle(args.one[0], args.one[1], Path(args.out))
        return 0
    if args.one:
        _shoot(args.one[0], args.one[1], Path(args.out), args.model, args.gpu, args.speed)
        return 0
    rerun = rerun_under_xvfb()
    if rerun is not None:
        return rerun
    for lang in args.lang:
        for theme in args.theme:
            code = run_isolated([__file__, "--out", args.out, "--model", args.model, "--gpu", args.gpu,
                                 "--speed", str(args.speed), *(["--url-form"] if args.url_form else []),
                                 *(["--before-run"] if args.before_run else []),
                                 "--one", lang, theme], lang, theme)  # fmt: skip
            if code:
                return code
    return 0


if __name__ == "__main__":
    sys.exit(main())
