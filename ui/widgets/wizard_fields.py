"""The wizard's questions: what each step asks, one editor per answer, and the words for a wrong value.

A question is a :class:`FieldSpec` (a dotted path into the public answers format of ``advisor.plan.answers``,
a kind and its limits). :class:`FieldEditor` shows the label, the editor, a short "why we ask" line under it
and, when the value cannot be used, a sentence saying what is wrong, next to the field. Empty always means
"unknown" and is always valid: the plan assumes and says what it assumed.

Labels of top-level answers and the tooltips are the engine's (``plan.field.<name>.label`` / ``.help``); the
"why we ask" lines, the labels of sub-answers and the choice names are the wizard's (``wizard.*``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from advisor import i18n
from advisor.i18n import tr
from advisor.plan import field_labels
from advisor.plan.draft import get_path, set_path  # noqa: F401 - the editors' paths; importable from here too
from ui.widgets.wizard_common import error_label


@dataclass(frozen=True)
class FieldSpec:
    path: str  # "use_case", "latency_slo.ttft_p99_ms", …
    kind: str  # choice | bool | int | float | percent | model | list | range_int | gpu | text
    choices: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    unit: str = ""  # i18n key of a unit shown after the field
    only_for: dict[str, tuple[str, ...]] = field(default_factory=dict)  # shown only when path ∈ values

    @property
    def top(self) -> str:
        return self.path.split(".")[0]

    def label_key(self) -> str:
        return f"plan.field.{self.path}.label" if "." not in self.path else f"wizard.field.{self.path}.label"

    def why_key(self) -> str:
        return f"wizard.why.{self.path}"


def _f(path: str, kind: str, *choices: str, low=None, high=None, unit: str = "", only_for=None) -> FieldSpec:
    return FieldSpec(path, kind, tuple(choices), low, high, unit, dict(only_for or {}))


_BATCH = {"use_case": ("offline_batch",)}
_MIXED = {"user_location": ("mixed",)}
_ABROAD = {"user_location": ("overseas", "mixed", "hk_tw")}
_HOME = {"user_location": ("mainland", "mixed")}
_FILED = {"icp_status": ("filed",)}  # a move of hosting matters to a service already ICP-filed
_GENAI = {"public_genai_in_mainland": (True, None)}  # the filing status matters unless the service is not public
_FINE_TUNED = {"model_customisation": ("fine_tuned",)}
_BURSTY = {"load_pattern": ("bursty",)}  # s15-burst
_BUSINESS = {"audience": ("business",)}
_PEOPLE = {"audience": ("internal", "business", None)}  # s19-volume19: tools whose month is counted from people  # s18-genai3: who can sign up matters to a business service

# step id → its questions (the order of the issue: building → model → users → compliance → money → review)
STEPS: tuple[tuple[str, tuple[FieldSpec, ...]], ...] = (
    ("building", (
        _f("use_case", "choice", "interactive", "api", "offline_batch"),
        _f("audience", "choice", "internal", "business", "public"),
        _f("minors", "bool"),  # minors (s13-duties): under-14s' PI and the minors' online protection duties
        _f("reach", "choice", "lan", "private_network", "internet"),
        _f("peak_concurrency", "int", low=1, high=1_000_000, unit="wizard.unit.requests"),
        _f("requests_per_day", "range_int", low=0, high=10**12),
        _f("users", "int", low=1, high=100_000_000, unit="wizard.unit.people"),  # s18-volume: a staff tool's people
        # s19-volume19: office staff now and then, or a contact centre's agents on every contact (people-counted tools)
        _f("usage_kind", "choice", "office", "contact_centre", only_for=_PEOPLE),
        _f("latency_slo.ttft_p99_ms", "float", low=1, high=3_600_000, unit="wizard.unit.ms"),
        _f("latency_slo.tpot_p99_ms", "float", low=1, high=600_000, unit="wizard.unit.ms"),
        _f("prompt_tokens.avg", "int", low=1, high=10_000_000, unit="wizard.unit.tokens"),
        _f("prompt_tokens.p95", "int", low=1, high=10_000_000, unit="wizard.unit.tokens"),
        _f("output_tokens.avg", "int", low=1, high=10_000_000, unit="wizard.unit.tokens"),
        _f("output_tokens.p95", "int", low=1, high=10_000_000, unit="wizard.unit.tokens"),
        _f("max_context_tokens", "int", low=16, high=10_000_000, unit="wizard.unit.tokens"),
        _f("total_requests", "int", low=1, high=10**12, only_for=_BATCH),
        _f("batch_deadline_hours", "float", low=0.01, high=24 * 365, unit="wizard.unit.hours", only_for=_BATCH),
    )),
    ("model", (
        _f("model", "model"),
        _f("model_customisation", "choice", "none", "fine_tuned"),
        _f("model_name", "text", only_for=_FINE_TUNED),
        _f("checkpoint", "text", only_for=_FINE_TUNED),
        _f("serving_engine", "choice", "vllm", "sglang", "llama_cpp", "ollama", "tgi", "lmdeploy"),  # s19-engine19
        _f("quantization_acceptable", "choice", "no", "fp8_only", "yes_after_quality_check", "yes"),
        _f("gpu_constraint", "list"),
        _f("current_fleet.gpu", "gpu"),
        _f("current_fleet.count", "int", low=1, high=1_000_000),
        # fleet load (s14-fleetload): the fleet's measured load is this service's base, and the peak's multiple
        _f("current_fleet.load_is_this_service", "bool"),
        _f("current_fleet.peak_multiple", "float", low=1, high=100),
    )),
    ("users", (
        _f("user_location", "choice", "mainland", "hk_tw", "overseas", "mixed"),
        _f("user_mix.mainland", "percent", low=0, high=100, unit="wizard.unit.percent", only_for=_MIXED),
        _f("overseas_markets", "list", only_for=_ABROAD),
        _f("mainland_carriers", "choice", "telecom", "all_three", "n/a", only_for=_HOME),
    )),
    ("compliance", (
        _f("icp_status", "choice", "none", "in_progress", "filed"),
        _f("hosting_move", "bool", only_for=_FILED),
        _f("mainland_entity", "bool"),
        _f("public_genai_in_mainland", "bool"),
        _f("open_signup", "bool", only_for=_BUSINESS),  # s18-genai3: open sign-up may count as public
        _f("genai_filing", "choice", "none", "in_progress", "registered", "filed", only_for=_GENAI),
        _f("charges_users", "bool"),
        _f("data_sensitivity.personal_info", "bool"),
        _f("data_sensitivity.pi_subjects_per_year", "int", low=0, high=10**11),
        _f("data_sensitivity.sensitive_pi_subjects_per_year", "int", low=0, high=10**11),
        _f("data_sensitivity.sector", "choice", "general", "medical", "finance", "securities", "education", "government"),
        _f("launch_deadline_days", "int", low=0, high=3650, unit="wizard.unit.days"),
    )),
    ("money", (
        _f("monthly_budget.amount", "float", low=0, high=1e12),
        _f("monthly_budget.currency", "choice", "CNY", "USD"),
        _f("capex_budget.amount", "float", low=0, high=1e12),
        _f("capex_budget.currency", "choice", "CNY", "USD"),
        _f("ops_capability", "choice", "none", "basic", "strong"),
        _f("expected_duration_months", "int", low=1, high=120, unit="wizard.unit.months"),
        _f("load_pattern", "choice", "stable", "diurnal", "bursty", "one_off_batch"),
        # bursty loads (s15-burst): when the bursts come, and whether their dates are known ahead
        _f("burst_schedule.per_year", "int", low=1, high=365, only_for=_BURSTY),
        _f("burst_schedule.days_each", "float", low=0.1, high=365, unit="wizard.unit.days", only_for=_BURSTY),
        _f("burst_schedule.known_in_advance", "bool", only_for=_BURSTY),
        _f("measured_utilisation", "percent", low=0, high=100, unit="wizard.unit.percent"),
    )),
)  # fmt: skip
STEP_IDS = tuple(s for s, _ in STEPS) + ("review",)
ALL_FIELDS: dict[str, FieldSpec] = {f.path: f for _s, fields in STEPS for f in fields}


def choice_key(path: str, value: str) -> str:
    """The i18n key naming one choice (keys are lower-case identifiers: "n/a" → "n_a", "CNY" → "cny")."""
    return f"wizard.choice.{path}.{str(value).lower().replace('/', '_')}"


# -- text ↔ value --------------------------------------------------------------------------------------------
_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _clean_number(text: str) -> str:
    return text.strip().replace(",", "").replace("_", "").replace("，", "").replace(" ", "")


def parse_number(text: str, whole: bool) -> float | int | str:
    """A number, or the i18n key of what is wrong with it. ``2k`` / ``1.5M`` / ``3万`` are understood."""
    t = _clean_number(text)
    scale = 1
    for suffix, factor in (("k", 1e3), ("K", 1e3), ("m", 1e6), ("M", 1e6), ("万", 1e4), ("亿", 1e8)):
        if t.endswith(suffix) and len(t) > len(suffix):
            t, scale = t[: -len(suffix)], factor
            break
    if not _NUMBER.match(t):
        return "wizard.error.not_number"
    value = float(t) * scale
    if whole:
        if value != int(value):
            return "wizard.error.not_whole"
        return int(value)
    return value


def format_number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int):
        return str(value)
    return f"{value:g}"


class FieldEditor(QWidget):
    """One question: label, editor, "why we ask" line, and the error in words when the value is unusable."""

    changed = Signal(str)  # path

    def __init__(self, spec: FieldSpec, model_items: list[tuple[str, str]] | None = None,
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.spec = spec
        self.setObjectName(f"field:{spec.path}")
        self.label = QLabel()
        self.label.setObjectName("fieldLabel")
        self.label.setWordWrap(True)
        font = self.label.font()
        font.setBold(True)
        self.label.setFont(font)
        self.why = QLabel()
        self.why.setObjectName("why")
        self.why.setWordWrap(True)
        self.why.setStyleSheet("color: palette(mid);")
        self.origin = QLabel()  # "from the Sizing page" / "measured in run …"
        self.origin.setObjectName("origin")
        self.origin.setStyleSheet("color: #2e86c1;")
        self.origin.hide()
        self._origin: tuple[str, dict[str, Any]] | None = None
        self.error = error_label("fieldError")
        self._error: tuple[str, dict[str, Any]] | None = None
        self._problem: Any = None  # an engine's AnswerProblem shown as the error (rendered per language)
        self.unit = QLabel()
        self._answers: dict[str, Any] = {}  # the other answers, for a label that follows them (field_labels)
        self._model_items = model_items or []
        self.editor = self._make_editor()
        self.editor.setObjectName("editor")
        self.editor.setMinimumWidth(220)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.editor, 1)
        row.addWidget(self.unit)
        row.addStretch(0)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 4, 0, 8)
        col.setSpacing(3)
        col.addWidget(self.label)
        col.addLayout(row)
        col.addWidget(self.origin)
        col.addWidget(self.why)
        col.addWidget(self.error)
        self.retranslate()

    # -- editor --------------------------------------------------------------------------------------------
    def _make_editor(self) -> QWidget:
        kind = self.spec.kind
        if kind in ("choice", "bool"):
            combo = QComboBox()
            combo.addItem("", None)
            values = (True, False) if kind == "bool" else self.spec.choices
            for value in values:
                combo.addItem("", value)
            combo.currentIndexChanged.connect(lambda _i: self._edited())
            return combo
        if kind == "model":
            combo = QComboBox()
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            combo.addItem("", None)
            for ident, name in self._model_items:
                combo.addItem(f"{name} ({ident})", ident)
            combo.currentIndexChanged.connect(lambda _i: self._edited())
            combo.lineEdit().editingFinished.connect(self._edited)
            return combo
        edit = QLineEdit()
        edit.setClearButtonEnabled(True)
        edit.editingFinished.connect(self._edited)
        edit.textEdited.connect(lambda _t: self.clear_error())
        return edit

    def _edited(self) -> None:
        self.clear_error()
        self.changed.emit(self.spec.path)

    def follow_answers(self, answers: dict[str, Any]) -> None:
        """Relabel for the other answers: a batch job's budget question reads "Budget for the job"."""
        self._answers = answers
        s = self.spec
        self.label.setText(tr(field_labels.label_key(s.path, answers, s.label_key())))
        self.editor.setToolTip(tr(field_labels.help_key(s.path, answers, f"plan.field.{s.top}.help")))

    def retranslate(self) -> None:
        s = self.spec
        self.why.setText(tr(s.why_key()))
        self.follow_answers(self._answers)
        self.unit.setText(tr(s.unit) if s.unit else "")
        self.unit.setVisible(bool(s.unit))
        if s.kind in ("choice", "bool"):
            combo: QComboBox = self.editor  # type: ignore[assignment]
            combo.setItemText(0, tr("wizard.unknown"))
            for i in range(1, combo.count()):
                value = combo.itemData(i)
                if s.kind == "bool":
                    combo.setItemText(i, tr("wizard.yes" if value else "wizard.no"))
                else:
                    combo.setItemText(i, tr(choice_key(s.path, value)))
        elif s.kind == "model":
            combo = self.editor  # type: ignore[assignment]
            combo.setItemText(0, tr("wizard.unknown"))
            combo.lineEdit().setPlaceholderText(tr("wizard.placeholder.model"))
        else:
            self.editor.setPlaceholderText(tr(f"wizard.placeholder.{s.kind}"))  # type: ignore[attr-defined]
        if self._error:
            self.error.setText(tr(self._error[0], **self._error[1]))
        elif self._problem is not None:
            self.error.setText(self._problem.text_in(i18n.current_language()))
        if self._origin:
            self.origin.setText(tr(self._origin[0], **self._origin[1]))

    # -- value ---------------------------------------------------------------------------------------------
    def set_value(self, value: Any) -> None:
        s = self.spec
        self.editor.blockSignals(True)
        try:
            if s.kind in ("choice", "bool"):
                index = self.editor.findData(value) if value is not None else 0
                self.editor.setCurrentIndex(max(0, index))
            elif s.kind == "model":
                index = self.editor.findData(value) if value else 0
                if index >= 0:
                    self.editor.setCurrentIndex(index)
                else:
                    self.editor.setCurrentIndex(0)
                    self.editor.setEditText(str(value))
                if not value:
                    self.editor.setEditText("")
            elif s.kind == "percent":
                self.editor.setText("" if value is None else format_number(round(float(value) * 100, 4)))
            elif s.kind == "list":
                self.editor.setText(", ".join(value) if value else "")
            elif s.kind == "gpu":
                self.editor.setText(str(value) if value else "")
            elif s.kind == "range_int" and isinstance(value, dict):
                self.editor.setText(f"{value.get('low')}-{value.get('high')}")
            elif s.kind == "text":
                self.editor.setText("" if value is None else str(value))
            else:
                self.editor.setText(format_number(value))
        finally:
            self.editor.blockSignals(False)
        self.clear_error()

    def raw_text(self) -> str:
        if isinstance(self.editor, QComboBox):
            return self.editor.currentText()
        return self.editor.text()  # type: ignore[attr-defined]

    def value(self) -> tuple[Any, tuple[str, dict[str, Any]] | None]:
        """(value or None for unknown, None) — or (None, (error key, params)) when the text is unusable."""
        s = self.spec
        if s.kind in ("choice", "bool"):
            return self.editor.currentData(), None
        if s.kind == "model":
            return self._model_value()
        text = self.raw_text().strip()
        if not text:
            return None, None
        if s.kind == "text":  # a name or a path, taken as written (the engine refuses control characters)
            if any(ord(ch) < 32 or ord(ch) == 127 for ch in text):
                return None, ("answers.error.control_chars", {})
            return text, None
        if s.kind == "list":
            return [p.strip() for p in re.split(r"[,，;；\s]+", text) if p.strip()] or None, None
        if s.kind == "gpu":  # one catalog GPU: its id (a name the catalog matches is read as that id)
            from advisor.catalog import CatalogError, get_gpu

            try:
                return get_gpu(text).id, None
            except CatalogError:
                return None, ("wizard.error.fleet_gpu_unknown", {})
        if s.kind == "range_int":
            parts = re.split(r"\s*(?:-|–|~|～|to|到|至)\s*", _clean_number(text).replace(" ", ""))
            parts = [p for p in parts if p]
            if len(parts) == 2:
                low, high = (parse_number(p, True) for p in parts)
                for v in (low, high):
                    if isinstance(v, str):
                        return None, (v, {})
                checked = [self._range_error(v) for v in (low, high)]
                if any(checked):
                    return None, next(c for c in checked if c)
                if low > high:  # type: ignore[operator]
                    return None, ("wizard.error.low_high", {"low": low, "high": high})
                return {"low": low, "high": high}, None
        whole = s.kind in ("int", "range_int")
        number = parse_number(text, whole)
        if isinstance(number, str):
            return None, (number, {})
        problem = self._range_error(number)
        if problem:
            return None, problem
        if s.kind == "percent":
            return round(number / 100.0, 6), None
        return number, None

    def _range_error(self, number: float) -> tuple[str, dict[str, Any]] | None:
        s = self.spec
        if (s.low is not None and number < s.low) or (s.high is not None and number > s.high):
            return "wizard.error.range", {"low": format_number(s.low), "high": format_number(s.high)}
        return None

    def _model_value(self) -> tuple[Any, tuple[str, dict[str, Any]] | None]:
        combo: QComboBox = self.editor  # type: ignore[assignment]
        text = combo.currentText().strip()
        if not text:
            return None, None
        index = combo.findText(text, Qt.MatchFlag.MatchExactly)
        if index > 0:
            return combo.itemData(index), None
        from advisor.plan.answers import AnswersError
        from advisor.plan.models import resolve_plan_model

        try:
            resolve_plan_model(text)
        except AnswersError:
            return None, ("wizard.error.model_unknown", {"name": text})
        return text, None

    # -- error and origin ----------------------------------------------------------------------------------
    def show_error(self, key: str, params: dict[str, Any] | None = None) -> None:
        self._problem = None
        self._error = (key, dict(params or {}))
        self.error.setText(tr(key, **self._error[1]))
        self.error.show()

    def show_problem(self, problem: Any) -> None:
        """An ``advisor.plan.answers.AnswerProblem`` of the engine's checks, in the UI language (and again in
        the other one after a language switch)."""
        self._error = None
        self._problem = problem
        self.error.setText(problem.text_in(i18n.current_language()))
        self.error.show()

    def clear_error(self) -> None:
        self._error = None
        self._problem = None
        self.error.hide()

    @property
    def has_error(self) -> bool:
        return not self.error.isHidden()

    def set_origin(self, key: str | None, params: dict[str, Any] | None = None) -> None:
        self._origin = (key, dict(params or {})) if key else None
        if self._origin:
            self.origin.setText(tr(self._origin[0], **self._origin[1]))
        self.origin.setVisible(self._origin is not None)

    def value_text(self, value: Any) -> str:
        """The answer in words, for the review step."""
        s = self.spec
        if value is None:
            return tr("wizard.unknown")
        if s.kind == "bool":
            return tr("wizard.yes" if value else "wizard.no")
        if s.kind == "choice":
            return tr(choice_key(s.path, value))
        if s.kind == "percent":
            return f"{format_number(round(float(value) * 100, 2))} %"
        if s.kind == "list":
            return ", ".join(value)
        if s.kind in ("gpu", "text"):
            return str(value)
        if isinstance(value, dict):
            return f"{format_number(value.get('low'))} – {format_number(value.get('high'))}"
        if s.kind == "model":
            index = self.editor.findData(value)
            return self.editor.itemText(index) if index > 0 else str(value)
        unit = f" {tr(s.unit)}" if s.unit and s.kind != "percent" else ""
        return f"{float(value):,.10g}{unit}" if isinstance(value, float) else f"{value:,}{unit}"
