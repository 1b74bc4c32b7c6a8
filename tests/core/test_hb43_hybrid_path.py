"""The hybrid whose bursts' overflow goes to a hosted API, rented GPUs its fallback: page 1 and the cost section show
that path (s41-q39, blind review 34, ``advisor.plan.hybrid_path43``)."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import burst_bill, hybrid_path43
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_answers, planned
from tests.support.rec_block import recommendation_block

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _q39():
    return planned(advice_answers(Q39))


def _row(memo: str, lang: str, key: str) -> str:
    label = translate(lang, key)
    return next(line for line in memo.splitlines() if line.startswith(f"| {label} |"))


def _page_one(memo: str) -> str:
    return memo.split("\n## ")[1]


def _money(r, lo: float, hi: float) -> str:
    return money_range(MoneyRange(low=lo, high=hi), r.costs.currency)


@pytest.mark.parametrize("lang", LANGS)
def test_the_count_leads_with_its_threshold_from_the_serve_commands_cap(lang):
    r = _q39()
    assert hybrid_path43.applies(r)
    c = hybrid_path43.carried(r)
    # the threshold is the owned replicas at the serve command's cap with the headroom, and today's share of it
    cap = int(re.search(r"--max-num-seqs (\d+)", r.hardware.command or "").group(1))
    assert c["cap"] == cap and c["replicas"] == 16 and c["own"] == int(16 * cap / 1.2)
    assert c["today"] == c["own"] // 3
    memo = render_memo_markdown(r, lang)
    head = recommendation_block(memo)  # s42-hyb: in short paragraphs (review 35)
    api = {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]
    rented = r.costs.hybrid.burst_gpu_name
    # measure first, then the API, the rented part last, as its fallback
    assert head.index("vllm:num_requests_running") < head.index(f" {c['own']} ") < head.index(f" {c['today']} ") \
        < head.index(api) < head.index(rented)
    # one cap: the curve's figure a replica is the ramp's case, not a second cap beside the serve command's
    assert f" {c['per']} " in head and {"en": "raise the cap to it", "zh_CN": "把上限调到这个数"}[lang] in head
    # the plan's basis is said once, as the basis; the curve's own-cards case is what the count and ramp decide
    assert {"en": "on the plan's curve, none", "zh_CN": "按方案的曲线，高峰全部由自有卡承担"}[lang] not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_page_one_rows_show_the_path_taken_with_the_rented_fallback_labelled(lang):
    r = _q39()
    memo = render_memo_markdown(r, lang)
    b = burst_bill.bill(r.costs, r.answers, r.deployment_form, r.hardware.gpu)
    f = next(x for x in r.findings if x.id == "cost.burst_month")
    quiet = _money(r, b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    api = _money(r, *f.params["api"]["range"])
    rented = _money(r, *b.burst_month)
    hardware = _row(memo, lang, "memo.key.hardware")
    assert hardware.index("16") < hardware.index({"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]) \
        < hardware.index(r.costs.hybrid.burst_gpu_name)
    cost = _row(memo, lang, "memo.key.cost")
    assert cost.index(quiet) < cost.index(api) < cost.index(rented)  # the path's months, then the fallback's
    # the year-averaged rented month is not a page-1 figure any more, nor the budget row's repeat of the months
    page = _page_one(memo)
    average = _money(r, *b.average_month)
    assert average not in page and average.replace(" CNY", "") not in page.replace("¥", "")
    budget = _row(memo, lang, "memo.key.budget")
    assert quiet not in budget and api not in budget and rented not in budget


@pytest.mark.parametrize("lang", LANGS)
def test_the_cost_section_prices_the_api_overflow_before_the_rented_fallback(lang):
    r = _q39()
    memo = render_memo_markdown(r, lang)
    section = memo.split("\n## ")[4]
    api_label = translate(lang, "hb43.cost.api")
    fallback = translate(lang, "hb43.cost.burst")
    assert section.index(f"| {api_label} |") < section.index(f"| {fallback} |")
    b = burst_bill.bill(r.costs, r.answers, r.deployment_form, r.hardware.gpu)
    hyb = r.costs.hybrid
    running = _money(r, hyb.running_monthly.low, hyb.running_monthly.high)
    row = _row(memo, lang, "memo.forms.cost.running")
    assert running in row and row.index(running) > 0  # the rented fallback's month after the path's
    # the path's running month: the rented spread swapped for the API's
    f = next(x for x in r.findings if x.id == "cost.burst_month")
    quiet = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    spread = [(a - q) * b.per_year / 12 for a, q in zip(f.params["api"]["range"], quiet, strict=True)]
    path = _money(r, hyb.running_monthly.low - b.averaged[0] + spread[0],
                  hyb.running_monthly.high - b.averaged[1] + spread[1])
    assert row.index(path) < row.index(running)


def test_zh_names_the_rented_count_with_one_measure_word():
    memo = render_memo_markdown(_q39(), "zh_CN")
    assert not re.search(r"\d+ 张 [^，；（）]*? 张）", memo)


def test_a_hybrid_whose_data_may_not_go_to_an_api_keeps_its_rented_rows():
    """The rule is the form's, not q39's: with personal information the API is no path and the rows stay."""
    a = advice_answers(Q39)
    r = planned({**a, "data_sensitivity": {**a["data_sensitivity"], "personal_info": True}})
    assert not hybrid_path43.applies(r)
    memo = render_memo_markdown(r, "en")
    assert translate("en", "hb43.cost.api") not in memo
    assert "the path taken" not in _row(memo, "en", "memo.key.cost")


@pytest.mark.parametrize("lang", LANGS)
def test_sizing_says_the_owned_base_and_the_api_overflow_not_the_measured_fleet(lang):
    """Review 35 (q39): "50 × NVIDIA L20 48GB: 50 replicas" and "50 × (1 × L20) meets the target" though the team
    owns 16 and the other 34 cards' work goes to the API (s41-h39)."""
    r = _q39()
    memo = render_memo_markdown(r, lang)
    assert r.hardware.total_gpus == 50  # the measured reading's fleet, which the memo must not lay out as the plan
    gpus = _row(memo, lang, "memo.hw.layout")
    api = {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]
    # s42-hyb (review 35): the overflow said as a share of the peaks' load, not as 34 more cards' work
    assert "50" not in gpus and " 16 " in gpus and " 34 " not in gpus and "68 %" in gpus
    assert gpus.index(" 16 ") < gpus.index(api) < gpus.index(r.costs.hybrid.burst_gpu_name)  # fallback named last
    sizing = next(f for f in r.findings if f.id == "sizing.plan")
    assert sizing.title_key == hybrid_path43.SIZING_TITLE and sizing.params["owned"] == 16
    assert {"en": "50 × (1 ×", "zh_CN": "50 个副本 ×（"}[lang] not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_is_weighed_against_the_paths_month_not_the_rented_fallbacks(lang):
    """Review 35 (q39): "¥33,783–¥78,926 for the GPUs alone" was the rented fallback spread over the year; the base
    load's API comparison and the owned fleet's finding say the path's month and the month without a burst."""
    r = _q39()
    memo = render_memo_markdown(r, lang)
    fallback = r.costs.hybrid.running_monthly
    lo, hi = hybrid_path43.path_running(r)
    assert lo < fallback.low and hi < fallback.high
    path = f"¥{lo:,.0f}–¥{hi:,.0f}"
    assert f"¥{fallback.low:,.0f}–¥{fallback.high:,.0f}".replace("¥", "") in _row(memo, lang, "memo.forms.cost.running")
    head = _page_one(memo)
    lead = next(line for line in head.splitlines() if line.startswith("**") and path in line)
    assert f"¥{fallback.low:,.0f}" not in lead
    fleet = next(f for f in r.findings if f.id == "cost.fleet")
    hosted = next(f for f in r.findings if f.id == "cost.hosted_weighed")
    assert fleet.detail_key == hybrid_path43.FLEET_DETAIL and hosted.params["plan"]["amount"] == path
    # the API's range sits inside the path's: the quotes decide, not "likely cheaper, overlapping only at the ends"
    assert hosted.title_key.endswith("alternative_overlap.title")
    quiet = hybrid_path43._months(r)["quiet_sign"]
    fleet_line = next(line for line in memo.splitlines() if quiet in line)
    assert f"¥{fallback.low:,.0f}" not in fleet_line
