"""Open/Save/Save As/recent files from the window, and clear messages for damaged or newer files."""

import json
import time

from advisor.domain.project import PROJECT_VERSION
from advisor.project import load_project
from advisor.settings import load_settings


def _set_inputs(page):
    page.model_picker.select_data("qwen2.5-7b-instruct")
    page.gpu_picker.select_data("h20-96g")
    page.weights.setCurrentIndex(page.weights.findData("fp8"))
    page.kv_dtype.setCurrentIndex(page.kv_dtype.findData("fp8"))
    page.context_spin.setValue(65536)
    page.concurrency_spin.setValue(12)
    page.gpu_count.setCurrentIndex(page.gpu_count.findData(2))
    page.advanced_toggle.setChecked(True)
    page.gpu_util.setValue(0.85)


def test_save_and_reopen_a_project(qtbot, main_window, tmp_path, monkeypatch):
    page = main_window.sizing_page
    _set_inputs(page)
    qtbot.waitUntil(lambda: not page._throttle.isActive(), timeout=3000)
    assert main_window.modified and main_window.windowTitle().startswith("*")
    saved_request = page.inputs.request()
    shown_verdict = page.verdict.text()

    path = tmp_path / "my plan.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    with qtbot.waitSignal(main_window.project_saved, timeout=3000):
        assert main_window.save_project() is True  # no path yet: asks (Save As)
    assert not main_window.modified and "my plan.advisor.json" in main_window.windowTitle()
    project = load_project(path)
    assert project.version == PROJECT_VERSION
    assert project.sizing.request == saved_request
    assert project.sizing.result["memory"]["max_concurrency"] == page.result.memory.max_concurrency

    main_window.new_project()  # back to the defaults
    assert page.inputs.request() != saved_request
    with qtbot.waitSignal(main_window.project_loaded, timeout=3000):
        assert main_window.open_project(path) is True
    assert page.inputs.request() == saved_request
    assert page.weights.currentData() == "fp8" and page.context_spin.value() == 65536
    assert page.gpu_count.currentData() == 2 and abs(page.gpu_util.value() - 0.85) < 1e-9
    assert page.verdict.text() == shown_verdict
    assert not main_window.modified
    assert load_settings().settings.recent_projects[0] == str(path.resolve())

    # Save again goes to the same file without asking
    monkeypatch.setattr(main_window, "ask_save_path", lambda: (_ for _ in ()).throw(AssertionError("asked")))
    page.concurrency_spin.setValue(3)
    mtime = path.stat().st_mtime_ns
    time.sleep(0.01)
    assert main_window.save_project() is True
    assert path.stat().st_mtime_ns != mtime
    assert load_project(path).sizing.request.concurrency == 3


def test_imported_model_and_custom_gpu_survive_a_round_trip(qtbot, main_window, tmp_path, monkeypatch, llama_config):
    page = main_window.sizing_page
    cfg = tmp_path / "TinyLlama" / "config.json"
    cfg.parent.mkdir()
    cfg.write_text(json.dumps(llama_config), encoding="utf-8")
    assert page.import_config(cfg)
    from ui.widgets.custom_gpu_dialog import CustomGpuDialog

    dialog = CustomGpuDialog(None, page)
    dialog.name.setText("Rented Card")
    page.add_custom_gpu(dialog.build(), save=False)
    request = page.inputs.request()
    path = tmp_path / "p.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    assert main_window.save_project_as()
    main_window.new_project()
    assert main_window.open_project(path)
    assert page.inputs.request() == request
    assert page.inputs.model_source == "imported" and page.inputs.gpu_source == "custom"
    assert "TinyLlama" in page.model_picker.currentText() and "Rented Card" in page.gpu_picker.currentText()


def test_damaged_project_gives_a_clear_message(qtbot, main_window, messages, tmp_path):
    path = tmp_path / "broken.advisor.json"
    path.write_text('{"format": "inference-advisor-project", "version": 1, "sizing": {', encoding="utf-8")
    before = main_window.sizing_page.inputs.request()
    assert main_window.open_project(path) is False
    title, text = messages.errors[-1]
    assert title == "Cannot open the project"
    assert "damaged" in text and "line 1" in text and "Traceback" not in text
    assert main_window.sizing_page.inputs.request() == before
    assert main_window.project_path is None


def test_newer_project_asks_for_an_update(qtbot, main_window, messages, tmp_path, monkeypatch):
    path = tmp_path / "ok.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    assert main_window.save_project_as()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = PROJECT_VERSION + 1
    newer = tmp_path / "newer.advisor.json"
    newer.write_text(json.dumps(data), encoding="utf-8")
    assert main_window.open_project(newer) is False
    assert "newer version" in messages.errors[-1][1] and "update" in messages.errors[-1][1]


def test_unsaved_changes_can_cancel_opening(qtbot, main_window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    main_window.sizing_page.concurrency_spin.setValue(5)
    assert main_window.modified
    monkeypatch.setattr(main_window, "ask_unsaved_changes", lambda: QMessageBox.StandardButton.Cancel)
    monkeypatch.setattr(main_window, "ask_open_path", lambda: (_ for _ in ()).throw(AssertionError("should not ask")))
    main_window.open_project_dialog()
    assert main_window.modified


def test_recent_menu_lists_saved_projects(qtbot, main_window, tmp_path, monkeypatch):
    path = tmp_path / "r.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    assert main_window.save_project_as()
    main_window._fill_recent_menu()
    texts = [a.text() for a in main_window.menu_recent.actions()]
    assert str(path.resolve()) in texts


def test_window_geometry_lives_in_an_ini_under_the_config_dir(qtbot, main_window):
    from advisor.paths import config_dir

    main_window.resize(900, 700)
    main_window.close()
    ini = config_dir() / "window.ini"
    assert ini.is_file() and "geometry" in ini.read_text(encoding="utf-8")
