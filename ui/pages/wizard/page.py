"""The decision wizard's page: the header, the question steps, the review, the result screen and the Back/Next
bar, put together; the answers and the step live here and travel in the project file's ``plan`` section.

The panels are ``StepHeader`` (header.py), ``QuestionStep`` (question_steps.py), ``ReviewPanel``
(review_panel.py) and ``ResultPanel`` (result_panel.py); exporting the memo is ``MemoExportFlow``
(memo_export_flow.py), taking the workload from the Sizing page or a run is ``WorkloadPrefill``
(workload_prefill.py). The page knows no other page: the Sizing page's inputs and the project's file come from
the window's shared ``AppState``; opening the Benchmark page and showing an error are signals the window answers.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QMetaMethod, Signal
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from advisor.i18n import tr
from advisor.plan.draft import clean_answers, get_path, set_path
from ui.pages.wizard.header import StepHeader
from ui.pages.wizard.question_steps import (
    QuestionStep,
    cross_check,
    model_items,
    scrolling,
    show_only_relevant,
)
from ui.pages.wizard.result_panel import ResultPanel
from ui.pages.wizard.review_panel import ReviewPanel
from ui.pages.wizard.workload_prefill import WorkloadPrefill
from ui.widgets.wizard_fields import STEP_IDS, STEPS, FieldEditor
from ui.widgets.wizard_workload import WorkloadPanel
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

RESULT_STEP = len(STEP_IDS)  # index of the result screen (after review)


class WizardPage(WorkloadPrefill):
    answers_changed = Signal()
    result_shown = Signal()  # a plan (first or what-if) is on screen
    benchmark_requested = Signal(dict)  # the pressure test to run (``MainWindow.show_benchmark``'s arguments)

    def __init__(self, runner: TaskRunner, state: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.state = state  # the window's AppState (the Sizing page's inputs, the project's file); None in tests
        self.answers: dict[str, Any] = {}
        self.quotes: list[dict[str, Any]] = []
        self.step = 0
        self.prefilled: dict[str, tuple[str, dict[str, Any]]] = {}  # path → origin (i18n key, parameters)
        self._prefilled_values: dict[str, Any] = {}  # path → the value taken over (an edit makes it the user's)
        self._prefill_done = False

        models = model_items()
        self.header = StepHeader(RESULT_STEP)
        self.header.step_clicked.connect(self.go_to)
        self.title, self.step_names = self.header.title, self.header.step_names
        self.progress, self.step_label = self.header.progress, self.header.step_label
        self.workload = WorkloadPanel()
        self.workload.use_source.connect(self.use_workload_source)
        self.workload.confirmed_changed.connect(lambda _on: self.nav_error.clear())
        self.steps = [QuestionStep(step_id, fields, models, self.workload if step_id == "building" else None)
                      for step_id, fields in STEPS]  # fmt: skip
        self.editors: dict[str, FieldEditor] = {p: e for s in self.steps for p, e in s.editors.items()}
        for editor in self.editors.values():
            editor.changed.connect(self._on_field_changed)
        self.review_panel = ReviewPanel()
        self.review_panel.edit_step.connect(self.go_to)
        self.review = self.review_panel.review
        self.result_panel = ResultPanel(runner, models, draft=lambda: (self.answers, self.quotes),
                                        on_screen=lambda: self.step == RESULT_STEP)  # fmt: skip
        self.result_panel.shown.connect(self._on_result_shown)
        self.result_view, self.result_status = self.result_panel.view, self.result_panel.status
        self.result_view.what_if.connect(self._on_what_if)
        self.result_view.open_benchmark.connect(self.open_benchmark)
        self.result_view.export_memo.connect(self.export_memo)
        self.stack = QStackedWidget()
        for step in self.steps:
            self.stack.addWidget(step)
        self.stack.addWidget(scrolling(self.review_panel))
        self.stack.addWidget(scrolling(self.result_panel))

        self.back = QPushButton()
        self.back.setObjectName("back")
        self.back.clicked.connect(self.go_back)
        self.next = QPushButton()
        self.next.setObjectName("next")
        self.next.setDefault(True)
        self.next.clicked.connect(self.go_next)
        self.nav_error = QLabel()
        self.nav_error.setObjectName("navError")
        self.nav_error.setStyleSheet("color: #d9534f;")
        self.nav_error.setWordWrap(True)
        nav = QHBoxLayout()
        nav.addWidget(self.back)
        nav.addWidget(self.nav_error, 1)
        nav.addWidget(self.next)

        col = QVBoxLayout(self)
        col.addWidget(self.header)
        col.addWidget(self.stack, 1)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        col.addWidget(line)
        col.addLayout(nav)
        self._update_visibility()
        self.retranslate()
        self._show_step()

    # the result screen's figures, read where tests and the window look for them
    @property
    def result(self) -> Any:
        return self.result_panel.result

    @property
    def plan_error(self) -> str | None:
        return self.result_panel.plan_error

    @property
    def last_plan_ms(self) -> float | None:
        return self.result_panel.last_plan_ms

    # -- language and theme ----------------------------------------------------------------------------------
    def retranslate(self) -> None:
        for step in self.steps:
            step.retranslate()
        self.review_panel.retranslate()
        self.workload.retranslate()
        self._refresh_workload()
        self.back.setText(tr("wizard.nav.back"))
        self.result_panel.retranslate()
        self.result_view.set_benchmark_available(self._benchmark_listened())
        self._show_step()

    def apply_theme(self) -> None:
        # the application's palette: the page's own lags behind a live theme switch until its change event arrives,
        # so the cost chart stayed a white box on the dark page until the page was shown again
        self.result_view.set_theme(QApplication.palette().window().color().lightness() < 128)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.apply_theme()
        if not self._prefill_done:
            self.prefill()
        else:  # runs made since the page was last shown are offered too
            self._refresh_workload_sources()

    # -- navigation ------------------------------------------------------------------------------------------
    def step_title(self, index: int) -> str:
        if index >= RESULT_STEP:
            return tr("wizard.step.result.title")
        return tr(f"wizard.step.{STEP_IDS[index]}.title")

    def _show_step(self) -> None:
        index = self.step
        self.stack.setCurrentIndex(index)
        self.header.show_step(index, [self.step_title(i) for i in range(RESULT_STEP + 1)], self.result is not None)
        self.back.setEnabled(index > 0)
        if index == RESULT_STEP - 1:
            self.next.setText(tr("wizard.nav.see_result"))
        elif index == RESULT_STEP:
            self.next.setText(tr("wizard.nav.export"))
        else:
            self.next.setText(tr("wizard.nav.next"))
        if index == RESULT_STEP - 1:
            self.review_panel.fill(self.steps, self.answers, self.prefilled)
        self.nav_error.clear()

    def go_to(self, index: int) -> None:
        index = max(0, min(RESULT_STEP, index))
        if index > self.step and not self.validate_step(self.step):
            return
        self.step = index
        self._show_step()
        if index == RESULT_STEP:
            self.compute_plan(inline=False)
        self.answers_changed.emit()

    def go_next(self) -> None:
        if self.step == RESULT_STEP:
            self.export_memo()
            return
        self.go_to(self.step + 1)

    def go_back(self) -> None:
        if self.step > 0:
            self.step -= 1
            self._show_step()
            self.answers_changed.emit()

    def restart(self) -> None:
        self.answers = {}
        self.step = 0
        self.result_panel.forget()
        self.prefilled = {}
        self._prefilled_values = {}
        self.workload.reset_confirm()
        self._load_editors()
        self._prefill_done = False
        self._show_step()

    # -- answers ---------------------------------------------------------------------------------------------
    def step_fields(self, index: int) -> list[FieldEditor]:
        return list(self.steps[index].editors.values()) if index < len(self.steps) else []

    def validate_step(self, index: int) -> bool:
        """Read this step's fields into the answers; mark every unusable value on its field. True when all ok."""
        bad = []
        for editor in self.step_fields(index):
            if editor.isHidden():
                continue
            value, problem = editor.value()
            if problem:
                editor.show_error(*problem)
                bad.append(editor)
                continue
            set_path(self.answers, editor.spec.path, value)
        self._forget_edited_prefills()
        if not bad:
            bad = self._cross_check(index)
        if not bad and not self._workload_confirmed(index):
            names = sorted({tr(self.prefilled[p][0], **self.prefilled[p][1]) for p in self._unconfirmed_workload()})
            self.nav_error.setText(tr("wizard.workload.confirm_first", sources="; ".join(names)))
            self.steps[index].ensureWidgetVisible(self.workload)
            self._refresh_workload()
            return False
        if bad:
            self.nav_error.setText(tr("wizard.nav.fix_first", n=len(bad)))
            current = self.stack.widget(min(index, self.stack.count() - 1))
            if isinstance(current, QScrollArea):
                current.ensureWidgetVisible(bad[0])
            return False
        self.nav_error.clear()
        return True

    def _cross_check(self, index: int) -> list[FieldEditor]:
        shown = [e for e in self.step_fields(index) if not e.isHidden()]
        return cross_check(self.answers, shown)

    def _on_field_changed(self, path: str) -> None:
        editor = self.editors[path]
        value, problem = editor.value()
        if problem:
            editor.show_error(*problem)
            return
        set_path(self.answers, path, value)
        if path in self.prefilled and value != self._prefilled_values.get(path):
            self.prefilled.pop(path)  # edited: the user's own answer now
            self._prefilled_values.pop(path, None)
            editor.set_origin(None)
        self._update_visibility()
        self._refresh_workload()
        self.answers_changed.emit()

    def _update_visibility(self) -> None:
        show_only_relevant(self.editors, self.answers)

    def _load_editors(self) -> None:
        for path, editor in self.editors.items():
            editor.set_value(get_path(self.answers, path))
            origin = self.prefilled.get(path)
            editor.set_origin(origin[0] if origin else None, origin[1] if origin else None)
        self.result_view.set_what_if_values(self.answers)
        self._update_visibility()
        self._refresh_workload()

    def set_answers(self, answers: dict[str, Any], step: int = 0) -> None:
        """Show these answers (the user's own: nothing marked as pre-filled) on ``step``."""
        self.answers = dict(answers)
        self.prefilled = {}
        self._prefilled_values = {}
        self._prefill_done = True
        self.step = max(0, min(RESULT_STEP, step))
        self.result_panel.forget()
        self._load_editors()
        self._show_step()
        if self.step == RESULT_STEP:
            self.compute_plan(inline=True)

    # -- the result screen -----------------------------------------------------------------------------------
    def compute_plan(self, inline: bool = True, compare: bool = False) -> None:
        """Plan from the current answers: inline (tests, first show) or on a worker (what-if)."""
        self.result_panel.compute(inline=inline, compare=compare)

    def result_is_current(self) -> bool:
        return self.result_panel.is_current()

    def plan_error_text(self) -> str:
        return self.result_panel.error_text()

    def _on_result_shown(self) -> None:
        if self.result is not None:
            self.result_view.set_benchmark_available(self._benchmark_listened())
            self._show_step()
        self.result_shown.emit()

    def _on_what_if(self, path: str, value: Any) -> None:
        if get_path(self.answers, path) == value and self.result_is_current():
            return  # focus left the field without a change: nothing to re-plan
        set_path(self.answers, path, value)
        if path in self.editors:
            self.editors[path].set_value(value)
        self._update_visibility()
        self.answers_changed.emit()
        self.compute_plan(inline=False, compare=True)

    # -- benchmark -------------------------------------------------------------------------------------------
    def _benchmark_listened(self) -> bool:
        """Whether a Benchmark page will answer ``benchmark_requested`` (the window connects it)."""
        return self.isSignalConnected(QMetaMethod.fromSignal(self.benchmark_requested))

    def benchmark_request(self) -> dict[str, Any] | None:
        """What the recommended pressure test needs (the keyword arguments of ``MainWindow.show_benchmark``)."""
        r = self.result
        if r is None or not r.hardware.gpu:
            return None
        slo = self.answers.get("latency_slo") or {}
        return {
            "model": r.hardware.model or self.answers.get("model"),
            "gpu": r.hardware.gpu,
            "weights": r.hardware.weights,
            "gpus": r.hardware.gpus_per_replica or 1,
            "prompt_tokens": (self.answers.get("prompt_tokens") or {}).get("avg"),
            "output_tokens": (self.answers.get("output_tokens") or {}).get("avg"),
            "ttft_p99_ms": slo.get("ttft_p99_ms"),
            "tpot_p99_ms": slo.get("tpot_p99_ms"),
            "shape": "ramp",
        }

    def open_benchmark(self) -> None:
        request = self.benchmark_request()
        if not self._benchmark_listened() or request is None:
            self.message.emit(tr("wizard.result.bench_unavailable"))
            return
        self.benchmark_requested.emit(request)

    # -- project file ----------------------------------------------------------------------------------------
    def plan_section(self) -> Any:
        from advisor.domain.project import PlanSection

        return PlanSection(answers=clean_answers(self.answers), quotes=list(self.quotes), wizard_step=self.step)

    def apply_project(self, project: Any) -> None:
        section = project.plan
        self.prefilled = {}
        self._prefilled_values = {}
        if section is None:
            self.quotes = []
            self.set_answers({}, 0)
            self._prefill_done = False  # a project without wizard answers: take what the Sizing page says
            if self.isVisible():
                self.prefill()
            return
        self.quotes = list(section.quotes)
        self._prefill_done = True  # the user's own answers: nothing to pre-fill over
        self.set_answers(dict(section.answers), section.wizard_step)
