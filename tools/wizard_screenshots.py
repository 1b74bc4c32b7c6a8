"""Screenshots of every wizard step and the result screen, in both languages, for docs/wizard.md and the README.

    python tools/wizard_screenshots.py                    # re-runs itself under xvfb-run when there is no display
    python tools/wizard_screenshots.py --lang zh_CN --scenario 01_fast_launch_no_icp

Each language runs in a fresh process with settings isolated in a temporary ADVISOR_HOME. The answers are
one of the plan scenarios (tests/fixtures/plan_scenarios), entered step by step; the result is the real plan.
Files: docs/screenshots/wizard-<lang>-<n>-<step>.png, wizard-<lang>-result.png (the window) and
wizard-<lang>-result-full.png (the whole result screen, scrolled content included).
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

ROOT = Path(__file__).resolve().parents[1]
SCREEN = "1400x900x24"


def _shoot(lang: str, out: Path, scenario: str) -> int:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtWidgets import QApplication  # noqa: TID251 - a UI tool

    from ui.app import create_window  # noqa: TID251
    from ui.pages.wizard import RESULT_STEP  # noqa: TID251
    from ui.widgets.wizard_fields import STEP_IDS  # noqa: TID251

    answers = json.loads((ROOT / "tests" / "fixtures" / "plan_scenarios" / f"{scenario}.json").read_text())[
        "answers"
    ]
    app = QApplication([sys.argv[0]])
    window = create_window(app, lang)
    window.resize(1360, 860)
    window.move(20, 20)
    window.show()
    page = window.wizard_page
    window.tabs.setCurrentWidget(page)
    for _ in range(10):
        app.processEvents()
    page.set_answers(answers, 0)
    out.mkdir(parents=True, exist_ok=True)

    def save(widget, name: str) -> None:
        for _ in range(10):
            app.processEvents()
        path = out / name
        pixmap = widget.grab()
        if not pixmap.save(str(path)):
            print(f"could not write {path}", file=sys.stderr)
        print(f"{path} ({pixmap.width()}×{pixmap.height()})")

    for index, step_id in enumerate(STEP_IDS):
        page.go_to(index)
        save(window, f"wizard-{lang}-{index + 1}-{step_id}.png")
    done = {"shown": False}
    page.result_shown.connect(lambda: done.__setitem__("shown", True))
    page.go_to(RESULT_STEP)
    while not done["shown"]:
        app.processEvents()
    save(window, f"wizard-{lang}-result.png")
    # a what-if: the ICP filing is done → the plan moves, the changed lines are highlighted
    icp = page.result_view.what_if_fields["icp_status"]
    done["shown"] = False
    icp.editor.setCurrentIndex(icp.editor.findData("filed"))
    while not done["shown"]:
        app.processEvents()
    save(window, f"wizard-{lang}-what-if.png")
    icp.editor.setCurrentIndex(icp.editor.findData(answers.get("icp_status")))
    done["shown"] = False
    while not done["shown"]:
        app.processEvents()
    page.result_view.previous_result = None
    page.result_view.set_result(page.result)
    # the full result screen, every finding of the first group opened
    for item in page.result_view.finding_items[:2]:
        item.set_expanded(True)
    view = page.result_view
    view.resize(1100, view.sizeHint().height())
    save(view, f"wizard-{lang}-result-full.png")
    # the memo as exported from the result screen, first page of the PDF rendered to PNG (poppler's pdftoppm)
    if shutil.which("pdftoppm"):
        with tempfile.TemporaryDirectory() as tmp:
            page.reveal = lambda path: None  # do not open a viewer
            pdf = page.write_memo_to(Path(tmp) / "memo.pdf", lang)
            if pdf is not None:
                stem = out / f"wizard-memo-{lang}-page1"
                subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", str(pdf), str(stem)],
                               check=False)  # fmt: skip
                print(f"{stem}.png")
    window.set_modified(False)
    window.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    parser.add_argument("--lang", nargs="+", default=["en", "zh_CN"])
    parser.add_argument("--scenario", default="01_fast_launch_no_icp")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return _shoot(args.child, Path(args.out), args.scenario)
    prefix: list[str] = []
    if not os.environ.get("DISPLAY") and os.environ.get("QT_QPA_PLATFORM", "") != "offscreen":
        if not shutil.which("xvfb-run"):
            print(
                "no display and no xvfb-run: install xvfb or set QT_QPA_PLATFORM=offscreen", file=sys.stderr
            )
            return 2
        prefix = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}"]
    rc = 0
    for lang in args.lang:
        with tempfile.TemporaryDirectory() as home:
            settings = Path(home) / "config" / "settings.json"
            settings.parent.mkdir(parents=True)
            settings.write_text(
                json.dumps({"schema_version": 2, "language": lang, "theme": "light"}), encoding="utf-8"
            )
            env = dict(os.environ, ADVISOR_HOME=home, LANG=f"{lang}.UTF-8" if lang != "en" else "en_US.UTF-8")
            if prefix:
                env.pop("QT_QPA_PLATFORM", None)
            cmd = [
                *prefix,
                sys.executable,
                __file__,
                "--child",
                lang,
                "--out",
                args.out,
                "--scenario",
                args.scenario,
            ]
            rc |= subprocess.run(cmd, env=env, timeout=300).returncode
    return rc


if __name__ == "__main__":
    sys.exit(main())
