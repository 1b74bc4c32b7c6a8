"""Screenshots of the History page (runs list, compare) and the Quantization A/B page, both languages, light and dark.

    python tools/screenshot_history.py                 # re-runs itself under xvfb-run when there is no display
    python tools/screenshot_history.py --out docs/screenshots --lang en zh_CN --theme light dark

The data is real: three simulated servers (one model on one GPU in BF16, FP8 and AWQ-INT4) are benchmarked over
loopback HTTP into a fresh database (with the servers' /metrics telemetry, so GPU memory is drawn), then an A/B of
BF16 against AWQ-INT4 runs in each language. The BF16 and AWQ-INT4 runs and the A/B belong to a saved project
(``PROJECT``), which each window opens: ``history-list`` shows "This project", ``history-all`` all runs with the
project's marked. Each screenshot is taken in a fresh process with settings isolated in a temporary ADVISOR_HOME.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.shots import ROOT, open_window, rerun_under_xvfb, run_isolated, save_png  # noqa: E402

MODEL, GPU = "qwen2.5-7b-instruct", "l4"
FORMATS = ("bf16", "fp8", "awq-int4")
PROJECT = "support-bot-l4.advisor.json"  # in the data folder; its runs: BF16, AWQ-INT4 and the A/B


def _make_data(home: Path) -> None:
    os.environ["ADVISOR_HOME"] = str(home)
    from advisor.bench.ab import AbConfig, result_json, run_ab
    from advisor.bench.history import project_key
    from advisor.bench.session import TelemetryOptions, run_benchmark
    from advisor.bench.store import BenchStore
    from advisor.domain.bench import BenchConfig
    from advisor.domain.project import Project
    from advisor.domain.run import SimSetup
    from advisor.i18n import set_language
    from advisor.project import save_project
    from advisor.sim.launcher import SimLauncher, SimLaunchSpec

    save_project(Project(title="Support bot on L4"), home / PROJECT)
    key = project_key(home / PROJECT)

    launchers = {f: SimLauncher(SimLaunchSpec(model=MODEL, gpu=GPU, weights=f, time_scale=0.05)) for f in FORMATS}
    try:
        for launcher in launchers.values():
            launcher.start()
        for fmt, launcher in launchers.items():
            cfg = BenchConfig.model_validate({
                "endpoint": {"url": launcher.base_url, "model": MODEL},
                "workload": {"prompt_tokens": {"mean": 512}, "output_tokens": {"mean": 64}},
                "schedule": {"kind": "fixed", "concurrency": [1, 2, 4, 8, 16, 32], "requests": 16},
                "label": f"{GPU} · {fmt}",
            })
            store = BenchStore()
            run_benchmark(cfg, store=store, telemetry=TelemetryOptions(nvml=False),
                          setup=SimSetup(model=MODEL, gpu=GPU, weights=fmt, time_scale=0.05),
                          project_id=None if fmt == "fp8" else key)
            store.connection.close()
        for lang in ("en", "zh"):
            set_language("zh_CN" if lang == "zh" else "en")
            cfg = AbConfig.model_validate({
                "a": {"url": launchers["bf16"].base_url, "model": MODEL, "label": "bf16"},
                "b": {"url": launchers["awq-int4"].base_url, "model": MODEL, "label": "awq-int4"},
                "language": lang, "requests": 16, "concurrency": [1, 8], "max_tokens": 48,
            })
            result = run_ab(cfg, store=lang == "en", project_id=key)
            (home / f"ab-{lang}.json").write_text(result_json(result), encoding="utf-8")
    finally:
        for launcher in launchers.values():
            launcher.stop()


def _shoot(lang: str, out: Path, theme: str, home: Path) -> None:
    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool

    from advisor.bench.ab import AbResult, verdict

    app, window = open_window(lang)
    window.open_project(home / PROJECT)
    page = window.history_page
    ab = window.ab_page
    window.tabs.setCurrentWidget(page)
    suffix = f"{lang}-{theme}"

    def save(name: str) -> None:
        window.statusBar().clearMessage()  # "Opened /tmp/…": a temporary path, not part of the picture
        save_png(app, window, out / f"{name}-{suffix}.png", settle=1)

    def listed(_n: int) -> None:
        page.listed.disconnect(listed)
        if theme == "light":
            page.select(page.shown_runs[-1].run_id)
            save("history-list")  # the default scope: this project's runs
            page.scope.setCurrentIndex(page.scope.findData("all"))
            page.select(page.shown_runs[-1].run_id)
            save("history-all")  # every run, the project's marked
        ids = [r.run_id for r in page.runs if r.label.startswith(GPU)]
        page.set_checked(ids)
        page.compare_checked()

    def compared() -> None:
        QTimer.singleShot(300, after_compare)

    def after_compare() -> None:
        save("history-compare")
        data = json.loads((home / f"ab-{'zh' if lang == 'zh_CN' else 'en'}.json").read_text(encoding="utf-8"))
        result = AbResult.model_validate(data)
        result.verdict_lines = verdict(result)  # worded in this window's language
        for name, side in (("A", result.a), ("B", result.b)):
            ab.sides[name]["url"].setText(side.url)
            ab.sides[name]["model"].setText(side.model)
            ab.sides[name]["label"].setText(side.label)
        ab.concurrency.setText(",".join(map(str, result.config.concurrency)))
        ab.requests.setValue(result.config.requests)
        ab.max_tokens.setValue(result.config.max_tokens)
        ab.show_result(result)
        ab.progress.setText(ab.progress.text() or "")
        window.tabs.setCurrentWidget(ab)
        QTimer.singleShot(300, finish)

    def finish() -> None:
        save("ab")
        window.set_modified(False)
        window.close()
        app.quit()

    page.listed.connect(listed)
    page.compared.connect(compared)
    QTimer.singleShot(30000, app.quit)  # never hang
    app.exec()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--theme", nargs="+", choices=["light", "dark"], default=["light", "dark"])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-theme", help=argparse.SUPPRESS)
    parser.add_argument("--data", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        _shoot(args.child, Path(args.out), args.child_theme, Path(args.data))
        return 0

    rerun = rerun_under_xvfb()
    if rerun is not None:
        return rerun
    rc = 0
    with tempfile.TemporaryDirectory() as data_home:
        data = Path(data_home)
        subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
                        f"from tools.screenshot_history import _make_data; from pathlib import Path; "
                        f"_make_data(Path({str(data)!r}))"], cwd=ROOT, check=True, timeout=600)
        for lang in args.lang:
            for theme in args.theme:
                rc |= run_isolated([__file__, "--child", lang, "--child-theme", theme, "--out", args.out,
                                    "--data", str(data)], lang, theme, timeout=180,
                                   prepare=lambda home: shutil.copytree(data / "data", home / "data"))  # fmt: skip
    return rc


if __name__ == "__main__":
    sys.exit(main())
