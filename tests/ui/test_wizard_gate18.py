"""The result page's launch line names the step that sets the earliest launch, as `advisor plan`, its --json timeline
(`gate`) and the memo do (s18-duties: the 90–240-day filing, not only "about 200 days"), in both languages."""

from __future__ import annotations

import html

from tests.support.planned import ADVICE_SCENARIOS, scenario_plan

GATED = ADVICE_SCENARIOS / "q07_minors_education_app.json"  # a filing gates the launch and misses the deadline
UNGATED = ADVICE_SCENARIOS / "q21_fast_launch_hk_rule1.json"  # set-up only: nothing but the set-up sets the date


def _shown(text: str) -> str:
    return html.unescape(text)


def test_the_launch_line_names_the_step_that_sets_it_in_both_languages(qtbot, main_window, wizard_page):
    r = scenario_plan(GATED)
    gate = r.timeline.gate
    assert gate is not None and gate.id != "setup"
    view = wizard_page.result_view
    view.set_result(r)
    en = _shown(view.timeline.text())
    assert r.timeline.gate_text("en").strip() in en
    # said beside the days, before the deadline verdict
    assert en.index(r.timeline.gate_text("en").strip()) < en.index(f"{r.timeline.deadline_days}-day deadline")
    main_window.set_language("zh_CN")
    zh = _shown(view.timeline.text())
    assert r.timeline.gate_text("zh_CN") in zh and "取决于" in zh
    main_window.set_language("en")


def test_no_gate_no_set_by_words(qtbot, wizard_page):
    r = scenario_plan(UNGATED)
    assert r.timeline.gate is None
    view = wizard_page.result_view
    view.set_result(r)
    assert "set by" not in _shown(view.timeline.text())
