"""Screenshots of every wizard step and the result screen, in both languages, for docs/wizard.md and the README.

    python tools/wizard_screenshots.py                    # re-runs itself under xvfb-run when there is no display
    python tools/wizard_screenshots.py --lang zh_CN --scenario 01_fast_launch_no_icp

Each language runs in a fresh process with settings isolated in a temporary ADVISOR_HOME. The answers are
one of the plan scenarios (tests/fixtures/plan_scenarios), entered step by step; the result is the real plan.
Files: docs/screenshots/wizard-<lang>-0-workload.png (the workload panel as first opened),
wizard-<lang>-<n>-<step>.png, wizard-<lang>-result.png (the window) and
wizard-<lang>-result-full.png (the whole result screen, scrolled content included).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.shots import ROOT, open_window, rerun_under_xvfb, run_isolated, save_png  # noqa: E402


def _scroll_to(widget) -> None:
    """Bring ``widget`` into view in the scroll area that holds it."""
    from PySide6.QtWidgets import QScrollArea  # noqa: TID251 - a UI tool

    area = widget.parentWidget()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parentWidget()
    if area is not None:
        area.ensureWidgetVisible(widget, 0, 200)


def _shoot(lang: str, out: Path, scenario: str) -> int:
    from ui.pages.wizard import RESULT_STEP  # noqa: TID251 - a UI tool
    from ui.widgets.wizard_fields import STEP_IDS  # noqa: TID251

    answers = json.loads((ROOT / "tests" / "fixtures" / "plan_scenarios" / f"{scenario}.json").read_text())[
        "answers"
    ]
    app, window = open_window(lang)
    page = window.wizard_page
    window.tabs.setCurrentWidget(page)
    for _ in range(10):
        app.processEvents()
    out.mkdir(parents=True, exist_ok=True)
    # the workload step as a new user first sees it: the Sizing page's figures taken over, each with its source,
    # the plan's assumptions for the rest, and the confirm box (before any answer is typed)
    page.go_to(0)
    save_png(app, window, out / f"wizard-{lang}-0-workload.png")
    page.set_answers(answers, 0)

    def save(widget, name: str) -> None:
        save_png(app, widget, out / name)

    for index, step_id in enumerate(STEP_IDS):
        page.go_to(index)
        save(window, f"wizard-{lang}-{index + 1}-{step_id}.png")
        if step_id == "building":  # the questions below the fold (the people who use it, s18-volume) in view too
            _scroll_to(page.editors["users"])
            save(window, f"wizard-{lang}-{index + 1}-{step_id}-users.png")
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
    rerun = rerun_under_xvfb()
    if rerun is not None:
        return rerun
    rc = 0
    for lang in args.lang:
        rc |= run_isolated([__file__, "--child", lang, "--out", args.out, "--scenario", args.scenario], lang,
                           timeout=300)  # fmt: skip
    return rc


if __name__ == "__main__":
    sys.exit(main())
