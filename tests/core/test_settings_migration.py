"""Settings: defaults, round trip, v1 → v2 migration, and a damaged or newer file never stops the app."""

import json

import pytest

from advisor import i18n
from advisor.settings import (
    MAX_RECENT,
    SETTINGS_VERSION,
    Settings,
    SettingsFileError,
    load_settings,
    save_settings,
    settings_from_dict,
    settings_path,
)


def test_missing_file_gives_defaults_without_a_problem():
    loaded = load_settings()
    assert loaded.problem is None
    assert loaded.settings == Settings()
    assert loaded.settings.schema_version == SETTINGS_VERSION


def test_round_trip_goes_to_the_config_dir(tmp_path):
    s = Settings(language="zh_CN", theme="dark").with_recent(tmp_path / "a.advisor.json")
    save_settings(s)
    assert settings_path().is_file()
    assert str(tmp_path / "home") in str(settings_path())  # the autouse fixture isolates us
    assert load_settings().settings == s


def test_v1_file_is_migrated():
    v1 = {"version": 1, "lang": "zh_CN.UTF-8", "dark_mode": True, "recent": ["/p/a.advisor.json", "/p/a.advisor.json", "/p/b"],
          "default_gpu": "h20-96g"}  # fmt: skip
    s = settings_from_dict(v1)
    assert s.schema_version == 2
    assert s.language == "zh_CN"
    assert s.theme == "dark"
    assert s.recent_projects == ["/p/a.advisor.json", "/p/b"]
    assert s.sizing_defaults.gpu_id == "h20-96g"


@pytest.mark.parametrize(("dark", "theme"), [(None, "system"), (False, "light"), (True, "dark")])
def test_v1_theme_choices(dark, theme):
    assert settings_from_dict({"version": 1, "lang": None, "dark_mode": dark}).theme == theme
    assert settings_from_dict({"version": 1, "lang": None, "dark_mode": dark}).language == "system"


def test_v1_file_on_disk_is_migrated_and_saved_as_v2():
    settings_path().write_text(json.dumps({"version": 1, "lang": "en", "dark_mode": False}), encoding="utf-8")
    loaded = load_settings()
    assert loaded.problem is None and loaded.settings.language == "en" and loaded.settings.theme == "light"
    save_settings(loaded.settings)
    assert json.loads(settings_path().read_text(encoding="utf-8"))["schema_version"] == 2


def test_newer_version_is_refused_with_a_message():
    with pytest.raises(SettingsFileError, match="newer"):
        settings_from_dict({"schema_version": SETTINGS_VERSION + 1})


@pytest.mark.parametrize(
    "content", ["{not json", "[1, 2]", '{"schema_version": 2, "language": "fr"}', json.dumps({"schema_version": 99})]
)
def test_bad_file_is_set_aside_and_defaults_used(content):
    path = settings_path()
    path.write_text(content, encoding="utf-8")
    loaded = load_settings()
    assert loaded.settings == Settings()
    assert loaded.problem and "settings" in loaded.problem.lower()
    assert not path.exists()
    kept = list(path.parent.glob("settings.json.*.bak"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == content


def test_problem_message_is_translated():
    settings_path().write_text("{", encoding="utf-8")
    i18n.set_language("zh_CN")
    assert "设置文件" in (load_settings().problem or "")


def test_recent_list_is_deduplicated_newest_first_and_bounded(tmp_path):
    s = Settings()
    for i in range(MAX_RECENT + 5):
        s = s.with_recent(tmp_path / f"p{i}.advisor.json")
    s = s.with_recent(tmp_path / "p3.advisor.json")
    assert len(s.recent_projects) == MAX_RECENT
    assert s.recent_projects[0].endswith("p3.advisor.json")
    assert len(set(s.recent_projects)) == MAX_RECENT


def test_effective_language_follows_the_system_when_asked(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.setenv(var, "")
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert Settings(language="system").effective_language() == "zh_CN"
    assert Settings(language="en").effective_language() == "en"
