"""Page 1 says when a decision rests on a placeholder price or an unsure supply, and names the sure fallback
(supplyrisk37, issue 25, blind review 26: q19/q42 "4×L20 at the listed ¥58.52/h is the sure fallback" on page 1;
q19/q43 an earliest launch of "1–5 days" that ignored the sales delivery or the quote; q26 "the decision flips with
server-level redundancy. That belongs in the headline"). The rules: ``advisor.plan.sure_fallback`` and
``quote_lead35.cover_flips``."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import cost as costmod
from advisor.plan import quote_lead35, sales_wait, sure_fallback
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import number_text
from advisor.plan.result import PriceRow
from tests.support.page_one import next_step_line, page_one
from tests.support.planned import advice_plan, h20_kept, only_finding

LANGS = ["en", "zh_CN"]
Q19, Q42 = "q19_export_controlled_h100_mainland", "q42_china_market_gpus_mainland"
Q43, Q26, Q36 = "q43_us_team_mainland_low_latency", "q26_steady_3y_strong_ops_buy", "q36_bursty_b2b_event_mainland"
UNKNOWN = {"en": "length unknown", "zh_CN": "所需时间未知"}
ASK = {"en": "ask for one", "zh_CN": "询价时一并要"}


def _row(md: str, lang: str, key: str) -> str:
    label = translate(lang, key)
    return next(line for line in page_one(md).splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("name", [Q19, Q42])
@pytest.mark.parametrize("lang", LANGS)
def test_placeholder_part_of_unsure_supply_names_the_sourced_fallback_on_page_one(name, lang):
    r = h20_kept(name)  # s36-sourced: the H20 is the plan only where no sourced part fits the budget
    g = r.gpu_choice
    assert g is not None and not g.chosen.price_sourced  # the H20's price is the grade-U placeholder
    start = sales_wait.start_on(r)  # the part next step 1 says to start on: the same one, said once more on page 1
    assert start is not None
    alt = next(a for a in g.alternatives if a.gpu_name == start["gpu"])
    assert alt.price_sourced and alt.gpu != g.chosen.gpu
    row = _row(render_memo_markdown(r, lang), lang, "supplyrisk37_fallback.label")
    assert f"{alt.gpus} " in row and alt.gpu_name in row and r.hardware.gpu_name in row
    assert f"{alt.per_hour:,.2f}" in row  # its listed price an hour, and its month at the cost model's hours
    assert number_text(round(alt.per_hour * costmod.HOURS_PER_MONTH)) in row
    assert ASK[lang] in row  # no sourced monthly/reserved row of the L20: said, never invented
    assert "{" not in row


def test_a_sourced_committed_row_of_the_fallback_is_not_asked_for(monkeypatch):
    r = h20_kept(Q42)
    alt = r.gpu_choice.alternatives[0]
    row = PriceRow(id="test.reserved", offer="test", gpu=alt.gpu, kind="reserved", region=r.region, low=1.0,
                   high=1.0, unit="CNY/GPU-hour", date="2026-01", source="test", grade="B")
    monkeypatch.setattr(sure_fallback, "builtin_rows", lambda: (row,))
    fb = sure_fallback.record(r)
    assert fb is not None and fb["committed"] == ["test.reserved"]
    assert ASK["en"] not in sure_fallback.key_row(r, "en")[1]


@pytest.mark.parametrize("name", [Q43, Q36])
def test_no_fallback_row_for_a_sourced_price_or_where_an_api_leads(name):
    r = advice_plan(name)
    assert sure_fallback.record(r) is None
    md = render_memo_markdown(r, "en")
    assert f"| {translate('en', 'supplyrisk37_fallback.label')} |" not in page_one(md)


@pytest.mark.parametrize("lang", LANGS)
def test_q19_launch_after_the_blockers_waits_on_the_sales_delivery(lang):
    r = h20_kept(Q19)
    assert not r.feasible
    row = _row(render_memo_markdown(r, lang), lang, "memo.key.launch")
    assert r.hardware.gpu_name in row and UNKNOWN[lang] in row
    days = f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}"
    assert row.index(UNKNOWN[lang]) < row.index(days)  # the delivery first, then the set-up's days


@pytest.mark.parametrize("lang", LANGS)
def test_q43_launch_waits_on_the_quote_and_written_supply_confirmation_of_step_one(lang):
    r = advice_plan(Q43)
    assert r.in_region_fallback is not None and not r.timeline.untimed and r.timeline.gate is None
    md = render_memo_markdown(r, lang)
    row = _row(md, lang, "memo.key.launch")
    assert UNKNOWN[lang] in row
    assert translate(lang, "memo.key.launch_value", days="1–5") not in row  # never "in 1–5 days" alone
    step = next_step_line(md, 1, lang)
    assert r.hardware.gpu_name in step  # the step it points at asks that part's quote and written supply


@pytest.mark.parametrize("lang", LANGS)
def test_q26_headline_says_a_spare_server_turns_owning_dearer_than_renting(lang):
    r = advice_plan(Q26)
    red = only_finding(r, "sizing.redundancy").params
    assert red["dearer"]  # the finding's own verdict: with a third server owning costs more than renting
    md = render_memo_markdown(r, lang)
    head = next(line for line in md.splitlines() if line.startswith(("**Recommendation**", "**建议**")))
    assert red["month_more"] in head and red["rent"] in head and f"{red['servers'] + 1}" in head
    # blind review 28 (q26 zh: "put the threshold rule and the 72% failover exposure first"): what one failed server
    # leaves leads beside the quote rule, before what covering it costs; said once on page 1 (not in step 1 again)
    assert f"{red['carried']} " in head and head.index(f"{red['carried']} ") < head.index(red["month_more"])
    assert f" {red['carried']} " not in next_step_line(md, 1, lang)


def test_cover_flips_only_where_the_spare_server_turns_the_verdict():
    r = advice_plan(Q26)
    f = only_finding(r, "sizing.redundancy")
    f.params["dearer"] = ""
    assert quote_lead35.cover_flips(r.findings, "en") == ""
    assert quote_lead35.cover_flips(advice_plan("q17_capex_only_university_lab").findings, "en") == ""


@pytest.mark.parametrize("lang", LANGS)
def test_a_fallback_over_the_budget_says_so(lang):
    r = h20_kept(Q42)  # since s36-sourced the sourced fallback is the plan wherever the budget holds it
    fb = sure_fallback.record(r)
    assert fb is not None and r.costs.budget_monthly is not None
    over = translate(lang, "supplyrisk37_fallback.over_budget", budget="X", currency=fb["currency"]).split("X")[0]
    r.costs.budget_monthly = fb["month"] + 1
    assert over not in sure_fallback.key_row(r, lang)[1]
    r.costs.budget_monthly = fb["month"] - 1
    row = sure_fallback.key_row(r, lang)[1]
    assert over in row and number_text(fb["month"] - 1) in row
