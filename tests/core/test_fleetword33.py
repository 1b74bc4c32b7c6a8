"""Owned fleets' counts that agree (s33-fleetword, blind review 22, issue 25).

q04 zh: "'方案需要的 16 张就是这些空闲的，再加 5 张正忙的' contradicts '11 张空闲'. It is also unclear whether the 30 %
utilisation refers to the H20s alone or to all 32 cards." q04 en: "the fallback 'without it: 3 replicas on 12 cards'
also needs one busy card's work moved, so the sign-off is needed even without the spare." q08 zh: "'3 个副本承载峰值，
余量 60%' but elsewhere '峰值所需 2 个' and 'server down leaves 2 of 4, 100 % of peak'. With max-num-seqs 16, two
replicas only just hold 30 with no headroom, so the failure case is at the limit ... Monthly usage is estimated on
22 working days although the load is '全天稳定'."
"""

from __future__ import annotations

import pytest

from advisor.plan import layout_headline40
from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown
from advisor.plan.staff_usage import WORKING_DAYS, days_a_month
from tests.support.planned import Q04_GIVEN, Q33_BUSIER, advice_plan, only_finding

LANGS = ("en", "zh_CN")
Q04, Q08, Q18 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q18_us_fleet_32_h100"


def _signoff(r):
    return next(f for f in r.findings if f.title_key.endswith(".idle_signoff.title"))


def _row(md: str, *labels: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


@pytest.mark.parametrize("lang", LANGS)
def test_a_fallback_that_takes_busy_cards_says_the_sign_off_is_needed_either_way(lang):
    r = advice_plan(Q04, **Q04_GIVEN)
    p = _signoff(r).params
    free = free_gpus(16, 0.3)
    assert p["without_gpus"] > free  # q04: the 3 replicas without the spare need 12 cards, 11 are free
    assert p["either"]["short"] == p["without_gpus"] - free
    words = "the sign-off is needed either way" if lang == "en" else "都需要负责人同意"
    assert words in _signoff(r).detail_in(lang)
    assert words.split("the ")[-1] in _row(render_memo_markdown(r, lang), "Hardware", "硬件")


@pytest.mark.parametrize("lang", LANGS)
def test_the_measured_share_names_the_cards_it_is_of_where_the_fleet_has_two_types(lang):
    fleet4 = only_finding(advice_plan(Q04, **Q04_GIVEN), "gpu.fleet").detail_in(lang)
    fleet8 = only_finding(advice_plan(Q08), "gpu.fleet").detail_in(lang)
    said = "over all 32 of your cards" if lang == "en" else "按全部 32 张卡测得"
    # said once, in the fleet finding: the spare finding points there instead of working the share out again
    # (review 23, q04: "4.8 cards' worth" beside "11 free, 5 busy" beside "at most 10" read as three models)
    spare4 = _signoff(advice_plan(Q04, **Q04_GIVEN)).detail_in(lang)
    assert said in fleet4 and said not in spare4 and ("the fleet finding" in spare4 if lang == "en" else "机群" in spare4)
    assert ("cards' worth" not in spare4) if lang == "en" else ("约合" not in spare4)
    assert ("over all" not in fleet8) if lang == "en" else ("按全部" not in fleet8)  # one type: nothing to tell apart
    if lang == "zh_CN":  # the plan's cards as free + busy, not "these free ones, plus 5 busy" (16 + 5)
        assert "方案用的 16 张就是这 11 张空闲卡，加上 5 张在用的卡" in fleet4  # s42-zhx wording


def test_a_server_down_that_leaves_the_sized_replicas_is_not_at_the_limit():
    r = advice_plan(Q18)  # 7 replicas 2/2/2/1: a server down leaves 5, the 5 the peak is sized on
    place = next((f for f in r.findings if f.id == "sizing.placement"), None)
    assert place is None or "at the limit" not in place.detail_in("en")


def test_a_steady_load_counts_its_people_every_day_a_day_night_one_on_working_days():
    steady = advice_plan(Q08).costs.volume_basis
    daily = advice_plan(Q08, load_pattern="diurnal").costs.volume_basis
    assert steady["days"] == "30.4" and daily["days"] == str(WORKING_DAYS)
    assert days_a_month("stable") > WORKING_DAYS
    low = [int(b["low_out"].replace(",", "")) for b in (steady, daily)]
    assert low[0] / low[1] == pytest.approx(days_a_month("stable") / WORKING_DAYS, rel=1e-3)
    md = render_memo_markdown(advice_plan(Q08), "en")
    # the estimate said once, in the assumptions list (s36-rowtrim: the costs use the peak's month, which the tokens
    # row alone states), and its people's requests each a day, not each working day
    # s38-usage: the month read from the peak is the list's one basis there; the estimate's own words stay its own
    said = next(a for a in advice_plan(Q08).assumptions if a.field == "requests_per_day").text_in("en")
    assert "a working day" not in md and "requests each a day" in said
    assert "requests a working day × 22 days" in render_memo_markdown(advice_plan(Q08, load_pattern="diurnal"), "en")


Q33 = Q33_BUSIER


@pytest.mark.parametrize("lang", LANGS)
def test_q33_headline_and_placement_give_one_answer(lang):
    # blind review 22, q33 zh: "the headline says 6 of 8 cards while the placement section recommends all 8, which
    # reads as two answers". Re-argued in s34-fleet36 (blind review 25, q33/q08: the default layout stays on the free
    # cards, the 4th replica on the last 2 is the conditional upgrade): page 1 and the placement name the same
    # upgrade with the same condition, so the two read as one answer, a plan and its upgrade
    r = advice_plan(Q33)
    assert (r.hardware.replicas, r.hardware.total_gpus) == (3, 6)
    assert not any(f.title_key.endswith(".idle_signoff.title") for f in r.findings)
    md = render_memo_markdown(r, lang)
    hardware = _row(md, "Hardware", "硬件")
    # s36-fleet38 (review 27): the upgrade is the owner's decision on page 1, beside the plan, with its figures
    # review 29 (q33: "make it the headline"): the upgrade leads page 1 under the recommendation, the row points to it
    head = layout_headline40.head_clause(r, lang)
    # review 30 (q33 zh: "Say clearly which one to deploy now, and when to switch"): the row is the first 3 of the 4
    # review 33 (q08: "lead with the 3 replicas deployed now and add the 4th as a follow-up"): 3 now, 4 to follow
    assert head in md and (("3 replicas now, on 6 free cards of your 8" in head
                            and "4 replicas on all 8 of your cards" in head and "6 of your 8" in hardware
                            and "the 3 replicas deployed now; the next step above brings them to 4" in hardware)
                           if lang == "en"
                           else ("中空闲的 6 张上跑 3 个副本" in head and "在你们全部 8 张卡上共跑 4 个副本" in head
                                 and "中的 6 张" in hardware and "即上面建议现在部署的 3 个副本；按上面建议的下一步加到 4 个" in hardware))
    place = only_finding(r, "sizing.placement").detail_in(lang)
    assert ("Recommended: run one more replica on the other 2 cards, 4 in all" in place) if lang == "en" else \
        ("建议" in place)
