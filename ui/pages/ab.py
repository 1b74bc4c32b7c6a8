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

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from advisor.bench.ab import AbConfig, AbEvent, AbResult, run_ab, to_markdown
from advisor.i18n import tr
from ui.widgets.ab_quality import AbQualityOptions, AbQualityPanel
from ui.widgets.page_header import page_header

# The simulated servers run at the simulated GPU's own speed: at ×0.25 the page reported "TPOT 11.2 ms" for what the
# simulator models as ~45 ms, and the A/B's figures are stored and compared beside real runs.
AB_SIM_TIME_SCALE = 1.0
DEFAULT_SIM = ("qwen2.5-7b-instruct", "l4", "bf16", "awq-int4")
FORMATS = ("bf16", "fp16", "fp8", "int8", "gptq-int8", "gptq-int4", "awq-int4")
SPEED_COLS = ("a", "b", "ratio", "a_tpot", "b_tpot", "a_ttft", "b_ttft")
PAIR_COLS = ("prompt", "a", "b", "similarity", "length", "identical")


def _num(value: float | None, digits: int = 1, suffix: str = "") -> str:
    return "–" if value is None else f"{value:.{digits}f}{suffix}"


def _start_sims(_token: Any, model: str, gpu: str, fmt_a: str, fmt_b: str) -> list[Any]:
    from advisor.sim.launcher import SimLauncher, SimLaunchSpec

    launchers = []
    try:
        for fmt in (fmt_a, fmt_b):
            launcher = SimLauncher(SimLaunchSpec(model=model, gpu=gpu, weights=fmt, time_scale=AB_SIM_TIME_SCALE))
            launcher.start()
            launchers.append(launcher)
    except Exception:
        for launcher in launchers:
            launcher.stop(grace_s=1.0)
        raise
    return launchers


class AbPage(QWidget):
    finished = Signal(object)  # AbResult (tests wait on it)
    inputs_changed = Signal()  # a user edit of what the project file keeps (marks the project modified)
    failed = Signal(str)
    sims_ready = Signal()
    message = Signal(str)

    def __init__(self, runner: Any, parent: QWidget | None = None, *, db_path: str | Path | None = None,
                 sizing_page: Any = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.sizing_page = sizing_page  # its model, GPU and format pre-fill the simulated servers until the user picks
        self.sim_origin = "default"  # where the simulated setup came from: default, sizing or user
        self.db_path = str(db_path) if db_path else None
        self.result: AbResult | None = None
        self.launchers: list[Any] = []
        self._events: deque[AbEvent] = deque()
        self._task: Any = None
        self._cancel: Any = None
        self.project_id: str | None = None  # the open saved project (set by the window); both runs are stored with it

        self.title, self.intro = page_header()

        self.sides: dict[str, dict[str, Any]] = {}
        self.side_boxes: dict[str, QGroupBox] = {}
        sides_row = QHBoxLayout()
        for name in ("A", "B"):
            box = QGroupBox()
            form = QFormLayout(box)
            fields = {"url": QLineEdit(), "model": QLineEdit(), "label": QLineEdit()}
            for key, edit in list(fields.items()):
                form.addRow(QLabel(), edit)
                fields[key + "_label"] = form.labelForField(edit)
            self.sides[name] = fields
            self.side_boxes[name] = box
            sides_row.addWidget(box)

        self.sim_model = QComboBox()
        self.sim_gpu = QComboBox()
        self.sim_fmt_a = QComboBox()
        self.sim_fmt_b = QComboBox()
        self._fill_sim_choices()
        for combo in (self.sim_model, self.sim_gpu, self.sim_fmt_a, self.sim_fmt_b):
            combo.activated.connect(self._on_sim_picked)  # activated: the user's pick, never a programmatic one
        self.sim_source = QLabel()  # where the model and GPU came from (the Sizing page, the default, the user)
        self.sim_source.setObjectName("abSimSource")
        self.sim_source.setWordWrap(True)
        self.sim_button = QPushButton()
        self.sim_button.clicked.connect(self.toggle_sims)
        self.sim_status = QLabel()
        self.sim_model_label, self.sim_gpu_label, self.sim_fmt_label = QLabel(), QLabel(), QLabel()
        sim_row = QHBoxLayout()
        for w in (self.sim_model_label, self.sim_model, self.sim_gpu_label, self.sim_gpu, self.sim_fmt_label,
                  self.sim_fmt_a, self.sim_fmt_b, self.sim_button):
            sim_row.addWidget(w)
        sim_row.addWidget(self.sim_status, 1)

        self.prompts = QLineEdit()
        self.browse = QPushButton()
        self.browse.clicked.connect(self._browse)
        self.answers = QSpinBox()
        self.answers.setRange(1, 200)
        self.answers.setValue(8)
        self.requests = QSpinBox()
        self.requests.setRange(1, 10_000)
        self.requests.setValue(16)
        self.concurrency = QLineEdit("1,4")
        self.max_tokens = QSpinBox()
        self.max_tokens.setRange(1, 32_768)
        self.max_tokens.setValue(128)
        self.option_labels = {k: QLabel() for k in ("prompts", "answers", "requests", "concurrency", "max_tokens")}
        options = QHBoxLayout()
        options.addWidget(self.option_labels["prompts"])
        options.addWidget(self.prompts, 2)
        options.addWidget(self.browse)
        for key, widget in (("answers", self.answers), ("requests", self.requests),
                            ("concurrency", self.concurrency), ("max_tokens", self.max_tokens)):
            options.addSpacing(8)
            options.addWidget(self.option_labels[key])
            options.addWidget(widget)
        self.concurrency.setMaximumWidth(110)
        self.quality_options = AbQualityOptions()  # scoring: built-in samples, the drop to size the run for
        self.quality_panel = AbQualityPanel()

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

        self.badge = QLabel("simulated · 模拟")
        self.badge.setStyleSheet("QLabel { background: #F2CF5B; color: #222; padding: 1px 6px; border-radius: 3px; }")
        self.badge.hide()
        self.verdict = QLabel()
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        self.verdict.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.figures = QLabel()
        self.figures.setWordWrap(True)
        self.speed = QTableWidget(0, len(SPEED_COLS) + 1)
        self.speed.verticalHeader().setVisible(False)
        self.speed.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.pairs = QTableWidget(0, len(PAIR_COLS))
        self.pairs.verticalHeader().setVisible(False)
        self.pairs.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.pairs.setWordWrap(True)
        # row heights follow the column widths (known only once the table is laid out)
        self.pairs.horizontalHeader().sectionResized.connect(
            lambda *_: QTimer.singleShot(0, self.pairs, self.pairs.resizeRowsToContents))
        verdict_row = QHBoxLayout()
        verdict_row.addWidget(self.verdict, 1)
        verdict_row.addWidget(self.badge, 0, Qt.AlignmentFlag.AlignTop)
        result_top = QWidget()
        top_layout = QVBoxLayout(result_top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        top_layout.addLayout(verdict_row)
        top_layout.addWidget(self.figures)
        top_layout.addWidget(self.quality_panel)
        top_layout.addWidget(self.speed)
        top_layout.addStretch(1)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(result_top)
        splitter.addWidget(self.pairs)
        splitter.setSizes([200, 480])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 12, 16, 12)
        layout.addWidget(self.title)
        layout.addWidget(self.intro)
        layout.addLayout(sides_row)
        layout.addLayout(sim_row)
        layout.addWidget(self.sim_source)
        layout.addLayout(options)
        layout.addWidget(self.quality_options)
        layout.addLayout(run_row)
        layout.addWidget(splitter, 1)

        for fields in self.sides.values():
            for key in ("url", "model", "label"):
                fields[key].textEdited.connect(self.inputs_changed)
        for edit in (self.prompts, self.concurrency, self.quality_options.task):
            edit.textEdited.connect(self.inputs_changed)
        for spin in (self.answers, self.requests, self.max_tokens, self.quality_options.drop,
                     self.quality_options.task_limit):
            spin.valueChanged.connect(self.inputs_changed)
        self.quality_options.builtin.toggled.connect(self.inputs_changed)
        self.timer = QTimer(self)
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._drain)
        self.retranslate()

    def _fill_sim_choices(self) -> None:
        try:
            from advisor.catalog import load_gpus, load_models

            models = [(m.name, m.id) for m in load_models()]
            gpus = [(g.name, g.id) for g in load_gpus()]
        except Exception:  # a broken catalog: the simulated servers cannot be sized, URLs still work
            models, gpus = [(DEFAULT_SIM[0], DEFAULT_SIM[0])], [(DEFAULT_SIM[1], DEFAULT_SIM[1])]
        for combo, items in ((self.sim_model, models), (self.sim_gpu, gpus),
                             (self.sim_fmt_a, [(f, f) for f in FORMATS]), (self.sim_fmt_b, [(f, f) for f in FORMATS])):
            for name, ident in items:  # names shown, catalog ids kept as the data (what `advisor sim` takes)
                combo.addItem(name, ident)
        for combo, value in ((self.sim_model, DEFAULT_SIM[0]), (self.sim_gpu, DEFAULT_SIM[1]),
                             (self.sim_fmt_a, DEFAULT_SIM[2]), (self.sim_fmt_b, DEFAULT_SIM[3])):
            self.select_sim(combo, value)

    @staticmethod
    def select_sim(combo: QComboBox, ident: str | None) -> bool:
        """Select the entry whose catalog id is ``ident``; False (nothing changed) when there is none."""
        index = combo.findData(ident)
        if index >= 0:
            combo.setCurrentIndex(index)
        return index >= 0

    # -- where the simulated setup comes from --------------------------------------------------------
    def _on_sim_picked(self, *_args: Any) -> None:
        self.sim_origin = "user"
        self._show_sim_source()
        self.inputs_changed.emit()

    def _sizing_choice(self) -> dict[str, Any] | None:
        fields = getattr(getattr(self.sizing_page, "inputs", None), "fields", None)
        return fields if fields and "model" in fields and "gpu" in fields else None

    def use_sizing_choice(self) -> bool:
        """The Sizing page's model, GPU and (when it is one of ours) weight format become the simulated servers'
        setup: A stays the BF16 baseline, B the Sizing page's format. False when the Sizing page has none we run."""
        fields = self._sizing_choice()
        if fields is None:
            return False
        model_ok = self.select_sim(self.sim_model, fields["model"].id)
        gpu_ok = self.select_sim(self.sim_gpu, fields["gpu"].id)
        weights = fields.get("weights")
        if weights in FORMATS and weights != self.sim_fmt_a.currentData():
            self.select_sim(self.sim_fmt_b, weights)
        if model_ok or gpu_ok:
            self.sim_origin = "sizing"
        self._show_sim_source()
        return model_ok or gpu_ok

    def _show_sim_source(self) -> None:
        model, gpu = self.sim_model.currentText(), self.sim_gpu.currentText()
        fields = self._sizing_choice()
        if self.sim_origin == "sizing" and fields is not None:
            text = tr("ab.page.source.sizing", model=model, gpu=gpu)
            # an imported model or a custom GPU has no simulator preset: say what was kept instead
            if self.sim_model.currentData() != fields["model"].id:
                text += " " + tr("ab.page.source.missing_model", model=fields["model"].name)
            if self.sim_gpu.currentData() != fields["gpu"].id:
                text += " " + tr("ab.page.source.missing_gpu", gpu=fields["gpu"].name)
        elif self.sim_origin == "user":
            text = tr("ab.page.source.user", model=model, gpu=gpu)
        else:
            text = tr("ab.page.source.default", model=model, gpu=gpu)
        self.sim_source.setText(text)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self.sim_origin != "user" and not self.launchers:  # follow the Sizing page until the user picks here
            self.use_sizing_choice()

    # -- page protocol -------------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(tr("history.page.tab_ab"))
        self.intro.setText(tr("ab.page.intro"))
        self.side_boxes["A"].setTitle(tr("ab.page.side_a"))
        self.side_boxes["B"].setTitle(tr("ab.page.side_b"))
        for fields in self.sides.values():
            for key in ("url", "model", "label"):
                fields[key + "_label"].setText(tr(f"ab.page.{key}"))
            # an example, not a value that looks filled in (an empty URL is refused with "fill in the URL")
            fields["url"].setPlaceholderText(tr("ui.placeholder.example", value="http://127.0.0.1:8000"))
        self.sim_model_label.setText(tr("ab.page.sim_model"))
        self.sim_gpu_label.setText(tr("ab.page.sim_gpu"))
        self.sim_fmt_label.setText(tr("ab.page.sim_formats"))
        self._update_sim_button()
        self.prompts.setPlaceholderText(tr("ab.page.prompts_builtin"))
        self._show_sim_source()
        self.browse.setText(tr("ab.page.browse"))
        for key, label in self.option_labels.items():
            label.setText(tr(f"ab.page.{key}"))
        self.run_button.setText(tr("ab.page.run"))
        self.stop_button.setText(tr("ab.page.stop"))
        self.copy_button.setText(tr("ab.page.copy"))
        self.speed.setHorizontalHeaderLabels([tr("ab.col.concurrency")] + [tr(f"ab.page.speed_col.{c}") for c in SPEED_COLS])
        self.pairs.setHorizontalHeaderLabels([tr(f"ab.page.col.{c}") for c in PAIR_COLS])
        self.quality_options.retranslate()
        self.quality_panel.retranslate()
        if self.result is not None:
            self.show_result(self.result)

    # -- the project file ----------------------------------------------------------------------------
    def ab_section(self) -> Any:
        """What the project file keeps of this page (never an API key)."""
        from advisor.domain.project import AbSection

        try:
            levels = [int(x) for x in self.concurrency.text().replace(" ", "").split(",") if x]
        except ValueError:
            levels = []
        sides = {n: {k: f[k].text().strip() for k in ("url", "model", "label")} for n, f in self.sides.items()}
        opts = self.quality_options
        return AbSection(
            a_url=sides["A"]["url"], a_model=sides["A"]["model"], a_label=sides["A"]["label"],
            b_url=sides["B"]["url"], b_model=sides["B"]["model"], b_label=sides["B"]["label"],
            sim_model=self.sim_model.currentData(), sim_gpu=self.sim_gpu.currentData(),
            sim_weights_a=self.sim_fmt_a.currentData(), sim_weights_b=self.sim_fmt_b.currentData(),
            sim_source=self.sim_origin, prompts_file=self.prompts.text().strip(), answers=self.answers.value(),
            requests=self.requests.value(),
            concurrency=[c for c in levels if 1 <= c <= 100_000][:64] or [1, 4],  # a typo is not saved as a level
            max_tokens=self.max_tokens.value(), builtin_samples=opts.builtin.isChecked(),
            quality_drop_points=opts.drop.value(), task=opts.task.text().strip(), task_limit=opts.task_limit.value(),
        )  # fmt: skip

    def apply_project(self, project: Any) -> None:
        section = getattr(project, "ab", None)
        if section is None:  # a project saved before the A/B was kept: follow its Sizing page
            self.sim_origin = "default"
            if self.isVisible():
                self.use_sizing_choice()
            self._show_sim_source()
            return
        for name, prefix in (("A", "a"), ("B", "b")):
            for key in ("url", "model", "label"):
                self.sides[name][key].setText(getattr(section, f"{prefix}_{key}"))
        for combo, value in ((self.sim_model, section.sim_model), (self.sim_gpu, section.sim_gpu),
                             (self.sim_fmt_a, section.sim_weights_a), (self.sim_fmt_b, section.sim_weights_b)):
            self.select_sim(combo, value)
        self.sim_origin = section.sim_source
        self.prompts.setText(section.prompts_file)
        self.answers.setValue(section.answers)
        self.requests.setValue(section.requests)
        self.concurrency.setText(",".join(str(c) for c in section.concurrency))
        self.max_tokens.setValue(section.max_tokens)
        opts = self.quality_options
        opts.builtin.setChecked(section.builtin_samples)
        opts.drop.setValue(section.quality_drop_points)
        opts.task.setText(section.task)
        opts.task_limit.setValue(section.task_limit)
        if self.sim_origin == "sizing" and self.isVisible():
            self.use_sizing_choice()
        self._show_sim_source()

    def stop(self) -> None:
        """Cancel a running A/B and stop the simulated servers this page started (the window is closing)."""
        self.cancel()
        self.timer.stop()
        self.stop_sims()

    # -- simulated servers ---------------------------------------------------------------------------
    def _update_sim_button(self) -> None:
        if self.launchers:
            self.sim_button.setText(tr("ab.page.stop_sims"))
            self.sim_status.setText(tr("ab.page.sims_running", a=self.launchers[0].base_url,
                                       b=self.launchers[1].base_url))
        else:
            self.sim_button.setText(tr("ab.page.start_sims"))
            self.sim_status.setText("")

    def toggle_sims(self) -> None:
        if self.launchers:
            self.stop_sims()
            return
        self.sim_button.setEnabled(False)
        self.runner.submit(_start_sims, self.sim_model.currentData(), self.sim_gpu.currentData(),
                           self.sim_fmt_a.currentData(), self.sim_fmt_b.currentData(),
                           on_result=self._on_sims, on_error=self._on_sims_failed)

    def _on_sims(self, launchers: list[Any]) -> None:
        self.launchers = launchers
        self.sim_button.setEnabled(True)
        model = self.sim_model.currentData()
        for name, launcher, fmt in (("A", launchers[0], self.sim_fmt_a.currentData()),
                                    ("B", launchers[1], self.sim_fmt_b.currentData())):
            self.sides[name]["url"].setText(launcher.base_url)
            self.sides[name]["model"].setText(model)
            self.sides[name]["label"].setText(fmt)
        self._update_sim_button()
        self.sims_ready.emit()

    def _on_sims_failed(self, exc: BaseException) -> None:
        self.sim_button.setEnabled(True)
        self.show_error(tr("history.page.tab_ab"), str(exc))

    def stop_sims(self) -> None:
        launchers, self.launchers = self.launchers, []
        for launcher in launchers:
            launcher.stop(grace_s=2.0)
        self._update_sim_button()

    # -- the run -------------------------------------------------------------------------------------
    def config(self) -> AbConfig | None:
        """The A/B from the form, or None after saying which field is wrong."""
        from pydantic import ValidationError

        values = {n: {k: f[k].text().strip() for k in ("url", "model", "label")} for n, f in self.sides.items()}
        if not values["B"]["url"]:
            values["B"]["url"] = values["A"]["url"]  # one server serving two model ids
        if not all(values[n]["url"] and values[n]["model"] for n in values):
            self.show_error(tr("history.page.tab_ab"), tr("ab.page.need_fields"))
            return None
        try:
            levels = [int(x) for x in self.concurrency.text().replace(" ", "").split(",") if x]
        except ValueError:
            levels = []
        if not levels or any(c < 1 for c in levels):
            self.show_error(tr("history.page.tab_ab"), tr("ab.page.bad_levels"))
            return None
        if values["A"]["url"].rstrip("/") == values["B"]["url"].rstrip("/") and \
                values["A"]["model"] == values["B"]["model"]:
            self.show_error(tr("history.page.tab_ab"), tr("ab.error.same_target"))
            return None
        try:
            return AbConfig.model_validate({
                "a": values["A"], "b": values["B"], "prompts_file": self.prompts.text().strip() or None,
                "answers": self.answers.value(), "requests": self.requests.value(), "concurrency": levels,
                "max_tokens": self.max_tokens.value(), "language": self.quality_options.language(),
                **self.quality_options.overrides(),
            })
        except ValidationError as exc:
            from advisor.validation import validation_message

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
        from advisor.cancel import CancelToken

        self._cancel = cancel = CancelToken()

        def work(token: Any) -> AbResult:
            def on_event(ev: AbEvent) -> None:
                if token.cancelled:
                    cancel.cancel()
                events.append(ev)

            return run_ab(config, store_path=db_path, cancel=cancel, on_event=on_event, project_id=project_id)

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
            elif ev.kind == "phase" and d.get("phase") == "task":  # an EvalScope task (no per-sample events)
                self.progress.setText(tr("ab.cli.phase_task", task=d["task"], limit=d["limit"]))

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
        self.badge.setVisible(result.simulated)
        self.verdict.setText("\n".join(result.verdict_lines))
        self.quality_panel.show_quality(result.quality)
        ag = result.agreement
        self.figures.setText(tr("ab.page.figures", exact=_num(None if ag.exact_match_rate is None
                                                               else ag.exact_match_rate * 100, 0, "%"),
                                similarity=_num(ag.similarity_median, 2), min_similarity=_num(ag.similarity_min, 2),
                                length=_num(ag.length_ratio_median, 2), method=tr("ab.similarity_method")))
        self.speed.setRowCount(len(result.levels))
        for row, lv in enumerate(result.levels):
            cells = [str(lv.concurrency), _num(lv.a_output_tokens_per_s, 0), _num(lv.b_output_tokens_per_s, 0),
                     _num(lv.throughput_ratio, 2, "×"), _num(lv.a_tpot_p50_ms, 1, " ms"),
                     _num(lv.b_tpot_p50_ms, 1, " ms"), _num(lv.a_ttft_p50_ms, 0, " ms"),
                     _num(lv.b_ttft_p50_ms, 0, " ms")]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.speed.setItem(row, col, item)
        self.speed.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.speed.resizeRowsToContents()
        rows_height = sum(self.speed.rowHeight(r) for r in range(self.speed.rowCount()))
        self.speed.setFixedHeight(self.speed.horizontalHeader().height() + rows_height + 6)
        self.pairs.setRowCount(len(result.pairs))
        for row, p in enumerate(result.pairs):
            a = p.a.text if p.a.ok else tr("ab.page.failed_answer", error=p.a.error or "")
            b = p.b.text if p.b.ok else tr("ab.page.failed_answer", error=p.b.error or "")
            identical = "–" if p.exact is None else tr("ab.page.yes" if p.exact else "ab.page.no")
            cells = [p.prompt, a, b, _num(p.similarity, 2), _num(p.length_ratio, 2), identical]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text if col < 3 else "")
                if col in (1, 2) and not (p.a.ok if col == 1 else p.b.ok):
                    item.setForeground(QBrush(QColor("#E45756")))
                self.pairs.setItem(row, col, item)
        header = self.pairs.horizontalHeader()
        for col in range(len(PAIR_COLS)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Stretch if col < 3
                                        else QHeaderView.ResizeMode.ResizeToContents)
        self.pairs.resizeRowsToContents()

    def copy_markdown(self) -> str:
        if self.result is None:
            return ""
        text = to_markdown(self.result)
        QGuiApplication.clipboard().setText(text)
        return text

    # -- seams for tests -----------------------------------------------------------------------------
    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("ab.page.prompts"), str(Path.home()),
                                              "JSONL / CSV / ShareGPT (*.jsonl *.json *.csv)")
        if path:
            self.prompts.setText(path)

    def show_error(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)
