"""Round 14's dates, sources and filler (issue 25, s25-dates25), end to end on the advice scenarios, both languages:

- the launch of a self-hosted open-weight model is planned on the full filing its finding says to plan on, with
  registration's days as the earliest case (q07 "plan on the high end, yet the earliest launch (151–335 days) uses
  the 90-day low end"; q14 91–245);
- one range per path in every section (q07 zh: "3–4 months, 90–120, 90–240 and 180–240 days");
- the B25 licence and the filing side by side, their order asked, not a sequence no source gives (q07, q11)."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import example_sources, memo_api_only, memo_text15
from advisor.plan.data import duration
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_text15 import source_title
from advisor.plan.reasons import deciding
from tests.support.planned import advice_plan, only_finding

LANGS = ("en", "zh_CN")
FILING_SCENARIOS = ("q07_minors_education_app", "q14_medical_followup_mainland")
SOURCES_HEADING = {"en": "## 10. Sources", "zh_CN": "## 十、来源"}


def _days(name: str) -> str:
    lo, hi = duration(name)
    return f"{lo}–{hi}"


def _body(memo: str) -> str:
    """The memo before its sources list (a source's own title may quote its months: it is what the source says)."""
    return re.split(r"\n## [^\n]*(Sources|来源)\n", memo)[0]


@pytest.mark.parametrize("name", FILING_SCENARIOS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_launch_is_planned_on_the_filing_its_finding_says_to_plan_on(name, lang):
    r = advice_plan(name)
    [step] = [i for i in r.timeline.items if i.id == "genai_open_weights"]
    setup = next(i for i in r.timeline.items if i.id == "setup")
    # the finding says plan on the full filing: the launch counts it, registration is the earliest case
    assert (step.days_low, step.days_high) == duration("genai_filing")
    assert (step.shorter_low, step.shorter_high) == duration("genai_registration")
    assert r.timeline.launch_days_low >= step.days_low + setup.days_low
    assert r.timeline.earliest_low is not None and r.timeline.earliest_low < r.timeline.launch_days_low
    path = only_finding(r, "genai.filing").detail_in(lang)
    assert _days("genai_filing") in path and _days("genai_registration") in path
    memo = render_memo_markdown(r, lang)
    [launch] = [line for line in memo.splitlines() if line.startswith(f"| {translate(lang, 'memo.key.launch')} |")]
    planned = f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}"
    assert translate(lang, "filing25.launch.plan_on", days=planned) in launch
    assert r.timeline.earliest_text(lang) in launch and r.timeline.earliest_text(lang)
    # the low end of the span (90) is never the launch's floor
    assert f"{duration('genai_registration')[0] + setup.days_low}–{r.timeline.launch_days_high}" not in launch


@pytest.mark.parametrize("name", FILING_SCENARIOS)
@pytest.mark.parametrize("lang", LANGS)
def test_one_range_per_path_in_every_section(name, lang):
    body = _body(render_memo_markdown(advice_plan(name), lang))
    months = r"\d[–-]\d\s*(months|个月)"
    assert not [m.group(0) for m in re.finditer(months, body) if "6 months" not in m.group(0)], "filing in months"
    span = f"{duration('genai_registration')[0]}–{duration('genai_filing')[1]}"
    assert span not in body  # the two paths' span is neither path's range
    assert _days("genai_filing") in body and _days("genai_registration") in body


@pytest.mark.parametrize("lang", LANGS)
def test_the_licence_and_the_filing_start_together_and_their_order_is_asked(lang):
    """q07: a paid public service on a mainland node: the B25 licence and the filing both gate the launch; no source
    here says the filing waits for the licence, so the launch counts the longer, not both end to end, and the next
    step asks the provincial CAC."""
    r = advice_plan("q07_minors_education_app")
    items = {i.id: i for i in r.timeline.items}
    licence, filing, setup = items["icp_licence"], items["genai_open_weights"], items["setup"]
    assert r.timeline.launch_days_high == max(licence.days_high, filing.days_high) + setup.days_high
    assert r.timeline.launch_days_high < licence.days_high + filing.days_high
    [gate] = [s for s in r.next_steps if s.id == "gate"]
    text = gate.text_in(lang)
    asked = translate(lang, "filing25.next.alongside_order", steps="X").split("X")[1].strip("。. ")
    assert asked and asked in text
    memo = render_memo_markdown(r, lang)
    assert "in series" not in memo and "依次办理" not in memo
    # without the licence (a free service) there is no order to ask
    free = advice_plan("q07_minors_education_app", charges_users=False)
    [free_gate] = [s for s in free.next_steps if s.id == "gate"]
    assert "alongside_order" not in str(free_gate.params)


# -- sources matched to the claim: an 8 × H100 example on another GPU's plan ----------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_an_h100_break_even_source_on_an_l20_plan_is_cited_as_an_example(lang):
    """q07 rents L20s: the 8 × H100 break-even source its cost finding cites is titled as a public H100 example,
    not the reader's GPU, in both languages; an H100 plan cites it as it is."""
    r = advice_plan("q07_minors_education_app")
    assert not r.hardware.gpu.lower().startswith("nvidia h100")
    cited = [s.title for x in r.findings for s in x.sources if "8×H100" in s.title and "Purchase" not in s.title]
    assert cited and all(t.startswith(example_sources.PREFIX) for t in cited)
    memo = render_memo_markdown(r, lang)
    for title in cited:
        assert source_title(title, lang) in memo
        assert lang == "en" or source_title(title, lang) != title  # a Chinese title, not the English one
    raw = [x.model_copy(update={"sources": [s.model_copy(update={"title": s.title.removeprefix(example_sources.PREFIX)})
                                            for s in x.sources]}) for x in r.findings]
    on_h100 = example_sources.as_examples(raw, "h100-sxm-80g")
    assert not [s for x in on_h100 for s in x.sources if s.title.startswith(example_sources.PREFIX)]
    again = example_sources.as_examples(raw, "l20-48g")
    assert [s.title for x in again for s in x.sources] == [s.title for x in r.findings for s in x.sources]


def test_every_h100_example_title_has_its_chinese_form():
    for title in example_sources.H100_TITLES:
        assert source_title(title, "zh_CN") != title
        assert source_title(example_sources.example_title(title), "zh_CN") != example_sources.example_title(title)


# -- API-only memos: the self-hosted comparison in one line --------------------------------------------------------
API_ONLY = ("q15_hosted_api_small_us_team", "q16_hosted_api_mainland_registration", "q27_six_month_pilot_no_ops")


def _section(memo: str, n: int) -> str:
    return memo.split("\n## ")[n]


@pytest.mark.parametrize("name", API_ONLY)
@pytest.mark.parametrize("lang", LANGS)
def test_an_api_far_cheaper_has_no_self_hosted_sizing_section(name, lang):
    """q15, q16, q27: the API wins by a wide margin: sections 2–3 are one line each (what serving it yourselves
    would take and cost), no GPU table, latency table or purchase row; the plan's JSON keeps the whole comparison."""
    r = advice_plan(name)
    assert r.deployment_form == "hosted_api" and memo_api_only.collapsed(r)
    memo = render_memo_markdown(r, lang)
    sizing, latency, cost = _section(memo, 2), _section(memo, 3), _section(memo, 4)
    assert "| " not in sizing and "| " not in latency  # no table of a setup nobody runs
    assert str(r.hardware.total_gpus) in sizing and r.hardware.gpu_name in sizing
    cost_rows = [line.split(" | ")[0].strip("| ") for line in cost.splitlines() if line.startswith("| ")]
    assert translate(lang, "memo4.cost.bare_metal") not in cost_rows
    assert translate(lang, "memo4.cost.cloud_monthly") not in cost_rows
    assert not [p for p in r.costs.prices if p.kind == "capex" and memo_text15.price_offer(p, lang) in cost]
    assert "sizing.plan" not in [f.id for f in r.findings if f"**{f.title_in(lang)}**" in memo]
    assert r.hardware.total_gpus and r.costs.bare_metal_monthly is not None  # the plan itself keeps the comparison


@pytest.mark.parametrize("name", API_ONLY)
def test_price_grades_are_never_a_deciding_reason_for_an_api(name):
    r = advice_plan(name)
    assert not {"cost.prices_verify", "cost.mainland_prices"} & {f.id for f in deciding(r.findings)}
    assert {"cost.prices_verify", "cost.mainland_prices"} & set(r.finding_ids)  # still a caveat in section 7


def test_price_grades_are_no_reason_for_a_self_hosted_fallback_either():
    """q24's fallback list took "5 of 5 prices used are grade C or U" once the fp8 quality check left page 1's
    reasons (session 36): the grades are a caveat in section 7 for every plan, on page 1 of none."""
    r = advice_plan("q24_us_saas_rent")
    assert "cost.prices_verify" in r.finding_ids
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(r, lang)
        page1 = memo.split("\n## ", 2)[1]
        grade = next(f for f in r.findings if f.id == "cost.prices_verify").title_in(lang)
        assert f"**{grade}**" not in page1 and grade in memo


def test_a_self_hosted_plan_keeps_its_sections():
    """A plan on GPUs of its own (q07) is not collapsed: its sizing table and latency curve stay."""
    r = advice_plan("q07_minors_education_app")
    assert not memo_api_only.collapsed(r)
    memo = render_memo_markdown(r, "en")
    assert "| " in _section(memo, 2) and "| " in _section(memo, 3)


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_chat_priced_as_requests_says_the_multi_turn_month_on_page_1(lang):
    """q16: 2,000 chats a day priced as single requests: page 1's cost says the month at 3 and 5 turns too."""
    r = advice_plan("q16_hosted_api_mainland_registration")
    turns = only_finding(r, "cost.chat_turns").params
    memo = render_memo_markdown(r, lang)
    [row] = [line for line in memo.splitlines() if line.startswith(f"| {translate(lang, 'memo.key.cost')} |")]
    assert turns["cost1"] in row and turns["cost2"] in row
    staff = advice_plan("q15_hosted_api_small_us_team")  # a staff tool's requests are taken as counted
    assert staff.finding("cost.chat_turns") is None


@pytest.mark.parametrize("lang", LANGS)
def test_an_offshore_api_names_the_providers_terms_once_and_cites_no_cac_notice(lang):
    r = advice_plan("q15_hosted_api_small_us_team")
    x = only_finding(r, "cost.hosted_api")
    assert translate(lang, "apionly25.provider_terms").strip() in x.detail_in(lang)
    assert not [s for s in x.sources if "CAC" in s.title]
    mainland = only_finding(advice_plan("q16_hosted_api_mainland_registration"), "cost.hosted_api")
    assert translate(lang, "apionly25.provider_terms").strip() not in mainland.detail_in(lang)
