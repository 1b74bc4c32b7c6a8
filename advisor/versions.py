"""Engine version strings as comparable release numbers."""

from __future__ import annotations

import re


def release_number(version: str | None) -> tuple[int, ...]:
    """(0, 5, 6) of "0.5.6.post2", (1, 2, 0) of "1.2.0rc5", (0, 11, 0) of "v0.11.0"; () when the text does not
    start with a release number ("not stated", None)."""
    found = re.match(r"\s*v?(\d+(?:\.\d+)*)", version or "")
    return tuple(int(x) for x in found.group(1).split(".")) if found else ()


def at_least(version: str | None, since: str) -> bool:
    """Whether ``version`` is ``since`` or later (compared by release number, padded with zeros)."""
    have, need = release_number(version), release_number(since)
    width = max(len(have), len(need))
    return have + (0,) * (width - len(have)) >= need + (0,) * (width - len(need))
