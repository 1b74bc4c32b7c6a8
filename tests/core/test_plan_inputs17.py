"""Sixth blind review, answers and memos (issue 25, s17-ui): what the engine said wrongly or left out, in both
languages. Each test fails without its fix."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, own_volume, planned, quoted, short_lived

LANGS = ("en", "zh_CN")


@pytest.mark.parametrize("lang", LANGS)
def test_q22_no_personal_information_is_taken_as_given_and_the_api_alternative_asks_where_it_runs(lang, monkeypatch):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    """Meeting minutes answered "no personal information", served from Hong Kong: the memo says the answer is taken
    as given and what names in the prompts would change (a cross-border transfer); the hosted-API alternative under
    the headline asks where the provider processes the prompts."""
    r = planned(short_lived(advice_answers("q22_hk_company_telecom_only")))
    [f] = [x for x in r.findings if x.id == "pi.none_as_answered"]
    words = {"en": ("as answered", "out of the mainland", "standard contract"),
             "zh_CN": ("按回答", "出境", "标准合同")}[lang]  # fmt: skip
    text = f.title_in(lang) + f.detail_in(lang)
    assert all(w in text for w in words), text
    assert ("Hong Kong" if lang == "en" else "香港") in f.title_in(lang)
    # s22-apilead22 (re-check 11b: "priced on a US provider, with no HK endpoint shown"): no lead on the US list;
    # under the headline the memo names Hong Kong, asks a provider there for a quote and in writing who keeps the
    # prompts, and names the onward transfer of mainland users' data an API served elsewhere makes. s24-api24
    # (round 13: "the hosted API at ¥538/month is 16–35× cheaper and is not weighed beyond 'yardstick'"): on the
    # estimated volume the Singapore-served API is weighed, with where it runs and where the prompts then go
    said = r.start_with.text_in(lang)
    # s25-apikept25 (review 15: "weak when Hong Kong is also offshore"): Singapore and Hong Kong are one class, so
    # where it is served keeps nothing: the memo starts on it, saying where it runs and why that is no bar, on the
    # estimate and on the user's own count alike
    assert r.start_with.form == "hosted_api" and all(w in said for w in {
        # swap42/pg42 (blind review 32): where it runs is in the bold line's path, the data-path bullet shortened
        "en": ("calling the API of Alibaba Cloud Model Studio (International) in Singapore",
               "Both your host and the API are outside the mainland"),
        "zh_CN": ("在新加坡提供的模型 API", "主机和 API 都在大陆境外")}[lang])
    alt = own_volume(short_lived(advice_answers("q22_hk_company_telecom_only")), monkeypatch).start_with.text_in(lang)
    for w in {"en": ("the API of Alibaba Cloud Model Studio (International) in Singapore",  # swap42/pg42 (review 32)
                     "which company processes and keeps the prompts"),
              "zh_CN": ("在新加坡提供的模型 API", "由哪家公司处理和存放提示词")}[lang]:
        assert w in alt, w
    page_one = render_memo_markdown(r, lang).split("\n## ")[1]
    # s27-pages27 (issue 25, page 1 says each fact once): page 1 prints the lead with its break-even pointing at the
    # request-count question below it (memo_volume_once); every other word is the app's lead
    from advisor.plan import memo_volume_once

    printed = memo_volume_once.start_with(r.start_with, [q for q in r.open_questions if q.changes_decision])
    assert printed is not None and printed.text_in(lang, markdown=True) in page_one


@pytest.mark.parametrize("lang", LANGS)
def test_q02_a_purchase_with_no_one_off_budget_is_judged_on_the_monthly_budget_in_every_line(lang):
    """A ¥17–28k box recommended with no one-off budget: the purchase line says it was judged on the monthly budget
    and offers renting the same GPU (its cost against that budget), the budget line says it is a month's, and the
    second box's note says which budget it is over; never "not checked" beside a purchase the plan recommends."""
    answers = advice_answers("q02_office_lan_small_design_agency")
    r = planned(answers)
    assert r.deployment_form == "on_premises" and r.costs.owned.capex_within_budget is None
    memo = render_memo_markdown(r, lang)
    en = lang == "en"
    # s33-tokens33 (re-argued, review 21 q02 zh: "the whole 一次性采购 cell is pasted twice"; the set here hid it):
    # said once. s39-box41 (blind review 31, q02: "shorten it to the price and one line of reason"): page 1's cell is
    # that; the cost table's purchase row points to its payback row, which weighs renting
    rows = [x for x in memo.splitlines() if x.startswith("| One-off purchase |" if en else "| 一次性采购 |")]
    assert len(rows) == 2 and translate(lang, "box41.capex_said_in_payback").strip() in rows[1]
    capex = rows[0]
    assert ("not checked" if en else "未核对") not in capex
    # s30-payback31 re-argued (blind review 20, q02: the unanswered one-off budget "is confusing when the owner
    # clearly can pay ~¥20–28k once"): the purchase line says it is paid once; the budget row reads it the same way
    # (asserted below). The rent of the same card is still offered with its cost against the budget, in the payback
    # row, as a marketplace's hourly rent
    assert ("paid once" if en else "一次付清") in capex
    rent = r.costs.cloud_monthly
    payback = next(x for x in memo.splitlines() if x.startswith("| Owning pays off |" if en else "| 自购回本时间 |"))
    # (review 34, q02: the payback row names "the GPU-marketplace card above", one clause, its rent in the table)
    # cst44 (blind review 35): "the same card rented by the hour on a GPU marketplace", with its rent and payback
    assert f"{rent.low:,.0f}–{rent.high:,.0f}" in payback and ("same card rented" if en else "同款卡") in payback
    # s29-prices29b: against that marketplace rent no mid-range payback exists (renting stays cheaper at the middle);
    # s30-payback31: the payback the line states is the table's, against the always-on VM the line names
    assert r.costs.break_even_months.mid is None
    vm = r.costs.payback_vm
    assert vm is not None and f"{vm['low']:,.0f}–{vm['high']:,.0f}" in payback
    # s33-rows34 (blind review 23): that VM is over the monthly budget, so page 1 states no payback against it
    assert r.costs.break_even_months.text(lang, "months") not in capex
    # the table's own figure, to a tenth of a month (s24-ownrent24, round 13: "about 12" beside the table's 11.5),
    # read where owning pays back at the middle: q02 at the former rent, given as the user's quote
    former = quoted(answers, [{"gpu": "rtx-4090d", "kind": "on_demand", "low": 0.3, "high": 0.7}])
    mid = former.costs.break_even_months.mid
    capex = [x for x in render_memo_markdown(former, lang).splitlines()
             if x.startswith("| One-off purchase |" if en else "| 一次性采购 |")][0]  # page 1's (s33-tokens33)
    assert mid is not None and (f"pays off against that rent after about {mid:g} months" if en
                                else f"约 {mid:g} 个月回本") in capex  # fmt: skip
    [budget] = {x for x in memo.splitlines() if x.startswith("| Budget |" if en else "| 预算 |")}
    assert ("3,000 CNY a month" if en else "每月 3,000 CNY") in budget
    # blind review 30 (q02): the purchase note says it is paid once, outside the monthly budget; the budget row
    # reads it the same way (the running month within it, the purchase the owner's to approve), never spread
    # review 36 (q02: "calling the purchase 'outside' the budget is odd when, spread over 24 months, it is 760-1,288
    # CNY a month all-in, well under 3,000: say that in one line"): it fits spread; paying up front is the approval
    assert ("all-in, within it; only paying" if en else "在预算之内；只有一次性先付") in budget
    assert ("outside" if en else "在此之外") not in budget
    # the second box is judged on the monthly budget too (pages20: at an office box's idle draw, 10-25 % of full
    # load, not half, two boxes spread over 24 months fit ¥3,000 a month; before, they were just over it)
    single = next(f for f in r.findings if f.id == "sizing.single_point")
    assert ("monthly budget of ¥3,000" if en else "每月预算 ¥3,000") in single.detail_in(lang)
    # a one-off budget given: judged on it, as before
    given = planned({**answers, "capex_budget": {"amount": 30000, "currency": "CNY"}})
    memo = render_memo_markdown(given, lang)
    assert ("within the one-off budget of 30,000" if en else "在一次性预算 30,000") in memo
    assert ("judged on the monthly budget" if en else "按每月预算判断") not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_q13_most_users_in_south_east_asia_put_the_node_in_singapore_with_the_numbers(lang):
    """A Singapore company, no mainland entity, 80 % of its users in South-East Asia and 20 % in the mainland: the
    node goes to Singapore (three-network lines for the mainland sellers), and the memo says why with the shares and
    the mainland round trips to Singapore and to Hong Kong."""
    r = planned(advice_answers("q13_sg_sellers_pi_below_threshold"))
    assert (r.region, r.line) == ("singapore", "three_network")
    assert r.finding("pi.sg_transfer") is None  # Singapore users' data stays in Singapore
    assert r.finding("pi.export_exempt") is not None  # the 48,000 mainland people still leave the mainland
    why = r.finding("region.offshore_for_mainland").detail_in(lang)
    for number in ("80", "20", "38–60", "12–45"):
        assert number in why, why
    assert ("Singapore" if lang == "en" else "新加坡") in why


@pytest.mark.parametrize(("mix", "markets", "region"), [
    ({"mainland": 0.6, "overseas": 0.4}, ["SEA"], "hong_kong"),  # most users in the mainland: Hong Kong, as before
    ({"mainland": 0.3, "overseas": 0.7}, ["US"], "hong_kong"),  # the majority too far for the mainland minority
    ({"mainland": 0.3, "overseas": 0.7}, ["JP"], "japan"),
])  # fmt: skip
def test_no_mainland_entity_node_goes_where_most_users_are_only_when_near_the_mainland(mix, markets, region):
    answers = {**advice_answers("q13_sg_sellers_pi_below_threshold"), "user_mix": mix, "overseas_markets": markets}
    assert planned(answers).region == region


@pytest.mark.parametrize("lang", LANGS)
def test_q36_known_burst_dates_are_not_called_a_schedule_not_given(lang):
    """Trade-fair dates known ahead, their number and length not given: the assumption says the dates are known as
    answered and what is assumed for the rest; with no answer at all it says the schedule was not given."""
    answers = advice_answers("q36_bursty_b2b_event_mainland")
    [a] = [x for x in planned(answers).assumptions if x.field == "burst_schedule"]
    text = a.text_in(lang)
    assert ("known ahead, as you said" if lang == "en" else "按你们的回答，高峰日期能提前知道") in text
    assert ("Burst schedule not given" if lang == "en" else "未填写高峰安排") not in text
    # s19-cost19: a few event days a month (2–6), not 35 % of every hour, the range's ends the cost's ends
    assert "35 %" not in text and "2–6" in text
    [b] = [x for x in planned({**answers, "burst_schedule": None}).assumptions if x.field == "burst_schedule"]
    assert ("Burst schedule not given" if lang == "en" else "未填写高峰安排") in b.text_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q36_calendar_scaling_keeps_a_scaling_group_as_the_fallback_for_a_busier_burst_day(lang):
    """Known fair dates: replicas by calendar, and the cloud's scaling group armed on those days as a fallback
    (the zh reviewer: "no autoscaling fallback for unplanned surges on event days"); not on servers bought."""
    r = planned(advice_answers("q36_bursty_b2b_event_mainland"))
    detail = r.finding("scaling.warm_replica").detail_in(lang)
    assert ("scaling group" if lang == "en" else "伸缩组") in detail
    assert ("As a fallback" if lang == "en" else "作为后备") in detail


def test_q41_the_chinese_title_sets_no_space_between_the_fine_tune_and_its_deployment_plan():
    r = planned(advice_answers("q41_finetune_internal_callcentre"))
    title = render_memo_markdown(r, "zh_CN").splitlines()[0]
    assert title.endswith("的微调模型的部署方案") and "模型 的" not in title
    assert render_memo_markdown(r, "en").splitlines()[0].startswith("# Decision memo: how to serve your fine-tune")
    # a model named in Latin letters keeps its space before 的
    # (q14, self-hosted: q22's title names its hosted API since s42-api, blind review 35)
    q14 = render_memo_markdown(planned(advice_answers("q14_medical_followup_mainland")), "zh_CN").splitlines()[0]
    assert q14 == "# 决策备忘录：Qwen2.5 14B Instruct 的部署方案"


def test_q40_the_smaller_model_fixes_include_a_middle_size_between_one_step_down_and_the_closest_to_budget():
    """A 72B plan at ¥5k: 32B (one size down) and 3B (closest to the budget) were the only smaller models offered;
    the 7B between them is offered too, each with its cost (sixth blind review, q40: "no 7B or 14B middle option")."""
    r = planned(advice_answers("q40_tiny_budget_72b"))
    smaller = {x.params["model"]: x for x in r.fixes if x.id == "smaller_model"}
    assert {"Qwen2.5 32B Instruct", "Qwen2.5 7B Instruct", "Qwen2.5 3B Instruct"} <= set(smaller), smaller
    assert all(x.monthly_cost is not None for x in smaller.values())
    seven, three = smaller["Qwen2.5 7B Instruct"].monthly_cost, smaller["Qwen2.5 3B Instruct"].monthly_cost
    assert seven.high > three.high  # the middle costs more than the closest, less than one size down


@pytest.mark.parametrize("lang", LANGS)
def test_q41_a_fine_tuned_checkpoint_is_not_said_to_download_from_abroad(lang):
    r = planned(advice_answers("q41_finetune_internal_callcentre"))
    f = r.finding("scaling.prestage_weights")
    text = f.title_in(lang) + f.detail_in(lang)
    assert ("from abroad" if lang == "en" else "境外下载") in text  # said not to apply
    assert ("nothing comes from abroad" if lang == "en" else "不需要从境外下载") in text
    assert ("Downloads from abroad are bounded" if lang == "en" else "受国际线路") not in text
    # a published model on the same mainland node still gets the download advice (ModelScope)
    base = {**advice_answers("q41_finetune_internal_callcentre"), "model_customisation": "none"}
    assert planned(base).finding("scaling.prestage_weights").title_key != f.title_key


def test_q40_no_quote_for_fewer_cards_first_when_even_that_setup_is_far_over_the_budget():
    """72B at ¥5k a month: the H800 instance with fewer cards would still cost tens of times the budget, so the memo
    does not start with asking for its quote; q42 (within reach) still does."""
    assert "quote_fewer_cards" not in [s.id for s in planned(advice_answers("q40_tiny_budget_72b")).next_steps]
    # q42 asked for it until s18-h20rows; its H20 is now weighed on the 1-card instances Alibaba Cloud lists
    q42 = planned(advice_answers("q42_china_market_gpus_mainland"))
    assert q42.next_steps[0].id != "quote_fewer_cards" and q42.gpu_choice.weighing.whole_server == []


@pytest.mark.parametrize("lang", LANGS)
def test_q29_an_infeasible_plan_with_no_setup_does_not_say_none_of_your_own(lang):
    """A batch no setup finishes in time: the hardware line says none meets the answers, not "none of your own"
    (which reads as "no hardware needed" under "cannot be done"); a hosted API plan keeps it."""
    from advisor.i18n import translate

    memo = render_memo_markdown(planned(advice_answers("q29_batch_impossible_budget")), lang)
    assert translate(lang, "plan.inputs17.no_setup") in memo and translate(lang, "memo.key.no_hardware") not in memo
    from advisor.plan.memo_forms import no_hardware_key

    hosted = planned(advice_answers("q15_hosted_api_small_us_team"))
    assert hosted.deployment_form == "hosted_api" and no_hardware_key(hosted, "memo.key.no_hardware") == \
        "memo.key.no_hardware"  # a hosted API needs no GPUs of its own: said so, as before
