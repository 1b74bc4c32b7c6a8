"""Helpers shared by the command modules: JSON output and user-facing errors."""

from __future__ import annotations

import json
import math
import sys
from typing import Any

from pydantic import BaseModel, ValidationError


class UserError(Exception):
    """An error caused by the user's input: printed as one clear line, exit code 2, no traceback."""


def _default(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def print_json(data: Any) -> None:
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2, default=_default)
    sys.stdout.write("\n")


def validation_message(exc: ValidationError) -> str:
    """One line per invalid field, in words a newcomer understands."""
    lines = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "input"
        msg = err["msg"].removeprefix("Value error, ")
        lines.append(f"{where}: {msg}")
    return "\n".join(lines)


def fail(message: str, code: int = 2) -> int:
    print(f"advisor: error: {message}", file=sys.stderr)
    return code
