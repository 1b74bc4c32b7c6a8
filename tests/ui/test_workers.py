"""The one background-work helper: results on the GUI thread, latest-only keys, errors, cancel, shutdown."""

import threading
import time

import pytest
from PySide6.QtCore import QThread
from PySide6.QtWidgets import QApplication

from ui.workers import TaskRunner


@pytest.fixture
def runner():
    r = TaskRunner()
    yield r
    r.shutdown()


def _slow(token, seconds, value):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:  # bounded; cancel takes effect within one 5 ms chunk
        token.raise_if_cancelled()
        time.sleep(0.005)
    return value


def test_result_arrives_on_the_gui_thread(qtbot, runner):
    seen = {}

    def work(token):
        seen["worker"] = threading.get_ident()
        return 42

    def on_result(value):
        seen["value"] = value
        seen["gui"] = QThread.currentThread() is QApplication.instance().thread()

    with qtbot.waitSignal(runner.idle, timeout=5000):
        runner.submit(work, on_result=on_result)
    assert seen["value"] == 42
    assert seen["gui"] is True
    assert seen["worker"] != threading.get_ident()
    assert runner.running() == 0


def test_same_key_keeps_only_the_latest_result(qtbot, runner):
    results = []
    with qtbot.waitSignal(runner.idle, timeout=5000):
        runner.submit(_slow, 0.3, "old", on_result=results.append, key="k")
        runner.submit(_slow, 0.01, "new", on_result=results.append, key="k")
    assert results == ["new"]


def test_errors_go_to_on_error_with_the_exception(qtbot, runner):
    errors = []

    def boom(token):
        raise ValueError("bad input")

    with qtbot.waitSignal(runner.idle, timeout=5000):
        runner.submit(boom, on_error=errors.append)
    assert len(errors) == 1 and isinstance(errors[0], ValueError) and str(errors[0]) == "bad input"


def test_a_failing_callback_does_not_break_the_runner(qtbot, runner):
    results = []

    def bad_callback(value):
        raise RuntimeError("callback bug")

    with qtbot.waitSignal(runner.idle, timeout=5000):
        runner.submit(lambda t: 1, on_result=bad_callback)
    with qtbot.waitSignal(runner.idle, timeout=5000):
        runner.submit(lambda t: 2, on_result=results.append)
    assert results == [2]


def test_cancel_drops_the_result(qtbot, runner):
    results = []
    with qtbot.waitSignal(runner.idle, timeout=5000):
        handle = runner.submit(_slow, 2.0, "x", on_result=results.append)
        handle.cancel()
    assert results == []


def test_shutdown_cancels_and_waits(runner):
    started = time.monotonic()
    for i in range(4):
        runner.submit(_slow, 10.0, i)
    assert runner.shutdown(timeout_ms=3000) is True
    assert time.monotonic() - started < 3
    assert runner.running() == 0
    with pytest.raises(RuntimeError):
        runner.submit(_slow, 0.1, 0)


def test_many_tasks_all_delivered(qtbot, runner):
    results = []
    with qtbot.waitSignal(runner.idle, timeout=10000):
        for i in range(30):
            runner.submit(lambda t, i=i: i * i, on_result=results.append)
    assert sorted(results) == [i * i for i in range(30)]
