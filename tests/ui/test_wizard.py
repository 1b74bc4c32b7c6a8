"""The decision wizard, driven like a user: steps, field messages, result screen, what-if, export, reopen."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from advisor import i18n
from advisor.i18n import tr
from advisor.plan import answers_from_dict, make_plan
from ui.pages.wizard import RESULT_STEP, clean_answers
from ui.widgets.wizard_fields import STEPS, get_path

SCENARIOS = Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios"
CJK = re.compile(r"[\u4e00-\u9fff]")
PLAN_TIMEOUT = 30000


def scenario(prefix: str) -> dict:
    path = next(SCENARIOS.glob(f"{prefix}_*.json"))
    return json.loads(path.read_text(encoding="utf-8"))


def _text_for(editor, value) -> str:
    kind = editor.spec.kind
    if value is None:
        return ""
    if kind == "percent":
        return f"{value * 100:g}"
    if kind == "list":
        return ", ".join(value)
    if kind == "range_int" and isinstance(value, dict):
        return f"{value['low']}-{value['high']}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def type_answer(editor, value) -> None:
    """What a user does: pick the choice, or type the text (empty for unknown)."""
    kind = editor.spec.kind
    if kind in ("choice", "bool"):
        combo = editor.editor
        combo.setCurrentIndex(0 if value is None else combo.findData(value))
        assert value is None or combo.currentData() == value, (editor.spec.path, value)
    elif kind == "model":
        editor.editor.setEditText("" if value is None else str(value))
    else:
        editor.editor.setText(_text_for(editor, value))


def fill_step(page, index: int, answers: dict) -> None:
    for spec in STEPS[index][1]:
        value = get_path(answers, spec.path)
        if spec.path == "user_mix.mainland" and value is None and answers.get("user_mix"):
            value = answers["user_mix"]["mainland"]
        type_answer(page.editors[spec.path], value)


def click(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def walk_to_result(qtbot, page, answers: dict) -> None:
    for index in range(len(STEPS)):
        assert page.step == index
        fill_step(page, index, answers)
        click(qtbot, page.next)
        assert page.step == index + 1, [e.error.text() for e in page.step_fields(index) if e.has_error]
    assert page.step == RESULT_STEP - 1  # review
    assert page.review.text()
    with qtbot.waitSignal(page.result_shown, timeout=PLAN_TIMEOUT):
        click(qtbot, page.next)
    assert page.step == RESULT_STEP
    assert page.result is not None, page.plan_error


@pytest.fixture
def page(wizard_page):
    """The wizard alone; a test that reaches the window (``page.window()``: the language menu, File → Export) takes
    ``main_window`` too and gets the window's own wizard."""
    return wizard_page


# -- three scenarios end to end ---------------------------------------------------------------------------------
@pytest.mark.parametrize("prefix", ["01", "02", "12"])
def test_walk_a_scenario_to_the_result(qtbot, page, prefix):
    s = scenario(prefix)
    answers, expect = s["answers"], s["expect"]
    walk_to_result(qtbot, page, answers)
    result = page.result
    # the wizard hands the engine exactly the answers the user gave
    assert answers_from_dict(clean_answers(page.answers)) == answers_from_dict(answers)
    assert (result.deployment_form, result.region, result.feasible) == (
        expect["deployment_form"], expect["region"], expect["feasible"])  # fmt: skip
    view = page.result_view
    assert view.card_values["form"].text() == tr(f"plan.form.{expect['deployment_form']}")
    assert view.card_values["region"].text() == tr(f"plan.region.{expect['region']}")
    assert view.card_values["line"].text() == tr(f"plan.line.{result.line}")
    if result.hardware.gpu:
        assert result.hardware.gpu_name in view.card_values["hardware"].text()
    assert view.why.text().startswith("Why:")
    # findings grouped by severity, blockers first, each one expandable to detail and sources
    shown = [item.finding.id for item in view.finding_items]
    assert set(expect["must"]) <= set(shown)
    assert not set(expect["must_not"]) & set(shown)
    order = [item.finding.severity for item in view.finding_items]
    assert order == sorted(order, key=["blocker", "warning", "info"].index)
    first = view.finding_items[0]
    assert not first.expanded
    click(qtbot, first.toggle)
    assert first.expanded and first.finding.detail_in("en")[:20] in first.plain_detail().replace(
        "&#x27;", "'"
    )
    if any(f.verify for f in result.findings):
        verify_item = next(i for i in view.finding_items if i.finding.verify)
        assert "[verify]" in verify_item.title.text()
    # the cost chart shows the engine's cumulative series; hover gives values
    chart = view.cost_chart.chart
    assert chart is not None and chart.id == "cost"
    cloud = chart.series[0]
    assert [p[0] for p in cloud.points] == [float(p.month) for p in result.cost_series]
    hover = view.cost_chart.show_hover(cloud.points[-1][0])
    assert f"Month {int(cloud.points[-1][0])}" in hover and cloud.label in hover
    marker = next((m for m in chart.markers if m.x is not None), None)
    assert view.cost_chart.break_even.isVisible() == (marker is not None)
    if marker is not None:
        assert view.cost_chart.break_even.value() == pytest.approx(marker.x)
    # when owning pays off, in words (also where it never does: no "999 months")
    be = result.costs.break_even_months
    assert view.break_even.isHidden() == (be is None)
    if be is not None:
        assert be.text("en", "months") in view.break_even.text()
    # the timeline and the next steps with the benchmark commands
    assert "days" in view.timeline.text()
    commands = [s.command for s in result.next_steps if s.command]
    # the label is rich text: a command's placeholder such as "<AWQ INT4 checkpoint of …>" is shown escaped
    assert commands and all(html.escape(c.split(" --")[0]) in view.next_steps.text() for c in commands)
    if not result.feasible:
        assert view.headline.text() == tr("wizard.card.headline_infeasible")
        assert not view.infeasible_box.isHidden()
        assert result.fixes[0].text_in("en")[:25] in view.infeasible_box.text().replace("&#x27;", "'")
    else:
        assert view.infeasible_box.isHidden()


def test_all_unknown_is_valid_and_the_plan_says_what_it_assumed(qtbot, page):
    walk_to_result(qtbot, page, {})
    assert page.result.assumptions, "unknown answers are assumed, and said so"
    assert page.result_view.card_values["form"].text()
    # the questions whose answer would change the decision are on the recommendation card, with what was assumed
    deciding = [q for q in page.result.open_questions if q.changes_decision]
    assert deciding and not page.result_view.open_questions.isHidden()
    shown = page.result_view.open_questions.text()
    for q in deciding:
        assert html.escape(q.text_in("en")) in shown


def test_a_value_that_cannot_be_used_is_marked_in_words_before_next(qtbot, main_window, page):
    field = page.editors["peak_concurrency"]
    for text, key in (
        ("lots", "wizard.error.not_number"),
        ("2.5", "wizard.error.not_whole"),
        ("0", "wizard.error.range"),
    ):
        field.editor.setText(text)
        click(qtbot, page.next)
        assert page.step == 0, text
        assert field.has_error and field.error.text() == tr(key, low="1", high="1000000"), field.error.text()
        assert page.nav_error.text()
    # a cross-field check of the engine, on the field it concerns
    field.editor.setText("2k")
    page.editors["prompt_tokens.avg"].editor.setText("3000")
    page.editors["prompt_tokens.p95"].editor.setText("1000")
    click(qtbot, page.next)
    assert page.step == 0
    p95 = page.editors["prompt_tokens.p95"]
    assert p95.has_error and p95.error.text() == tr("wizard.error.p95_below_avg")
    # in Chinese, in Chinese
    page.window().set_language("zh_CN")
    assert CJK.search(p95.error.text())
    page.window().set_language("en")
    page.editors["prompt_tokens.p95"].editor.setText("")
    click(qtbot, page.next)
    # the longest context still stands as the Sizing page gave it: confirmed before the wizard moves on
    assert page.step == 0 and page.nav_error.text() == tr("wizard.workload.confirm_first",
                                                          sources=tr("wizard.origin.sizing"))
    page.workload.confirm.setChecked(True)
    click(qtbot, page.next)
    assert page.step == 1 and page.answers["peak_concurrency"] == 2000


def test_the_engines_own_messages_follow_the_ui_language(qtbot, main_window, page):
    # a value the engine refuses that the field's own check did not see (set behind the editor's back)
    page.answers["max_context_tokens"] = 8
    editor = page.editors["max_context_tokens"]
    assert page._cross_check(0) == [editor]
    assert editor.error.text() == "must be between 16 and 10,000,000"
    page.window().set_language("zh_CN")
    assert editor.error.text() == "必须在 16 到 10,000,000 之间"
    page.window().set_language("en")
    assert editor.error.text() == "must be between 16 and 10,000,000"
    # answers refused at the result screen (a project file edited by hand): which field, what is allowed
    page.set_answers({"use_case": "chat", "peak_concurrency": 0}, RESULT_STEP)
    assert page.result is None and not page.result_status.isHidden()
    status = page.result_status.text()
    assert "use_case (Use case): must be one of 'interactive', 'api' or 'offline_batch'" in status
    assert "peak_concurrency (Peak concurrency): must be between 1 and 1,000,000" in status
    page.window().set_language("zh_CN")
    status = page.result_status.text()
    assert "use_case（使用场景）：必须是 'interactive'、'api' 或 'offline_batch' 之一" in status
    assert "peak_concurrency（峰值并发）：必须在 1 到 1,000,000 之间" in status
    page.window().set_language("en")


def test_every_question_says_why_it_is_asked_in_both_languages(main_window, page):
    for lang in ("en", "zh_CN"):
        page.window().set_language(lang)
        for path, editor in page.editors.items():
            why = editor.why.text()
            assert why and not why.startswith("wizard."), (lang, path)
            assert editor.editor.toolTip() and not editor.editor.toolTip().startswith("plan."), path
            if lang == "zh_CN":
                assert CJK.search(why), path
    page.window().set_language("en")


def test_prefilled_from_the_sizing_page_and_marked(qtbot, main_window, page):
    request = main_window.sizing_page.inputs.request()
    assert page.answers["model"] == request.model.id
    assert page.answers["peak_concurrency"] == request.concurrency
    assert page.editors["peak_concurrency"].origin.text() == tr("wizard.origin.sizing")
    assert not page.editors["peak_concurrency"].origin.isHidden()
    # the workload panel says the same next to the number, and asks for a confirmation
    rows = page.workload.rows.text()
    assert tr("wizard.workload.row", label=tr("workload.label.peak_concurrency"),
              value=tr("workload.value.peak_concurrency", v=f"{request.concurrency:,}"),
              source=tr("wizard.origin.sizing")) in rows
    assert not page.workload.confirm.isHidden() and not page.workload.confirmed


def test_progress_back_and_next(qtbot, page):
    assert page.progress.value() == 0 and not page.back.isEnabled()
    assert page.step_label.text().startswith("Step 1 of")
    click(qtbot, page.next)
    assert page.step == 0  # the workload the Sizing page gave is confirmed first
    page.workload.confirm.setChecked(True)
    click(qtbot, page.next)
    assert page.step == 1 and page.progress.value() == 1 and page.back.isEnabled()
    click(qtbot, page.back)
    assert page.step == 0


# -- what-if -------------------------------------------------------------------------------------------------------
def test_what_if_updates_the_recommendation_and_highlights_what_changed(qtbot, page):
    walk_to_result(qtbot, page, scenario("01")["answers"])
    view = page.result_view
    assert page.result.region == "hong_kong"
    icp = view.what_if_fields["icp_status"]
    with qtbot.waitSignal(page.result_shown, timeout=PLAN_TIMEOUT):
        icp.editor.setCurrentIndex(icp.editor.findData("filed"))
    assert page.answers["icp_status"] == "filed"
    assert page.editors["icp_status"].editor.currentData() == "filed"  # the step's own field follows
    assert (
        page.result.region == make_plan(answers_from_dict(clean_answers(page.answers))).region == "mainland"
    )
    assert "region" in view.changed
    assert "background" in view.card_values["region"].styleSheet()
    assert not view.changes.isHidden() and "Hong Kong" in view.changes.text()
    assert view.card_values["form"].styleSheet() == "" or "form" in view.changed


def test_what_if_choices_are_planned_ahead_so_a_change_simulates_nothing(qtbot, page, monkeypatch, cold_plan_caches):
    from advisor.plan import sizing
    from ui.pages.wizard import what_if_variants

    walk_to_result(qtbot, page, scenario("01")["answers"])
    variants = what_if_variants(clean_answers(page.answers))
    assert {v.get("icp_status") for v in variants} >= {"filed", "in_progress"}
    assert all(v.get("monthly_budget") == page.answers.get("monthly_budget") for v in variants)
    # the pre-planning starts a moment after the result is shown, on a worker thread
    qtbot.waitUntil(lambda: page.result_panel._prewarm_handle is not None, timeout=5000)
    qtbot.waitUntil(lambda: page.runner.running() == 0, timeout=PLAN_TIMEOUT)
    runs: list[int] = []
    real = sizing._simulate_floored
    monkeypatch.setattr(sizing, "_simulate_floored", lambda *a: runs.append(a[2]) or real(*a))
    icp = page.result_view.what_if_fields["icp_status"]
    with qtbot.waitSignal(page.result_shown, timeout=PLAN_TIMEOUT):
        icp.editor.setCurrentIndex(icp.editor.findData("filed"))
    assert page.result.region == "mainland" and runs == []
    # a what-if the user waits for cancels the pre-planning in flight
    page.result_panel._prewarm()
    handle = page.result_panel._prewarm_handle
    with qtbot.waitSignal(page.result_shown, timeout=PLAN_TIMEOUT):
        icp.editor.setCurrentIndex(icp.editor.findData("none"))
    assert handle.cancelled and page.result.region == "hong_kong"


def test_what_if_budget_turns_an_infeasible_plan_feasible(qtbot, page):
    walk_to_result(qtbot, page, scenario("12")["answers"])
    assert not page.result.feasible
    budget = page.result_view.what_if_fields["monthly_budget.amount"]
    with qtbot.waitSignal(page.result_shown, timeout=PLAN_TIMEOUT):
        budget.editor.setText("5000000")
        budget.editor.editingFinished.emit()
    assert page.result.feasible
    assert "feasible" in page.result_view.changed
    assert page.result_view.infeasible_box.isHidden()


# -- export -----------------------------------------------------------------------------------------------------
@pytest.fixture
def exported(page, monkeypatch):
    opened: list[Path] = []
    monkeypatch.setattr(page, "reveal", lambda path: opened.append(path))
    return opened


needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")


@needs_poppler
def test_export_a_chinese_pdf_and_an_english_markdown_memo(qtbot, main_window, page, exported, tmp_path, monkeypatch):
    walk_to_result(qtbot, page, scenario("01")["answers"])
    pdf = tmp_path / "memo.pdf"
    monkeypatch.setattr(page, "ask_export", lambda: (".pdf", "zh_CN"))
    monkeypatch.setattr(page, "ask_memo_path", lambda suffix, lang: str(pdf))
    assert page.export_memo() == pdf
    assert exported == [pdf]
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert "香港" in text and "决策备忘录" in text.replace(" ", ""), text[:500]
    md = tmp_path / "memo.md"
    monkeypatch.setattr(page, "ask_export", lambda: (".md", "en"))
    monkeypatch.setattr(page, "ask_memo_path", lambda suffix, lang: str(md))
    page.window().export_memo()  # File → Export memo… does the same
    body = md.read_text(encoding="utf-8")
    assert "Hong Kong" in body and not CJK.search(body.split("\n", 1)[0])
    assert exported == [pdf, md]


def test_export_never_overwrites_without_asking(qtbot, page, exported, tmp_path, monkeypatch):
    walk_to_result(qtbot, page, scenario("03")["answers"])
    md = tmp_path / "memo.md"
    md.write_text("mine", encoding="utf-8")
    asked: list[Path] = []
    monkeypatch.setattr(page, "ask_export", lambda: (".md", "en"))
    monkeypatch.setattr(page, "ask_memo_path", lambda suffix, lang: str(md))
    monkeypatch.setattr(page, "confirm_overwrite", lambda path: asked.append(path) or False)
    assert page.export_memo() is None
    assert asked == [md] and md.read_text(encoding="utf-8") == "mine" and exported == []
    monkeypatch.setattr(page, "confirm_overwrite", lambda path: True)
    assert page.export_memo() == md
    assert md.read_text(encoding="utf-8") != "mine"
    assert not list(tmp_path.glob("*.tmp*")), "written atomically: no temp file left"


def test_export_failure_is_told_not_hidden(qtbot, page, exported, tmp_path, monkeypatch, messages):
    walk_to_result(qtbot, page, scenario("03")["answers"])
    target = tmp_path / "missing-folder" / "sub" / "memo.md"
    (tmp_path / "missing-folder").write_text("a file where a folder should be", encoding="utf-8")
    monkeypatch.setattr(page, "ask_export", lambda: (".md", "en"))
    monkeypatch.setattr(page, "ask_memo_path", lambda suffix, lang: str(target))
    assert page.export_memo() is None
    assert exported == []
    assert messages.errors and str(target) in messages.errors[-1][1]


# -- benchmark button --------------------------------------------------------------------------------------------
def test_benchmark_button_opens_the_benchmark_page_preconfigured(qtbot, main_window, page, monkeypatch):
    page.benchmark_requested.disconnect()  # no Benchmark page answers: the button says so
    walk_to_result(qtbot, page, scenario("01")["answers"])
    button = page.result_view.bench_button
    assert not button.isEnabled() and button.toolTip()
    calls: list[dict] = []
    monkeypatch.setattr(main_window, "show_benchmark", lambda **kw: calls.append(kw), raising=False)
    page.benchmark_requested.connect(lambda request: main_window.show_benchmark(**request))  # as the window does
    page.retranslate()
    assert button.isEnabled()
    click(qtbot, button)
    hw = page.result.hardware
    assert calls == [{"model": hw.model, "gpu": hw.gpu, "weights": hw.weights, "gpus": hw.gpus_per_replica,
                      "prompt_tokens": 1200, "output_tokens": 300, "ttft_p99_ms": 3000, "tpot_p99_ms": 100,
                      "shape": "ramp"}]  # fmt: skip


# -- project file -------------------------------------------------------------------------------------------------
def test_reopening_the_project_restores_the_wizard_where_it_was(
    qtbot, main_window, page, tmp_path, monkeypatch
):
    answers = scenario("02")["answers"]
    walk_to_result(qtbot, page, answers)
    shown = page.result_view.card_values["hardware"].text()
    path = tmp_path / "plan.advisor.json"
    monkeypatch.setattr(main_window, "ask_save_path", lambda: str(path))
    assert main_window.save_project()
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["plan"]["wizard_step"] == RESULT_STEP
    assert answers_from_dict(saved["plan"]["answers"]) == answers_from_dict(answers)
    main_window.new_project()
    assert page.step == 0 and page.result is None
    assert main_window.open_project(path)
    assert page.step == RESULT_STEP
    qtbot.waitUntil(lambda: page.result is not None, timeout=PLAN_TIMEOUT)
    assert page.result_view.card_values["hardware"].text() == shown
    assert page.editors["ops_capability"].editor.currentData() == "strong"
    # half-way through: reopens on that step
    click(qtbot, page.back)
    click(qtbot, page.back)
    assert main_window.save_project()
    assert main_window.open_project(path)
    assert page.step == RESULT_STEP - 2 and page.stack.currentIndex() == RESULT_STEP - 2


def test_result_follows_a_language_switch(qtbot, main_window, page):
    walk_to_result(qtbot, page, scenario("01")["answers"])
    view = page.result_view
    english = view.headline.text()
    page.window().set_language("zh_CN")
    assert CJK.search(view.headline.text()) and view.headline.text() != english
    assert view.card_values["region"].text() == i18n.translate("zh_CN", "plan.region.hong_kong")
    assert CJK.search(view.finding_items[0].title.text())
    assert not view.changed, "a language switch is not a what-if change"
    # scenario 01: owning pays back in the best case only against the rent it prints (its N+1 spare billed busy or
    # not, s22-rentbasis22b; before, "never" against renting the busy hours): the worst case said in words in the UI
    # language, no number
    be = page.result.costs.break_even_months
    assert be.reason in ("never", "beyond_horizon", "worst_case_never", "worst_case_beyond_horizon")
    assert be.high is None
    assert be.text("zh_CN", "months") in view.break_even.text() and CJK.search(view.break_even.text())
    page.window().set_language("en")
    assert view.headline.text() == english
    assert be.text("en", "months") in view.break_even.text() and not CJK.search(view.break_even.text())


def test_dynamic_wizard_keys_exist_in_both_languages():
    """Keys the wizard builds at run time (not seen by tests/core/test_i18n.py's literal-key check)."""
    from typing import get_args

    from advisor.plan.result import DeploymentForm, Line, Region
    from ui.widgets.wizard_fields import ALL_FIELDS, STEP_IDS, choice_key

    keys = []
    for spec in ALL_FIELDS.values():
        keys += [spec.label_key(), spec.why_key(), f"plan.field.{spec.top}.help", f"wizard.placeholder.{spec.kind}"
                 if spec.kind not in ("choice", "bool") else "wizard.unknown"]  # fmt: skip
        keys += [choice_key(spec.path, v) for v in spec.choices]
        keys += [spec.unit] if spec.unit else []
    keys += [f"wizard.step.{s}.title" for s in STEP_IDS] + [f"wizard.step.{s}.intro" for s in STEP_IDS]
    keys += [f"wizard.findings.{s}" for s in ("blocker", "warning", "info")]
    keys += [f"plan.form.{v}" for v in get_args(DeploymentForm)] + [
        f"plan.region.{v}" for v in get_args(Region)
    ]
    keys += [f"plan.line.{v}" for v in get_args(Line)]
    keys += [f"wizard.card.{k}" for k in ("form", "region", "line", "hardware", "format", "monthly")]
    for lang in i18n.LANGUAGES:
        catalog = i18n.catalog(lang)
        assert [k for k in keys if k not in catalog] == [], lang


def _store_completed_run(model: str, *, label: str = "ramp-h20", prompt: int = 1800, output: int = 350,
                         simulated: bool = False) -> str:
    """A completed run in the real benchmark database (isolated per test), as `advisor bench` leaves it (or as
    the A/B page leaves a run against its simulated server: ``simulated``)."""
    from advisor.bench.store import BenchStore
    from advisor.domain.bench import BenchConfig, EndpointConfig, LengthDist, SloConfig, WorkloadConfig

    config = BenchConfig(
        endpoint=EndpointConfig(url="http://127.0.0.1:8000", model=model),
        workload=WorkloadConfig(prompt_tokens=LengthDist(mean=prompt), output_tokens=LengthDist(mean=output)),
        slo=SloConfig(ttft_ms=2500),
    )
    store = BenchStore()
    try:
        run_id = store.start_run(config.model_dump_json(), label=label, url=config.endpoint.url, model=model)
        store.finish_run("completed", json.dumps({"status": "completed", "knee": {"concurrency": 16},
                                                  "dialect": "simulated" if simulated else "vllm"}))
        store.drain()
    finally:
        store.close()
    return run_id


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_workload_is_never_borrowed_from_a_simulated_run_and_a_real_run_is_confirmed(qtbot, main_window, lang):
    # the A/B page's simulated side, with its placeholder settings (256 / 128), is the newest run
    real = _store_completed_run("Qwen/Qwen2.5-14B-Instruct")
    _store_completed_run("qwen2.5-14b", label="A/B · B · awq-int4", prompt=256, output=128, simulated=True)
    main_window.set_language(lang)
    page = main_window.wizard_page
    main_window.tabs.setCurrentWidget(page)
    qtbot.waitUntil(page.isVisible, timeout=3000)
    try:
        # nothing taken silently: the lengths stay unknown, and the panel says the plan assumes them
        assert page.answers.get("prompt_tokens") is None and page.answers.get("output_tokens") is None
        rows = page.workload.rows.text()
        assert "256" not in rows and "A/B" not in rows
        from advisor.plan.result import render

        assert render(lang, "plan.assume.prompt_tokens", {"value": 1000}) in rows
        # offered: the Sizing page and the real run; never the simulated one
        kinds = [(src.kind, src.run_id) for src in page.workload.sources]
        assert kinds == [("sizing", None), ("run", real)]
        assert not any("A/B" in page.workload.chooser.itemText(i) for i in range(page.workload.chooser.count()))
        # taking the real run: its figures, each marked with where it comes from, then a confirm step
        page.workload.choose(1)
        click(qtbot, page.workload.use)
        assert page.answers["prompt_tokens"]["avg"] == 1800 and page.answers["output_tokens"]["avg"] == 350
        assert page.answers["latency_slo"]["ttft_p99_ms"] == 2500
        origin = page.editors["prompt_tokens.avg"].origin.text()
        assert "ramp-h20" in origin and origin == page.workload.sources[1].label_in(lang)
        assert origin in page.workload.rows.text()
        if lang == "zh_CN":
            assert CJK.search(origin) and CJK.search(page.workload.rows.text())
        click(qtbot, page.next)
        assert page.step == 0 and "ramp-h20" in page.nav_error.text()
        page.workload.confirm.setChecked(True)
        click(qtbot, page.next)
        assert page.step == 1
        page.go_to(len(STEPS))  # the review step names the source beside the figure too
        assert html.escape(origin) in page.review.text()
    finally:
        main_window.set_language("en")


def test_an_edited_figure_is_the_users_own_and_needs_no_confirmation(qtbot, page):
    sizing = page.workload.sources[0]
    assert sizing.kind == "sizing" and "peak_concurrency" in sizing.values
    page.editors["peak_concurrency"].editor.setText("20")
    page.editors["max_context_tokens"].editor.setText("8000")
    click(qtbot, page.next)
    assert page.step == 1, page.nav_error.text()
    assert page.editors["peak_concurrency"].origin.isHidden()
    assert "peak_concurrency" not in page.prefilled


def test_the_memo_evidence_is_the_plans_models_runs(qtbot, main_window):
    from ui.pages.wizard import measured_evidence

    run_id = _store_completed_run("Qwen/Qwen2.5-14B-Instruct")
    result = make_plan(answers_from_dict({"model": "Qwen/Qwen2.5-14B-Instruct"}))
    assert [e.run_id for e in measured_evidence(result)] == [run_id]
    assert measured_evidence(make_plan(answers_from_dict({"model": "llama-3.1-8b-instruct"}))) == []


def test_export_after_editing_a_step_uses_the_answers_as_they_are_now(
    qtbot, main_window, page, exported, tmp_path, monkeypatch
):
    walk_to_result(qtbot, page, scenario("12")["answers"])
    assert not page.result.feasible
    page.go_to(4)  # money and people
    page.editors["monthly_budget.amount"].editor.setText("5000000")
    md = tmp_path / "memo.md"
    monkeypatch.setattr(page, "ask_export", lambda: (".md", "en"))
    monkeypatch.setattr(page, "ask_memo_path", lambda suffix, lang: str(md))
    page.window().export_memo()
    assert page.result.answers["monthly_budget"]["amount"] == 5000000
    assert page.result.feasible and md.is_file()


def test_export_dialog_and_menu_offer_both_formats_and_languages(qtbot, main_window):
    from ui.pages.wizard import ExportDialog

    assert main_window.act_export_memo in main_window.menu_file.actions()
    for lang, other in (("en", "zh_CN"), ("zh_CN", "en")):
        main_window.set_language(lang)
        dialog = ExportDialog(main_window)
        qtbot.addWidget(dialog)
        assert "&" not in dialog.windowTitle()
        assert dialog.choice() == (".pdf", lang)  # PDF in the UI language by default
        dialog.md.setChecked(True)
        dialog.lang.setCurrentIndex(dialog.lang.findData(other))
        assert dialog.choice() == (".md", other)
    assert main_window.act_export_memo.text() == "导出决策备忘录(&M)…"
    main_window.set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_cost_chart_counts_money_the_languages_way(qtbot, lang):
    """Hover values and y-axis ticks: 万/亿 in Chinese (as the memo's charts), k/M in English — never SI prefixes."""
    from advisor.plan.charts import cost_chart
    from ui.widgets.cost_chart import CostChart

    result = make_plan(answers_from_dict(scenario("01")["answers"]))
    old = i18n.current_language()
    i18n.set_language(lang)
    try:
        widget = CostChart()
        qtbot.addWidget(widget)
        widget.set_chart(cost_chart(result, lang))
        month, mid = widget.chart.series[0].points[-1]
        hover = widget.show_hover(month)
        ticks = widget.plot.getAxis("left").tickStrings([200_000.0, 1_500_000.0], 1.0, 100_000.0)
    finally:
        i18n.set_language(old)
    assert mid >= 10_000  # a cumulative cost over the horizon: large enough to need a unit
    if lang == "zh_CN":
        assert "万" in hover and "k" not in hover
        assert ticks == ["20万", "150万"]
    else:
        assert "k" in hover or "M" in hover
        assert ticks == ["200k", "1.5M"]
