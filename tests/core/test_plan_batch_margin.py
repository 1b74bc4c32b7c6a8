"""A batch with a hard deadline finishes with margin, setup included; spot capacity only where the deadline has
room for a preemption and the data is not sensitive; sensitive data stays off marketplace consumer cards; a
one-off budget is never labelled per month (issue 25, q28: 10 × 4090D finishing in 46.5 of 48 hours, 48.5 h
billed, on spot, for a bank's loan files)."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.plan import answers_from_dict
from advisor.plan.batch_rate import DEADLINE_MARGIN
from advisor.plan.data import gpus_by_id
from advisor.plan.engine import plan
from advisor.plan.memo import render_memo_markdown

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
BANK = json.loads((SCENARIOS / "q28_bank_backfill_batch_48h.json").read_text(encoding="utf-8"))["answers"]
# documents without personal information, on any GPU the mainland offers
PLAIN = {
    "schema_version": 1, "use_case": "offline_batch", "model": "qwen2.5-7b-instruct", "total_requests": 2000000,
    "batch_deadline_hours": 72, "prompt_tokens": {"avg": 800, "p95": 1600}, "output_tokens": {"avg": 200, "p95": 400},
    "user_location": "mainland", "data_sensitivity": {"level": "low", "personal_info": False},
    "quantization_acceptable": "yes", "ops_capability": "basic", "monthly_budget": {"amount": 60000, "currency": "CNY"},
}  # fmt: skip


def _plan(answers: dict):
    return plan(answers_from_dict(answers), check_fixes=False)


def _spot(r):
    return next(f for f in r.findings if f.id == "cost.spot_batch")


def test_the_bank_job_finishes_with_a_fifth_of_the_deadline_to_spare_setup_included():
    r = _plan(BANK)
    assert r.feasible
    deadline = BANK["batch_deadline_hours"]
    billed = r.costs.billed_hours
    assert billed is not None and r.capacity.batch_hours is not None
    # the job's hours plus the longest setup leave the margin free; it finished in 46.5 h, 48.5 h billed, before
    assert billed.high <= deadline * (1 - DEADLINE_MARGIN) + 1e-9, billed
    assert r.capacity.batch_hours + (billed.high - billed.low) <= billed.high
    # the finding says the margin in hours, with setup, in both languages
    f = next(x for x in r.findings if x.id == "sizing.batch_throughput")
    en, zh = f.title_in("en"), f.title_in("zh_CN")
    assert "with setup" in en and "48-hour deadline" in en and "%" in en, en
    assert "准备时间" in zh and "48 小时的时限" in zh, zh


def test_sensitive_loan_files_stay_off_spot_and_consumer_cards():
    r = _plan(BANK)
    assert gpus_by_id()[r.hardware.gpu].market != "consumer", r.hardware.gpu
    spot = _spot(r)
    assert spot.title_key.endswith("avoid_sensitive.title"), spot.title_key
    assert "not spot" in spot.title_in("en") and "不用竞价实例" in spot.title_in("zh_CN")
    # the job is costed on demand: no spot price in the table or at the low end of the headline
    assert r.costs.cloud_spot_monthly is None
    assert r.costs.recommended_monthly is not None and r.costs.cloud_on_demand_monthly is not None
    assert r.costs.recommended_monthly.low == r.costs.cloud_on_demand_monthly.low
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(r, lang=lang)
        assert "Run the batch on spot GPUs" not in memo and "批处理用竞价实例：" not in memo


def test_no_spot_when_the_deadline_has_no_room_for_a_preemption():
    # 900,000 requests on 20 hours: sized to the margin, nothing left for a lost machine. (It was 3.7 million on 72
    # hours; since s21-batch21b such a long job runs on twice the replicas, which cost only ~4 % more and leave the
    # room a preemption needs (advisor.plan.batch_double). A job this short is not doubled: its replicas' setup hours
    # make twice the replicas cost more than a tenth more, so it stays at the margin.)
    r = _plan({**PLAIN, "total_requests": 900_000, "batch_deadline_hours": 20})
    assert "sizing.batch_doubled" not in {f.id for f in r.findings}
    billed = r.costs.billed_hours
    assert billed is not None and billed.high > 20 * (1 - DEADLINE_MARGIN) - 3
    spot = _spot(r)
    assert spot.title_key.endswith("avoid_tight.title"), spot.title_key
    assert r.costs.cloud_spot_monthly is None


def test_spot_where_the_deadline_leaves_room_and_the_data_is_not_sensitive():
    r = _plan({**PLAIN, "total_requests": 50000})  # a couple of hours' work against 72 hours
    spot = _spot(r)
    assert spot.title_key == "plan.rule.cost.spot_batch.title"
    assert r.costs.cloud_spot_monthly is not None


def test_a_one_off_budget_is_never_labelled_per_month():
    r = _plan(BANK)
    en, zh = render_memo_markdown(r, lang="en"), render_memo_markdown(r, lang="zh_CN")
    assert "Monthly budget" not in en and "Budget for the job: 30,000 CNY" in en
    assert "每月预算" not in zh and "本次任务预算" in zh


def test_a_zero_sensitive_count_for_loan_files_is_challenged():
    """The bank entered 0 people with sensitive data for loan files (account and ID numbers): the memo took it."""
    r = _plan(BANK)
    f = next(x for x in r.findings if x.id == "pi.sensitive_safeguards")
    assert f.title_key.endswith(".finance.title") and f.severity == "warning"
    from advisor.plan.result import render

    en, zh = render("en", f.detail_key, f.params), render("zh_CN", f.detail_key, f.params)
    assert "give 0 as the number of people with sensitive data" in en and "recount" in en, en
    assert "人数为 0" in zh and "重新清点" in zh, zh
    # not given at all: unknown, never read as 0
    ds = {k: v for k, v in BANK["data_sensitivity"].items() if k != "sensitive_pi_subjects_per_year"}
    f2 = next(
        x for x in _plan({**BANK, "data_sensitivity": ds}).findings if x.id == "pi.sensitive_safeguards"
    )
    assert "stays unknown until counted" in render("en", f2.detail_key, f2.params)
