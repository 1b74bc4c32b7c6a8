"""Decision paragraphs a boss can act on (issue #25, blind review 34; session 41, ld43).

A. Where a purchase hinges on a quote, the threshold line is the recommendation's first sentence: "Buy if the quote is
   at or under about ¥1,580,000 a server … and the failover capacity is contracted; otherwise rent." (q26), "Buy 3
   servers if the quotes come in at or under about ¥646,000 a server …; otherwise rent." with the estimate and the
   cutover date after it (q31), "…: 4 × L20 if the quote comes in at or under the one-off budget …; otherwise 2 × L20"
   (q17). No "Get quotes, then decide." before it; q31's finding no longer sets a second ceiling beside the first.
B. A service selling tokens dearer to make than a hosted API sells them: a go/no-go line with the price list's bar a
   million input and output tokens; one launch line with both dates and what decides between them; the hosted-API
   stopgap said once, on page 1 (q11).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import launch_order44, launch_paths42, memo_lead_once, unit_first
from advisor.plan.memo import render_memo_markdown
from advisor.plan.placeholder_purchase import _gate_money
from tests.support.planned import ADVICE_SCENARIOS, advice_plan

LANGS = ("en", "zh_CN")
HEAD = ("**Recommendation**", "**建议**")
Q11, Q17, Q26, Q31 = ("q11_paid_api_b25", "q17_capex_only_university_lab", "q26_steady_3y_strong_ops_buy",
                      "q31_icp_filed_hosting_move")
OTHERWISE_RENT = {"en": "otherwise rent", "zh_CN": "否则租用"}


def _head(md: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(HEAD))


def _first(md: str, lang: str) -> str:
    """The recommendation's first sentence."""
    body = _head(md).split("**", 2)[2].lstrip(": ：")
    return body.split(". " if lang == "en" else "。", 1)[0]


def _section7(md: str) -> str:
    return md.split("\n## 7.", 1)[1] if "\n## 7." in md else md.split("\n## 七", 1)[1]


# ---- A: the threshold line first --------------------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q26_first_sentence_is_the_buy_rent_threshold_with_the_failover_condition(lang: str) -> None:
    r = advice_plan(Q26)
    md = render_memo_markdown(r, lang)
    first = _first(md, lang)
    buy = next(f for f in r.findings if f.id == "cost.buy").params
    red = next(f for f in r.findings if f.id == "sizing.redundancy").params
    assert red["failover"] and red["dearer"]  # without the contracted failover, a spare server tips it to renting
    assert buy["spare"]["per_server"] in first and OTHERWISE_RENT[lang] in first
    assert {"en": "the failover capacity is contracted", "zh_CN": "已签约保留故障切换容量"}[lang] in first
    head = _head(md)
    # after it: what a failed server leaves and what going without the failover costs, the findings' own figures
    assert f" {red['carried']} " in head and red["other"] in head and red["rent"] in head
    assert translate(lang, "plan41_form.decide", form="").strip() not in head
    assert "{" not in head and "None" not in head


@pytest.mark.parametrize("lang", LANGS)
def test_q31_decision_is_threshold_expected_price_and_cutover(lang: str) -> None:
    r = advice_plan(Q31)
    md = render_memo_markdown(r, lang)
    gate = r.costs.price_gate
    first = _first(md, lang)
    per_server = _gate_money(gate["per_server"], gate["currency"])
    assert per_server in first and OTHERWISE_RENT[lang] in first
    head = _head(md)
    tl = r.timeline
    capex = r.costs.owned.capex
    each = f"¥{round(capex.low / gate['servers'], -3):,.0f}–¥{round(capex.high / gate['servers'], -3):,.0f}"
    days = f"{tl.launch_days_low}–{tl.launch_days_high}"
    assert head.index(per_server) < head.index(each) < head.index(days)  # threshold, expected price, cutover
    assert ({"en": "cutover", "zh_CN": "切换"}[lang]) in head.split(each, 1)[1]
    # the finding keeps the one ceiling (in all, 3 × the threshold a server) and drops the same-GPU aside
    buy = next(f for f in r.findings if f.id == "cost.buy")
    same = buy.params["basis"]["max_same"]
    assert same not in md and buy.params["max_purchase"] in _section7(md)
    assert translate(lang, "plan41_form.decide", form="").strip() not in head


@pytest.mark.parametrize("lang", LANGS)
def test_q17_straddled_budget_says_buy_this_else_that_before_the_estimates_basis(lang: str) -> None:
    r = advice_plan(Q17)
    md = render_memo_markdown(r, lang)
    first = _first(md, lang)
    hw = r.hardware
    budget = f"{r.costs.owned.capex_budget:,.0f}"
    assert budget in first and f"{hw.total_gpus}" in first
    assert {"en": "; otherwise 2 ×", "zh_CN": "；否则买 2 张"}[lang] in first
    head = _head(md)
    basis = {"en": "The estimate is built on", "zh_CN": "估算依据的是"}[lang]
    assert head.index(first) < head.index(basis)  # the estimate's basis after the rule, not inside it


def test_no_memo_opens_with_get_quotes_then_decide() -> None:
    """Property over the advice scenarios: where a purchase hinges on a quote, the rule itself opens the memo."""
    for name in sorted(x.stem for x in ADVICE_SCENARIOS.glob("q*.json")):
        r = advice_plan(name)
        for lang in LANGS:
            page = render_memo_markdown(r, lang).split("\n## ")[1]
            assert translate(lang, "plan41_form.decide", form="").strip() not in page, (name, lang)


# ---- B: q11's margin, launch dates and stopgap ----------------------------------------------------------------

def top_in_of(f) -> str:
    return f.params["own_in"].split("–")[-1]


@pytest.mark.parametrize("lang", LANGS)
def test_q11_margin_is_a_go_no_go_with_the_price_lists_bar(lang: str) -> None:
    r = advice_plan(Q11)
    f = unit_first.margin(r.findings)
    assert f is not None and unit_first.placeholder(f)
    md = render_memo_markdown(r, lang)
    page = md.split("\n## ")[1]
    # below the recommendation and its two launch paths (vrd44, review 35: q11)
    first = next(x for x in page.split("\n\n") if top_in_of(f) in x and not x.startswith("- "))
    p = f.params
    top_in, top_out = p["own_in"].split("–")[-1], p["own_out"].split("–")[-1]
    assert top_in in first and top_out in first  # the bar: the plan's own cost at the top of its prices
    assert unit_first.span_times(f) in first
    assert {"en": "Go only if your price list covers", "zh_CN": "只有价目表至少覆盖"}[lang] in first
    assert {"en": "otherwise no-go", "zh_CN": "否则不做"}[lang] in first
    rec = _head(md)
    assert {"en": "If your price list covers the cost per token (the margin test below), rent",
            "zh_CN": "价目表覆盖得了每个 token 的成本（见下方的利润检验），就租用"}[lang] in rec
    assert md.index(rec) < md.index(first)
    assert {"en": "Unit economics", "zh_CN": "单位经济"}[lang] not in md


@pytest.mark.parametrize("lang", LANGS)
def test_q11_one_launch_line_gives_both_dates_and_what_decides(lang: str) -> None:
    r = advice_plan(Q11)
    md = render_memo_markdown(r, lang)
    head = _head(md)
    tl, g = r.timeline, r.timeline.gate
    assert g is not None and g.id.endswith(launch_paths42.LIKELY)
    late = f"{tl.launch_days_low}–{tl.launch_days_high}"
    # vrd44 (review 35): the two dates as two bullets under the recommendation, the question for counsel before them
    paths = launch_order44.paths(r, lang)
    page = md.split("\n## ")[1]
    assert len(paths) == 2 and all(f"- {x}" in page for x in paths)
    assert late in paths[0] and f"{g.days_low}–{g.days_high}" in paths[0]
    assert launch_order44.intro(lang) in page and page.index(launch_order44.intro(lang)) < page.index(paths[0])
    assert {"en": "counsel", "zh_CN": "律师"}[lang] in launch_order44.intro(lang)
    # the planned date is said once on page 1's opening, not again in a line of its own
    assert page.split(translate(lang, "memo.key.launch"))[0].count(late) == 1
    assert launch_paths42.clause(r, lang) not in head and launch_paths42.both(r, lang) not in page


@pytest.mark.parametrize("lang", LANGS)
def test_q11_hosted_api_stopgap_is_said_once(lang: str) -> None:
    r = advice_plan(Q11)
    assert r.start_with is not None and r.start_with.key in memo_lead_once.STOPGAP_KEYS
    hosted = next(f for f in r.findings if f.id == memo_lead_once.HOSTED_FINDING)  # kept in the plan (--json)
    md = render_memo_markdown(r, lang)
    assert {"en": "**A hosted API, as a stopgap only:**", "zh_CN": "**模型 API 服务只能作过渡**"}[lang] in md
    assert hosted.title_in(lang) not in md


def test_stopgap_once_keeps_the_hosted_finding_where_no_stopgap_paragraph_is() -> None:
    r = advice_plan(Q31)
    assert r.start_with is None or r.start_with.key not in memo_lead_once.STOPGAP_KEYS
    found = memo_lead_once.stopgap_said(r.findings, r)
    assert [f.id for f in found] == [f.id for f in r.findings]
