"""s39-burst3 (issue 25, blind review 31 on q39: "put the vllm:num_requests_running count first and show the budget
verdict only after it"; "rewrite page 1 as three steps"): where only the hosted API's burst month fits the budget and
step 1's count gates the bursts, page 1's recommendation reads as three steps in order (count; the API overflow by
default, its rate limits confirmed in writing; the rented part only if the API falls short, over the budget, on a
placeholder price, existing stock), and the budget row's burst months are said as what holds once the count
confirms nvidia-smi's reading."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import burst_order40, burst_steps41, hybrid_path43
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.planned import advice_answers, planned
from tests.support.rec_block import recommendation_block

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _lines(r, lang):
    return memo_document(r, lang).markdown().splitlines()


def _head(r, lang):
    return recommendation_block("\n".join(_lines(r, lang)))  # s42-hyb: in short paragraphs (review 35)


def _marker(lang, key, **params):
    """The text of a step's key before its first placeholder (what the memo shows verbatim)."""
    return translate(lang, key, **{k: "§" for k in params}).split("§")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_q39_headline_is_three_steps_count_then_api_then_rented(lang):
    r = planned(advice_answers(Q39))
    assert burst_steps41.applies(r) and burst_order40.api_first(r)
    head = _head(r, lang)
    burst = next(x for x in r.findings if x.id == "cost.burst_month").params
    disagree = next(x for x in r.findings if x.id == burst_steps41.DISAGREE).params
    # count (its basis, nvidia-smi's reading, and its threshold) → the API's burst and burst month, within the budget
    # → the rented part's cost a burst (s40-q39, review 33: the count leads, naming the basis the plan is priced on)
    api = {"en": "hosted API", "zh_CN": "模型 API 服务"}[lang]
    # s41-q39 (review 34: "measure in-flight requests first; if overflow exists, send it to the API; rent GPUs only if
    # the API fails"): the count and where its threshold comes from (the owned replicas at the serve command's cap,
    # the headroom kept, at the peak; ÷ the peak multiple today) lead, then the API priced on nvidia-smi's reading
    c = hybrid_path43.carried(r)
    assert c is not None and c["cap"] == disagree["cap"] and c["own"] * (1 + 0.2) <= c["replicas"] * c["cap"] + 1
    assert head.index("vllm:num_requests_running") < head.index(f" {c['own']} ") < head.index(f" {c['today']} ") \
        < head.index(api) < head.index("nvidia-smi") < head.index(f"{disagree['util']} %") \
        < head.index(burst["api"]["burst"]) < head.index(burst["api"]["month"]) < head.index(burst["per_burst"])
    # the API's condition in writing; the rented part over the budget, its placeholder price and its stock
    rent = head.index(burst["per_burst"])
    assert {"en": "confirmed in writing", "zh_CN": "限流已书面确认"}[lang] in head[head.index(api):rent]
    tail = head[rent:]
    assert translate(lang, "burst41_steps.over") in tail
    # s42-hyb (review 35): the placeholder said once, with quotes asked on lawful cards, the team's own among them
    assert burst_steps41.rent_placeholder(r) and render(lang, "hyb44.steps.placeholder", {"gpu": r.hardware.gpu_name}) in tail
    assert burst_order40.stock_only(r) and translate(lang, "burst41_steps.stock") in tail


@pytest.mark.parametrize("lang", LANGS)
def test_q39_rented_burst_month_said_in_the_finding_not_the_headline(lang):
    """s40-q39 (review 33: "the over-budget burst month … is repeated four times; say it once"): the headline points
    to it; the budget finding says it in full."""
    r = planned(advice_answers(Q39))
    month = next(x for x in r.findings if x.id == "cost.burst_month").params["month"]
    assert month not in _head(r, lang)
    assert any(month in line for line in _lines(r, lang) if line.startswith("- **"))


@pytest.mark.parametrize("lang", LANGS)
def test_q39_headline_form_does_not_rent_for_the_peak_where_the_api_is_the_default(lang):
    """s40-q39 (review 33: "the headline says 'rent cloud GPUs for the peak', but the body makes a hosted API the
    default and renting the third option"): the form is the owned base load's alone."""
    r = planned(advice_answers(Q39))
    head = _head(r, lang)
    assert translate(lang, "memo.fleet13.form.hybrid") not in head
    assert translate(lang, burst_steps41.form_key(r, "memo.fleet13.form.hybrid")) in head
    assert burst_steps41.form_key(r, "memo.fleet13.form.hybrid") != "memo.fleet13.form.hybrid"


@pytest.mark.parametrize("lang", LANGS)
def test_q39_budget_row_says_the_burst_months_after_the_count(lang):
    r = planned(advice_answers(Q39))
    label = translate(lang, "memo.key.budget")
    row = next(line for line in _lines(r, lang) if line.startswith(f"| {label} |"))
    burst = next(x for x in r.findings if x.id == "cost.burst_month").params
    # s41-q39 (review 34: "one figure per path, labelled"): the budget row judges the path taken and the rented
    # fallback, the months themselves said once, in the cost row above it, each labelled with its path
    month = burst["month"].replace("¥", "").replace("–¥", "–")
    api = burst["api"]["month"].replace("¥", "").replace("–¥", "–")
    assert month not in row and api not in row
    assert translate(lang, "hb43.key.budget", budget="§", over="§").split("§")[1] in row
    cost = next(line for line in _lines(r, lang) if line.startswith(f"| {translate(lang, 'memo.key.cost')} |"))
    assert cost.index(api) < cost.index(month)  # the path's burst month first, the fallback's after it


def test_a_placeholder_is_only_a_grade_u_row_of_the_rented_part_without_a_quote():
    r = planned(advice_answers(Q39))
    gid = r.costs.hybrid.burst_gpu
    rows = [p.model_copy(update={"grade": "C"}) if p.gpu == gid else p for p in r.costs.prices]
    sourced = r.model_copy(update={"costs": r.costs.model_copy(update={"prices": rows})})
    assert burst_steps41.rent_placeholder(r) and not burst_steps41.rent_placeholder(sourced)
