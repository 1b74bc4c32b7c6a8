"""The one translation mechanism, shared by the Qt-free core and the UI.

Catalogs are JSON files ``resources/i18n/<locale>/<area>.json`` mapping a dotted key
(``"sizing.fits"``) to text with ``str.format`` placeholders (``"{tokens} tokens"``).
Each area has its own file so parts of the app can grow without editing one big file;
keys must be unique across files. ``tests/core/test_i18n.py`` checks that every locale
has every key with the same placeholders, and that every literal key used in the code exists.

Usage: ``tr("sizing.fits", n=3)`` in the current language, or ``translate("en", key)``
where the language is explicit (memo text, CLI ``--lang``).
"""

from __future__ import annotations

import json
import locale
import logging
import os
import string
import threading
from functools import cache

from advisor.resources import resource_path

LANGUAGES: dict[str, str] = {"zh_CN": "中文", "en": "English"}
DEFAULT_LANGUAGE = "en"

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_current = DEFAULT_LANGUAGE


class CatalogError(ValueError):
    """A translation catalog is malformed (duplicate key, not a JSON object of strings)."""


@cache
def catalog(lang: str) -> dict[str, str]:
    """All keys of one locale, merged from its area files."""
    folder = resource_path("i18n", lang)
    if not folder.is_dir():
        raise CatalogError(f"no translations for language {lang!r}")
    merged: dict[str, str] = {}
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise CatalogError(f"{path}: expected a JSON object of key → text")
        for key, text in data.items():
            if not isinstance(text, str):
                raise CatalogError(f"{path}: value of {key!r} is not text")
            if key in merged:
                raise CatalogError(f"{path}: key {key!r} is defined twice in {lang}")
            merged[key] = text
    return merged


def normalize_language(name: str | None) -> str:
    """Map a locale name (``zh_CN.UTF-8``, ``zh-Hans``, ``en_US``) to one of LANGUAGES."""
    if not name:
        return DEFAULT_LANGUAGE
    low = name.replace("-", "_").lower()
    if low.startswith("zh"):
        return "zh_CN"
    return "en"


def system_language() -> str:
    """The language the system asks for: LANGUAGE/LC_ALL/LC_MESSAGES/LANG, then the C library's locale."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value and value not in ("C", "POSIX", "C.UTF-8"):
            return normalize_language(value.split(":")[0])
    try:
        loc = locale.getlocale()[0]
    except ValueError:
        loc = None
    return normalize_language(loc)


def set_language(lang: str) -> None:
    global _current
    lang = normalize_language(lang) if lang not in LANGUAGES else lang
    catalog(lang)  # fail early on a broken catalog
    with _lock:
        _current = lang


def current_language() -> str:
    return _current


def _is_one(value: object) -> bool:
    """Whether a count reads as one: the int 1, or text such as "1" (counts often arrive formatted)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return value == 1
    return str(value).strip().replace(",", "") == "1"


class _TextFormatter(string.Formatter):
    """``str.format`` plus a plural choice for languages that inflect: ``{n:request|requests}`` reads
    "request" when ``n`` is one and "requests" otherwise (the number itself is written with a plain ``{n}``).
    Catalogs without plurals (zh_CN) just use ``{n}``; the placeholder names stay the same in every locale."""

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            one, _, other = format_spec.partition("|")
            return one if _is_one(value) else other
        return super().format_field(value, format_spec)


_FORMATTER = _TextFormatter()


def translate(lang: str, key: str, /, **kwargs: object) -> str:
    """Text of ``key`` in ``lang``; falls back to English, then to the key itself (logged)."""
    text = catalog(lang).get(key)
    if text is None:
        _log.warning("missing translation %s for %s", key, lang)
        text = catalog(DEFAULT_LANGUAGE).get(key, key)
    if kwargs:
        try:
            # the pure-Python formatter only where a plural choice needs it: str.format is several times faster
            return _FORMATTER.vformat(text, (), kwargs) if "|" in text else text.format(**kwargs)
        except KeyError as missing:
            # a text saved by an older version lacks a parameter a newer translation names (an optional phrase
            # added later): render the rest with it empty rather than show every raw {placeholder}; logged, and
            # the scenario-memo test fails on this warning so a new rule cannot forget one
            _log.warning("missing placeholder %s in translation %s (%s)", missing, key, lang)
            return _render_lenient(text, kwargs)
        except (IndexError, ValueError):
            _log.warning("bad placeholders in translation %s (%s)", key, lang)
            return text
    return text


class _Blank(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return ""


def _render_lenient(text: str, kwargs: dict[str, object]) -> str:
    try:
        return _FORMATTER.vformat(text, (), _Blank(kwargs))
    except (KeyError, IndexError, ValueError):
        return text


def tr(key: str, /, **kwargs: object) -> str:
    """Text of ``key`` in the current language."""
    return translate(_current, key, **kwargs)
