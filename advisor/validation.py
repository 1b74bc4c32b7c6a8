"""Pydantic validation errors in words a newcomer understands: one line per invalid field (CLI and app alike)."""

from __future__ import annotations

from pydantic import ValidationError


def validation_message(exc: ValidationError) -> str:
    """One line per invalid field, in words a newcomer understands."""
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "input"
        msg = err["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {msg}")
    return "\n".join(lines)
