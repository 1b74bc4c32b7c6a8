"""How fast the decision wizard answers: step to step, and a what-if change to the updated recommendation.

    QT_QPA_PLATFORM=offscreen python bench/wizard_speed.py [--repeat 20]

Prints, in milliseconds (median and worst of the repeats), and the load average:

- ``step``: Next pressed → the next step's screen is laid out (validation of the step included);
- ``review``: the last question step → the review screen (every answer rendered);
- ``what-if``: a what-if answer changed → the new recommendation is on screen: ``make_plan`` on a worker thread,
  the card, findings, chart, timeline and next steps re-rendered, and the window laid out and painted (the
  events the re-render posted are processed before the clock stops). The user reads each result for a moment
  first, as in the app, so the background pre-planning of the what-if choices has run (``wizard.prewarm_plans``);
- ``what-if cold``: the same with nothing pre-planned or cached (the simulated levels dropped before each change,
  no pre-planning): the worst case, a change made before the pre-planning had time to run;
- ``render``: the result screen re-rendered from a plan already made, laid out and painted (the GUI-thread share);
- ``plan``: ``make_plan`` alone for the same answers, with the simulated levels cached (what a what-if re-plans);
- ``plan cold``: ``make_plan`` with the level cache emptied first (every level simulated again).

Goal (issue #11): step-to-step and a what-if round trip < 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("ADVISOR_HOME", tempfile.mkdtemp(prefix="wizard-bench-"))


def _figures(name: str, samples: list[float]) -> str:
    return f"{name:<13} median {statistics.median(samples):7.1f} ms   worst {max(samples):7.1f} ms   (n={len(samples)})"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--scenario", default="01_fast_launch_no_icp")
    args = parser.parse_args()

    from PySide6.QtCore import QEventLoop  # noqa: TID251 - a UI benchmark
    from PySide6.QtWidgets import QApplication  # noqa: TID251

    from advisor.plan import answers_from_dict, make_plan
    from ui.app import create_window  # noqa: TID251
    from ui.pages.wizard import RESULT_STEP, clean_answers  # noqa: TID251
    from ui.widgets.wizard_fields import STEPS, get_path  # noqa: TID251

    answers = json.loads(
        (ROOT / "tests" / "fixtures" / "plan_scenarios" / f"{args.scenario}.json").read_text()
    )["answers"]
    app = QApplication.instance() or QApplication([sys.argv[0]])
    window = create_window(app, "en")
    window.resize(1360, 860)
    window.show()
    page = window.wizard_page
    window.tabs.setCurrentWidget(page)
    app.processEvents()

    def fill(index: int) -> None:
        for spec in STEPS[index][1]:
            editor = page.editors[spec.path]
            value = get_path(answers, spec.path)
            if spec.kind in ("choice", "bool"):
                editor.editor.setCurrentIndex(0 if value is None else editor.editor.findData(value))
            elif spec.kind == "model":
                editor.editor.setEditText(str(value or ""))
            else:
                editor.editor.setText("" if value is None else str(value))

    steps: list[float] = []
    review: list[float] = []
    for _ in range(args.repeat):
        page.set_answers({}, 0)
        for index in range(len(STEPS)):
            fill(index)
            started = time.perf_counter()
            page.go_next()
            app.processEvents()
            took = (time.perf_counter() - started) * 1000
            (review if index == len(STEPS) - 1 else steps).append(took)
            assert page.step == index + 1, "a step refused its answers"

    # first plan (not timed: caches warm up), then what-if round trips
    done = {"n": 0}
    page.result_shown.connect(lambda: done.__setitem__("n", done["n"] + 1))
    page.go_next()
    while done["n"] < 1:
        app.processEvents()
    assert page.step == RESULT_STEP and page.result is not None, page.plan_error

    from advisor.plan import sizing

    app_wait = QEventLoop  # wait like the app does (a busy processEvents loop would fight the worker for the GIL)

    def settle() -> None:
        """Let the background pre-planning finish, as a user reading the result would."""
        deadline = time.perf_counter() + 10
        while page.runner.running() and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.005)

    def round_trip(field) -> float:
        """Toggle the ICP status (filed ↔ none: Hong Kong ↔ mainland, other GPUs) and wait for it on screen."""
        value = "none" if page.answers.get("icp_status") == "filed" else "filed"
        target = done["n"] + 1
        loop = app_wait()
        page.result_shown.connect(loop.quit)
        started = time.perf_counter()
        field.editor.setCurrentIndex(field.editor.findData(value))
        if done["n"] < target:
            loop.exec()
        page.result_shown.disconnect(loop.quit)
        app.processEvents()  # the layout and paint the new result posted: now it is on screen
        return (time.perf_counter() - started) * 1000

    what_if: list[float] = []
    what_if_cold: list[float] = []
    render: list[float] = []
    plan: list[float] = []
    plan_cold: list[float] = []
    field = page.result_view.what_if_fields["icp_status"]
    results = []
    for _i in range(args.repeat):
        time.sleep(page.result_panel._prewarm_timer.interval() / 1000)
        app.processEvents()  # the pre-planning timer fires
        settle()
        what_if.append(round_trip(field))
        results.append(page.result)
        started = time.perf_counter()
        make_plan(answers_from_dict(clean_answers(page.answers)))
        plan.append((time.perf_counter() - started) * 1000)
        sizing.clear_level_cache()
        started = time.perf_counter()
        make_plan(answers_from_dict(clean_answers(page.answers)))
        plan_cold.append((time.perf_counter() - started) * 1000)
    # cold: nothing pre-planned, nothing cached
    page.result_panel._prewarm_timer.timeout.disconnect()
    settle()
    for _ in range(args.repeat):
        sizing.clear_level_cache()
        what_if_cold.append(round_trip(field))
    # the GUI-thread share: alternate between two different plans (every part of the screen changes)
    for i in range(args.repeat):
        started = time.perf_counter()
        page.result_view.set_result(results[i % 2], compare=True)
        app.processEvents()
        render.append((time.perf_counter() - started) * 1000)

    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"wizard speed, scenario {args.scenario}, {args.repeat} repeats, {os.cpu_count()} CPUs, "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")  # fmt: skip
    for name, samples in (
        ("step", steps),
        ("review", review),
        ("what-if", what_if),
        ("what-if cold", what_if_cold),
        ("render", render),
        ("plan", plan),
        ("plan cold", plan_cold),
    ):
        print(_figures(name, samples))
    print(f"goal < 100 ms: step {'met' if statistics.median(steps) < 100 else 'MISSED'}, "
          f"what-if round trip {'met' if statistics.median(what_if) < 100 else 'MISSED'} "
          f"(cold: {'met' if statistics.median(what_if_cold) < 100 else 'missed'})")  # fmt: skip
    window.set_modified(False)
    window.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
