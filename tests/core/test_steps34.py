"""Blind review 23's obligations and next steps (issue #25, s33-steps): a job on rented GPUs gets its quota gate and
its encrypt-and-wipe step, a caveat against the card the plan runs on is no reason for it, a tight first-token target
says the predicted figure is the server's share, a large-scale EU service gets its DPIA, a public chat's month is
the chats' month, a busy fleet's free GPUs are checked before any start command, and a month negligible against the
budget leaves the model to quality."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import duties34_rules, hosted_prices, hosted_quality, job_cloud_steps
from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import against_plan, deciding
from tests.support.planned import advice_answers, advice_plan, only_finding, unled

LANGS = ("en", "zh_CN")


def _ids(r) -> list[str]:
    return [s.id for s in r.next_steps]


# --- a job on rented cloud GPUs (q06, q28) -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h"])
def test_a_rented_job_confirms_all_its_instances_at_once_before_any_replica_starts(name):
    r = advice_plan(name)
    ids = _ids(r)
    quota = next(s for s in r.next_steps if s.id == job_cloud_steps.QUOTA_ID)
    lay = r.hardware.layout
    assert quota.params["units"] == lay.units and quota.params["unit"] == lay.unit_gpus
    assert quota.params["deadline"] == f"{advice_answers(name)['batch_deadline_hours']:g}"
    # before the first step that starts a replica, and on page 1 (the first three)
    assert ids.index(job_cloud_steps.QUOTA_ID) < ids.index("serve")
    assert ids.index(job_cloud_steps.QUOTA_ID) < 3
    # a bank or insurer on the mainland: the financial-cloud zone is where to ask first
    assert quota.key.endswith("_finance")
    assert "金融云" in quota.text_in("en") and "金融云" in quota.text_in("zh_CN")


@pytest.mark.parametrize("name", ["q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h"])
def test_a_rented_job_on_personal_data_encrypts_its_disks_and_wipes_them_with_evidence(name):
    r = advice_plan(name)
    ids = _ids(r)
    assert ids.index(job_cloud_steps.DATA_ID) < ids.index("serve")
    text = next(s for s in r.next_steps if s.id == job_cloud_steps.DATA_ID).text_in("en").lower()
    for word in ("encrypt", "keys you hold", "snapshots", "logs", "audit"):
        assert word in text


def test_a_job_without_personal_data_outside_finance_gets_the_plain_quota_step_only():
    answers = advice_answers("q06_l20_batch_72h_claims")
    r = advice_plan("q06_l20_batch_72h_claims", data_sensitivity={
        **answers["data_sensitivity"], "personal_info": False, "sector": "general", "pi_subjects_per_year": None,
        "sensitive_pi_subjects_per_year": None})
    quota = next(s for s in r.next_steps if s.id == job_cloud_steps.QUOTA_ID)
    assert not quota.key.endswith("_finance") and "金融云" not in quota.text_in("zh_CN")
    assert job_cloud_steps.DATA_ID not in _ids(r)


@pytest.mark.parametrize("name", ["q09_eu_voice_agent", "q29_batch_impossible_budget", "q16_hosted_api_mainland_registration"])
def test_no_job_steps_for_a_service_an_api_or_a_job_that_cannot_run(name):
    ids = _ids(advice_plan(name))
    assert job_cloud_steps.QUOTA_ID not in ids and job_cloud_steps.DATA_ID not in ids


# --- a caveat against the chosen card is no reason (q28, q04) --------------------------------------------------------


@pytest.mark.parametrize("name", ["q28_bank_backfill_batch_48h", "q04_securities_h20_l20_fleet"])
def test_the_h20_prefill_weakness_on_a_plan_of_h20s_is_a_caveat_not_a_reason(name):
    r = unled(advice_answers(name))  # q28's job is now run on the hourly L20 (supply_lead): its H20 plan as sized
    assert r.hardware.gpu == "h20-96g"
    weak = only_finding(r, "gpu.h20_prefill")  # still said among the findings
    assert against_plan(weak)
    assert "gpu.h20_prefill" not in [f.id for f in deciding(r.findings)]
    page1 = render_memo_markdown(r, "en").split("## 2.")[0]
    assert weak.title_in("en") not in page1


# --- a tight first-token target: the server's share (q09) ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_predicted_first_token_is_said_as_the_servers_share_of_the_target(lang):
    r = advice_plan("q09_eu_voice_agent")
    f = only_finding(r, "region.latency_budget")
    p = f.params["predicted"]
    assert p["tr"] == "steps34.latency.server_share"
    slo = advice_answers("q09_eu_voice_agent")["latency_slo"]["ttft_p99_ms"]
    assert p["slo"] == slo and p["left"] == slo - p["ttft"]
    detail = f.detail_in(lang)
    assert f"{p['left']}" in detail and f"{p['ttft']}" in detail
    assert ("client" in detail) if lang == "en" else ("客户端" in detail)


# --- GDPR DPIA for large-scale processing (q09) -------------------------------------------------------------------


def test_a_public_eu_service_on_many_peoples_data_gets_a_dpia_with_the_count():
    r = advice_plan("q09_eu_voice_agent")
    f = only_finding(r, "pi.eu_large_scale_dpia")
    people = advice_answers("q09_eu_voice_agent")["data_sensitivity"]["pi_subjects_per_year"]
    assert people >= duties34_rules.LARGE_SCALE_PEOPLE and f.params["people"] == f"{people:,}"
    assert "Art. 35" in f.title_in("en") and "第 35 条" in f.title_in("zh_CN")
    assert any("WP248" in s.title for s in f.sources) and any(s.grade == "U" for s in f.sources)
    assert f.id not in [x.id for x in deciding(r.findings)]  # a duty, not a reason for the plan


def test_no_large_scale_dpia_below_the_threshold_or_for_a_staff_tool():
    answers = advice_answers("q09_eu_voice_agent")
    few = advice_plan("q09_eu_voice_agent", data_sensitivity={
        **answers["data_sensitivity"], "pi_subjects_per_year": duties34_rules.LARGE_SCALE_PEOPLE - 1})
    assert few.finding("pi.eu_large_scale_dpia") is None
    assert advice_plan("q38_eu_internal_hr_assistant").finding("pi.eu_large_scale_dpia") is None


# --- a public chat's month is the chats' month (q16) --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_chat_says_the_single_request_month_once_and_leads_with_the_chats(lang):
    r = advice_plan("q16_hosted_api_mainland_registration")
    turns = only_finding(r, "cost.chat_turns").params
    memo = render_memo_markdown(r, lang)
    single = r.costs.hosted_api_monthly
    figures = {f"{single.low:,.0f}–{single.high:,.0f}", f"¥{single.low:,.0f}–¥{single.high:,.0f}"}
    assert sum(memo.count(x) for x in figures) == 1, figures  # the per-request month: one parenthesis
    label = translate(lang, "memo.cost.hosted_monthly")
    [row] = [line for line in memo.splitlines() if line.startswith(f"| {label} |")]
    assert row.index(turns["chats"]) < min(row.find(x) for x in figures if x in row)


@pytest.mark.parametrize("lang", LANGS)
def test_a_launch_a_registration_sets_is_in_the_recommendations_first_line(lang):
    r = advice_plan("q16_hosted_api_mainland_registration")
    first = next(line for line in render_memo_markdown(r, lang).splitlines()
                 if line.startswith(translate(lang, "memo.rec.summary").split("{")[0]))
    days = f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}"
    assert days in first
    # a purchase's own lead time or a week of set-up is not news for the first line
    for name in ("q17_capex_only_university_lab", "q09_eu_voice_agent"):
        other = advice_plan(name)
        line = next(x for x in render_memo_markdown(other, "en").splitlines() if x.startswith("**Recommendation**"))
        assert "Earliest launch" not in line


# --- a busy fleet: free GPUs checked first (q18) -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_busy_fleet_checks_where_its_free_gpus_lie_before_any_start_command(lang):
    # the step is numbers2_34's (``placement_check``, built with the other next steps): one step, not two
    r = advice_plan("q18_us_fleet_32_h100")
    assert r.next_steps[0].id == "placement_check"
    assert [s.id for s in r.next_steps].count("placement_check") == 1
    placement = only_finding(r, "sizing.placement").params["cover"]
    # review 36 (q04: "6 + 4 GPUs free" unparseable): the same counts, server by server in words
    words = ("4 on server 1, 4 on server 2, 4 on server 3 and 2 on server 4" if lang == "en"
             else "第 1 台服务器 4 张、第 2 台 4 张、第 3 台 4 张和第 4 台 2 张")
    assert placement["per_server"] == "4 + 4 + 4 + 2" and words in r.next_steps[0].text_in(lang)


# --- a negligible month: quality picks the model (q15) ------------------------------------------------------------


def test_a_month_negligible_against_the_budget_leaves_the_model_to_quality():
    r = advice_plan("q15_hosted_api_small_us_team")
    f = only_finding(r, "cost.hosted_api")
    assert f.detail_more == "steps34.hosted.quality"
    c = r.costs
    tier = hosted_prices.tier_for(hosted_quality.LARGER_B, "global")
    i_lo, o_lo = tier["input"][0], tier["output"][0]
    low = (c.input_tokens_per_month * i_lo + c.output_tokens_per_month * o_lo) / 1e6
    assert f.params["q_larger"].startswith(f"${low:,.2f}")
    assert c.hosted_api_monthly.high <= hosted_quality.NEGLIGIBLE_SHARE * advice_answers(
        "q15_hosted_api_small_us_team")["monthly_budget"]["amount"]
    assert any(s.title == tier["source"] for s in f.sources)
    # a public chat's month is the chats', not negligible: no such line (q16)
    assert not only_finding(advice_plan("q16_hosted_api_mainland_registration"), "cost.hosted_api").detail_more


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_memo_has_no_json_or_fix_jargon_where_there_is_no_fix(lang):
    r = advice_plan("q15_hosted_api_small_us_team")
    assert not r.fixes
    memo = render_memo_markdown(r, lang)
    assert "JSON" not in memo
    assert not re.search(r"a fix may propose|改进建议里可能会提出", memo)


# --- a prefill-bound job: why its GPU beats the runner-up (q28) ---------------------------------------------------


def test_a_prefill_bound_job_says_why_its_gpu_beats_the_runner_up_with_the_break_even_price():
    r = unled({**advice_answers("q28_bank_backfill_batch_48h")})
    f = only_finding(r, "sizing.batch_gpu_choice")
    p = f.params
    assert p["gpu"] == r.hardware.gpu_name and p["other"] != p["gpu"]
    # the rate a GPU is the sizing's own (TP1: a replica's requests an hour), the GPU-hours the hardware table's
    rate = r.capacity.output_tokens_per_s_per_replica / advice_answers("q28_bank_backfill_batch_48h")["output_tokens"]["avg"] * 3600
    num = lambda text: float(text.replace(",", ""))  # noqa: E731
    assert num(p["rate"]) == pytest.approx(rate, abs=1)  # the table's tokens/s is rounded to 0.1
    total = advice_answers("q28_bank_backfill_batch_48h")["total_requests"]
    assert num(p["hours"]) == pytest.approx(total / rate, abs=1)
    assert num(p["hours"]) == pytest.approx(r.capacity.batch_hours * r.hardware.total_gpus, abs=2)  # the table's
    # break-even: the runner-up's price × its GPU-hours over the chosen one's
    other_price = float(p["other_price"].lstrip("¥$").replace(",", ""))
    even = float(p["even"].lstrip("¥$").replace(",", ""))
    ratio = float(p["other_hours"].replace(",", "")) / float(p["hours"].replace(",", ""))
    assert even == pytest.approx(other_price * ratio, rel=0.01)
    assert p["where"]["tr"] == ("steps34.batchgpu.under" if r.costs.cloud_per_gpu_hour.high <= even
                                else "steps34.batchgpu.over" if r.costs.cloud_per_gpu_hour.low >= even
                                else "steps34.batchgpu.straddles")
    # a job held to one GPU by the answers has no runner-up to weigh (q06: L20 asked for)
    assert unled({**advice_answers("q06_l20_batch_72h_claims")}).finding("sizing.batch_gpu_choice") is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_quota_is_said_once_and_a_later_start_step_points_at_section_2s_command(lang):
    r = advice_plan("q06_l20_batch_72h_claims")
    setup = next(i for i in r.timeline.items if i.id == "setup")
    assert setup.label_key == "steps34.timeline.setup_batch"  # the quota step says "all at once", with the count
    memo = render_memo_markdown(r, lang)
    command = r.hardware.command
    assert command and memo.count(command) == 1  # section 2's block only, not again in section 9
    assert translate(lang, "steps34.next.serve_above", tp=r.hardware.tp, gpu=r.hardware.gpu_name) in memo
    # a job that cannot run keeps the row as it was: no quota step says it
    impossible = advice_plan("q29_batch_impossible_budget")
    assert all(i.label_key != "steps34.timeline.setup_batch" for i in impossible.timeline.items)
