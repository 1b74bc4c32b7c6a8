"""Screenshots of the sizing page in both languages, for the README.

    python tools/screenshot.py                 # re-runs itself under xvfb-run when there is no display
    python tools/screenshot.py --out docs/screenshots --lang en zh_CN
    python tools/screenshot.py --page ab-task  # the A/B page's EvalScope task with a local dataset (needs [eval])
    python tools/screenshot.py --page ab-task-options  # ... with a subset and a prompt template (needs [eval])

Each language runs in a fresh process (fonts and translations exactly as a user would get them), with
settings isolated in a temporary ADVISOR_HOME. The window is grabbed once the estimate and the catalog
table are shown.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.shots import ROOT, open_window, rerun_under_xvfb, run_isolated, save_png  # noqa: E402


def _shoot(lang: str, out: Path, model: str, gpu: str, context: int, concurrency: int, tab: int, prefix: int = 0,
           advanced: bool = False, weights: str | None = None, engine: str = "vllm") -> None:
    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool

    app, window = open_window(lang)
    page = window.sizing_page
    page.model_picker.select_data(model)
    page.gpu_picker.select_data(gpu)
    if weights:
        page.weights.setCurrentIndex(page.weights.findData(weights))
    page.engine_profile.setCurrentIndex(page.engine_profile.findData(engine))  # SGLang: its memory fraction field
    page.context_spin.setValue(context)
    page.concurrency_spin.setValue(concurrency)
    page.prefix_spin.setValue(prefix)
    page.results_tabs.setCurrentIndex(tab)
    page.advanced_toggle.setChecked(advanced)  # the engine settings (batch defaults read "engine default (N)")
    if advanced:
        from PySide6.QtWidgets import QScrollArea  # noqa: TID251 - a UI tool

        widget = page.advanced_box.parentWidget()
        while widget is not None and not isinstance(widget, QScrollArea):
            widget = widget.parentWidget()
        if widget is not None:  # the inputs column scrolls: bring the opened settings into view
            QTimer.singleShot(300, lambda: widget.ensureWidgetVisible(page.advanced_box))
    state = {"saved": False}

    def save() -> None:
        if state["saved"]:
            return
        state["saved"] = True
        save_png(app, window, out, settle=1)
        window.set_modified(False)  # the inputs above were set by this script, not by a user
        window.close()
        app.quit()

    pending = {"catalog", "curve"}  # the simulator ships with the package: the curve always comes (#27)

    def arrived(what: str) -> None:
        pending.discard(what)
        if not pending:
            QTimer.singleShot(400, save)

    page.catalog_shown.connect(lambda: arrived("catalog"))
    page.curve_shown.connect(lambda: arrived("curve"))
    QTimer.singleShot(15000, save)  # never hang: save whatever is there
    app.exec()


def _shoot_ab_task(lang: str, out: Path, options: bool = False) -> None:
    """The Quantization A/B page with an EvalScope task and its local dataset field: a folder without the task's
    subset file, so the field's message (what the task expects) is in the picture too."""
    import tempfile

    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool

    app, window = open_window(lang)
    page = window.ab_page
    window.tabs.setCurrentWidget(page)
    opts = page.quality_options
    if not opts.has_evalscope:
        print("the [eval] extra is not installed: the page shows what installing it adds instead of the field",
              file=sys.stderr)
    folder = Path(tempfile.mkdtemp(prefix="advisor-shot-")) / "general_qa"
    folder.mkdir()
    (folder / "questions.jsonl").write_text('{"query": "2+2?", "response": "4"}\n', encoding="utf-8")
    opts.task.setText("general_qa")
    opts.task_limit.setValue(200)
    opts.dataset.edit.setText(str(folder))
    if options:  # the task's subset (the local file's name) and a prompt template of its own
        opts.subset.setText("questions")
        opts.template.setText("Answer briefly. {query}")

    def save() -> None:
        window.statusBar().clearMessage()
        save_png(app, window, out, settle=5)
        window.set_modified(False)  # the inputs above were set by this script, not by a user
        window.close()
        app.quit()

    QTimer.singleShot(1500, save)
    app.exec()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--model", default="qwen2.5-7b-instruct")
    parser.add_argument("--gpu", default="rtx-4090")
    parser.add_argument("--context", type=int, default=16384)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--weights", default="", help="weight format id (default: the model's own)")
    parser.add_argument("--prefix", type=int, default=0, help="shared prefix tokens (a system prompt)")
    parser.add_argument("--tab", type=int, default=0, help="results tab: 0 overview, 1 all GPUs, 2 latency curve")
    parser.add_argument("--suffix", default="", help="appended to the file name (e.g. -catalog)")
    parser.add_argument("--theme", choices=["light", "dark"], default="light")
    parser.add_argument("--advanced", action="store_true", help="open the Advanced engine settings")
    parser.add_argument("--engine", default="vllm", choices=["vllm", "sglang", "trtllm", "llama.cpp"],
                        help="serving engine picked on the page")
    parser.add_argument("--page", choices=["sizing", "ab-task", "ab-task-options"], default="sizing",
                        help="ab-task: the A/B page's EvalScope task with a local dataset (ab-task-dataset-<lang>.png); "
                        "ab-task-options: with a subset and a prompt template (ab-task-options-<lang>.png)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child and args.page == "ab-task":
        _shoot_ab_task(args.child, Path(args.out) / f"ab-task-dataset-{args.child}.png")
        return 0
    if args.child and args.page == "ab-task-options":
        _shoot_ab_task(args.child, Path(args.out) / f"ab-task-options-{args.child}.png", options=True)
        return 0
    if args.child:
        _shoot(args.child, Path(args.out) / f"sizing-{args.child}{args.suffix}.png", args.model, args.gpu, args.context,
               args.concurrency, args.tab, args.prefix, args.advanced, args.weights or None, args.engine)  # fmt: skip
        return 0

    rerun = rerun_under_xvfb()
    if rerun is not None:
        return rerun
    rc = 0
    for lang in args.lang:
        rc |= run_isolated([__file__, "--child", lang, "--out", args.out, "--model", args.model, "--gpu", args.gpu,
                            "--context", str(args.context), "--concurrency", str(args.concurrency), "--tab", str(args.tab),
                            "--prefix", str(args.prefix), f"--suffix={args.suffix}", f"--weights={args.weights}", "--page", args.page, "--engine", args.engine] + (["--advanced"] if args.advanced else []),
                           lang, args.theme, timeout=120)  # fmt: skip
    return rc


if __name__ == "__main__":
    sys.exit(main())
