"""The decision memo's sentence for a stored scored A/B ("AWQ-INT4 vs BF16 on your 200 samples: 91.5 % vs
93.0 %, difference −1.5 points, 95 % CI −4.1 … +1.1: no significant drop"), in the memo's language."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate


def _pts(value: float | None, sign: bool = True) -> str:
    if value is None:
        return "–"
    return f"{value * 100:+.1f}".replace("-", "−") if sign else f"{value * 100:.1f}"


def quality_memo_lines(stored: list[dict[str, Any]], lang: str) -> list[str]:
    """One sentence per stored scored A/B (``advisor.bench.quality.history`` rows), each once."""
    lines, seen = [], set()
    for row in stored:
        if row.get("quality_id") in seen or not row.get("samples"):
            continue
        seen.add(row.get("quality_id"))
        low, high, diff = row.get("ci_low"), row.get("ci_high"), row.get("difference") or 0.0
        # shown: as the A/B's verdict said it (interval and exact test); a row stored before that, by its interval
        shown = low is not None and high is not None and (low > 0 or high < 0)
        shown = bool((row.get("result") or {}).get("significant", shown))
        verdict = "memo.quality.drop" if shown and diff < 0 else "memo.quality.gain" if shown else "memo.quality.none"
        lines.append(translate(
            lang, "memo.quality.line", b=row.get("b_label") or "B", a=row.get("a_label") or "A", n=row["samples"],
            b_pct=_pts(row.get("b_accuracy"), False), a_pct=_pts(row.get("a_accuracy"), False), diff=_pts(diff),
            low=_pts(low), high=_pts(high), verdict=translate(lang, verdict))
            + (" " + translate(lang, "memo.quality.simulated") if row.get("simulated") else ""))
    return lines
