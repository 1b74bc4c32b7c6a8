"""The wizard's result screen: the recommendation card with its why, the what-if answers, findings grouped by
severity (expandable to detail and sources), the cost chart, the timeline and the next steps.

Everything shown is rendered from one ``PlanResult`` (``advisor.plan``) in the current language; the widget
keeps the result and re-renders on a language switch without re-planning.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from advisor import i18n
from advisor.i18n import tr
from advisor.plan import budget_words, headline25, set_aside
from advisor.plan.burst_gpu import hardware_text
from advisor.plan.charts import cost_chart
from advisor.plan.field_labels import is_job
from advisor.plan.memo import as_asked_only
from advisor.plan.memo_text15 import source_title
from advisor.plan.reasons import deciding
from advisor.plan.result import SEVERITY_ORDER, alternative_text, lead_text
from ui.widgets.cost_chart import CostChart
from ui.widgets.inline_markup import inline_html
from ui.widgets.wizard_fields import ALL_FIELDS, FieldEditor

WHAT_IF_FIELDS = (
    "monthly_budget.amount",
    "launch_deadline_days",
    "icp_status",
    "quantization_acceptable",
    "user_location",
)
_SEVERITY_COLOUR = {"blocker": "#c0392b", "warning": "#b9770e", "info": "#2e86c1"}
CHANGED_STYLE = "background-color: rgba(255, 214, 10, 90); border-radius: 3px;"


def _money(r: Any, currency: str) -> str:
    if r is None:
        return "—"

    def one(v: float) -> str:
        if v >= 1e5:
            return (
                f"{v / 1e4:,.1f}万"
                if i18n.current_language() == "zh_CN" and currency == "CNY"
                else f"{v / 1e3:,.0f}k"
            )
        return f"{v:,.0f}"

    lo, hi = one(r.low), one(r.high)
    return f"{lo} {currency}" if lo == hi else f"{lo}–{hi} {currency}"


def _monthly(result: Any) -> str:
    """The monthly cost; for a form that buys hardware, its running cost a month and the one-off purchase."""
    from advisor.plan.memo_forms import chosen_owned

    owned = chosen_owned(result)
    if owned is None:
        return _money(result.costs.recommended_monthly, result.costs.currency)
    return tr("wizard.card.monthly_owned", running=_money(owned.running_monthly, result.costs.currency),
              capex=_money(owned.capex, result.costs.currency))


def deciding_findings(result: Any) -> list[Any]:
    """The findings the card's "why" line gives: the memo's page-1 reasons, in its order."""
    return deciding(result.findings, as_asked_only(result))


def recommendation_summary(result: Any) -> dict[str, str]:
    """The card's lines in the current language (also what the what-if comparison looks at)."""
    hw = result.hardware
    if hw.gpu:
        hardware = tr("wizard.card.hardware_line", gpu=hw.gpu_name or hw.gpu, per=hw.gpus_per_replica,
                      replicas=hw.replicas, total=hw.total_gpus)  # fmt: skip
        lang = i18n.current_language()
        both = hardware_text(result, lang)  # a hybrid renting another part for its bursts: the memo's page-1 line
        if both is not None:
            hardware = both
        elif hw.layout is not None:  # as bought or rented first: "2 servers of 8 × NVIDIA H20 96GB"
            hardware = f"{hw.layout.text_in(lang, hw.gpu_name or hw.gpu)}{tr('memo.key.hardware_sep')}{hardware}"
    else:
        from advisor.plan.memo_forms import no_hardware_key

        hardware = tr(no_hardware_key(result, "wizard.card.no_hardware"))
    if result.nodes:  # a mainland + overseas plan: both nodes, each sized and priced apart, as the memo's page 1
        nodes = tr("memo.key.hardware_sep").join(n.text_in(i18n.current_language()) for n in result.nodes)
        hardware = tr("memo.key.hardware_nodes", nodes=nodes, total=sum(n.total_gpus for n in result.nodes))
    fmt = "—"
    if hw.weights:
        fmt = tr("wizard.card.format_line", weights=hw.weights, kv=hw.kv_dtype or "—")
    return {
        "form": tr(f"plan.form.{result.deployment_form}"),
        "region": tr(f"plan.region.{result.region}"),
        "line": tr(f"plan.line.{result.line}"),
        "hardware": hardware,
        "format": fmt,
        "monthly": _monthly(result),
        # conditional where the cost range straddles the budget, as the memo's page 1 says it (s16-capacity)
        "feasible": budget_words.feasible_text(result, i18n.current_language(),
                                               words=("wizard.card.feasible", "wizard.card.infeasible")),
    }


class FindingItem(QWidget):
    """One finding: a title line that expands to its detail and sources; "verify" ones are marked."""

    def __init__(self, finding: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.finding = finding
        self._shown: tuple[str, Any] | None = None  # (language, finding) the labels show
        self.setObjectName(f"finding:{finding.id}")
        self.toggle = QToolButton()
        self.toggle.setObjectName("findingToggle")
        self.toggle.setCheckable(True)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self.set_expanded)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.detail = QLabel()
        self.detail.setObjectName("findingDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextFormat(Qt.TextFormat.RichText)
        self.detail.setOpenExternalLinks(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.detail.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.title, 1)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addLayout(row)
        col.addWidget(self.detail)
        self.title.mousePressEvent = lambda _e: self.toggle.toggle()  # type: ignore[method-assign]
        self.retranslate()

    @property
    def expanded(self) -> bool:
        return not self.detail.isHidden()

    def set_expanded(self, on: bool) -> None:
        self.toggle.blockSignals(True)
        self.toggle.setChecked(on)
        self.toggle.blockSignals(False)
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.detail.setVisible(on)

    def set_finding(self, finding: Any) -> None:
        """Show another finding in this (pooled) item; collapsed unless it is the same finding as before."""
        if finding.id != self.finding.id:
            self.set_expanded(False)
        self.finding = finding
        self.setObjectName(f"finding:{finding.id}")
        self.retranslate()

    def retranslate(self) -> None:
        lang = i18n.current_language()
        f = self.finding
        if self._shown is not None and self._shown[0] == lang and self._shown[1] == f:
            return  # the same finding in the same language: nothing to re-lay out (rich text is costly)
        self._shown = (lang, f)
        verify = (
            f' <span style="color:#b9770e;"><b>[{html.escape(tr("wizard.findings.verify"))}]</b></span>'
            if f.verify
            else ""
        )
        self.title.setText(f"{html.escape(f.title_in(lang))}{verify}")
        sources = []
        for s in f.sources:
            name = html.escape(source_title(s.title, lang))
            link = f'<a href="{html.escape(s.url)}">{name}</a>' if s.url else name
            extra = ", ".join(x for x in (s.date, tr("wizard.findings.grade", grade=s.grade)) if x)
            sources.append(f"<li>{link} ({html.escape(extra)})</li>")
        src = (
            f"<p><b>{html.escape(tr('wizard.findings.sources'))}</b></p><ul>{''.join(sources)}</ul>"
            if sources
            else ""
        )
        note = f"<p><i>{html.escape(tr('wizard.findings.verify_note'))}</i></p>" if f.verify else ""
        self.detail.setText(f"<p>{html.escape(f.detail_in(lang))}</p>{note}{src}")  # no rule id: internal, not user text

    def plain_detail(self) -> str:
        return self.detail.text()


class ResultView(QWidget):
    """The result screen. Emits ``what_if`` with (path, value) when one of its answers changes."""

    what_if = Signal(str, object)
    open_benchmark = Signal()
    export_memo = Signal()

    def __init__(self, model_items: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: Any = None
        self.previous_result: Any = (
            None  # the result before the last what-if change (to highlight what changed)
        )
        self.changed: set[str] = set()

        # recommendation card
        self.card = QFrame()
        self.card.setObjectName("recommendationCard")
        self.card.setFrameShape(QFrame.Shape.StyledPanel)
        self.headline = QLabel()
        self.headline.setObjectName("headline")
        self.headline.setWordWrap(True)
        self.infeasible_box = QLabel()
        self.infeasible_box.setObjectName("infeasible")
        self.infeasible_box.setWordWrap(True)
        self.infeasible_box.setTextFormat(Qt.TextFormat.RichText)
        self.infeasible_box.hide()
        self.alternative = QLabel()  # the cheaper alternative the memo names under its headline (advisor.plan)
        self.alternative.setObjectName("alternative")
        self.alternative.setWordWrap(True)
        self.alternative.hide()
        grid = QGridLayout()
        self.card_names: dict[str, QLabel] = {}
        self.card_values: dict[str, QLabel] = {}
        for row, key in enumerate(("form", "region", "line", "hardware", "format", "monthly")):
            name, value = QLabel(), QLabel()
            value.setObjectName(f"card:{key}")
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            grid.addWidget(name, row, 0, Qt.AlignmentFlag.AlignTop)
            grid.addWidget(value, row, 1)
            self.card_names[key], self.card_values[key] = name, value
        grid.setColumnStretch(1, 1)
        self.why = QLabel()
        self.why.setObjectName("why")
        self.why.setWordWrap(True)
        self.open_questions = QLabel()  # the unanswered questions the decision rests on (what was assumed)
        self.open_questions.setObjectName("openQuestions")
        self.open_questions.setWordWrap(True)
        self.open_questions.setTextFormat(Qt.TextFormat.RichText)
        self.open_questions.hide()
        self.changes = QLabel()
        self.changes.setObjectName("changes")
        self.changes.setWordWrap(True)
        self.changes.setStyleSheet(CHANGED_STYLE)
        self.changes.hide()
        card = QVBoxLayout(self.card)
        card.addWidget(self.headline)
        card.addWidget(self.infeasible_box)
        card.addWidget(self.alternative)
        card.addLayout(grid)
        card.addWidget(self.why)
        card.addWidget(self.open_questions)
        card.addWidget(self.changes)

        # what-if
        self.what_if_box = QGroupBox()
        self.what_if_box.setObjectName("whatIf")
        wl = QGridLayout(self.what_if_box)
        self.what_if_fields: dict[str, FieldEditor] = {}
        for i, path in enumerate(WHAT_IF_FIELDS):
            editor = FieldEditor(ALL_FIELDS[path], model_items)
            editor.why.hide()
            editor.changed.connect(self._on_what_if)
            wl.addWidget(editor, i // 3, i % 3)
            self.what_if_fields[path] = editor
        for column in range(3):
            wl.setColumnStretch(column, 1)

        # findings
        self.findings_box = QGroupBox()
        self.findings_layout = QVBoxLayout(self.findings_box)
        self.finding_items: list[FindingItem] = []  # the ones shown, blockers first
        self.severity_headers: dict[str, QLabel] = {}
        self._groups: dict[str, tuple[QVBoxLayout, list[FindingItem]]] = {}
        for severity in ("blocker", "warning", "info"):
            header = QLabel()
            header.setObjectName(f"severity:{severity}")
            header.setStyleSheet(f"font-weight: 600; color: {_SEVERITY_COLOUR[severity]}; margin-top: 6px;")
            group = QVBoxLayout()
            group.setSpacing(2)
            group.addWidget(header)
            self.findings_layout.addLayout(group)
            self.severity_headers[severity] = header
            self._groups[severity] = (group, [])

        # cost chart, timeline, next steps
        self.cost_box = QGroupBox()
        self.cost_chart = CostChart()
        self.break_even = QLabel()  # when owning pays off, or in words why it never does (not "999 months")
        self.break_even.setObjectName("breakEven")
        self.break_even.setWordWrap(True)
        self.break_even.setTextFormat(Qt.TextFormat.RichText)
        cost_layout = QVBoxLayout(self.cost_box)
        cost_layout.addWidget(self.cost_chart)
        cost_layout.addWidget(self.break_even)
        self.timeline_box = QGroupBox()
        self.timeline = QLabel()
        self.timeline.setObjectName("timeline")
        self.timeline.setWordWrap(True)
        self.timeline.setTextFormat(Qt.TextFormat.RichText)
        QVBoxLayout(self.timeline_box).addWidget(self.timeline)
        self.next_box = QGroupBox()
        self.next_steps = QLabel()
        self.next_steps.setObjectName("nextSteps")
        self.next_steps.setWordWrap(True)
        self.next_steps.setTextFormat(Qt.TextFormat.RichText)
        self.next_steps.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bench_button = QPushButton()
        self.bench_button.setObjectName("openBenchmark")
        self.bench_button.clicked.connect(self.open_benchmark)
        self.export_button = QPushButton()
        self.export_button.setObjectName("exportMemo")
        self.export_button.clicked.connect(self.export_memo)
        buttons = QHBoxLayout()
        buttons.addWidget(self.bench_button)
        buttons.addWidget(self.export_button)
        buttons.addStretch(1)
        nl = QVBoxLayout(self.next_box)
        nl.addWidget(self.next_steps)
        nl.addLayout(buttons)

        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        for w in (
            self.card,
            self.what_if_box,
            self.findings_box,
            self.cost_box,
            self.timeline_box,
            self.next_box,
        ):
            col.addWidget(w)
        col.addStretch(1)
        self.retranslate()

    # -- input -----------------------------------------------------------------------------------------------
    def set_what_if_values(self, answers: dict[str, Any]) -> None:
        from ui.widgets.wizard_fields import get_path

        for path, editor in self.what_if_fields.items():
            editor.set_value(get_path(answers, path))
            editor.follow_answers(answers)  # a batch job's budget is for the job

    def _on_what_if(self, path: str) -> None:
        editor = self.what_if_fields[path]
        value, problem = editor.value()
        if problem:
            editor.show_error(*problem)
            return
        self.what_if.emit(path, value)

    def set_benchmark_available(self, available: bool) -> None:
        self.bench_button.setEnabled(available)
        self.bench_button.setToolTip("" if available else tr("wizard.result.bench_unavailable"))

    # -- output ----------------------------------------------------------------------------------------------
    def set_result(self, result: Any, *, compare: bool = False) -> None:
        """Show ``result``; with ``compare`` the lines that differ from the previous result are highlighted."""
        self.previous_result = self.result if compare else None
        self.result = result
        self._render()

    def _card_key(self, key: str) -> str:
        """The card line's label: an offline batch job's cost is for the job (priced as job hours + setup), not a month."""
        if key == "monthly" and is_job(getattr(self.result, "answers", None)):
            return "wizard.card.job_cost"
        return f"wizard.card.{key}"

    def _render(self) -> None:
        r = self.result
        if r is None:
            return
        self.card_names["monthly"].setText(tr(self._card_key("monthly")))
        lang = i18n.current_language()
        now = recommendation_summary(r)
        before = recommendation_summary(self.previous_result) if self.previous_result is not None else None
        if before is not None:
            self.changed = {k for k in now if before.get(k) != now[k]}
        else:
            self.changed = set()
        if r.feasible:
            # the form with the condition the plan's own numbers set, as the memo's headline says it (round 15, q26/q31/q39)
            _set_text(self.headline, tr("wizard.card.headline", form=now["form"] + headline25.headline_clause(r, lang),
                                        region=now["region"]))
            _set_style(self.headline, "font-size: 15pt; font-weight: 600; color: #2e7d32;")
            self.infeasible_box.hide()
        else:
            _set_text(self.headline, tr("wizard.card.headline_infeasible"))
            _set_style(self.headline, "font-size: 15pt; font-weight: 600; color: #c0392b;")
            blockers = [f for f in r.findings if f.severity == "blocker"]
            items = "".join(f"<li>{html.escape(f.title_in(lang))}</li>" for f in blockers[:4])
            fixes = ""
            for fx in r.fixes:
                said = fx.text_in(lang)
                money = _money(fx.monthly_cost, r.costs.currency) if fx.monthly_cost else ""
                cost = (
                    tr("wizard.card.fix_cost_job" if fx.per_job else "wizard.card.fix_cost", cost=money)
                    if money and money.split(" ")[0] not in said
                    else ""
                )
                fixes += f"<li>{inline_html(said)}{html.escape(cost)}</li>"  # a model card's link, a `flag`
            text = f"<p><b>{html.escape(tr('wizard.card.why_infeasible'))}</b></p><ul>{items}</ul>"
            if fixes:
                text += f"<p><b>{html.escape(tr('wizard.card.would_make_feasible'))}</b></p><ul>{fixes}</ul>"
            text += f"<p><b>{html.escape(tr('wizard.card.closest'))}</b></p>"
            _set_text(self.infeasible_box, text)
            self.infeasible_box.show()
        # a cheaper hosted API set aside for the answers' reason: the card says it here, not among the reasons
        alt = lead_text(r.start_with, lang) or alternative_text(r.findings, lang, start=r.start_with) \
            or set_aside.text(r.findings, lang)
        _set_text(self.alternative, alt)
        self.alternative.setVisible(bool(alt))
        for key, label in self.card_values.items():
            _set_text(label, now[key])
            _set_style(label, CHANGED_STYLE if key in self.changed else "")
        # the memo's page-1 order (advisor.plan.reasons): what decides the plan first, caveats such as price grades
        # and export checks after; sorting by severity alone led the card with "prices are placeholders"
        reasons = [f.title_in(lang) for f in deciding_findings(r)]
        sep = "；" if lang == "zh_CN" else "; "
        end = "。" if lang == "zh_CN" else "."
        _set_text(self.why,
            tr("wizard.card.why", reasons=sep.join(x.rstrip("。.") for x in reasons) + end) if reasons else ""
        )
        deciding = [q for q in getattr(r, "open_questions", []) if q.changes_decision]
        if deciding:
            items = "".join(f"<li>{html.escape(q.text_in(lang))}</li>" for q in deciding)
            _set_text(self.open_questions, f"<p><b>{html.escape(tr('memo.open.heading'))}</b></p><ul>{items}</ul>")
            self.open_questions.show()
        else:
            self.open_questions.hide()
        if self.changed and before is not None:
            parts = [
                f"{self.card_names[k].text()} {before[k]} → {now[k]}"
                for k in self.card_values
                if k in self.changed
            ]
            _set_text(self.changes, tr("wizard.card.changed", changes=sep.join(parts)))
            self.changes.show()
        elif before is not None:
            _set_text(self.changes, tr("wizard.card.unchanged"))
            self.changes.show()
        else:
            self.changes.hide()
        self._render_findings()
        self.cost_chart.set_chart(cost_chart(r, lang))
        self._render_break_even()
        self._render_timeline()
        self._render_next_steps()

    def _render_findings(self) -> None:
        """Findings by severity, blockers first. Items are pooled per group and reused (what-if re-renders
        often, and creating rich-text widgets is what costs time)."""
        by_severity: dict[str, list[Any]] = {"blocker": [], "warning": [], "info": []}
        for f in self.result.findings:
            by_severity.setdefault(f.severity, []).append(f)
        self.finding_items = []
        # (Hiding the box while items come and go, to lay it out once, measured slower: showing the whole box
        # lays out every item again, where showing one item re-lays out only around it.)
        for severity, (group, pool) in self._groups.items():
            found = sorted(by_severity.get(severity, []), key=lambda f: f.id)
            header = self.severity_headers[severity]
            if header.isHidden() == bool(found):
                header.setVisible(bool(found))
            if found:
                _set_text(header, tr(f"wizard.findings.{severity}", n=len(found)))
            while len(pool) < len(found):
                item = FindingItem(found[len(pool)])
                group.addWidget(item)
                pool.append(item)
            for i, item in enumerate(pool):
                if i < len(found):
                    item.set_finding(found[i])
                    if item.isHidden():
                        item.show()
                    self.finding_items.append(item)
                elif not item.isHidden():
                    item.hide()

    def _render_break_even(self) -> None:
        """The two break-even figures under the cost chart (only where owning was compared)."""
        lang = i18n.current_language()
        c = self.result.costs
        colon = "：" if lang == "zh_CN" else ": "
        rows = [
            f"<b>{html.escape(tr(f'plan.breakeven.{unit}.label') + colon)}</b>{html.escape(be.text(lang, unit))}"
            for unit, be in (("months", c.break_even_months), ("utilisation", c.break_even_utilisation))
            if be is not None
        ]
        _set_text(self.break_even, "<br>".join(rows))
        self.break_even.setVisible(bool(rows))

    def _render_timeline(self) -> None:
        r = self.result
        tl = r.timeline
        lang = i18n.current_language()
        rows = []
        for it in tl.items:
            days = html.escape(it.days_with_shorter(lang))  # "length unknown: ask …" for an untimed approval, never 0
            flag = tr("wizard.timeline.blocking") if it.blocking else tr("wizard.timeline.parallel")
            rows.append(f"<tr><td>{html.escape(it.label_in(lang))}</td><td align='right'>&nbsp;{days}&nbsp;</td>"
                        f"<td>{html.escape(flag)}</td></tr>")  # fmt: skip
        launch = (str(tl.launch_days_low) if tl.launch_days_low == tl.launch_days_high
                  else f"{tl.launch_days_low}–{tl.launch_days_high}")  # fmt: skip
        # the step that sets the date, as the CLI and the memo name it (s18-duties), and the launch on registration
        # where the plan counts the full filing (s25-dates25)
        gate = tl.gate_text(lang) + tl.earliest_text(lang)
        if tl.deadline_days is None:
            verdict = tr("wizard.timeline.no_deadline", launch=launch, gate=gate)
        elif tl.deadline_key() == "if":  # met only if a sales delivery of unknown length comes in time (s33)
            verdict = tr("supply34.wizard.meets_if", launch=launch, gate=gate, deadline=tl.deadline_days,
                         slack=tl.deadline_slack_days)
        elif tl.meets_deadline:
            verdict = tr("wizard.timeline.meets", launch=launch, gate=gate, deadline=tl.deadline_days)
        else:
            verdict = tr("wizard.timeline.misses", launch=launch, gate=gate, deadline=tl.deadline_days)
        if tl.untimed:  # an approval of unknown length: the launch is not before it (s16-duties)
            verdict += " " + tl.waits_text(lang)
        head = (f"<tr><th align='left'>{html.escape(tr('wizard.timeline.step'))}</th>"
                f"<th>&nbsp;{html.escape(tr('wizard.timeline.days'))}&nbsp;</th><th></th></tr>")  # fmt: skip
        table = f"<table cellspacing='2'>{head}{''.join(rows)}</table>" if rows else ""
        # Qt's rich text has no 'inherit': it drew the verdict black, near-invisible on the dark theme
        style = " style='color:#c0392b'" if tl.meets_deadline is False else ""
        _set_text(self.timeline, f"{table}<p{style}><b>{html.escape(verdict)}</b></p>")

    def _render_next_steps(self) -> None:
        lang = i18n.current_language()
        items = []
        for s in self.result.next_steps:
            # pre-wrap, not <pre>: a long command wraps instead of widening the whole screen
            cmd = (f"<br><span style='font-family: monospace; white-space: pre-wrap;'>{html.escape(s.command)}</span>"
                   if s.command else "")  # fmt: skip
            items.append(f"<li>{inline_html(s.text_in(lang))}{cmd}</li>")
        _set_text(self.next_steps, f"<ol>{''.join(items)}</ol>")

    def retranslate(self) -> None:
        for key, label in self.card_names.items():
            label.setText(tr(self._card_key(key)))
        self.what_if_box.setTitle(tr("wizard.what_if.title"))
        for editor in self.what_if_fields.values():
            editor.retranslate()
        self.findings_box.setTitle(tr("wizard.findings.title"))
        self.cost_box.setTitle(tr("wizard.result.cost_title"))
        self.timeline_box.setTitle(tr("wizard.timeline.title"))
        self.next_box.setTitle(tr("wizard.next.title"))
        self.bench_button.setText(tr("wizard.next.open_benchmark"))
        if not self.bench_button.isEnabled():
            self.bench_button.setToolTip(tr("wizard.result.bench_unavailable"))
        self.export_button.setText(tr("wizard.next.export"))
        if self.result is not None:
            self._render()

    def set_theme(self, dark: bool) -> None:
        self.cost_chart.set_theme(dark)


def _set_text(label: QLabel, text: str) -> None:
    if label.text() != text:  # re-laying out unchanged rich text is what makes a re-render slow
        label.setText(text)


def _set_style(widget: QWidget, style: str) -> None:
    if widget.styleSheet() != style:  # setting a style sheet re-polishes: a layout pass and a repaint
        widget.setStyleSheet(style)


def _severity_key(f: Any) -> tuple[int, str]:
    return SEVERITY_ORDER.get(f.severity, 9), f.id
