"""The wizard's result screen: the recommendation of the answers as they are now (``advisor.plan.what_if``).

A plan runs inline (first show, tests) or on the worker thread with a latest-only key (a what-if change: a fast
typist never waits on a stale plan). A moment after a result is shown, the what-if choices are planned ahead in
the background so the first change of each answers at once; a plan the user waits for cancels that.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from advisor import i18n
from advisor.i18n import tr
from advisor.plan.draft import clean_answers
from advisor.plan.what_if import plan_for, prewarm_plans, what_if_variants
from ui.widgets.wizard_fields import ALL_FIELDS
from ui.widgets.wizard_result import WHAT_IF_FIELDS, ResultView
from ui.workers import TaskRunner

_log = logging.getLogger(__name__)

PREWARM_DELAY_MS = 400  # after a result is shown: long enough not to compete with its first paint
WHAT_IF_CHOICES = {path: ALL_FIELDS[path].choices for path in WHAT_IF_FIELDS}


class ResultPanel(QWidget):
    """``shown`` is emitted once a plan (first or what-if) or the reason there is none is on screen.

    ``draft`` gives the answers and quotes as they are now; ``on_screen`` says whether the result screen is the
    one shown (the pre-planning waits for the user to be looking at a result)."""

    shown = Signal()

    def __init__(self, runner: TaskRunner, models: list[tuple[str, str]],
                 draft: Callable[[], tuple[dict[str, Any], list[Any]]], on_screen: Callable[[], bool],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.runner = runner
        self._draft = draft
        self._on_screen = on_screen
        self.result: Any = None
        self.plan_error: str | None = None
        self._plan_exc: Any = None  # the AnswersError behind plan_error, to say it again after a language switch
        self.last_plan_ms: float | None = None
        self._result_answers: dict[str, Any] | None = None
        self._prewarm_handle: Any = None
        self._prewarm_timer = QTimer(self)
        self._prewarm_timer.setSingleShot(True)
        self._prewarm_timer.setInterval(PREWARM_DELAY_MS)
        self._prewarm_timer.timeout.connect(self._prewarm)
        self.view = ResultView(models)
        self.status = QLabel()
        self.status.setObjectName("resultStatus")
        self.status.setWordWrap(True)
        col = QVBoxLayout(self)
        col.addWidget(self.status)
        col.addWidget(self.view)

    def retranslate(self) -> None:
        self.view.retranslate()
        if self.plan_error:
            self.status.setText(self.error_text())

    def forget(self) -> None:
        """No recommendation (new answers loaded): the next result screen plans afresh."""
        self.result = None

    # -- planning ----------------------------------------------------------------------------------------------
    def compute(self, inline: bool = True, compare: bool = False) -> None:
        """Plan from the answers as they are now: inline, or on a worker (what-if)."""
        started = time.perf_counter()
        answers, quotes = self._draft()
        snapshot = clean_answers(answers)
        if inline:
            try:
                result = plan_for(snapshot, quotes)
            except Exception as exc:  # noqa: BLE001 - shown in words, never a traceback
                self._on_error(exc)
                return
            self._on_plan(result, started, compare, snapshot)
            return
        self.stop_prewarm()  # the plan the user waits for gets the CPU
        self.runner.submit(lambda _token, a, q: plan_for(a, q), snapshot, list(quotes),
                           on_result=lambda r: self._on_plan(r, started, compare, snapshot),
                           on_error=self._on_error, key="wizard-plan")  # fmt: skip

    def is_current(self) -> bool:
        """The recommendation shown was made from the answers as they are now."""
        return self.result is not None and self._result_answers == clean_answers(self._draft()[0])

    def stop_prewarm(self) -> None:
        self._prewarm_timer.stop()
        if self._prewarm_handle is not None:
            self._prewarm_handle.cancel()
            self._prewarm_handle = None

    def _prewarm(self) -> None:
        """Plan the what-if choices in the background (``advisor.plan.what_if.prewarm_plans``) while the user reads
        the result."""
        if not self._on_screen() or not self.is_current():
            return
        answers, quotes = self._draft()
        try:
            self._prewarm_handle = self.runner.submit(
                prewarm_plans, what_if_variants(clean_answers(answers), WHAT_IF_CHOICES), list(quotes),
                key="wizard-prewarm",
            )  # fmt: skip
        except RuntimeError:  # the runner is shut down (the window is closing)
            self._prewarm_handle = None

    def _on_plan(self, result: Any, started: float, compare: bool, snapshot: dict[str, Any] | None = None) -> None:
        self.plan_error = None
        self._plan_exc = None
        self.result = result
        self._result_answers = snapshot
        self.view.set_result(result, compare=compare)
        self.view.set_what_if_values(self._draft()[0])
        self.status.setText("")
        self.status.hide()
        self.view.show()
        self.last_plan_ms = (time.perf_counter() - started) * 1000
        self._prewarm_timer.start()
        self.shown.emit()

    def _on_error(self, exc: BaseException) -> None:
        from advisor.plan import AnswersError

        self._plan_exc = exc if isinstance(exc, AnswersError) else None
        if isinstance(exc, AnswersError):
            self.plan_error = "\n".join(exc.lines_in(i18n.current_language()))
        else:
            _log.error("planning failed: %s", getattr(exc, "__traceback_text__", exc))
            self.plan_error = str(exc) or type(exc).__name__
        self.status.setText(self.error_text())
        self.status.setStyleSheet("color: #d9534f;")
        self.status.show()
        self.result = None  # never show a recommendation for answers it was not made from
        self.view.hide()
        self.shown.emit()

    def error_text(self) -> str:
        if self._plan_exc is not None:  # field-level problems: said again in the language shown now
            self.plan_error = "\n".join(self._plan_exc.lines_in(i18n.current_language()))
        return tr("wizard.result.failed", reason=self.plan_error or "")
