"""The wizard's question screens: one scrolling step per group of questions (ui/widgets/wizard_fields.py's
``STEPS``), and the engine's cross-field checks put on the field they name.

The questions themselves (paths, kinds, choices, when each is shown) stay in ``wizard_fields.STEPS``; a step
screen only lays them out.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from advisor.i18n import tr
from advisor.plan.draft import clean_answers, get_path
from ui.widgets.wizard_fields import FieldEditor, FieldSpec

_log = logging.getLogger(__name__)

# the engine's checks over a whole part, said in the wizard's words on the field that breaks them
CROSS_MESSAGES = {
    "prompt_tokens": "wizard.error.p95_below_avg",
    "output_tokens": "wizard.error.p95_below_avg",
    "requests_per_day": "wizard.error.low_high_plain",
    "user_mix": "wizard.error.mix",
    "model": "wizard.error.model_unknown_plain",
    "gpu_constraint": "wizard.error.gpu_unknown",
    "overseas_markets": "wizard.error.markets",
}


def model_items() -> list[tuple[str, str]]:
    """(id, name) of the model presets for the model question (empty when the catalog is broken)."""
    try:
        from advisor.catalog import load_models

        return [(m.id, m.name) for m in load_models()]
    except Exception:  # a broken catalog: the model question still takes a typed id or a config.json path
        _log.exception("model presets unavailable for the wizard")
        return []


def scrolling(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(widget)
    return area


class QuestionStep(QScrollArea):
    """One step: its intro, an optional panel on top (the workload panel on the first step), one editor per
    question (``editors``: path → FieldEditor, in the order asked)."""

    def __init__(self, step_id: str, fields: tuple[FieldSpec, ...], models: list[tuple[str, str]],
                 top: QWidget | None = None) -> None:  # fmt: skip
        super().__init__()
        self.step_id = step_id
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        page = QWidget()
        col = QVBoxLayout(page)
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.intro.setObjectName("stepIntro")
        col.addWidget(self.intro)
        if top is not None:
            col.addWidget(top)
        self.editors: dict[str, FieldEditor] = {}
        for spec in fields:
            editor = FieldEditor(spec, models)
            col.addWidget(editor)
            self.editors[spec.path] = editor
        col.addStretch(1)
        page.setMaximumWidth(900)
        holder = QWidget()
        hl = QHBoxLayout(holder)
        hl.addWidget(page, 1)
        hl.addStretch(0)
        self.setWidget(holder)

    def retranslate(self) -> None:
        self.intro.setText(tr(f"wizard.step.{self.step_id}.intro"))
        for editor in self.editors.values():
            editor.retranslate()

    def shown_editors(self) -> list[FieldEditor]:
        return [e for e in self.editors.values() if not e.isHidden()]


def show_only_relevant(editors: dict[str, FieldEditor], answers: dict[str, Any]) -> None:
    """A question asked only for some answers (``only_for``) is hidden otherwise; a label that follows the other
    answers (a batch job's budget) is set for them."""
    for editor in editors.values():
        editor.follow_answers(answers)
        only = editor.spec.only_for
        visible = all(get_path(answers, p) in values for p, values in only.items()) if only else True
        editor.setVisible(visible)


def cross_check(answers: dict[str, Any], step_editors: list[FieldEditor]) -> list[FieldEditor]:
    """The engine's own checks that span fields (p95 below the average, …), shown on the field of this step they
    name; returns the editors marked."""
    from advisor.plan import AnswersError, answers_from_dict

    try:
        answers_from_dict(clean_answers(answers))
    except AnswersError as exc:
        by_path = {e.spec.path: e for e in step_editors}
        bad = []
        for problem in exc.issues:
            where = problem.field
            matching = [p for p in by_path if where == p or where.startswith(p + ".") or p.split(".")[0] == where]
            if not matching:
                continue
            # a check over a whole part (p95 below the average) belongs on the field that breaks it
            target = next((p for p in matching if p == where), None) or next(
                (p for p in matching if p.endswith((".p95", ".high"))), matching[-1]
            )
            editor = by_path[target]
            key = CROSS_MESSAGES.get(where.split(".")[0])
            if key:
                editor.show_error(key)
            else:
                editor.show_problem(problem)  # the engine's words, in the UI language
            bad.append(editor)
        return bad
    return []
