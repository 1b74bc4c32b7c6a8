"""The result card names the cheaper alternative the memo puts under its headline (issue 25, session 17): a
self-hosted plan dearer than a hosted API of the same model said so in the memo only; the card showed the GPUs
alone. The sentence is the memo's own (``advisor.plan.result.alternative_text``), in the window's language."""

from __future__ import annotations

from pathlib import Path

from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import alternative_text
from tests.support.planned import scenario_plan

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios"


def test_the_card_shows_the_memos_alternative_in_both_languages_and_hides_it_when_there_is_none(
        qtbot, main_window, wizard_page):  # fmt: skip
    view = wizard_page.result_view
    r = scenario_plan(FIXTURES / "01_fast_launch_no_icp.json")  # GPUs in the cloud; a hosted API costs less
    view.set_result(r)
    shown = view.alternative.text()
    assert not view.alternative.isHidden() and "hosted API" in shown and "**" not in shown
    assert shown in render_memo_markdown(r, "en").replace("**", "")  # the memo's sentence, its bold lead plain
    main_window.set_language("zh_CN")
    try:
        zh = view.alternative.text()
        assert zh == alternative_text(r.findings, "zh_CN") and "模型 API" in zh and "**" not in zh
    finally:
        main_window.set_language("en")
    view.set_result(scenario_plan(FIXTURES / "06_sensitive_medical.json"))  # no cheaper alternative
    assert view.alternative.isHidden() and view.alternative.text() == ""
