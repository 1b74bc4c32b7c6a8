"""What the memo export dialog remembers between exports (and app restarts): the last language, format and folder.

Kept in the app's QSettings file (ui/window_state.py), beside the window geometry: UI state, not a user setting.
"""

from __future__ import annotations

from pathlib import Path

from ui.window_state import qsettings

_LANG, _FORMAT, _FOLDER = "memo_export/language", "memo_export/format", "memo_export/folder"


def last_choice() -> tuple[str | None, str | None]:
    """(format suffix, language) of the last export, each None when never chosen."""
    store = qsettings()
    fmt, lang = store.value(_FORMAT), store.value(_LANG)
    return (fmt if fmt in (".pdf", ".md") else None), (lang if isinstance(lang, str) else None)


def remember_choice(suffix: str, lang: str) -> None:
    store = qsettings()
    store.setValue(_FORMAT, suffix)
    store.setValue(_LANG, lang)
    store.sync()


def last_folder() -> Path | None:
    """The folder the last memo went to, while it still exists."""
    value = qsettings().value(_FOLDER)
    folder = Path(value) if isinstance(value, str) and value else None
    return folder if folder is not None and folder.is_dir() else None


def remember_folder(folder: Path) -> None:
    store = qsettings()
    store.setValue(_FOLDER, str(folder))
    store.sync()
