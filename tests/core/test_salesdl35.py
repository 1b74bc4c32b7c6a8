"""A launch deadline on a rented part sold only through the cloud's sales (issue #25, blind review 24, q32 en/zh):
page 1 launches within the deadline on the part the GPU choice names rented on demand at a listed price, and takes
the sales-only part only once its delivery is confirmed in writing within the set-up's slack (``sales_deadline``).
Since s36-sourced q32 rents the L20 itself (``sure_first38``); the example is fixture 10 with a 10-day deadline, whose
8 × H20 stays the plan, cheaper even at the top of its placeholder than the 24 × L20 (``tests.support.planned.sales_led``).
"""

from __future__ import annotations

import pytest

from advisor.plan import sales_deadline, sales_job, sales_wait
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.memo import render_memo_markdown
from advisor.plan.sales_only import listed_on_request
from tests.support.planned import advice_answers, sales_led, unled

ROWS = {"en": ("Earliest launch", "Feasible as asked"), "zh_CN": ("最早上线", "按要求是否可行")}


def _row(md: str, key: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {key} |"))


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_deadline_launches_on_the_on_demand_part(lang: str) -> None:
    r = sales_led()
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
    r = sales_led(deadline=None)
    assert r.timeline.deadline_days is None and sales_deadline.start_now(r) is None
    assert r.next_steps[0].key == sales_wait.GATE_KEY  # the launch still waits on the delivery
    assert sales_deadline.launch_text(r, "en", "1–5") is None


def test_over_budget_on_demand_part_is_not_led_with() -> None:
    r = sales_led()
    other = sales_wait.start_on(r)
    assert other is not None
    month = float(other["per_hour"].replace(",", "")) * HOURS_PER_MONTH
    r.costs.budget_monthly = month - 1  # the on-demand part's month over the budget: the delivery decides
    assert sales_deadline.start_now(r) is None and sales_deadline.feasible_text(r, "en") is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_cli_summary_says_the_launch_on_the_on_demand_part(lang: str) -> None:
    from advisor.cli.plan import summary

    r = sales_led()
    now = sales_deadline.start_now(r)
    assert now is not None
    text = summary(r, lang)
    assert sales_deadline.launch_text(r, lang, f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}") in text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_job_on_a_sales_only_part_names_the_runner_up_to_run_it_on(lang: str) -> None:
    """q28: a job on H20 (sold through sales) names the listed runner-up, with the GPUs the deadline needs on it,
    its price a GPU-hour and the job's GPU-hours, as the why-this-GPU finding states them."""
    r = unled(advice_answers("q28_bank_backfill_batch_48h"))
    assert sales_deadline.start_now(r) is None  # a job's clock, no launch deadline: page 1's rows as they were
    why = next(f for f in r.findings if f.id == sales_job.FINDING)
    p = why.params
    assert p["other_listed"] and not listed_on_request(p["other_id"]) and listed_on_request(r.hardware.gpu)
    price = float(p["other_price"].lstrip("¥$").replace(",", ""))
    hours = float(p["other_hours"].replace(",", ""))
    assert abs(float(p["other_work"].lstrip("¥$").replace(",", "")) - price * hours) <= price  # GPU-hours rounded
    step = next(s for s in r.next_steps if s.id == "confirm_instance")
    assert step.params["fallback"] == sales_job.start_on(r)
    text = step.text_in(lang)
    assert f"{p['other_gpus']} " in text and p["other"] in text and p["other_price"] in text
    assert p["other_hours"] in text and p["other_work"] in text
    # the count finishes the job's GPU-hours within the work the deadline leaves (the screen's own sizing)
    assert p["other_gpus"] * r.answers["batch_deadline_hours"] >= hours


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_timeline_table_says_the_delivery_waits_only_the_move(lang: str) -> None:
    r = sales_led()
    [item] = [i for i in r.timeline.items if i.id == sales_wait.ITEM_ID]
    cell = sales_deadline.blocking_cell(r, item, lang)
    assert cell is not None and r.hardware.gpu_name in cell
    row = next(line for line in render_memo_markdown(r, lang).splitlines() if line.startswith(f"| {item.label_in(lang)} |"))
    assert row.endswith(f"| {cell} |")
    other = next(i for i in r.timeline.items if i.id != sales_wait.ITEM_ID)
    assert sales_deadline.blocking_cell(r, other, lang) is None  # the other rows keep their own cell
