"""The result card says what the memo says (issue 25, session 15): a batch job's cost is "Cost of the job", the "why"
line gives the memo's page-1 reasons in its order (deciding first, caveats such as price grades after), a finding's
detail carries no internal rule id, and its sources are named in Chinese in a Chinese window."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo_text15 import source_title
from advisor.plan.reasons import CAVEAT_RULES
from ui.widgets.wizard_result import FindingItem, deciding_findings

BATCH = {"use_case": "offline_batch", "total_requests": 20000, "batch_deadline_hours": 24,
         "model": "qwen2.5-7b-instruct", "user_location": "mainland",
         "monthly_budget": {"amount": 5000, "currency": "CNY"}}  # fmt: skip


@pytest.fixture
def view(wizard_page):
    return wizard_page.result_view


def test_a_batch_job_costs_the_job_and_a_service_a_month(qtbot, main_window, view):
    view.set_result(make_plan(answers_from_dict(BATCH)))
    assert view.card_names["monthly"].text() == "Cost of the job"
    main_window.set_language("zh_CN")
    assert view.card_names["monthly"].text() == "本次任务成本"
    main_window.set_language("en")
    view.set_result(make_plan(answers_from_dict({**BATCH, "use_case": "api", "peak_concurrency": 4})))
    assert view.card_names["monthly"].text() == "Monthly cost"


def test_the_why_line_leads_with_what_decides_not_with_a_caveat(qtbot, view):
    r = make_plan(answers_from_dict(BATCH))
    view.set_result(r)
    first = deciding_findings(r)[0]
    assert first.id not in CAVEAT_RULES
    # the batch plan has price-grade and export caveats; they used to lead the line (sorted by severity alone)
    assert {f.id for f in r.findings} & CAVEAT_RULES
    why = view.why.text()
    assert first.title_in("en").rstrip(".") in why
    caveats = [f.title_in("en").rstrip(".") for f in r.findings if f.id in CAVEAT_RULES]
    assert not why.split(":", 1)[-1].strip().startswith(tuple(caveats))


def test_finding_details_name_no_rule_id_and_sources_in_the_window_language(qtbot, main_window, view):
    r = make_plan(answers_from_dict(BATCH))
    view.set_result(r)
    items = view.findChildren(FindingItem)
    assert items
    for item in items:
        assert item.finding.id not in item.detail.text()
    main_window.set_language("zh_CN")
    try:
        cited = [(item, s) for item in view.findChildren(FindingItem) for s in item.finding.sources
                 if source_title(s.title, "zh_CN") != s.title]  # fmt: skip
        assert cited, "no finding of this plan cites a source with a Chinese title"
        for item, s in cited:
            assert source_title(s.title, "zh_CN") in item.detail.text()
    finally:
        main_window.set_language("en")
