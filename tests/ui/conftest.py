"""UI test fixtures: a main window that never blocks on a dialog, and a guard against leaked threads."""

from __future__ import annotations

import gc
import traceback
import weakref

import pytest
from PySide6.QtCore import QEvent, QThread
from PySide6.QtWidgets import QApplication, QMessageBox

# The offscreen platform plugin warns when a top-level window is shown; harmless, and not ours.
_BENIGN_QT_WARNINGS = ("This plugin does not support propagateSizeHints",)


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/ui/" in str(item.fspath).replace("\\", "/"):
            for pattern in _BENIGN_QT_WARNINGS:
                item.add_marker(pytest.mark.qt_log_ignore(pattern))


@pytest.fixture(autouse=True)
def _no_dangling_qthreads(monkeypatch, request):
    """Fail the test when it leaves a QThread running (the cause of 'QThread: Destroyed while thread is still
    running' aborts). Records where each thread was started, to point at the culprit."""
    started: weakref.WeakKeyDictionary[QThread, str] = weakref.WeakKeyDictionary()
    original_start = QThread.start

    def recording_start(self, *args, **kwargs):
        started[self] = "".join(traceback.format_stack(limit=12)[:-1])
        return original_start(self, *args, **kwargs)

    monkeypatch.setattr(QThread, "start", recording_start)
    yield
    dangling = []
    for thread, where in list(started.items()):
        try:
            if thread.isRunning():
                dangling.append((thread, where))
        except RuntimeError:  # the C++ object is already gone: it cannot be running
            continue
    for thread, _where in dangling:  # stop them so one leak does not cascade into later tests
        try:
            thread.requestInterruption()
            thread.quit()
            thread.wait(3000)
        except RuntimeError:
            pass
    if dangling:
        details = "\n---\n".join(where for _t, where in dangling)
        pytest.fail(
            f"test {request.node.name} left {len(dangling)} QThread(s) running; started at:\n{details}",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _delete_widgets_between_tests():
    """Delete what a test left (closed windows waiting for deleteLater, widgets kept only by reference cycles)
    here, at a safe point, instead of whenever the next collection happens to run: a collection inside a later
    test's Qt call (QApplication.setPalette walking every widget) deleted widgets under Qt's feet — a segfault.

    What survives the collection (modules, catalogs, caches, module-scoped fixtures) is then frozen out of later
    collections: a full collection over the session's heap took 0.3–0.7 s per test, a third of the Qt half's time
    (test_pdf_headings.py: 18.7 s → 4.2 s). A frozen object that becomes garbage later is never collected, so it can
    never be deleted under Qt's feet either; only what the next test makes is scanned, here, at this safe point."""
    yield
    app = QApplication.instance()
    if app is not None:
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    gc.freeze()


class Recorder:
    """Collects what would have been shown in message boxes."""

    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []


@pytest.fixture
def messages() -> Recorder:
    return Recorder()


@pytest.fixture
def main_window(qtbot, monkeypatch, messages):
    """The real main window (settings from the isolated config dir), shown offscreen, English."""
    from ui.app import create_window
    from ui.main_window import MainWindow

    monkeypatch.setattr(MainWindow, "ask_unsaved_changes", lambda self: QMessageBox.StandardButton.Discard)
    monkeypatch.setattr(
        MainWindow, "show_error", lambda self, title, text: messages.errors.append((title, text))
    )
    window = create_window(QApplication.instance(), "en")
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.close()
    window.shutdown()


@pytest.fixture
def sizing_page(qtbot):
    """The real Sizing page, built alone as the main window builds it (same settings, language, theme and fonts;
    its own worker), shown offscreen, English. Alone because the whole window cost 4–6 s per test on a loaded
    2-core machine, four times the page; a test that needs the page inside the window takes ``main_window`` and
    reads ``main_window.sizing_page``."""
    from ui.app import prepare_app
    from ui.pages.sizing import SizingPage
    from ui.workers import TaskRunner

    loaded, _cjk = prepare_app(QApplication.instance(), "en")
    runner = TaskRunner()
    page = SizingPage(runner, loaded.settings.sizing_defaults)
    qtbot.addWidget(page)
    page.resize(1280, 780)
    page.show()
    qtbot.waitExposed(page)
    yield page
    page.stop()
    runner.shutdown()


@pytest.fixture
def llama_config() -> dict:
    """A small valid Llama-style Hugging Face config.json (TinyLlama-1.1B's shape)."""
    return {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": 2048,
        "intermediate_size": 5632,
        "num_hidden_layers": 22,
        "num_attention_heads": 32,
        "num_key_value_heads": 4,
        "vocab_size": 32000,
        "max_position_embeddings": 4096,
        "rms_norm_eps": 1e-5,
        "tie_word_embeddings": False,
        "torch_dtype": "bfloat16",
    }


@pytest.fixture
def wizard_page(request, qtbot, messages):
    """The Decide wizard, shown (the wizard tests' page). In a test that also takes ``main_window`` it is the
    window's own page; otherwise it is built alone as the window builds it (``ui.app.prepare_app``, a real Sizing
    page whose choice it reads through the shared ``AppState``, errors to ``messages`` as the window's dialog would
    show them): the whole window cost 4–6 s per test on a loaded 2-core machine."""
    if "main_window" in request.fixturenames:
        main_window = request.getfixturevalue("main_window")
        wizard = main_window.wizard_page
        main_window.tabs.setCurrentWidget(wizard)
        qtbot.waitUntil(wizard.isVisible, timeout=3000)
        yield wizard
        return
    from ui.app import prepare_app
    from ui.app_state import AppState
    from ui.pages.sizing import SizingPage
    from ui.pages.wizard import WizardPage
    from ui.workers import TaskRunner

    loaded, _cjk = prepare_app(QApplication.instance(), "en")
    runner = TaskRunner()
    state = AppState()
    sizing = SizingPage(runner, loaded.settings.sizing_defaults)
    qtbot.addWidget(sizing)
    state.sizing_inputs = sizing.inputs  # what the window shares with the wizard
    wizard = WizardPage(runner, state=state)
    wizard.error_raised.connect(lambda title, text: messages.errors.append((title, text)))
    qtbot.addWidget(wizard)
    wizard.resize(1280, 780)
    wizard.show()
    qtbot.waitUntil(wizard.isVisible, timeout=3000)
    yield wizard
    for page in (wizard, sizing):  # as the window's shutdown does
        stop = getattr(page, "stop", None)
        if stop:
            stop()
    runner.shutdown()
