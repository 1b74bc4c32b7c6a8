"""The Quantization A/B page: a baseline (A) and a candidate (B), the same prompts, speed side by side, the two
answers to each prompt next to each other, agreement figures and a verdict that leaves the quality call to the user.

The work is ``advisor.bench.ab.run_ab`` (the same as ``advisor ab --json``) in a TaskRunner thread; its events go
through a lock-free deque that a 10 Hz timer drains on the GUI thread. "Start two simulated servers" launches two
``advisor sim`` child processes (``advisor.sim.launcher``) of one model in two weight formats and fills A and B.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QPushButton, QVBoxLayout, QWidget

from advisor.bench.ab import AbConfig, AbEvent, AbResult, run_ab, to_markdown
from advisor.cancel import CancelToken
from advisor.domain.project import AbSection
from advisor.i18n import tr
from advisor.redact import SecretError, check_api_key
from advisor.validation import validation_message
from ui.pages.ab.load_panel import LoadPanel
from ui.pages.ab.section import ab_binding
from ui.pages.ab.sides_panel import SidesPanel
from ui.widgets.ab_judge import AbJudgeOptions
from ui.widgets.ab_quality import AbQualityOptions
from ui.widgets.ab_result_view import AbResultView
from ui.widgets.ab_sims import AbSimPanel
from ui.widgets.page_header import page_header

# the panels' widgets, read on the page under their old names (tests, screenshots)
_SIDES_WIDGETS = ("sides", "side_boxes")
_LOAD_WIDGETS = ("prompts", "browse", "answers", "requests", "concurrency", "max_tokens", "option_labels")


class AbPage(QWidget):
    finished = Signal(object)  # AbResult (tests wait on it)
    inputs_changed = Signal()  # a user edit of what the project file keeps (marks the project modified)
    failed = Signal(str)
    sims_ready = Signal()
    message = Signal(str)

    def __init__(self, runner: Any, parent: QWidget | None = None, *, db_path: str | Path | None = None,
                 sizing_inputs: Any = None) -> None:
        super().__init__(parent)
        self.runner = runner
        # the Sizing page's inputs (shared through the window's AppState, None when it could not start): its model,
        # GPU and format pre-fill the simulated servers until the user picks
        self.sizing_inputs = sizing_inputs
        self.db_path = str(db_path) if db_path else None
        self.result: AbResult | None = None
        self._events: deque[AbEvent] = deque()
        self._task: Any = None
        self._cancel: Any = None
        self.project_id: str | None = None  # the open saved project (set by the window); both runs are stored with it

        self.title, self.intro = page_header()

        self.sides_panel = SidesPanel()
        self.load_panel = LoadPanel()
        for panel, names in ((self.sides_panel, _SIDES_WIDGETS), (self.load_panel, _LOAD_WIDGETS)):
            for name in names:
                setattr(self, name, getattr(panel, name))

        self.sims = AbSimPanel(runner)  # model, GPU, two formats; where they came from; start/stop
        self.sims.picked.connect(self.inputs_changed)
        self.sims.ready.connect(self._on_sims)
        self.sims.failed.connect(lambda text: self.show_error(tr("history.page.tab_ab"), text))

        self.quality_options = AbQualityOptions()  # scoring: built-in samples, the drop to size the run for
        self.judge = AbJudgeOptions()  # a judge model for rubric samples (optional)
        self.section = ab_binding(self.sides_panel, self.sims, self.load_panel, self.quality_options, self.judge)

        self.run_button = QPushButton()
        self.run_button.clicked.connect(self.start)
        self.stop_button = QPushButton()
        self.stop_button.clicked.connect(self.cancel)
        self.stop_button.setEnabled(False)
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_markdown)
        self.copy_button.setEnabled(False)
        self.progress = QLabel()
        self.progress.setWordWrap(True)
        run_row = QHBoxLayout()
        run_row.addWidget(self.run_button)
        run_row.addWidget(self.stop_button)
        run_row.addWidget(self.progress, 1)
        run_row.addWidget(self.copy_button)

        self.view = AbResultView()
        self.verdict, self.figures, self.speed, self.pairs = (self.view.verdict, self.view.figures, self.view.speed,
                                                              self.view.pairs)
        self.badge, self.quality_panel = self.view.badge, self.view.quality_panel

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addWidget(self.sides_panel)
        layout.addWidget(self.sims)
        layout.addWidget(self.load_panel)
        layout.addWidget(self.quality_options)
        layout.addWidget(self.judge)
        layout.addLayout(run_row)
        layout.addWidget(self.view, 1)

        opts = self.quality_options
        for edit in (*self.sides_panel.edits(), self.prompts, self.concurrency, opts.task, opts.subset, opts.template,
                     self.judge.url, self.judge.model):
            edit.textEdited.connect(self.inputs_changed)
        for spin in (self.answers, self.requests, self.max_tokens, self.quality_options.drop,
                     self.quality_options.task_limit):
            spin.valueChanged.connect(self.inputs_changed)
        self.quality_options.builtin.toggled.connect(self.inputs_changed)
        self.quality_options.dataset.changed.connect(self.inputs_changed)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._drain)
        self.retranslate()

    def _sizing_choice(self) -> dict[str, Any] | None:
        fields = self.sizing_inputs.fields if self.sizing_inputs is not None else None
        return fields if fields and "model" in fields and "gpu" in fields else None

    def use_sizing_choice(self) -> bool:
        """The Sizing page's model, GPU and format become the simulated servers' setup (see AbSimPanel)."""
        return self.sims.use_sizing(self._sizing_choice())

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        # follow the Sizing page until the user picks here or an A/B result brought its servers' setup
        if self.sims.origin in ("default", "sizing") and not self.sims.busy():
            self.use_sizing_choice()

    # -- page protocol -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(tr("history.page.tab_ab"))
        self.intro.setText(tr("ab.page.intro"))
        self.sides_panel.retranslate()
        self.sims.retranslate()
        self.load_panel.retranslate()
        self.run_button.setText(tr("ab.page.run"))
        self.stop_button.setText(tr("ab.page.stop"))
        self.copy_button.setText(tr("ab.page.copy"))
        self.quality_options.retranslate()
        self.judge.retranslate()
        self.view.retranslate()

    # -- the project file ----------------------------------------------------------------------------
    def ab_section(self) -> AbSection:
        """What the project file keeps of this page (never an API key)."""
        return self.section.save()

    def apply_project(self, project: Any) -> None:
        if project.ab is None:  # a project saved before the A/B was kept: follow its Sizing page
            self.sims.origin = "default"
            if self.isVisible():
                self.use_sizing_choice()
            self.sims.show_source()
            return
        self.section.load(project.ab)
        if self.sims.origin == "sizing" and self.isVisible():
            self.use_sizing_choice()
        self.sims.show_source()

    def stop(self) -> None:
        """Cancel a running A/B and stop the simulated servers this page started (the window is closing)."""
        self.cancel()
        self.timer.stop()
        self.sims.stop()

    # -- simulated servers ---------------------------------------------------------------------------
    def _on_sims(self, launchers: list[Any]) -> None:
        model, _gpu, fmt_a, fmt_b = self.sims.setup()
        for name, launcher, fmt in (("A", launchers[0], fmt_a), ("B", launchers[1], fmt_b)):
            self.sides_panel.fill(name, launcher.base_url, model, fmt)
        self.sims_ready.emit()

    # -- the run -------------------------------------------------------------------------------------
    def config(self) -> AbConfig | None:
        """The A/B from the form, or None after saying which field is wrong."""
        values = self.sides_panel.values()
        if not values["B"]["url"]:
            values["B"]["url"] = values["A"]["url"]  # one server serving two model ids
        if not all(values[n]["url"] and values[n]["model"] for n in values):
            self.show_error(tr("history.page.tab_ab"), tr("ab.page.need_fields"))
            return None
        levels = self.load_panel.levels()
        if not levels or any(c < 1 for c in levels):
            self.show_error(tr("history.page.tab_ab"), tr("ab.page.bad_levels"))
            return None
        if values["A"]["url"].rstrip("/") == values["B"]["url"].rstrip("/") and \
                values["A"]["model"] == values["B"]["model"]:
            self.show_error(tr("history.page.tab_ab"), tr("ab.error.same_target"))
            return None
        try:
            check_api_key(self.judge.api_key())  # a pasted line break would inject a header: said, not sent
        except SecretError as exc:
            self.show_error(tr("history.page.tab_ab"), str(exc))
            return None
        if self.quality_options.has_evalscope:
            problem = self.quality_options.dataset.check()  # also shown under the field
            if problem:
                self.show_error(tr("history.page.tab_ab"), problem)
                return None
        try:
            return AbConfig.model_validate({
                "a": values["A"], "b": values["B"], "prompts_file": self.prompts.text().strip() or None,
                "answers": self.answers.value(), "requests": self.requests.value(), "concurrency": levels,
                "max_tokens": self.max_tokens.value(), "language": self.quality_options.language(),
                **self.quality_options.overrides(), **self.judge.overrides(),
            })
        except ValidationError as exc:
            self.show_error(tr("history.page.tab_ab"), validation_message(exc))
            return None

    def start(self) -> bool:
        config = self.config()
        if config is None:
            return False
        self._events.clear()
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.progress.setText(tr("ab.page.starting"))
        events = self._events
        db_path = self.db_path
        project_id = self.project_id
        # our own token: a stopped A/B still delivers what it measured (the TaskRunner drops results of
        # tasks cancelled through their own token); the runner's token (window closing) cancels it too
        self._cancel = cancel = CancelToken()
        judge_key = self.judge.api_key()  # held by this run only, never stored

        def work(token: Any) -> AbResult:
            def on_event(ev: AbEvent) -> None:
                if token.cancelled:
                    cancel.cancel()
                events.append(ev)

            return run_ab(config, store_path=db_path, cancel=cancel, on_event=on_event, project_id=project_id,
                          judge_api_key=judge_key)

        self._task = self.runner.submit(work, on_result=self._on_result, on_error=self._on_failed)
        self.timer.start()
        return True

    def cancel(self) -> None:
        if self._task is not None and not self._task.done:
            self._cancel.cancel()  # run_ab stops within one request and keeps what was measured

    def _drain(self) -> None:
        while self._events:
            ev = self._events.popleft()
            d = ev.data
            if ev.kind == "answer":
                self.progress.setText(tr("ab.page.progress_answers", side=d["side"], done=d["index"] + 1,
                                         total=d["total"]))
            elif ev.kind == "step":
                self.progress.setText(tr("ab.page.progress_load", side=d["side"], concurrency=d["step"].concurrency))
            elif ev.kind == "phase" and d.get("phase") == "task":  # an EvalScope task starts
                self.progress.setText(tr("ab.cli.phase_task", task=d["task"], limit=d["limit"]))
            elif ev.kind == "task_answered":  # its answered samples, per side, as EvalScope writes them
                self.progress.setText(tr("ab.task.answered", side=d["side"], task=d["task"], done=d["done"],
                                         limit=d["limit"]))

    def _finish_run(self) -> None:
        self._drain()
        self.timer.stop()
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self._task = None

    def _on_result(self, result: AbResult) -> None:
        self._finish_run()
        self.show_result(result)
        self.progress.setText(tr("ab.page.done", status=result.status))
        self.finished.emit(result)

    def _on_failed(self, exc: BaseException) -> None:
        self._finish_run()
        text = tr("ab.page.failed", error=str(exc))
        self.progress.setText(text)
        self.failed.emit(str(exc))

    # -- showing -------------------------------------------------------------------------------------
    def show_result(self, result: AbResult) -> None:
        self.result = result
        self.copy_button.setEnabled(True)
        self.view.show_result(result)
        self.sims.follow_result(result)  # the boxes say what the servers of this result ran (when they said)

    def copy_markdown(self) -> str:
        if self.result is None:
            return ""
        text = to_markdown(self.result)
        QGuiApplication.clipboard().setText(text)
        return text

    # -- seams for tests -----------------------------------------------------------------------------
    def show_error(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)
