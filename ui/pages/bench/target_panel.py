"""Where the load goes: the embedded simulated server or a server by URL; Connect probes it (engine, models,
``/metrics``, usage in the stream) and says so, and says when what it read is about a server that has gone."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from advisor.i18n import tr
from ui.pages.bench.sim_controller import SimController
from ui.pages.bench.sim_panel import SimPanel
from ui.pages.bench.styles import ERROR_STYLE
from ui.pages.bench.url_panel import UrlPanel
from ui.widgets.stale import StaleMark


class TargetPanel(QGroupBox):
    probed = Signal(object)  # ProbeResult (or None on error)

    def __init__(self, runner: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.probe_result: Any = None
        self.sim_radio, self.url_radio = QRadioButton(), QRadioButton()
        self.sim_radio.setChecked(True)
        group = QButtonGroup(self)
        group.addButton(self.sim_radio)
        group.addButton(self.url_radio)
        self.sim_radio.toggled.connect(self._on_target_kind)
        self.controller = SimController(runner, self)
        self.sim = SimPanel(self.controller)
        self.url = UrlPanel()
        self.connect_button = QPushButton()
        self.connect_button.clicked.connect(self.connect_target)
        self.probe_label = QLabel()
        self.probe_label.setWordWrap(True)
        self.probe_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model_pick = QComboBox()
        self.model_pick.setEditable(True)
        self.model_label = QLabel()
        layout = QVBoxLayout(self)
        radios = QHBoxLayout()
        radios.addWidget(self.sim_radio)
        radios.addWidget(self.url_radio)
        radios.addStretch(1)
        layout.addLayout(radios)
        layout.addWidget(self.sim)
        layout.addWidget(self.url)
        row = QHBoxLayout()
        row.addWidget(self.connect_button)
        row.addWidget(self.model_label)
        row.addWidget(self.model_pick, 1)
        layout.addLayout(row)
        # what the probe read is about the server it reached: once that server stops or the URL changes it says so
        self.probe_mark = StaleMark([self.probe_label])
        layout.addWidget(self.probe_mark.note)
        layout.addWidget(self.probe_label)
        self.url.url_edit.textEdited.connect(self.probe_target_changed)
        self.controller.state_changed.connect(self._on_sim_state)

    def retranslate(self) -> None:
        self.setTitle(tr("bench.page.target"))
        self.sim_radio.setText(tr("bench.page.target_sim"))
        self.url_radio.setText(tr("bench.page.target_url"))
        self.connect_button.setText(tr("bench.page.connect"))
        self.model_label.setText(tr("bench.page.served_model"))
        self.sim.retranslate()
        self.url.retranslate()
        self.show_probe(self.probe_result)

    # ---------------------------------------------------------------------------------------- target
    def is_sim(self) -> bool:
        return self.sim_radio.isChecked()

    def _on_target_kind(self, *_args: Any) -> None:
        sim = self.is_sim()
        self.sim.setVisible(sim)
        self.url.setVisible(not sim)
        self.probe_result = None
        self.show_probe(None)

    def target_url(self) -> str | None:
        if self.is_sim():
            return self.controller.url
        return self.url.url_edit.text().strip() or None

    def served_model(self) -> str:
        """The model to ask for: the one picked or typed, else (simulated) the simulated one."""
        return self.model_pick.currentText().strip() or (self.sim.sim_model.currentData() if self.is_sim() else "")

    def no_target_text(self) -> str:
        return tr("bench.page.error.no_target_sim") if self.is_sim() else tr("bench.page.error.no_url")

    def api_key(self) -> str | None:
        """None for the simulated server; else the URL panel's key (``SecretError`` for one that cannot be sent)."""
        return None if self.is_sim() else self.url.api_key()

    def ca_bundle(self) -> str | None:
        """The CA bundle trusted from now on (``CaBundleError`` for one that cannot be used); the simulated server
        speaks plain HTTP and needs none."""
        return None if self.is_sim() else self.url.trust_ca_bundle()

    def client_cert(self) -> tuple[str, str | None] | None:
        """The client certificate presented from now on, and its key file (``ClientCertError`` for one that cannot
        be used); the simulated server needs none."""
        return None if self.is_sim() else self.url.present_client_cert()

    def _on_sim_state(self, state: str) -> None:
        if state == "stopped":
            self.probe_target_changed()
        elif state == "running" and self.is_sim():
            self.model_pick.clear()
            self.model_pick.addItem(self.sim.sim_model.currentData())
            self.connect_target()

    # ---------------------------------------------------------------------------------------- connect
    def connect_target(self) -> None:
        url = self.target_url()
        if not url:
            self.show_probe_error(self.no_target_text())
            return
        if not url.startswith(("http://", "https://")):
            self.show_probe_error(tr("bench.page.error.bad_url", url=url))
            return
        model = self.served_model()
        from advisor.redact import SecretError
        from advisor.tls import TlsFileError

        try:
            key = self.api_key()
            self.ca_bundle()
            self.client_cert()
        except (SecretError, TlsFileError) as exc:  # refused before any request, as on the command line
            self.show_probe_error(str(exc))
            return
        self.probe_mark.set_stale(None)
        self.probe_label.setText(tr("bench.page.connecting", url=url))
        self.probe_label.setStyleSheet("")

        def work(_t: Any) -> Any:
            from advisor.bench.probe import probe, served_models

            if not model:  # list the models first, then probe the first one
                ids = served_models(url, api_key=key)
                first = ids[0] if ids else ""
                return probe(url, first or "default", api_key=key, timeout_s=30), first
            return probe(url, model, api_key=key, timeout_s=30), model

        self.runner.submit(work, on_result=self._on_probed, on_error=self._on_probe_error, key="bench-probe")

    def _on_probed(self, value: Any) -> None:
        result, model = value
        self.probe_result = result
        current = self.model_pick.currentText().strip() or model
        self.model_pick.blockSignals(True)
        self.model_pick.clear()
        for m in result.models:
            self.model_pick.addItem(m)
        if current and self.model_pick.findText(current) < 0:
            self.model_pick.addItem(current)
        self.model_pick.setCurrentText(current)
        self.model_pick.blockSignals(False)
        self.show_probe(result)
        self.probed.emit(result)

    def _on_probe_error(self, exc: BaseException) -> None:
        self.probe_result = None
        self.show_probe_error(tr("bench.page.error.probe_failed", error=str(exc) or type(exc).__name__))
        self.probed.emit(None)

    def probe_target_changed(self, *_args: Any) -> None:
        """The server the probe read may be gone (the simulated one stopped, another URL typed)."""
        if self.probe_result is not None:
            self.probe_mark.set_stale(tr("ui.stale.probe"))

    def show_probe_error(self, text: str) -> None:
        self.probe_mark.set_stale(None)
        self.probe_label.setText(text)
        self.probe_label.setStyleSheet(ERROR_STYLE)

    def show_probe(self, result: Any) -> None:
        """What the probe found (the run's own probe too); None: not connected."""
        self.probe_result = result
        self.probe_mark.set_stale(None)
        if result is None:
            self.probe_label.setText(tr("bench.page.not_connected"))
            self.probe_label.setStyleSheet("")
            return
        from advisor.bench.probe import one_request_at_a_time, probe_problem

        model = self.model_pick.currentText().strip()
        yes, no = tr("bench.page.yes"), tr("bench.page.no")
        lines = [
            tr("bench.page.probe.engine", dialect=result.dialect,
               evidence=", ".join(result.dialect_evidence[:3]) or "–"),
            tr("bench.page.probe.models", models=", ".join(result.models) or "–"),
            tr("bench.page.probe.metrics", value=yes if result.metrics_endpoint else no),
            tr("bench.page.probe.usage", value=yes if result.usage_in_stream else no),
        ]  # fmt: skip
        if one_request_at_a_time(result):
            lines.append(tr("bench.page.probe.one_at_a_time"))
        problem = probe_problem(result, model) if model else None
        if problem:
            lines.insert(0, problem)
            self.probe_label.setStyleSheet(ERROR_STYLE)
        else:
            self.probe_label.setStyleSheet("")
        self.probe_label.setText("\n".join(lines))
