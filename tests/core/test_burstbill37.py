"""A bursty cloud plan's always-on and event replicas, what reserving the event GPUs costs, and a fixed line sized for
event days (s35-burstbill, issue 25; blind review 26, q23 and q36).

q23: the Hardware row "6 cloud VMs" read as six always on beside a cost billing 2.8 GPUs on average; the capacity
reservation the memo recommends for the 4 event GPUs bills from creation, and no figure said so. q36: the 23 Mbps fixed
line is paid every day for a peak on 2–6 event days, and page 1 did not ask for pay-by-traffic.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import burstbill37, consist41_hardware
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange, PlanResult, render
from tests.support.planned import advice_answers, planned

Q23, Q36 = "q23_japan_game_npc", "q36_bursty_b2b_event_mainland"
LANGS = ("en", "zh_CN")


def _page1_row(memo: str, label: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(f"| {label} |"))


def _finding(r: PlanResult, rule_id: str):
    return next(f for f in r.findings if f.id == rule_id)


@pytest.mark.parametrize("lang", LANGS)
def test_the_hardware_row_says_the_replicas_kept_on_and_those_started_for_events(lang):
    r = planned(advice_answers(Q23))
    warm = int(r.costs.cloud_warm["replicas"])
    assert burstbill37.event_split(r) == (warm, r.hardware.replicas - warm)
    assert 0 < warm < r.hardware.replicas
    row = _page1_row(render_memo_markdown(r, lang), "Hardware" if lang == "en" else "硬件")
    # the VMs lead, the split after them, the GPUs named once (blind review 31: "8 cloud VMs of 1 × L20; 8 × L20")
    said = consist41_hardware.row(r, lang, (warm, r.hardware.replicas - warm))
    assert said is not None and said in row and row.count(r.hardware.gpu_name) == 1
    assert r.hardware.layout.text_in(lang, r.hardware.gpu_name) in said
    split = render(lang, "burstbill37_key.hardware_value", {
        "total": r.hardware.total_gpus, "gpu": r.hardware.gpu_name, "per": r.hardware.gpus_per_replica,
        "replicas": r.hardware.replicas, "weights": r.hardware.weights, "warm": warm, "events": r.hardware.replicas - warm})
    assert re.search(r"[(（]([^)）]+)[)）]", split).group(1) in said  # "2 always on + 4 for events", as before


def test_a_steady_load_keeps_the_plain_hardware_row():
    r = planned({**advice_answers(Q23), "load_pattern": "stable"})
    assert burstbill37.event_split(r) is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_event_gpus_reservation_is_priced_at_every_hour_it_is_held_and_judged_on_the_budget(lang):
    r = planned(advice_answers(Q23))
    c = r.costs
    f = _finding(r, "scaling.burst_reservation")
    gpus = f.params["gpus"]
    floor = c.cloud_reserved_floor
    assert floor is not None and c.recommended_monthly == c.cloud_monthly
    ov = c.cloud_overhead
    # held all month: the on-demand burst hours the month bills swapped for every hour of the event GPUs
    lo = c.cloud_monthly.low + (gpus - floor["burst_low"]) * HOURS_PER_MONTH * c.cloud_per_gpu_hour.low * (1 + ov.low)
    hi = c.cloud_monthly.high + (gpus - floor["burst_high"]) * HOURS_PER_MONTH * c.cloud_per_gpu_hour.high * (1 + ov.high)
    assert f.params["rs_month"] == money_range(MoneyRange(low=lo, high=hi), c.currency)
    day = MoneyRange(low=gpus * 24 * c.cloud_per_gpu_hour.low * (1 + ov.low),
                     high=gpus * 24 * c.cloud_per_gpu_hour.high * (1 + ov.high))
    assert f.params["rs_day"] == money_range(day, c.currency)
    assert hi <= c.budget_monthly and f.params["rs_verdict"]["tr"].endswith(".within")
    detail = f.detail_in(lang)
    assert f.params["rs_month"] in detail and money_range(c.cloud_monthly, c.currency) in detail
    assert any("pricing-billing" in s.url for s in f.sources)  # the billing fact's own source


def test_a_budget_below_the_reserved_month_says_over():
    r = planned({**advice_answers(Q23), "monthly_budget": {"amount": 8000, "currency": "USD"}})
    f = _finding(r, "scaling.burst_reservation")
    assert f.params["rs_verdict"]["tr"].endswith(".over")


def test_the_mainland_reservation_keeps_asking_its_fee_with_no_figure():
    r = planned(advice_answers(Q36))
    f = _finding(r, "scaling.burst_reservation")
    assert "rs_month" not in f.params and not f.detail_more


@pytest.mark.parametrize("lang", LANGS)
def test_page1_asks_for_traffic_billing_where_a_fixed_line_carries_an_event_day_peak(lang):
    r = planned(advice_answers(Q36))
    line = _finding(r, "cost.line_bandwidth")
    asked = render(lang, "burstbill37_line.page1", {"days": line.params["share"]})
    row = _page1_row(render_memo_markdown(r, lang), "Cost" if lang == "en" else "成本")
    assert asked.lstrip("；; ") in row


def test_no_traffic_question_without_event_days():
    r = planned({**advice_answers(Q36), "burst_schedule": {"known_in_advance": False}})
    assert burstbill37.line_clause(r, "en") == ""
