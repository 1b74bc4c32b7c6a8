"""What is wrong with a team's answers, field by field, in the user's language: ``AnswerProblem`` (one mistake)
and ``AnswersError`` (all of them). Their own module so that the readers of answers (``answers``, ``models``)
raise them without importing each other."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from advisor.i18n import catalog, translate
from advisor.plan.result import render


@dataclass(frozen=True)
class AnswerProblem:
    """One mistake in the answers: which field (a dotted path into the answers file), what is wrong and what is
    allowed, as an i18n key (``answers.error.*``) with parameters, so it reads in the user's language.

    A parameter that is a list is joined in the language: ``{"or": [...]}`` → "'a', 'b' or 'c'" / "'a'、'b' 或
    'c'"; ``{"and": [...]}`` → "a, b and c" / "a、b 和 c"."""

    field: str
    key: str
    params: dict[str, Any] = dataclass_field(default_factory=dict)

    def text_in(self, lang: str) -> str:
        params = {name: _joined(lang, value) for name, value in self.params.items()}
        return render(lang, self.key, params)

    def where_in(self, lang: str) -> str:
        """The field's path, with its label in ``lang`` where it has one: "use_case（使用场景）"."""
        top = self.field.split(".")[0]
        label_key = f"plan.field.{top}.label"
        if label_key in catalog(lang):  # one of the answers' fields (each has a label)
            return translate(lang, "answers.where", path=self.field, label=translate(lang, label_key))
        if self.field in ("file", "answers"):  # the whole file, not one of its fields
            return translate(lang, f"answers.field.{self.field}")
        return self.field

    def line_in(self, lang: str) -> str:
        """"where: what is wrong", as the CLI prints it."""
        return translate(lang, "answers.problem", where=self.where_in(lang), message=self.text_in(lang))


def _joined(lang: str, value: Any) -> Any:
    if not (isinstance(value, dict) and len(value) == 1 and next(iter(value)) in ("or", "and")):
        return value
    (how, items), = value.items()
    items = [f"'{v}'" if how == "or" else str(v) for v in items]
    if len(items) < 2:
        return "".join(items)
    return translate(lang, "answers.list_sep").join(items[:-1]) + translate(lang, f"answers.list_{how}") + items[-1]


class AnswersError(ValueError):
    """The answers are not valid; ``issues`` lists one ``AnswerProblem`` per mistake (field-level, translatable).

    ``problems`` gives (field path, message in English) pairs, ``problems_in(lang)`` the same in ``lang``."""

    def __init__(self, problems: list[AnswerProblem] | list[tuple[str, str]]) -> None:
        self.issues = [p if isinstance(p, AnswerProblem) else AnswerProblem(p[0], "answers.error.other",
                                                                           {"message": p[1]}) for p in problems]  # fmt: skip
        super().__init__("\n".join(f"{where}: {msg}" for where, msg in self.problems))

    @property
    def problems(self) -> list[tuple[str, str]]:
        return self.problems_in("en")

    def problems_in(self, lang: str) -> list[tuple[str, str]]:
        return [(p.field, p.text_in(lang)) for p in self.issues]

    def lines_in(self, lang: str) -> list[str]:
        return [p.line_in(lang) for p in self.issues]
