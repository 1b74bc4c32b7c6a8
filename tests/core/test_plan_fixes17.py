"""Fixes priced as a deployment engineer prices them (s17-fixes, issue 25).

q40 (Qwen2.5-72B, 50 users at TTFT 2 s on 2,500-token prompts, 5,000 CNY a month): blind reviewers read its 4-bit
fix on 24 × H20 as "a whole-server pricing artefact" beside two 48 GB cards that hold the weights. Both directions:
where the cheap setup meets the target it is the fix's setup; where it does not, the fix says which cheaper setups
were set aside and by which figure. q29 (10 million documents on a 70B model in 12 h, 20,000 CNY): the hosted API's
price for the job was in the cost rows but never offered as a fix."""

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, hosted_prices, make_plan
from advisor.plan.context import resolve
from advisor.plan.fixes17 import batch_apis
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
Q40 = json.loads((SCEN / "q40_tiny_budget_72b.json").read_text(encoding="utf-8"))["answers"]
Q29 = json.loads((SCEN / "q29_batch_impossible_budget.json").read_text(encoding="utf-8"))["answers"]


def _fix(plan, fix_id):
    """The fix, or the change tried that saves nothing against the plan as asked (s19: listed apart)."""
    return next((f for f in [*plan.fixes, *plan.fixes_no_saving] if f.id == fix_id), None)


@pytest.fixture(scope="module")
def q40():
    return planned(Q40)  # planned once per session, shared with every file that reads it (issue #27)


@pytest.fixture(scope="module")
def q29():
    return planned(Q29)


def test_a_4bit_fix_on_big_servers_says_which_cheaper_setups_miss_the_target_and_by_how_much(q40):
    fix = _fix(q40, "quantize_4bit")
    assert fix is not None and fix.params["total"] > 4  # the TTFT target needs more than the weights do
    why = fix.params["why"]
    assert why and why["tr"] == "plan.fix17.why_not_cheaper_prefill4"
    setups = why["setups"]
    # the cheapest setups that hold 4-bit 72B weights: one 96 GB card, and two 48 GB cards rented by the card
    assert {(s["n"], s["gpu"]) for s in setups} >= {(2, "NVIDIA L20 48GB")}
    for s in setups:
        assert s["n"] < fix.params["total"] and s["missed"]["ms"] > s["missed"]["target"] == 2000
    en, zh = fix.text_in("en"), fix.text_in("zh_CN")
    l20 = next(s for s in setups if s["gpu"] == "NVIDIA L20 48GB")
    ms = f"{l20['missed']['ms']:,}"
    assert f"2 × NVIDIA L20 48GB (TTFT {ms} ms on one 2,500-token prompt alone, against 2,000 ms)" in en
    assert f"2 张 NVIDIA L20 48GB（单个 2,500 token 的提示词独占时 TTFT 已达 {ms} 毫秒，目标 2,000 毫秒）" in zh
    assert "compute-bound" in en and "预填充" in zh
    # page 1's table keeps the 4-bit row (review 27, q40: "the fix table has no 4-bit row"), said as no saving with the
    # miss in numbers, not with the plan's cost again (review 26, q40 zh); the JSON keeps the sentence in full
    [row] = [x for x in render_memo_markdown(q40, "en").splitlines() if x.startswith("| ") and fix.params["repo"] in x]
    # review 28 (q40): never "no cheaper" without a figure where its nearest miss is priced at a relaxed target
    near = fix.params["near"]
    assert "against 2,000 ms" in row
    if near.get("as_fp8"):  # review 29: no cheaper than FP8 at the target as asked, said so (fixtab39)
        assert f"relaxed to {near['relaxed']} ms it costs no less than the fp8 weights above" in row
    else:
        assert "no cheaper than the plan as asked" not in row
        assert f"{near['low']:,}–{near['high']:,} CNY a month on TP{near['tp']}" in row and f"to {near['relaxed']} ms" in row


def test_where_two_48gb_cards_meet_the_target_the_4bit_fix_is_those_cards_and_says_no_more():
    light = {**Q40, "peak_concurrency": 2, "latency_slo": {"ttft_p99_ms": 8000, "tpot_p99_ms": 80}}
    r = make_plan(answers_from_dict(light))
    fix = _fix(r, "quantize_4bit")
    assert fix is not None and not fix.params["why"]
    # the cards the replica needs and the N+1 spare: a few cards rented by the card, not a pair of 8-GPU servers
    # (two L20 a replica before s18-h20rows; since the H20 is sourced in 1-card instances, one H20 a replica)
    assert fix.params["gpu"] in ("NVIDIA L20 48GB", "NVIDIA H20 96GB") and fix.params["total"] <= 4
    assert "Cheaper setups" not in fix.text_in("en")
    after = make_plan(answers_from_dict({**light, **fix.change}))
    assert after.feasible and after.hardware.weights == "awq-int4" and not after.hardware.layout.whole_server
    assert after.hardware.total_gpus == fix.params["total"] and after.hardware.gpu_name == fix.params["gpu"]
    assert after.costs.recommended_monthly.high == fix.monthly_cost.high


def test_a_batch_over_its_deadline_is_offered_the_hosted_api_priced_for_the_job(q29):
    fix = _fix(q29, "hosted_api_job")
    assert fix is not None and fix.per_job
    hosted = q29.costs.hosted_api_monthly  # the same tokens' price the cost rows show
    assert (fix.monthly_cost.low, fix.monthly_cost.high) == (round(hosted.low), round(hosted.high))
    assert fix.with_budget == {"amount": float(-(-hosted.high // 1000) * 1000), "currency": "CNY"}
    en, zh = fix.text_in("en"), fix.text_in("zh_CN")
    assert f"{round(hosted.low):,}–{round(hosted.high):,} CNY for the whole job" in en
    # the price row's source and grade, and whose list it is: Llama-3.3-70B has no mainland list of its own (s19)
    row = hosted_prices.hosted_rates(resolve(answers_from_dict(Q29))).tier
    assert f"grade {row['grade']}" in en and row["url"] in en and "Qwen2.5-72B-Instruct" in en
    # s33-apiterms re-argued (blind review 22, q29: "the API estimate uses Qwen2.5-72B prices, not Llama-3.3-70B"):
    # the hedge "the same model may cost more or less" read as if the job stayed on Llama; the fix now says the API
    # is a change of model to the listed one, with its quality test, as page 1's switch does (``hosted_switch``)
    assert "a change of model to Qwen2.5-72B-Instruct" in en and "换成 Qwen2.5-72B-Instruct 这个模型" in zh
    assert "passes your quality test" in en and "通过质量测试" in zh
    assert "The documents leave for the provider" in en and "文档会发送给服务商" in zh
    assert "231 requests a second for 12 h" in en and "每秒 231 个请求" in zh
    # a batch API only with its source, and not assumed to cover this model
    assert "model-studio/batch-inference" in en and "ask whether one is sold for this model" in en
    assert f"together with a budget of about {fix.with_budget['amount']:,.0f} CNY for the job" in en
    # s34-rows36: beside q29's one change within the budget, the API is a table row with its cost for the job
    row = next(x for x in render_memo_markdown(q29, "zh_CN").splitlines() if x.startswith("| 模型 API 服务"))
    assert f"整个任务约 {round(hosted.low):,}–{round(hosted.high):,} CNY" in row, row


def test_the_hosted_job_fix_re_planned_alone_is_feasible_at_the_cost_it_shows(q29):
    fix = _fix(q29, "hosted_api_job")
    r = make_plan(answers_from_dict({**Q29, **fix.change}))
    assert r.deployment_form == "hosted_api" and r.feasible, r.finding_ids
    assert r.costs.within_budget is True and r.costs.recommended_monthly.high == fix.monthly_cost.high
    # without the budget it names, the hosted plan is over budget and says so
    alone = make_plan(answers_from_dict({**Q29, "ops_capability": "none"}))
    assert not alone.feasible and "cost.budget_short" in alone.finding_ids


def test_no_hosted_job_fix_for_data_that_must_stay_on_the_teams_servers():
    high = {**Q29, "data_sensitivity": {**Q29["data_sensitivity"], "level": "high"}}
    assert _fix(make_plan(answers_from_dict(high)), "hosted_api_job") is None


def test_a_batch_with_a_setup_that_fits_gets_no_hosted_job_fix():
    easy = {**Q29, "total_requests": 10000, "monthly_budget": {"amount": 200000, "currency": "CNY"}}
    r = make_plan(answers_from_dict(easy))
    assert r.feasible and _fix(r, "hosted_api_job") is None


def test_every_batch_api_named_has_a_source_with_a_url_and_grade():
    for row in batch_apis():
        assert row["source"]["url"].startswith("https://") and row["source"]["grade"] in "ABC"
        assert 0 < row["discount_pct"] < 100


def test_a_fix_on_whole_servers_says_what_the_load_needs_and_what_rounding_adds():
    # the 32B model and a quantized 72B cost the same: both need one server of a part rented only as whole 8-GPU
    # servers and its spare; the text says so (the H20 until s18-h20rows, rented by the card since: the H800 here)
    on_h800 = {**Q40, "gpu_constraint": ["h800-sxm-80g"]}
    planned = make_plan(answers_from_dict(on_h800))
    for fix_id, model in (("smaller_model", "Qwen2.5 32B Instruct"), ("quantize", None)):
        fix = next(f for f in [*planned.fixes, *planned.fixes_no_saving]
                   if f.id == fix_id and (model is None or f.params["model"] == model))
        r = make_plan(answers_from_dict({**on_h800, **fix.change}))
        lay = r.hardware.layout
        assert lay.whole_server and lay.load_gpus < lay.units * lay.unit_gpus
        en, zh = fix.text_in("en"), fix.text_in("zh_CN")
        assert f"{r.hardware.total_gpus} × {r.hardware.gpu_name}, {lay.units} whole servers of 8" in en
        assert f"the load needs {lay.load_gpus} GPUs, one more server is the N+1 spare" in en
        assert f"负载只需 {lay.load_gpus} 张，另一台为 N+1 备用" in zh
        assert fix.monthly_cost.high == r.costs.recommended_monthly.high


def test_a_fix_on_cards_rented_one_by_one_names_the_cards_and_the_spare(q40):
    fix = next(f for f in q40.fixes if f.id == "smaller_model" and f.params["model"] == "Qwen2.5 3B Instruct")
    en = fix.text_in("en")
    assert "× NVIDIA" in en and "per replica" in en and "whole servers" not in en


def test_a_cheaper_setup_set_aside_as_existing_stock_is_named_with_both_hourly_costs(q40):
    fix = _fix(q40, "quantize_4bit")
    r = make_plan(answers_from_dict({**Q40, **fix.change}))
    assert r.gpu_choice.reason == "stock"  # the re-plan's own ranking: a part sold new before existing stock
    alt = next(a for a in r.gpu_choice.alternatives if a.gpu_name == r.gpu_choice.reason_params["other"])
    assert alt.per_hour < r.gpu_choice.chosen.per_hour
    en = fix.text_in("en")
    assert f"{alt.gpus} × {alt.gpu_name} would cost less ({alt.per_hour:,.0f} against " \
           f"{r.gpu_choice.chosen.per_hour:,.0f} CNY an hour)" in en
    assert "只有存量" in fix.text_in("zh_CN")
    # a fix whose re-plan chose the cheapest hour says nothing of stock
    assert all(not f.params.get("stock") for f in q40.fixes if f.id == "smaller_model")
