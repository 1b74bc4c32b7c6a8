"""Page 1's note on the reasons resting on unconfirmed facts, counted over the reasons the reader sees and naming
them (issue 25; blind review 31, q22: "'4 of these 5 reasons' does not match the nine reasons listed"; q07: "say which
ones and why they still hold"). Each such reason carries ⚠ in its list; where page 1 has one list the note names
them by number, where it has several (the API's reasons, the fallback's, both paths') it points to the marks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.plan.result import render

K = "consist41.why"


def _numbers(lang: str, numbers: list[int]) -> str:
    """"1, 3 and 4" / "1、3、4"."""
    words = [str(n) for n in numbers]
    if lang.startswith("zh"):
        return "、".join(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def note(lists: Sequence[Sequence[dict[str, Any]]], lang: str) -> str:
    """The note under page 1's reasons (``lists``: each numbered list as shown, items with ``verify``); "" where no
    shown reason rests on an unconfirmed fact."""
    shown = [items for items in lists if items]
    total = sum(len(items) for items in shown)
    flagged = sum(1 for items in shown for f in items if f.get("verify"))
    if not flagged:
        return ""
    if len(shown) == 1:  # one list: its numbers say which
        numbers = [i + 1 for i, f in enumerate(shown[0]) if f.get("verify")]
        key = "all" if flagged == total and total > 1 else "one" if flagged == 1 else "some"
        return render(lang, f"{K}.verify_{key}", {"which": _numbers(lang, numbers), "total": total})
    return render(lang, f"{K}.verify_marked", {"n": flagged, "total": total})


def counts(lists: Sequence[Sequence[dict[str, Any]]]) -> tuple[int, int]:
    """(reasons resting on unconfirmed facts, reasons shown) over page 1's lists."""
    return (sum(1 for items in lists for f in items if f.get("verify")), sum(len(items) for items in lists))


__all__ = ["counts", "note"]
