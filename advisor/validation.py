"""Pydantic validation errors in words a newcomer understands, in the UI's language: one line per invalid field
(CLI and app alike).

Our own validators raise their sentences already translated (``tr`` at the time of the check); pydantic's built-in
checks (a bound, a type, a choice) are worded here from the error's type and context, so no English sentence of
pydantic's reaches a Chinese screen.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from advisor.i18n import tr

# pydantic's error types → our keys (validation.error.<key>)
_BOUNDS = {"greater_than_equal": ("ge", "ge"), "greater_than": ("gt", "gt"), "less_than_equal": ("le", "le"),
           "less_than": ("lt", "lt")}  # fmt: skip
_KINDS = {
    "int_type": "whole_number", "int_parsing": "whole_number", "int_from_float": "whole_number",
    "int_parsing_size": "whole_number", "float_type": "number", "float_parsing": "number", "finite_number": "number",
    "bool_type": "yes_no", "bool_parsing": "yes_no", "string_type": "text", "missing": "missing",
    "extra_forbidden": "unknown_field",
}  # fmt: skip
_LENGTHS = {"string_too_long": ("too_long", "max_length"), "too_long": ("too_long", "max_length"),
            "string_too_short": ("too_short", "min_length"), "too_short": ("too_short", "min_length")}  # fmt: skip


def _shown(value: Any) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= 60 else text[:57] + "…"


def problem_text(err: Any) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as a sentence in the current language."""
    kind, ctx, value = err.get("type", ""), err.get("ctx") or {}, err.get("input")
    if kind in ("value_error", "assertion_error"):
        return str(err["msg"]).removeprefix("Value error, ").removeprefix("Assertion failed, ")
    if kind in _BOUNDS:
        key, bound = _BOUNDS[kind]
        return tr(f"validation.error.{key}", limit=ctx.get(bound), value=_shown(value))
    if kind in _KINDS:
        return tr(f"validation.error.{_KINDS[kind]}", value=_shown(value))
    if kind in _LENGTHS:
        key, bound = _LENGTHS[kind]
        return tr(f"validation.error.{key}", limit=ctx.get(bound))
    if kind in ("literal_error", "enum"):
        return tr("validation.error.choice", expected=ctx.get("expected", ""), value=_shown(value))
    return tr("validation.error.other", message=err.get("msg", kind))


def validation_problems(exc: ValidationError) -> list[tuple[str, str]]:
    """(where, what is wrong) per invalid field, in the current language; a check over the whole input has no
    field and reads "input"."""
    return [(".".join(str(p) for p in err["loc"]) or tr("validation.where.input"), problem_text(err))
            for err in exc.errors()]  # fmt: skip


def validation_message(exc: ValidationError) -> str:
    """One line per invalid field, in words a newcomer understands."""
    return "\n".join(tr("validation.line", where=where, what=what) for where, what in validation_problems(exc))
