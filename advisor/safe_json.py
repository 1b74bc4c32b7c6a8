"""The one JSON reader for every file the app reads: config.json, project files, datasets, the user GPU file,
settings and plan answers.

``json.loads`` alone accepts things that later turn into tracebacks or silently wrong numbers: ``NaN`` and
``Infinity`` (not JSON at all), ``1e999`` (infinity), a 5,000-digit integer (``ValueError`` from Python's
integer-conversion limit), nesting thousands of levels deep (``RecursionError`` here or in pydantic) and a
file of gigabytes picked by mistake. Here each is a ``JsonInputError`` whose message names the file, says
what is wrong and what to do.

Usage::

    data = load_json_file(path)                      # files
    data = loads(text, source="the request body")    # text already in memory
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

from advisor.i18n import tr

__all__ = [
    "DEFAULT_MAX_BYTES", "MAX_DEPTH", "MAX_INT_DIGITS", "JsonInputError", "check_depth", "load_json_file", "loads",
    "read_bounded",
]  # fmt: skip

MAX_DEPTH = 64
"""Deepest nesting of objects/arrays accepted. Our own files nest fewer than 10 levels; real configs fewer than 6."""
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
"""Largest file read by default (64 MiB): far above any config, project or GPU file, below what hurts memory."""
MAX_INT_DIGITS = 64
"""Longest integer literal accepted (more digits than any real count of bytes, tokens or parameters)."""

# A JSON string (with escapes), or one bracket. Strings are matched whole so brackets inside them are skipped.
_DEPTH_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')


class JsonInputError(ValueError):
    """A JSON input that cannot be used; ``str(exc)`` is a complete sentence naming the file and what to do.

    ``kind`` is one of ``missing``, ``is_folder``, ``unreadable``, ``too_big``, ``not_text``, ``syntax``,
    ``too_deep``, ``non_finite``, ``big_number``; ``reason`` is the middle of the sentence without the file
    name or advice ("is not valid JSON: … at line 2, column 1"), for callers that give their own advice;
    ``line``/``column`` are set for ``syntax``.
    """

    def __init__(self, kind: str, source: str, *, line: int | None = None, column: int | None = None, **params: object):
        self.kind = kind
        self.source = source
        self.line = line
        self.column = column
        self.reason = tr(f"inputs.json.{kind}", line=line, column=column, **params)
        super().__init__(tr("inputs.json.message", source=source, reason=self.reason, advice=tr(f"inputs.json.advice.{kind}")))


class _Reject(Exception):
    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(detail)
        self.kind = kind
        self.detail = detail


def _constant(name: str) -> Any:
    raise _Reject("non_finite", name)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Reject("non_finite", text if len(text) <= 40 else text[:37] + "...")
    return value


def _int(text: str) -> int:
    digits = len(text) - (text[0] == "-")
    if digits > MAX_INT_DIGITS:
        raise _Reject("big_number", str(digits))
    return int(text)


def check_depth(text: str, source: str, max_depth: int = MAX_DEPTH) -> None:
    """Raise JsonInputError when objects/arrays nest deeper than ``max_depth`` (checked before parsing, so the
    parser never recurses that deep)."""
    if text.count("[") + text.count("{") <= max_depth:  # fast path (C speed): too few brackets to nest that deep
        return
    depth = 0
    for match in _DEPTH_TOKENS.finditer(text):
        c = match.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > max_depth:
                raise JsonInputError("too_deep", source, limit=max_depth)
        elif c == "]" or c == "}":
            depth -= 1


def loads(
    data: str | bytes, *, source: str = "input", max_depth: int = MAX_DEPTH, max_bytes: int | None = DEFAULT_MAX_BYTES
) -> Any:
    """Parse strict JSON: no NaN/Infinity, no overflowing floats, no integers over MAX_INT_DIGITS digits,
    no nesting deeper than ``max_depth``. ``source`` names the input in messages (usually the file path)."""
    if max_bytes is not None and len(data) > max_bytes:
        raise JsonInputError("too_big", source, size=len(data), limit=max_bytes)
    if isinstance(data, bytes | bytearray):
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonInputError("not_text", source) from None
    else:
        text = data.removeprefix("\ufeff")
    check_depth(text, source, max_depth)
    try:
        return json.loads(text, parse_constant=_constant, parse_float=_float, parse_int=_int)
    except _Reject as exc:
        if exc.kind == "big_number":
            raise JsonInputError("big_number", source, digits=exc.detail, limit=MAX_INT_DIGITS) from None
        raise JsonInputError("non_finite", source, value=exc.detail) from None
    except json.JSONDecodeError as exc:
        raise JsonInputError("syntax", source, line=exc.lineno, column=exc.colno, error=exc.msg) from None
    except RecursionError:  # belt and braces: check_depth should have caught it
        raise JsonInputError("too_deep", source, limit=max_depth) from None


def read_bounded(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of a file, refusing (JsonInputError) a missing file, a folder, or one over ``max_bytes``,
    without reading more than ``max_bytes + 1`` bytes."""
    p = Path(path)
    source = str(p)
    try:
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise JsonInputError("missing", source) from None
    except IsADirectoryError:
        raise JsonInputError("is_folder", source) from None
    except OSError as exc:
        raise JsonInputError("unreadable", source, error=exc.strerror or str(exc)) from None
    except ValueError as exc:  # a NUL byte in the path
        raise JsonInputError("unreadable", source, error=str(exc)) from None
    if len(data) > max_bytes:
        raise JsonInputError("too_big", source, size=f"> {max_bytes}", limit=max_bytes)
    return data


def load_json_file(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Any:
    """Read and parse a JSON file with the limits of ``loads``; every failure is a JsonInputError naming it."""
    return loads(read_bounded(path, max_bytes), source=str(Path(path)), max_depth=max_depth, max_bytes=None)
