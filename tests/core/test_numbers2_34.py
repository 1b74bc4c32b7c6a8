"""Owned-fleet and buy-vs-rent counts that agree (s33-numbers2, blind review 23, issue 25).

q04: the fleet's free cards worked out three times in different words ("about 4.8 cards' worth" vs "11 of 16 idle,
5 busy" vs the L20s needing "at most 10"); "one server down leaves 2 of 4 replicas, 67 % of the 3 the peak needs" hard
to parse; TP4 on all 16 H20 forced by an assumed TTFT target. q08: "3 replicas carry the peak" vs "100 % of the 2 the
peak needs". q31: owned 12 GPUs against "10 GPUs" rented. q33: the spare-replica text against the hardware table and
"the machine with 2 is the larger blast radius" where both hold 2. q18: "average draw 65–100 % around the clock"
beside "busy by day, quiet at night"; the free-GPU placement check buried in section 7, not next step 1.
"""

from __future__ import annotations

import math
import re

import pytest

from advisor.plan import usage_share
from advisor.plan.context import SCALED_HOURS
from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown
from advisor.plan.volume_range import OFFICE_HOURS
from tests.support.planned import Q04_GIVEN, Q33_BUSIER, advice_answers, advice_plan, only_finding

LANGS = ("en", "zh_CN")
Q04, Q08, Q18 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q18_us_fleet_32_h100"
Q31, Q33 = "q31_icp_filed_hosting_move", Q33_BUSIER


def _row(md: str, *labels: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


def _signoff(r):
    return next(f for f in r.findings if f.title_key.endswith(".idle_signoff.title"))


# --- a server down, said in requests of the peak (q04, q08) ---------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_server_down_is_said_as_the_requests_the_replicas_left_carry(lang):
    r = advice_plan(Q04, **Q04_GIVEN)
    place = only_finding(r, "sizing.placement")
    carry = place.params["carry"]
    left = place.params["left"]
    assert left == 2 and carry["tr"] == "numbers2_34.carry.part" and carry["peak"] == 40
    # the 2 replicas left hold the serve command's cap each (--max-num-seqs 16, the sizing table's figure), the
    # rest wait for a seat
    assert r.hardware.max_num_seqs == 16 and carry["carried"] == left * r.hardware.max_num_seqs
    text, md = place.detail_in(lang), render_memo_markdown(r, lang)
    page1 = md.split("\n## ")[1]
    said = "which carry 32 of the peak's 40 requests at once" if lang == "en" else "同时只能承载峰值 40 个请求中的 32 个"
    assert said in text and said in page1  # the sizing reason on page 1 says the same
    # no second count of the replicas the peak needs, nor a share of replicas read as a share of the load
    assert ("the peak needs without headroom" not in md and "67 % of the" not in md) if lang == "en" else \
        ("不计余量时峰值所需" not in md)


@pytest.mark.parametrize("lang", LANGS)
def test_a_server_down_that_still_holds_the_peak_says_all_of_it_once(lang):
    # re-argued in s34-fleet36 (blind review 25, q08: its 4th replica on busy cards is the conditional upgrade, so
    # its 3 on free cards no longer ride out a server): q18's 7 replicas on free H100s do
    r = advice_plan(Q18)
    place = only_finding(r, "sizing.placement")
    carry = place.params["carry"]
    assert carry["tr"] == "numbers2_34.carry.all" and carry["peak"] == advice_answers(Q18)["peak_concurrency"]
    text = place.detail_in(lang)
    peak = carry["peak"]
    assert (f"which still carry all {peak} requests of the peak" in text and "100 %" not in text) if lang == "en" \
        else (f"仍能承载峰值的全部 {peak} 个请求" in text and "100%" not in text)


def test_q18s_placement_says_the_peak_carried_once():
    text = only_finding(advice_plan(Q18), "sizing.placement").detail_in("en")
    assert "which still carry all" in text and "That still carries the peak." not in text


# --- the fleet's free cards: one model, said once (q04) -------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_q04_works_the_measured_share_into_cards_once(lang):
    r = advice_plan(Q04, **Q04_GIVEN)
    md = render_memo_markdown(r, lang)
    worth = "cards' worth" if lang == "en" else "约合 4.8 张卡"
    assert md.count(worth) == 1  # in the fleet finding, nowhere else
    free, busy = free_gpus(16, 0.3), 16 - free_gpus(16, 0.3)
    fleet_row = _row(md, "Your fleet", "现有 GPU 集群")
    assert (f"{free} counted free at 30 % utilisation + {busy} whose work moves off" in fleet_row) if lang == "en" \
        else (f"计空闲 {free} 张，另 {busy} 张迁走其工作后使用" in fleet_row)
    title = only_finding(r, "cost.fleet").title_in(lang)
    assert (f"the {free} counted free at the measured 30 % utilisation and {busy} busy ones" in title) if lang == "en" \
        else (f"计空闲的 {free} 张" in title and f"{busy} 张在用的卡" in title)


def test_q04s_l20_count_says_what_the_ten_are():
    why = only_finding(advice_plan(Q04, **Q04_GIVEN), "gpu.fleet").params["why"]["fits"]
    assert why["need"] == why["busy"] * why["ratio"] == 10 and why["ratio"] == math.ceil(96 / 48)


# --- the layout an assumed TTFT target forces (q04) -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_layout_forced_by_an_assumed_ttft_target_says_so_on_page_1(lang):
    # re-argued in s34-fleet36 (blind review 25, q04: "make the default a layout inside the 11 free cards and keep
    # the all-16 plan as the upgrade"): q04's assumed target is relaxed to the free cards' step, so the finding is
    # left to a plan no such step reaches: q04 with 40,000-token prompts, whose target was relaxed already
    r = advice_plan(Q04, prompt_tokens={"avg": 4000, "p95": 40000})
    f = only_finding(r, "sizing.assumed_ttft")
    p = f.params
    assert p["tp"] < p["chosen_tp"] == r.hardware.tp and p["gpus"] == p["replicas"] * p["tp"] < p["chosen_gpus"]
    assert p["relaxed"] % 500 == 0 and p["value"] < p["relaxed"] <= p["value"] * 1.1 + 500
    page1 = render_memo_markdown(r, lang).split("\n## ")[1]
    assert f.title_in(lang) in page1
    assert not any(x.id == "sizing.assumed_ttft" for x in advice_plan(Q04).findings)


def test_no_assumed_ttft_finding_where_the_target_is_given():
    from tests.support.planned import advice_answers, planned

    answers = advice_answers(Q04)
    answers["latency_slo"] = {**(answers.get("latency_slo") or {}), "ttft_p99_ms": 6000}
    r = planned(answers)
    assert not any(f.id == "sizing.assumed_ttft" for f in r.findings)


# --- q33: the spare replicas as the hardware table counts them ------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_q33_spares_agree_with_the_hardware_row(lang):
    r = advice_plan(Q33)
    md = render_memo_markdown(r, lang)
    hardware = _row(md, "Hardware", "硬件")
    # re-argued in s34-fleet36 (blind review 25, q33: "Rewrite it as '2 replicas carry the peak, 2 are spares'"):
    # the plan is 3 replicas on 6 of the 7 free cards, the 4th on the last 2 the conditional upgrade; the row says
    # the 3 and the upgrade, the spare finding the 2 that carry the peak and its 1 spare, in plain counts
    assert ("3 replicas of 2 GPUs" in hardware and "one more spare replica" not in hardware) if lang == "en" else \
        ("3 个副本" in hardware and "另一个备用副本" not in hardware)
    assert r.hardware.total_gpus == 6 <= free_gpus(8, 0.1)
    spare = only_finding(r, "sizing.redundancy")
    assert spare.title_key.endswith(".idle.title")
    assert ("2 replicas carry the peak, plus 1 spare replica" in spare.title_in(lang)) if lang == "en" else \
        ("2 个副本承载峰值" in spare.title_in(lang))


# --- q18: power over the day's hours; the free-GPU check first ------------------------------------------------------


def test_a_daily_peak_is_in_flight_at_most_its_day_hours():
    r = advice_plan(Q18)
    from advisor.plan.memo_forms import busy_hours, chosen_owned

    o = chosen_owned(r)
    assert o is not None
    low, high = busy_hours(o)
    assert high <= SCALED_HOURS["diurnal"] + 0.005  # no longer "a request in flight 30–100 % of the hours"
    power = _row(render_memo_markdown(r, "en"), "Power")
    assert "none at night" in power and not re.search(r"in flight \d+–100 %", power)


def test_a_steady_load_keeps_the_whole_clock():
    class C:
        load = "stable"
        duty_measured = False
        office_steady = False

    assert usage_share.day_hours(C()) == 1.0
    c = C()
    c.load = "diurnal"
    assert usage_share.day_hours(c) == SCALED_HOURS["diurnal"]
    staff = C()  # a staff tool's steady load arrives in its office hours alone (s40-volume, review 32 q08)
    staff.office_steady = True
    assert usage_share.day_hours(staff) == pytest.approx(OFFICE_HOURS / usage_share.HOURS_PER_MONTH)


@pytest.mark.parametrize("lang", LANGS)
def test_q18s_placement_check_is_next_step_1(lang):
    r = advice_plan(Q18)
    first = r.next_steps[0]
    place = only_finding(r, "sizing.placement").params["cover"]
    assert first.id == "placement_check" and first.params["per_server"] == place["per_server"] == "4 + 4 + 4 + 2"
    assert first.params["need"] == r.hardware.total_gpus == 14
    serve = next(i for i, s in enumerate(r.next_steps) if s.id == "serve")
    assert serve > 0  # before any start command


# --- q31: owning and renting weighed on a stated basis --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_q31_says_the_basis_and_prices_the_same_gpus(lang):
    r = advice_plan(Q31)
    c = r.costs
    assert (c.rent_sized["gpus"], c.rent_sized["bought_gpus"]) == (10, 12)
    buy = only_finding(r, "cost.buy")
    basis = buy.params["basis"]
    assert basis["tr"] == "ld43.basis.cover"  # both ride out one machine down
    rent_mid = (c.cloud_monthly.low + c.cloud_monthly.high) / 2
    same = float(re.sub(r"[^\d.]", "", basis["rent_same"]))
    assert same == pytest.approx(rent_mid * 12 / 10, rel=0.01)
    text = buy.detail_in(lang)
    # blind review 34 (q31 zh: "the aside '若租用同样的 12 张…购置款可到约 ¥2,510,000' muddies the threshold just set —
    # cut it"): the same-GPU figure stays a param, the finding says only the one quote ceiling
    assert ("Renting the same 12 GPUs" not in text) if lang == "en" else ("若租用同样的 12 张" not in text)
    assert basis["max_same"] not in text and buy.params["max_purchase"] in text
    md = render_memo_markdown(r, lang)
    cost = _row(md, "Cost", "成本")
    assert ("where owning buys 12 in whole servers" in cost) if lang == "en" else ("自购按整台服务器买 12 张" in cost)
