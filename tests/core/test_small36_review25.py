"""Review 25 (issue 25), q29 and q23: an assumed quota said as a guess where a fix rests on it; what limits the plan's
own batch layout beside the prefill floor; a priced batch API on its own fix line; and the timing check where a much
cheaper hosted API is kept out only by a first-token tail the plan did not measure."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, api_tail, sizing
from advisor.plan.engine import plan
from advisor.plan.memo import render_memo_markdown

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


def _answers(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["answers"]


@pytest.fixture(scope="module")
def q29():
    return plan(answers_from_dict(_answers("q29_batch_impossible_budget")))


@pytest.fixture(scope="module")
def q23():
    return plan(answers_from_dict(_answers("q23_japan_game_npc")))


def test_the_longer_deadline_says_its_quota_is_a_guess_and_asks_for_the_real_one(q29):
    longer = next(f for f in q29.fixes if f.id == "longer_batch")
    # the quota is the plan's assumption (no answer gives it): the fix's hours rest on it, and say so
    assert longer.params["quota"] == sizing.batch_quota_gpus()
    en, zh = longer.text_in("en"), longer.text_in("zh_CN")
    assert "guess" in en and "ask your provider" in en and f"{longer.params['quota']} ×" in en, en
    assert "猜测" in zh and "真实配额" in zh, zh


def test_the_plan_layouts_decode_share_is_said_beside_the_prefill_floor(q29):
    b = q29.binding_constraint
    floor = next(p for p in b.then if p["tr"] == "plan.batch15.floor.prefill")
    split = next(p for p in b.then if p["tr"] == "small36_batch.layout_split")
    # the split is of the plan's own GPU-hours, the figure the sizing sentence prints, and agrees with the floor
    assert split["decode_h"] + split["other_h"] == split["plan_h"] == round(b.figures["gpu_hours"])
    assert split["decode_h"] > split["other_h"] >= floor["prefill_h"], (split, floor)
    assert split["tp"] == b.figures["tp"]
    en, zh = b.text_in("en"), b.text_in("zh_CN")
    assert f"decode takes the larger share: about {split['decode_h']:,} of the job's {split['plan_h']:,}" in en, en
    assert "KV memory" in en and "解码占了大头" in zh and "KV 内存" in zh
    # said after the floor, before the small batch's reason
    keys = [p["tr"] for p in b.then]
    assert keys.index("plan.batch15.floor.prefill") < keys.index("small36_batch.layout_split") \
        < keys.index("plan.batch15.small_batch")


def test_a_priced_batch_api_has_its_own_line_with_its_cost_against_the_budget(q29):
    hosted = next(f for f in q29.fixes if f.id == "hosted_api_job")
    line = hosted.params["batch_line"]
    assert line["model"] == "DeepSeek-V3" and 0 < line["low"] <= line["high"]
    # cheaper than the API priced on a same-size list and than the job on the team's own GPUs: the "least" claim
    assert line["high"] < hosted.monthly_cost.low and line["high"] < q29.binding_constraint.figures["job_low"]
    budget = float(_answers("q29_batch_impossible_budget")["monthly_budget"]["amount"])
    assert line["low"] > budget
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(q29, lang)
        # q29's other changes are page 1's table (s34-rows36): the batch API its own row, beside the API's (before
        # it where it costs less: the hosted APIs cheapest first, review 34, fo43)
        rows = [x for x in memo.splitlines() if x.startswith("| ")]
        api = next(i for i, x in enumerate(rows) if "Qwen2.5-72B-Instruct" in x and "DeepSeek" not in x)
        own = rows[api - 1]
        assert "DeepSeek-V3" in own and f"{line['low']:,}" in own, own
        assert f"{line['low']:,}" not in rows[api]  # the API's row carries its own cost, not the batch line's
    en = render_memo_markdown(q29, "en")
    own = next(x for x in en.splitlines() if x.startswith("| Send the job to Alibaba Cloud Model Studio's batch API"))
    times = f"{line['low'] / budget:.1f}".rstrip("0").rstrip(".")
    assert f"{times}× the budget of {budget:,.0f} CNY" in own and "costs the least" in own, own
    # and among the choices the next step lists
    assert "a batch API on DeepSeek-V3" in q29.next_steps[0].text_in("en")


def test_the_batch_line_says_within_budget_where_it_fits():
    answers = {**_answers("q29_batch_impossible_budget"), "monthly_budget": {"amount": 60000, "currency": "CNY"}}
    r = plan(answers_from_dict(answers))
    hosted = next(f for f in r.fixes if f.id == "hosted_api_job")
    line = hosted.params["batch_line"]
    assert line["high"] <= 60000
    text = next(x for x in render_memo_markdown(r, "en").splitlines() if "batch API on DeepSeek-V3 instead" in x)
    assert "within the budget of 60,000 CNY" in text and "× the budget" not in text, text


def test_a_much_cheaper_api_kept_out_only_by_its_tail_gets_the_timing_step(q23):
    step = next(s for s in q23.next_steps if s.id == api_tail.STEP_ID)
    ids = [s.id for s in q23.next_steps]
    assert ids.index(api_tail.STEP_ID) < ids.index("serve")  # before money goes on the self-hosted replica
    c = q23.costs
    assert c.hosted_api_monthly.low <= api_tail.MUCH * c.recommended_monthly.low
    ttft = _answers("q23_japan_game_npc")["latency_slo"]["ttft_p99_ms"]
    assert step.params["peak"] == 150 and step.params["slo"] == ttft
    en, zh = step.text_in("en"), step.text_in("zh_CN")
    assert "P99 first token" in en and "Japan (Tokyo)" in en and f"{ttft} ms" in en and "150 requests" in en, en
    assert step.params["hosted"] in en and step.params["plan"] in en
    assert "P99" in zh and "日本" in zh and step.params["hosted"] in zh
    # the set-aside line keeps its plain reason: the first-token tail under the target
    weighed = next(f for f in q23.findings if f.id == "cost.hosted_weighed")
    assert "first-token" in weighed.title_in("en")


def test_no_timing_step_where_the_price_is_not_comparable_or_no_tight_target():
    eu = plan(answers_from_dict(_answers("q09_eu_voice_agent")))  # EU personal data on US lists: not comparable
    assert api_tail.STEP_ID not in [s.id for s in eu.next_steps]
    answers = _answers("q23_japan_game_npc")
    loose = plan(answers_from_dict({**answers, "latency_slo": {**answers["latency_slo"], "ttft_p99_ms": 3000}}))
    assert api_tail.STEP_ID not in [s.id for s in loose.next_steps]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_longer_batch_row_of_the_fixes_table_says_its_quota_is_a_guess(q29, lang):
    """Page 1's table (s34-rows36) names the longer deadline in a few words; the quota it rests on is still said as
    the plan's guess there, with the ask (review 25, q29)."""
    fix = next(f for f in q29.fixes if f.id == "longer_batch")
    quota, gpu = fix.params["quota"], fix.params["gpu"]
    memo = render_memo_markdown(q29, lang)
    row = next(x for x in memo.splitlines() if x.startswith("| ") and f"{quota} " in x and gpu in x)
    assert ("guessed quota" if lang == "en" else "猜测的云配额") in row
