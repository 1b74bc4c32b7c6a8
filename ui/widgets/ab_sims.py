"""The A/B page's simulated servers: one model on one GPU in two weight formats, launched as two ``advisor sim``
child processes (``advisor.sim.launcher``), and where that setup came from (the Sizing page, the default, the
user's pick) said next to it.

The panel owns the launchers; the page listens to ``ready`` (fill A and B with their URLs) and ``picked`` (a user
edit the project file keeps). What the boxes show is what the servers run: while two servers run (or start) the boxes
are locked to their setup, and an A/B result shown on the page brings the setup its servers reported (issue #26: the
boxes followed the Sizing page to an RTX 4090 while the servers ran an L4)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from advisor.i18n import tr

# The simulated servers run at the simulated GPU's own speed: at ×0.25 the page reported "TPOT 11.2 ms" for what the
# simulator models as ~45 ms, and the A/B's figures are stored and compared beside real runs.
AB_SIM_TIME_SCALE = 1.0
DEFAULT_SIM = ("qwen2.5-7b-instruct", "l4", "bf16", "awq-int4")
FORMATS = ("bf16", "fp16", "fp8", "int8", "gptq-int8", "gptq-int4", "awq-int4")


def start_sims(_token: Any, model: str, gpu: str, fmt_a: str, fmt_b: str) -> list[Any]:
    """Two simulated servers (A and B), or none: a failure stops the one already started."""
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


def select(combo: QComboBox, ident: str | None) -> bool:
    """Select the entry whose catalog id is ``ident``; False (nothing changed) when there is none."""
    index = combo.findData(ident)
    if index >= 0:
        combo.setCurrentIndex(index)
    return index >= 0


class AbSimPanel(QWidget):
    picked = Signal()  # the user chose a model, GPU or format here
    ready = Signal(list)  # the two launchers, A then B
    failed = Signal(str)

    def __init__(self, runner: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.origin = "default"  # where the setup came from: default, sizing, user or result (the A/B shown)
        self.sizing_fields: dict[str, Any] | None = None  # the Sizing page's choice, when the page passed one
        self.launchers: list[Any] = []
        self._starting = False
        self._pending: tuple[Any, ...] | None = None  # a setup set while servers ran (a project opened): kept for after
        self.model, self.gpu, self.fmt_a, self.fmt_b = QComboBox(), QComboBox(), QComboBox(), QComboBox()
        self._fill_choices()
        for combo in (self.model, self.gpu, self.fmt_a, self.fmt_b):
            combo.activated.connect(self._on_picked)  # activated: the user's pick, never a programmatic one
        self.source = QLabel()
        self.source.setObjectName("abSimSource")
        self.source.setWordWrap(True)
        self.button = QPushButton()
        self.button.clicked.connect(self.toggle)
        self.status = QLabel()
        self.model_label, self.gpu_label, self.fmt_label = QLabel(), QLabel(), QLabel()
        row = QHBoxLayout()
        for w in (self.model_label, self.model, self.gpu_label, self.gpu, self.fmt_label, self.fmt_a, self.fmt_b,
                  self.button):
            row.addWidget(w)
        row.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.source)

    def _fill_choices(self) -> None:
        try:
            from advisor.catalog import load_gpus, load_models

            models = [(m.name, m.id) for m in load_models()]
            gpus = [(g.name, g.id) for g in load_gpus()]
        except Exception:  # a broken catalog: the simulated servers cannot be sized, URLs still work
            models, gpus = [(DEFAULT_SIM[0], DEFAULT_SIM[0])], [(DEFAULT_SIM[1], DEFAULT_SIM[1])]
        for combo, items in ((self.model, models), (self.gpu, gpus),
                             (self.fmt_a, [(f, f) for f in FORMATS]), (self.fmt_b, [(f, f) for f in FORMATS])):
            for name, ident in items:  # names shown, catalog ids kept as the data (what `advisor sim` takes)
                combo.addItem(name, ident)
        self.set_setup(*DEFAULT_SIM)

    def busy(self) -> bool:
        """Servers are running or starting: the boxes show their setup and stay as they are."""
        return bool(self.launchers) or self._starting

    def set_setup(self, model: str | None, gpu: str | None, fmt_a: str | None, fmt_b: str | None) -> None:
        if self.busy():  # the boxes keep saying what runs; the new setup is shown once the servers stop
            self._pending = (model, gpu, fmt_a, fmt_b)
            return
        for combo, value in ((self.model, model), (self.gpu, gpu), (self.fmt_a, fmt_a), (self.fmt_b, fmt_b)):
            select(combo, value)

    def set_part(self, index: int, value: str | None) -> None:
        """One of the four (model, GPU, A's format, B's format), the others kept: a project's section loads them
        one by one, and while servers run they wait, with the rest of the loaded setup, until they stop."""
        setup = list(self._pending if self._pending is not None and self.busy() else self.setup())
        setup[index] = value
        self.set_setup(*setup)

    def setup(self) -> tuple[str, str, str, str]:
        return (self.model.currentData(), self.gpu.currentData(), self.fmt_a.currentData(),
                self.fmt_b.currentData())

    # -- where the setup comes from ----------------------------------------------------------------
    def _on_picked(self, *_args: Any) -> None:
        self.origin = "user"
        self.show_source()
        self.picked.emit()

    def use_sizing(self, fields: dict[str, Any] | None) -> bool:
        """The Sizing page's model, GPU and (when it is one of ours) weight format become the setup: A stays the
        BF16 baseline, B the Sizing page's format. False when the Sizing page has none we run."""
        self.sizing_fields = fields
        if fields is None or self.busy():
            return False
        model_ok = select(self.model, fields["model"].id)
        gpu_ok = select(self.gpu, fields["gpu"].id)
        weights = fields.get("weights")
        if weights in FORMATS and weights != self.fmt_a.currentData():
            select(self.fmt_b, weights)
        if model_ok or gpu_ok:
            self.origin = "sizing"
        self.show_source()
        return model_ok or gpu_ok

    def follow_result(self, result: Any) -> bool:
        """An A/B result shown on the page: the boxes take the setup its simulated servers reported (both sides one
        model on one GPU). False, nothing changed, when servers run here, a side did not say, or the catalog lacks
        what it named."""
        a, b = result.a, result.b
        if self.busy() or not a.sim_gpu or a.sim_gpu != b.sim_gpu or not a.sim_model or a.sim_model != b.sim_model:
            return False
        if self.model.findData(a.sim_model) < 0 or self.gpu.findData(a.sim_gpu) < 0:
            return False
        self.set_setup(a.sim_model, a.sim_gpu, a.sim_weights, b.sim_weights)
        self.origin = "result"
        self.show_source()
        return True

    def show_source(self) -> None:
        model, gpu = self.model.currentText(), self.gpu.currentText()
        fields = self.sizing_fields
        if self.busy():
            text = tr("ab.page.source.running", model=model, gpu=gpu)
        elif self.origin == "result":
            text = tr("ab.page.source.result", model=model, gpu=gpu)
        elif self.origin == "sizing" and fields is not None:
            text = tr("ab.page.source.sizing", model=model, gpu=gpu)
            # an imported model or a custom GPU has no simulator preset: say what was kept instead
            if self.model.currentData() != fields["model"].id:
                text += " " + tr("ab.page.source.missing_model", model=fields["model"].name)
            if self.gpu.currentData() != fields["gpu"].id:
                text += " " + tr("ab.page.source.missing_gpu", gpu=fields["gpu"].name)
        elif self.origin == "user":
            text = tr("ab.page.source.user", model=model, gpu=gpu)
        else:
            text = tr("ab.page.source.default", model=model, gpu=gpu)
        self.source.setText(text)

    # -- the servers ---------------------------------------------------------------------------------
    def toggle(self) -> None:
        if self.launchers:
            self.stop()
            return
        self.button.setEnabled(False)
        self._starting = True
        self._lock()
        self.runner.submit(start_sims, *self.setup(), on_result=self._on_started, on_error=self._on_failed)

    def _on_started(self, launchers: list[Any]) -> None:
        self._starting = False
        self.launchers = launchers
        self.button.setEnabled(True)
        self._update_button()
        self._lock()
        self.ready.emit(launchers)

    def _on_failed(self, exc: BaseException) -> None:
        self._starting = False
        self.button.setEnabled(True)
        self._lock()
        self.failed.emit(str(exc))

    def stop(self) -> None:
        launchers, self.launchers = self.launchers, []
        for launcher in launchers:
            launcher.stop(grace_s=2.0)
        self._update_button()
        self._lock()
        if self._pending is not None and not self.busy():  # what was set while they ran (an opened project)
            pending, self._pending = self._pending, None
            self.set_setup(*pending)
            self.show_source()

    def _lock(self) -> None:
        """The boxes can be changed only while no server runs: they say what the running servers model."""
        for combo in (self.model, self.gpu, self.fmt_a, self.fmt_b):
            combo.setEnabled(not self.busy())
        self.show_source()

    def _update_button(self) -> None:
        if self.launchers:
            self.button.setText(tr("ab.page.stop_sims"))
            self.status.setText(tr("ab.page.sims_running", a=self.launchers[0].base_url,
                                   b=self.launchers[1].base_url))
        else:
            self.button.setText(tr("ab.page.start_sims"))
            self.status.setText("")

    def retranslate(self) -> None:
        self.model_label.setText(tr("ab.page.sim_model"))
        self.gpu_label.setText(tr("ab.page.sim_gpu"))
        self.fmt_label.setText(tr("ab.page.sim_formats"))
        self._update_button()
        self.show_source()
