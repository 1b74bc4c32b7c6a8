"""The decision wizard (决策向导): plain questions, one step per screen, then the recommendation.

Steps: what you are building → model and quality → where your users are → compliance → money and people →
review → result. Every question has a "why we ask" line; empty is "unknown" and always valid; a value that
cannot be used is marked on its field, in words, before Next lets you on. Answers are pre-filled from the
Sizing page and from the last measured benchmark run (only where still unknown, and marked so).

The result screen shows ``advisor.plan.make_plan``'s recommendation; what-if answers on it re-plan at once
(through ``TaskRunner`` with a latest-only key, so a fast typist never waits on a stale plan) and highlight
what changed. The memo is written by ``ui.memo_export.write_memo`` (Markdown or PDF, atomically), never
over an existing file without asking.

The page's state (answers and the step) lives in the project file's ``plan`` section.
"""

from __future__ import annotations

import html
import logging
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from advisor.i18n import tr
from ui.memo_export_memory import last_choice, last_folder, remember_choice, remember_folder
from ui.widgets.wizard_common import dialog_title
from ui.widgets.wizard_fields import ALL_FIELDS, STEP_IDS, STEPS, FieldEditor, get_path, set_path
from ui.widgets.wizard_result import WHAT_IF_FIELDS, ResultView
from ui.widgets.wizard_workload import WorkloadPanel
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

RESULT_STEP = len(STEP_IDS)  # index of the result screen (after review)
_BENCH_KEYS = (
    "model",
    "gpu",
    "weights",
    "gpus",
    "prompt_tokens",
    "output_tokens",
    "ttft_p99_ms",
    "tpot_p99_ms",
)


def clean_answers(answers: dict[str, Any]) -> dict[str, Any]:
    """The answers as the public format wants them: parts that cannot stand alone are completed or dropped
    (a currency without an amount says nothing; the overseas share of a mix is the rest of the mainland's)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in answers.items() if v is not None}
    for name in ("monthly_budget", "capex_budget"):
        budget = out.get(name)
        if isinstance(budget, dict) and budget.get("amount") is None:
            out.pop(name)
    mix = out.get("user_mix")
    if isinstance(mix, dict):
        if mix.get("mainland") is None:
            out.pop("user_mix")
        else:
            out["user_mix"] = {
                "mainland": mix["mainland"],
                "overseas": round(1.0 - float(mix["mainland"]), 6),
            }
    fleet = out.get("current_fleet")
    if isinstance(fleet, dict) and (fleet.get("gpu") is None or fleet.get("count") is None):
        out.pop("current_fleet")  # a GPU without a count (or a count without a GPU) says nothing yet
    for key in [k for k, v in out.items() if isinstance(v, dict) and not v]:
        out.pop(key)
    return out


def plan_for(answers: dict[str, Any], quotes: list | None = None) -> Any:
    """Validate and plan (Qt-free work; runs on a worker thread or inline)."""
    from advisor.plan import answers_from_dict, make_plan

    return make_plan(answers_from_dict(clean_answers(answers)), quotes=quotes or None)


PREWARM_DELAY_MS = 400  # after a result is shown: long enough not to compete with its first paint


def what_if_variants(answers: dict[str, Any]) -> list[dict[str, Any]]:
    """The answers as each what-if choice on the result screen would make them (every choice, "unknown"
    included, of the fields with choices; no deadline). The budget is left out: it never changes the sizing."""
    out = []
    for path in WHAT_IF_FIELDS:
        if path.startswith("monthly_budget"):
            continue
        for value in (None, *ALL_FIELDS[path].choices):
            if value != get_path(answers, path):
                variant = {k: (dict(v) if isinstance(v, dict) else v) for k, v in answers.items()}
                set_path(variant, path, value)
                out.append(variant)
    return out


def prewarm_plans(token: Any, variants: list[dict[str, Any]], quotes: list | None) -> int:
    """Plan each variant once so its hardware's simulated levels are cached (``advisor.plan.sizing``): the first
    what-if change to a region or format not seen yet then answers as fast as a repeated one. Returns how many
    were planned; stops within one plan when cancelled (a real what-if is waiting)."""
    done = 0
    for variant in variants:
        token.raise_if_cancelled()
        try:
            plan_for(variant, quotes)
        except Exception:  # noqa: BLE001 - a variant the engine refuses is simply not pre-planned
            continue
        done += 1
    return done


class ExportDialog(QDialog):
    """Format (Markdown / PDF) and language (the UI's or the other)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(dialog_title(tr("wizard.export.title")))
        self.fmt = QButtonGroup(self)
        self.pdf = QRadioButton(tr("wizard.export.pdf"))
        self.md = QRadioButton(tr("wizard.export.md"))
        self.pdf.setChecked(True)
        for i, b in enumerate((self.pdf, self.md)):
            self.fmt.addButton(b, i)
        self.lang = QComboBox()
        current = i18n.current_language()
        for code, label in sorted(i18n.LANGUAGES.items(), key=lambda kv: kv[0] != current):
            self.lang.addItem(label, code)
        # the last export's language and format come back (a zh memo from an English UI need not be re-picked)
        last_format, last_lang = last_choice()
        if last_format == ".md":
            self.md.setChecked(True)
        if last_lang is not None and self.lang.findData(last_lang) >= 0:
            self.lang.setCurrentIndex(self.lang.findData(last_lang))
        form = QFormLayout()
        row = QHBoxLayout()
        row.addWidget(self.pdf)
        row.addWidget(self.md)
        form.addRow(tr("wizard.export.format"), row)
        form.addRow(tr("wizard.export.language"), self.lang)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(buttons)

    def choice(self) -> tuple[str, str]:
        return (".pdf" if self.pdf.isChecked() else ".md"), self.lang.currentData()

    def accept(self) -> None:
        remember_choice(*self.choice())
        super().accept()


class WizardPage(QWidget):
    answers_changed = Signal()
    result_shown = Signal()  # a plan (first or what-if) is on screen
    message = Signal(str)
    memo_written = Signal(str)

    def __init__(self, runner: TaskRunner, window: Any = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.window_ = window  # the MainWindow (Sizing page, Benchmark page); may be None in tests
        self.answers: dict[str, Any] = {}
        self.quotes: list[dict[str, Any]] = []
        self.step = 0
        self.result: Any = None
        self.plan_error: str | None = None
        self._plan_exc: Any = None  # the AnswersError behind plan_error, to say it again after a language switch
        self.last_plan_ms: float | None = None
        self.prefilled: dict[str, str] = {}  # path → origin key
        self._prefilled_values: dict[str, Any] = {}  # path → the value taken over (an edit makes it the user's)
        self._result_answers: dict[str, Any] | None = None
        self._prefill_done = False
        self._prewarm_handle: Any = None
        self._prewarm_timer = QTimer(self)
        self._prewarm_timer.setSingleShot(True)
        self._prewarm_timer.setInterval(PREWARM_DELAY_MS)
        self._prewarm_timer.timeout.connect(self._prewarm)

        models = self._model_items()
        self.title = QLabel()
        self.title.setObjectName("wizardTitle")
        self.title.setStyleSheet("font-size: 15pt; font-weight: 600;")
        self.progress = QProgressBar()
        self.progress.setObjectName("wizardProgress")
        self.progress.setRange(0, RESULT_STEP)
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(8)
        self.step_label = QLabel()
        self.step_label.setObjectName("stepLabel")
        self.step_names = QLabel()
        self.step_names.setObjectName("stepNames")
        self.step_names.setWordWrap(True)
        self.step_names.setTextFormat(Qt.TextFormat.RichText)
        self.step_names.linkActivated.connect(lambda link: self.go_to(int(link)))

        self.stack = QStackedWidget()
        self.editors: dict[str, FieldEditor] = {}
        self.step_intros: list[QLabel] = []
        self.workload = WorkloadPanel()
        self.workload.use_source.connect(self.use_workload_source)
        self.workload.confirmed_changed.connect(lambda _on: self.nav_error.clear())
        for step_id, fields in STEPS:
            self.stack.addWidget(self._make_step(fields, models, self.workload if step_id == "building" else None))
        self.review = QLabel()
        self.review.setObjectName("review")
        self.review.setWordWrap(True)
        self.review.setTextFormat(Qt.TextFormat.RichText)
        self.review.linkActivated.connect(lambda link: self.go_to(int(link)))
        self.review_intro = QLabel()
        self.review_intro.setWordWrap(True)
        review_page = QWidget()
        rl = QVBoxLayout(review_page)
        rl.addWidget(self.review_intro)
        rl.addWidget(self.review)
        rl.addStretch(1)
        self.stack.addWidget(self._scroll(review_page))
        self.result_view = ResultView(models)
        self.result_view.what_if.connect(self._on_what_if)
        self.result_view.open_benchmark.connect(self.open_benchmark)
        self.result_view.export_memo.connect(self.export_memo)
        self.result_status = QLabel()
        self.result_status.setObjectName("resultStatus")
        self.result_status.setWordWrap(True)
        result_page = QWidget()
        rpl = QVBoxLayout(result_page)
        rpl.addWidget(self.result_status)
        rpl.addWidget(self.result_view)
        self.stack.addWidget(self._scroll(result_page))

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
        col.addWidget(self.title)
        col.addWidget(self.step_names)
        col.addWidget(self.progress)
        col.addWidget(self.step_label)
        col.addWidget(self.stack, 1)
        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        col.addWidget(line)
        col.addLayout(nav)
        self._update_visibility()
        self.retranslate()
        self._show_step()

    # -- construction ----------------------------------------------------------------------------------------
    @staticmethod
    def _model_items() -> list[tuple[str, str]]:
        try:
            from advisor.catalog import load_models

            return [(m.id, m.name) for m in load_models()]
        except Exception:  # a broken catalog: the model question still takes a typed id or a config.json path
            _log.exception("model presets unavailable for the wizard")
            return []

    @staticmethod
    def _scroll(widget: QWidget) -> QScrollArea:
        area = QScrollArea()
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        area.setWidget(widget)
        return area

    def _make_step(self, fields: tuple, models: list[tuple[str, str]], top: QWidget | None = None) -> QScrollArea:
        page = QWidget()
        col = QVBoxLayout(page)
        intro = QLabel()
        intro.setWordWrap(True)
        intro.setObjectName("stepIntro")
        col.addWidget(intro)
        self.step_intros.append(intro)
        if top is not None:
            col.addWidget(top)
        for spec in fields:
            editor = FieldEditor(spec, models)
            editor.changed.connect(self._on_field_changed)
            col.addWidget(editor)
            self.editors[spec.path] = editor
        col.addStretch(1)
        page.setMaximumWidth(900)
        holder = QWidget()
        hl = QHBoxLayout(holder)
        hl.addWidget(page, 1)
        hl.addStretch(0)
        return self._scroll(holder)

    # -- language and theme ----------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(tr("wizard.title"))
        for i, (step_id, _f) in enumerate(STEPS):
            self.step_intros[i].setText(tr(f"wizard.step.{step_id}.intro"))
        self.review_intro.setText(tr("wizard.step.review.intro"))
        for editor in self.editors.values():
            editor.retranslate()
        self.workload.retranslate()
        self._refresh_workload()
        self.back.setText(tr("wizard.nav.back"))
        self.result_view.retranslate()
        self.result_view.set_benchmark_available(self._benchmark_target() is not None)
        if self.plan_error:
            self.result_status.setText(self._plan_error_text())
        self._show_step()

    def apply_theme(self) -> None:
        self.result_view.set_theme(self.palette().window().color().lightness() < 128)

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
        self.progress.setValue(min(index, RESULT_STEP))
        total = RESULT_STEP
        if index < RESULT_STEP:
            self.step_label.setText(
                tr("wizard.progress", n=index + 1, total=total, title=self.step_title(index))
            )
        else:
            self.step_label.setText(self.step_title(index))
        names = []
        for i in range(RESULT_STEP + 1):
            name = self.step_title(i)
            if i == index:
                names.append(f"<b>{name}</b>")
            elif i < RESULT_STEP and (i < index or self.result is not None):
                names.append(f'<a href="{i}">{name}</a>')
            else:
                names.append(f"<span style='color:gray'>{name}</span>")
        self.step_names.setText(" › ".join(names))
        self.back.setEnabled(index > 0)
        if index == RESULT_STEP - 1:
            self.next.setText(tr("wizard.nav.see_result"))
        elif index == RESULT_STEP:
            self.next.setText(tr("wizard.nav.export"))
        else:
            self.next.setText(tr("wizard.nav.next"))
        if index == RESULT_STEP - 1:
            self._fill_review()
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
        self.result = None
        self.prefilled = {}
        self._prefilled_values = {}
        self.workload.reset_confirm()
        self._load_editors()
        self._prefill_done = False
        self._show_step()

    # -- answers ---------------------------------------------------------------------------------------------
    def step_fields(self, index: int) -> list[FieldEditor]:
        if index >= len(STEPS):
            return []
        return [self.editors[spec.path] for spec in STEPS[index][1]]

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
            current = self.stack.widget(index)
            if isinstance(current, QScrollArea):
                current.ensureWidgetVisible(self.workload)
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
        """The engine's own checks that span fields (p95 below the average, …), shown on the field they name."""
        from advisor.plan import AnswersError, answers_from_dict

        try:
            answers_from_dict(clean_answers(self.answers))
        except AnswersError as exc:
            step_paths = [e.spec.path for e in self.step_fields(index) if not e.isHidden()]
            bad = []
            for problem in exc.issues:
                where = problem.field
                matching = [
                    p
                    for p in step_paths
                    if where == p or where.startswith(p + ".") or p.split(".")[0] == where
                ]
                if not matching:
                    continue
                # a check over a whole part (p95 below the average) belongs on the field that breaks it
                target = next((p for p in matching if p == where), None) or next(
                    (p for p in matching if p.endswith((".p95", ".high"))), matching[-1]
                )
                editor = self.editors[target]
                key = _CROSS_MESSAGES.get(where.split(".")[0])
                if key:
                    editor.show_error(key)
                else:
                    editor.show_problem(problem)  # the engine's words, in the UI language
                bad.append(editor)
            return bad
        return []

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
        for editor in self.editors.values():
            only = editor.spec.only_for
            visible = all(get_path(self.answers, p) in values for p, values in only.items()) if only else True
            editor.setVisible(visible)

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
        self.result = None
        self._load_editors()
        self._show_step()
        if self.step == RESULT_STEP:
            self.compute_plan(inline=True)

    def _fill_review(self) -> None:
        rows = []
        for i, (step_id, fields) in enumerate(STEPS):
            rows.append(f"<tr><td colspan='2'><br><b>{tr(f'wizard.step.{step_id}.title')}</b> "
                        f"<a href='{i}'>{tr('wizard.review.edit')}</a></td></tr>")  # fmt: skip
            for spec in fields:
                editor = self.editors[spec.path]
                if editor.isHidden():
                    continue
                value = get_path(self.answers, spec.path)
                text = html.escape(editor.value_text(value))
                origin = self.prefilled.get(spec.path)
                if origin and value is not None:  # a figure taken over says from where, here too
                    text += f" <span style='color:#2e86c1'>({html.escape(tr(origin[0], **origin[1]))})</span>"
                style = " style='color:gray'" if value is None else ""
                rows.append(f"<tr><td>{editor.label.text()}</td><td{style}>&nbsp;&nbsp;{text}</td></tr>")
        self.review.setText(f"<table>{''.join(rows)}</table><p>{tr('wizard.review.unknown_note')}</p>")

    # -- pre-fill --------------------------------------------------------------------------------------------
    def prefill(self) -> None:
        """Unknown answers taken from the open project's Sizing page (marked so, and to be confirmed). Benchmark
        runs are offered on the workload panel, never taken over silently (another page's placeholders are not
        the user's workload)."""
        self._prefill_done = True
        found: dict[str, tuple[Any, tuple[str, dict[str, Any]]]] = {}
        request = self._sizing_request()
        if request is not None:
            origin = ("wizard.origin.sizing", {})
            model_id = getattr(request.model, "id", None)
            if model_id:
                found["model"] = (model_id, origin)
            from advisor.plan.workload import sizing_source

            source = sizing_source(request)
            for path, value in (source.values if source else {}).items():
                found[path] = (value, origin)
        changed = False
        for path, (value, origin) in found.items():
            if get_path(self.answers, path) is None and path in self.editors:
                set_path(self.answers, path, value)
                self.prefilled[path] = origin
                self._prefilled_values[path] = value
                changed = True
        if changed:
            self.workload.reset_confirm()
            self._load_editors()
        self._refresh_workload_sources()

    def _sizing_request(self) -> Any:
        sizing = getattr(self.window_, "sizing_page", None)
        inputs = getattr(sizing, "inputs", None)
        try:
            return inputs.request() if inputs is not None else None
        except Exception:  # invalid inputs on the Sizing page: nothing to take
            return None

    # -- workload --------------------------------------------------------------------------------------------
    def _refresh_workload_sources(self) -> None:
        """Offer the Sizing page and the real-server runs of the benchmark database as workload sources."""
        from advisor.plan.workload import run_sources, sizing_source

        sources = []
        sizing = sizing_source(self._sizing_request())
        if sizing is not None:
            sources.append(sizing)
        try:
            sources += run_sources()
        except Exception:  # a damaged or locked database: the runs are a convenience, never a failure
            _log.info("benchmark runs unavailable for the workload", exc_info=True)
        self.workload.set_sources(sources)

    def use_workload_source(self, source: Any) -> None:
        """Take ``source``'s figures (replacing the workload answers it has), marked with where they come from;
        the user confirms them before Next."""
        origin = (source.origin_key, dict(source.origin_params))
        for path, value in source.values.items():
            if path not in self.editors:
                continue
            set_path(self.answers, path, value)
            self.prefilled[path] = origin
            self._prefilled_values[path] = value
        self.workload.reset_confirm()
        self._load_editors()
        self.answers_changed.emit()

    def _forget_edited_prefills(self) -> None:
        """A pre-filled answer the user changed is the user's own: no origin, nothing to confirm."""
        for path in list(self.prefilled):
            if get_path(self.answers, path) != self._prefilled_values.get(path):
                self.prefilled.pop(path)
                self._prefilled_values.pop(path, None)
                if path in self.editors:
                    self.editors[path].set_origin(None)

    def _unconfirmed_workload(self) -> list[str]:
        from advisor.plan.workload import WORKLOAD_PATHS

        if self.workload.confirmed:
            return []
        return [p for p in WORKLOAD_PATHS if p in self.prefilled]

    def _workload_confirmed(self, index: int) -> bool:
        return index != 0 or not self._unconfirmed_workload()

    def _refresh_workload(self) -> None:
        from advisor.plan.workload import WORKLOAD_PATHS, workload_figures

        if not hasattr(self, "workload"):
            return
        origins = {p: o for p, o in self.prefilled.items() if p in WORKLOAD_PATHS}
        self.workload.set_figures(workload_figures(clean_answers(self.answers), origins))
        self.workload.needs_confirm(bool(origins))

    # -- planning --------------------------------------------------------------------------------------------
    def compute_plan(self, inline: bool = True, compare: bool = False) -> None:
        """Plan from the current answers: inline (tests, first show) or on a worker (what-if)."""
        started = time.perf_counter()
        snapshot = clean_answers(self.answers)
        if inline:
            try:
                result = plan_for(snapshot, self.quotes)
            except Exception as exc:  # noqa: BLE001 - shown in words, never a traceback
                self._on_plan_error(exc)
                return
            self._on_plan(result, started, compare, snapshot)
            return
        self._stop_prewarm()  # the plan the user waits for gets the CPU
        self.runner.submit(lambda _token, a, q: plan_for(a, q), snapshot, list(self.quotes),
                           on_result=lambda r: self._on_plan(r, started, compare, snapshot),
                           on_error=self._on_plan_error, key="wizard-plan")  # fmt: skip

    def _stop_prewarm(self) -> None:
        self._prewarm_timer.stop()
        if self._prewarm_handle is not None:
            self._prewarm_handle.cancel()
            self._prewarm_handle = None

    def _prewarm(self) -> None:
        """Plan the what-if choices in the background (see ``prewarm_plans``) while the user reads the result."""
        if self.step != RESULT_STEP or not self.result_is_current():
            return
        try:
            self._prewarm_handle = self.runner.submit(prewarm_plans, what_if_variants(clean_answers(self.answers)),
                                                      list(self.quotes), key="wizard-prewarm")  # fmt: skip
        except RuntimeError:  # the runner is shut down (the window is closing)
            self._prewarm_handle = None

    def result_is_current(self) -> bool:
        """The recommendation shown was made from the answers as they are now."""
        return self.result is not None and self._result_answers == clean_answers(self.answers)

    def _on_plan(
        self, result: Any, started: float, compare: bool, snapshot: dict[str, Any] | None = None
    ) -> None:
        self.plan_error = None
        self._plan_exc = None
        self.result = result
        self._result_answers = snapshot
        self.result_view.set_result(result, compare=compare)
        self.result_view.set_what_if_values(self.answers)
        self.result_view.set_benchmark_available(self._benchmark_target() is not None)
        self.result_status.setText("")
        self.result_status.hide()
        self.result_view.show()
        self.last_plan_ms = (time.perf_counter() - started) * 1000
        self._show_step()
        self._prewarm_timer.start()
        self.result_shown.emit()

    def _on_plan_error(self, exc: BaseException) -> None:
        from advisor.plan import AnswersError

        self._plan_exc = exc if isinstance(exc, AnswersError) else None
        if isinstance(exc, AnswersError):
            self.plan_error = "\n".join(exc.lines_in(i18n.current_language()))
        else:
            _log.error("planning failed: %s", getattr(exc, "__traceback_text__", exc))
            self.plan_error = str(exc) or type(exc).__name__
        self.result_status.setText(self._plan_error_text())
        self.result_status.setStyleSheet("color: #d9534f;")
        self.result_status.show()
        self.result = None  # never show a recommendation for answers it was not made from
        self.result_view.hide()
        self.result_shown.emit()

    def _plan_error_text(self) -> str:
        if self._plan_exc is not None:  # field-level problems: said again in the language shown now
            self.plan_error = "\n".join(self._plan_exc.lines_in(i18n.current_language()))
        return tr("wizard.result.failed", reason=self.plan_error or "")

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
    def _benchmark_target(self) -> Any:
        show = getattr(self.window_, "show_benchmark", None)
        return show if callable(show) else None

    def benchmark_request(self) -> dict[str, Any] | None:
        """What the recommended pressure test needs (the keyword arguments of ``MainWindow.show_benchmark``)."""
        r = self.result
        if r is None or not r.hardware.gpu:
            return None
        slo = self.answers.get("latency_slo") or {}
        prompt = (self.answers.get("prompt_tokens") or {}).get("avg")
        output = (self.answers.get("output_tokens") or {}).get("avg")
        return {
            "model": r.hardware.model or self.answers.get("model"),
            "gpu": r.hardware.gpu,
            "weights": r.hardware.weights,
            "gpus": r.hardware.gpus_per_replica or 1,
            "prompt_tokens": prompt,
            "output_tokens": output,
            "ttft_p99_ms": slo.get("ttft_p99_ms"),
            "tpot_p99_ms": slo.get("tpot_p99_ms"),
            "shape": "ramp",
        }

    def open_benchmark(self) -> None:
        show = self._benchmark_target()
        request = self.benchmark_request()
        if show is None or request is None:
            self.message.emit(tr("wizard.result.bench_unavailable"))
            return
        show(**request)

    # -- export ----------------------------------------------------------------------------------------------
    def ask_export(self) -> tuple[str, str] | None:
        """Seam for tests: (suffix, language) or None when cancelled."""
        dialog = ExportDialog(self)
        if not dialog.exec():
            return None
        return dialog.choice()

    def ask_memo_path(self, suffix: str, lang: str) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        project = getattr(self.window_, "project_path", None)
        folder = last_folder() or (Path(project).parent if project else Path.home())
        name = f"{tr('wizard.export.default_name')}-{lang}{suffix}"
        filters = tr("wizard.export.filter_pdf") if suffix == ".pdf" else tr("wizard.export.filter_md")
        path, _ = QFileDialog.getSaveFileName(
            self, dialog_title(tr("wizard.export.title")), str(folder / name), filters,
            options=QFileDialog.Option.DontConfirmOverwrite,
        )  # fmt: skip
        if path and not path.lower().endswith(suffix):
            path += suffix
        return path

    def confirm_overwrite(self, path: Path) -> bool:
        """Seam for tests: the file exists — replace it?"""
        answer = QMessageBox.question(
            self, dialog_title(tr("wizard.export.title")), tr("wizard.export.exists", path=str(path)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No,
        )  # fmt: skip
        return answer == QMessageBox.StandardButton.Yes

    def show_error(self, title: str, text: str) -> None:
        """Seam for tests."""
        owner = self.window_ if hasattr(self.window_, "show_error") else None
        if owner is not None:
            owner.show_error(title, text)
        else:
            QMessageBox.warning(self, title, text)

    def reveal(self, path: Path) -> None:
        """Open the memo (or its folder) with the desktop's own application. Seam for tests."""
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))):
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))

    def export_memo(self) -> Path | None:
        """The memo of the answers as they are now (re-planned first when they changed since the last plan)."""
        if self.step < len(STEPS) and not self.validate_step(self.step):
            return None
        if not self.result_is_current():
            self.compute_plan(inline=True)
            if self.result is None:
                self.show_error(dialog_title(tr("wizard.export.title")), self._plan_error_text())
                return None
        choice = self.ask_export()
        if not choice:
            return None
        suffix, lang = choice
        path = self.ask_memo_path(suffix, lang)
        if not path:
            return None
        return self.write_memo_to(Path(path), lang)

    def write_memo_to(self, path: Path, lang: str) -> Path | None:
        from advisor.plan.memo import MemoError
        from ui.memo_export import write_memo

        if self.result is None:
            self.show_error(dialog_title(tr("wizard.export.title")), tr("wizard.export.no_plan"))
            return None
        if path.exists():
            if not self.confirm_overwrite(path):
                return None
        project = getattr(self.window_, "project_path", None)
        evidence = measured_evidence(self.result, project_path=project)
        try:
            write_memo(self.result, path, lang, evidence=evidence, overwrite=True)
        except (MemoError, OSError, ValueError) as exc:
            self.show_error(
                dialog_title(tr("wizard.export.title")),
                tr("wizard.export.failed", path=str(path), error=str(exc)),
            )
            return None
        remember_folder(path.parent)
        self.message.emit(tr("wizard.export.done", path=str(path)))
        self.memo_written.emit(str(path))
        self.reveal(path)
        return path

    # -- project file ----------------------------------------------------------------------------------------
    def plan_section(self) -> Any:
        from advisor.domain.project import PlanSection

        return PlanSection(
            answers=clean_answers(self.answers), quotes=list(self.quotes), wizard_step=self.step
        )

    def apply_project(self, project: Any) -> None:
        section = getattr(project, "plan", None)
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


_CROSS_MESSAGES = {
    "prompt_tokens": "wizard.error.p95_below_avg",
    "output_tokens": "wizard.error.p95_below_avg",
    "requests_per_day": "wizard.error.low_high_plain",
    "user_mix": "wizard.error.mix",
    "model": "wizard.error.model_unknown_plain",
    "gpu_constraint": "wizard.error.gpu_unknown",
    "overseas_markets": "wizard.error.markets",
}


# -- measured benchmark runs ---------------------------------------------------------------------------------
def measured_evidence(result: Any, project_path: Any = None) -> list[Any]:
    """The benchmark runs of the plan's model (``result``: a PlanResult, or the answers as a dict), for the memo's evidence section (empty when none): the open
    project's own runs (``project_path``: its saved file) when it has any of that model, else the latest of any
    (runs of an unsaved project, of a terminal, or from before runs were linked to projects). The memo itself
    sorts them (``advisor.plan.evidence.plan_evidence``): only a real server's run on the plan's GPU is measured
    evidence; simulated, interrupted, failed and other-GPU runs are shown apart, with why."""
    try:
        from advisor.bench.history import project_key
        from advisor.bench.store import BenchStore, default_path
        from advisor.plan.evidence import evidence_from_runs, same_model

        if result is None or not default_path().is_file():
            return []
        if isinstance(result, dict):  # the answers alone (no plan yet): their model and TTFT target
            names, slo = [str(result.get("model") or "")], (result.get("latency_slo") or {}).get("ttft_p99_ms")
        else:
            hw = result.hardware
            names = [str(n) for n in (hw.model, hw.model_name, (result.answers or {}).get("model")) if n]
            slo = result.latency_curve.slo_ttft_p99_ms
        store = BenchStore(default_path(), read_only=True)  # a reader: writes nothing
        try:
            runs = [r for r in store.runs()[:50] if r.get("status") != "running" and same_model(str(r.get("model") or ""), names)]
        finally:
            store.close()
        key = project_key(project_path) if project_path else None
        mine = ([r for r in runs if key and r.get("project_id") == key] or runs)[:6]
        if not mine:
            return []
        return evidence_from_runs(None, [r["run_id"] for r in mine], slo_ttft_ms=slo)
    except Exception:  # evidence is optional: a memo without it is still a memo
        _log.info("benchmark evidence unavailable", exc_info=True)
        return []


__all__ = ["ALL_FIELDS", "RESULT_STEP", "WizardPage", "clean_answers", "plan_for"]
