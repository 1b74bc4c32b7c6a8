"""docs/newcomer-walk.md maps each trap of issue #26 items 9 and 10 to its tests: every test it names exists, so the
table cannot keep pointing at a test that was renamed or removed."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "newcomer-walk.md"


def test_every_test_the_walk_names_exists():
    text = DOC.read_text(encoding="utf-8")
    current, named = None, []
    for m in re.finditer(r"`((?:ui|core|dist)/[\w/]+\.py)(?:::(\w+))?`|`::(\w+)`", text):
        if m.group(1):
            current = m.group(1)
            assert (ROOT / "tests" / current).is_file(), current
        name = m.group(2) or m.group(3)
        if name:
            named.append((current, name))
    assert len(named) >= 35
    missing = [(f, n) for f, n in named
               if not re.search(rf"^def {n}\b", (ROOT / "tests" / f).read_text(encoding="utf-8"), re.M)]
    assert missing == []
