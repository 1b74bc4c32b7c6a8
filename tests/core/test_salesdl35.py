"""A launch deadline on a rented part sold only through the cloud's sales (issue #25, blind review 24, q32 en/zh):
page 1 launches within the deadline on the part the GPU choice names rented on demand at a listed price, and takes
the sales-only part only once its delivery is confirmed in writing within the set-up's slack (``sales_deadline``).
"""

from __future__ import annotations

import pytest

from advisor.plan import sales_deadline, sales_wait
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

ROWS = {"en": ("Earliest launch", "Feasible as asked"), "zh_CN": ("最早上线", "按要求是否可行")}


def _row(md: str, key: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {key} |"))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_deadline_launches_on_the_on_demand_part(lang: str) -> None:
    r = planned(advice_answers("q32_filed_public_chatbot_fast"))
    now = sales_deadline.start_now(r)
    other = sales_wait.start_on(r)
    assert now is not None and other is not None and now["gpu"] == other["gpu"] != r.hardware.gpu_name
    month = float(other["per_hour"].replace(",", "")) * HOURS_PER_MONTH
    assert now["month"] == f"{month:,.0f}" and month <= r.costs.budget_monthly  # within the budget
    tl = r.timeline
    assert now["deadline"] == tl.deadline_days and now["slack"] == tl.deadline_days - tl.launch_days_high
    md = render_memo_markdown(r, lang)
    launch, feasible = (_row(md, k) for k in ROWS[lang])
    for text in (launch, feasible):
        assert f"{now['n']} " in text and now["gpu"] in text and r.hardware.gpu_name in text
        assert str(tl.deadline_days) in text
    assert now["per_hour"] in launch and now["month"] in launch and str(now["slack"]) in launch
    assert f"{tl.launch_days_low}–{tl.launch_days_high}" in launch
    step = r.next_steps[0]
    assert step.key == sales_deadline.STEP_KEY and now["gpu"] in step.text_in(lang)


def test_no_deadline_keeps_the_delivery_as_the_gate() -> None:
    answers = advice_answers("q32_filed_public_chatbot_fast")
    answers.pop("launch_deadline_days", None)
    r = planned(answers)
    assert r.timeline.deadline_days is None and sales_deadline.start_now(r) is None
    assert r.next_steps[0].key == sales_wait.GATE_KEY  # the launch still waits on the delivery
    assert sales_deadline.launch_text(r, "en", "1–5") is None


def test_over_budget_on_demand_part_is_not_led_with() -> None:
    r = planned(advice_answers("q32_filed_public_chatbot_fast"))
    other = sales_wait.start_on(r)
    assert other is not None
    month = float(other["per_hour"].replace(",", "")) * HOURS_PER_MONTH
    r.costs.budget_monthly = month - 1  # the on-demand part's month over the budget: the delivery decides
    assert sales_deadline.start_now(r) is None and sales_deadline.feasible_text(r, "en") is None
