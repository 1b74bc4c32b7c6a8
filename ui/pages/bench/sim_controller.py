"""The embedded simulated server's process: started in the background, stopped, and its state said.

A plain ``QObject`` the panels subscribe to (``state_changed``); it never touches a widget. The process is
``advisor.sim.launcher.SimLauncher`` (a child ``advisor sim`` that dies with the app).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal


class SimController(QObject):
    state_changed = Signal(str)  # "starting" | "running" | "stopped" | "error"
    stopping = Signal()  # before the process stops: a run against it is stopped first

    def __init__(self, runner: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runner = runner
        self.launcher: Any = None
        self.url: str | None = None
        self.state = "stopped"
        self.error = ""

    @property
    def active(self) -> bool:
        """Started (or starting): the setup fields are locked."""
        return self.launcher is not None

    def start(self, spec: Any) -> None:
        """Start a server for ``spec`` (a ``SimLaunchSpec``) in the background; ``state_changed`` says how it went."""
        from advisor.sim.launcher import SimLauncher

        if self.launcher is not None:
            return
        self.launcher = launcher = SimLauncher(spec)
        self.url = None
        self._set("starting")
        self.runner.submit(lambda _t: launcher.start(), on_result=self._on_started, on_error=self._on_error)

    def _on_started(self, url: str) -> None:
        self.url = url
        self._set("running")

    def _on_error(self, exc: BaseException) -> None:
        self.launcher = None
        self.url = None
        self.error = str(exc)
        self._set("error")

    def stop(self) -> None:
        self.stopping.emit()
        launcher, self.launcher = self.launcher, None
        self.url = None
        if launcher is not None:
            launcher.stop()
        self._set("stopped")

    def shutdown(self) -> None:
        """The app quits: no orphan process (no state change is shown)."""
        if self.launcher is not None:
            self.launcher.stop(grace_s=1.0)
            self.launcher = None

    def _set(self, state: str) -> None:
        self.state = state
        self.state_changed.emit(state)
