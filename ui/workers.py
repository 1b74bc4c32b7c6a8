"""The one way the UI runs work off the GUI thread.

``TaskRunner.submit(fn, *args, on_result=..., on_error=..., key=...)`` runs ``fn(token, *args)`` in a
QThread and calls ``on_result(value)`` / ``on_error(exc)`` **on the GUI thread**. The engine function is a
plain Qt-free callable that checks ``token.cancelled`` (or calls ``token.raise_if_cancelled()``) between
chunks of work, so cancel takes effect within one chunk.

Why it is shaped like this (the PySide6 traps):
- every running thread is kept in ``self._live`` (a strong reference) until its ``finished`` signal has
  been delivered; the reference is dropped in the ``finished`` slot, never in the result slot, so no
  Python wrapper is collected while Qt still has queued signals for it;
- results travel through a signal of an object living on the GUI thread, so Qt queues the call there;
- ``shutdown()`` cancels everything and waits, so quitting never prints "QThread: Destroyed while
  thread is still running";
- ``key=`` makes a task *latest-only*: submitting again with the same key cancels the previous one
  and its result is dropped (what a slider wants).
"""

from __future__ import annotations

import itertools
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from advisor.cancel import Cancelled, CancelToken

_log = logging.getLogger(__name__)


@dataclass
class TaskHandle:
    id: int
    key: str | None
    token: CancelToken = field(default_factory=CancelToken)
    done: bool = False

    def cancel(self) -> None:
        self.token.cancel()

    @property
    def cancelled(self) -> bool:
        return self.token.cancelled


class _TaskThread(QThread):
    # Emitted from the worker thread; the object lives on the GUI thread, so the runner's slot is queued there.
    outcome = Signal(int, object, object)  # task id, result, exception (or None)

    def __init__(self, task_id: int, fn: Callable[..., Any], args: tuple[Any, ...], token: CancelToken) -> None:
        super().__init__()
        self._task_id = task_id
        self._fn = fn
        self._args = args
        self._token = token

    def run(self) -> None:  # worker thread: no widget access here
        result: Any = None
        error: BaseException | None = None
        try:
            result = self._fn(self._token, *self._args)
        except Cancelled:
            error = Cancelled()
        except BaseException as exc:  # noqa: BLE001 - handed to on_error on the GUI thread
            exc.__traceback_text__ = traceback.format_exc()  # type: ignore[attr-defined]
            error = exc
        finally:
            self._fn = None  # type: ignore[assignment]  # release captured data early
            self._args = ()
        self.outcome.emit(self._task_id, result, error)


class TaskRunner(QObject):
    """Owns all background tasks of the app (one instance, held by the main window)."""

    task_finished = Signal(int)  # task id, after its callbacks ran (tests wait on this)
    idle = Signal()  # no task left running

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._live: dict[int, tuple[_TaskThread, TaskHandle, Callable | None, Callable | None]] = {}
        self._by_key: dict[str, TaskHandle] = {}
        self._closed = False

    # -- public API ----------------------------------------------------------------------------------
    def submit(
        self,
        fn: Callable[..., Any],
        *args: Any,
        on_result: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        key: str | None = None,
    ) -> TaskHandle:
        if self._closed:
            raise RuntimeError("TaskRunner is shut down")
        if key is not None and key in self._by_key:
            self._by_key[key].cancel()  # latest-only: the older result would be stale
        handle = TaskHandle(id=next(self._ids), key=key)
        thread = _TaskThread(handle.id, fn, args, handle.token)
        thread.outcome.connect(self._on_outcome)
        thread.finished.connect(self._on_thread_finished)
        self._live[handle.id] = (thread, handle, on_result, on_error)
        if key is not None:
            self._by_key[key] = handle
        thread.start()
        return handle

    def running(self) -> int:
        return len(self._live)

    def cancel_all(self) -> None:
        for _thread, handle, _r, _e in list(self._live.values()):
            handle.cancel()

    def shutdown(self, timeout_ms: int = 5000) -> bool:
        """Cancel every task and wait for the threads; True when all stopped in time. Call before quitting."""
        self._closed = True
        self.cancel_all()
        ok = True
        for thread, _handle, _r, _e in list(self._live.values()):
            if not thread.wait(timeout_ms):
                _log.error("a background task did not stop within %d ms", timeout_ms)
                ok = False
        # Deliver the queued 'finished' notifications so the strong references are released in order.
        for thread, handle, _r, _e in list(self._live.values()):
            if thread.isFinished():
                self._release(handle.id)
        return ok

    # -- GUI-thread slots ----------------------------------------------------------------------------
    @Slot(int, object, object)
    def _on_outcome(self, task_id: int, result: Any, error: BaseException | None) -> None:
        entry = self._live.get(task_id)
        if entry is None:
            return
        _thread, handle, on_result, on_error = entry
        handle.done = True
        if handle.cancelled or self._closed or isinstance(error, Cancelled):
            return  # a superseded or cancelled task's result is stale: drop it
        try:
            if error is None:
                if on_result is not None:
                    on_result(result)
            elif on_error is not None:
                on_error(error)
            else:
                _log.error("background task failed: %s", getattr(error, "__traceback_text__", error))
        except Exception:  # a callback bug must not kill the event loop
            _log.exception("error in a background task's callback")

    @Slot()
    def _on_thread_finished(self) -> None:
        # Each thread's 'finished' is queued after its own 'outcome', so a thread is released only once its
        # outcome was delivered (handle.done); others are released when their own 'finished' arrives.
        for task_id, (thread, handle, _r, _e) in list(self._live.items()):
            if handle.done and thread.isFinished():
                self._release(task_id)

    def _release(self, task_id: int) -> None:
        entry = self._live.pop(task_id, None)
        if entry is None:
            return
        thread, handle, _r, _e = entry
        if handle.key is not None and self._by_key.get(handle.key) is handle:
            del self._by_key[handle.key]
        del thread  # Python owns the finished QThread; dropping the last reference deletes it
        self.task_finished.emit(task_id)
        if not self._live:
            self.idle.emit()
