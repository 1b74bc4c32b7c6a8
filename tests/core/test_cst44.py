"""Blind review 35 (cst44): how a memo states what the plan costs a month.

q07/q09: three competing monthly figures in section 4; q05: a public service's peak on on-demand stock, unsaid;
q14/q23: machine-like reservation sentences; q19/q42/q43: "a public service's peak" for a B2B service; q12/q21: the
price bullet packing the fallback and three load cases; q01/q02: a 7× running range and a payback against a rent above
the owner's budget only.
"""

from __future__ import annotations

import pytest

from advisor.plan import peak_reserve_rules
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
CLOUD_ROW = ("| Cloud GPU servers, per month |", "| 云 GPU 服务器，每月 |")
PLAN_MONTH = {"en": "(this plan's month)", "zh_CN": "（本方案采用）"}
NOT_TAKEN = {"en": "not taken:", "zh_CN": "未采用："}


def _row(memo: str, starts: tuple[str, ...]) -> str:
    return next(line for line in memo.splitlines() if line.startswith(starts))


def _n(x: float) -> str:
    return f"{round(x):,}"


@pytest.mark.parametrize("name", ["q07_minors_education_app", "q09_eu_voice_agent"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_cloud_row_leads_with_the_plans_month_and_says_why_not_the_others(name, lang):
    r = advice_plan(name)
    c = r.costs
    row = _row(render_memo_markdown(r, lang), CLOUD_ROW)
    value = row.split("|")[2]
    plan, od = _n(c.recommended_monthly.low), _n(c.cloud_on_demand_monthly.low)
    # the plan's month first, named as the plan's; the others after it, with why they are not taken
    assert value.index(plan) < value.index(PLAN_MONTH[lang]) < value.index(od), value
    assert NOT_TAKEN[lang] in value and value.index(NOT_TAKEN[lang]) < value.index(od), value
    assert value.count(PLAN_MONTH[lang]) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_two_nodes_with_peak_replicas_on_demand_say_the_stock_risk(lang):
    r = advice_plan("q05_filed_finetune_mainland_sg")
    f = r.finding(peak_reserve_rules.RULE)
    assert f is not None, [x.id for x in r.findings]
    c = r.costs
    text = f.title_in(lang) + f.detail_in(lang)
    assert _n(c.cloud_reserved_all_monthly.low) in text and str(c.gpus) in f.title_in(lang), text
    memo = render_memo_markdown(r, lang)
    cost = _row(memo, ("| Cost |", "| 成本 |"))
    assert ("can run out at peaks" if lang == "en" else "售罄") in cost, cost


@pytest.mark.parametrize("name,who", [("q19_export_controlled_h100_mainland", "business"),
                                      ("q42_china_market_gpus_mainland", "business"),
                                      ("q43_us_team_mainland_low_latency", "business"),
                                      ("q14_medical_followup_mainland", "public")])
@pytest.mark.parametrize("lang", LANGS)
def test_the_reserved_peak_is_worded_by_the_audience_answered(name, who, lang):
    memo = render_memo_markdown(advice_plan(name), lang)
    assert "public service's peak" not in memo and "公众服务高峰" not in memo
    words = {("business", "en"): "your business customers", ("business", "zh_CN"): "企业客户",
             ("public", "en"): "the public", ("public", "zh_CN"): "公众用户"}[(who, lang)]
    cost = _row(memo, ("| Cost |", "| 成本 |"))
    assert words in cost, cost


@pytest.mark.parametrize("lang", LANGS)
def test_reservation_wording_is_plain_and_said_once(lang):
    memo14 = render_memo_markdown(advice_plan("q14_medical_followup_mainland"), lang)
    assert "按量开启贵" not in memo14
    memo23 = render_memo_markdown(advice_plan("q23_japan_game_npc"), lang)
    why = "the on-demand rate is that much higher" if lang == "en" else "按量单价高得多"
    assert memo23.count(why) == 1, memo23.count(why)
    assert "少计的时长" not in memo23 and "outweighs the hours it saves" not in memo23


@pytest.mark.parametrize("lang", LANGS)
def test_q21_price_is_the_api_paths_month_until_and_after_the_move_with_a_year(lang):
    r = advice_plan("q21_fast_launch_hk_rule1")
    memo = render_memo_markdown(r, lang)
    decision = memo.split("\n## 2")[0]
    until = next(line for line in decision.splitlines() if ("until the move" in line or "迁移前每月" in line))
    after = next(line for line in decision.splitlines() if ("**After the move**" in line or "**迁移后**" in line))
    fallback = r.costs.recommended_monthly
    for line in (until, after):  # the fallback's month is not in the price bullets
        assert _n(fallback.low) not in line, line
    assert ("12 months" in after) if lang == "en" else ("前 12 个月" in after), after
    # the three load cases' amounts are not the summary's: one token range, its basis in words
    assert "÷ 3" not in until and "lasts all busy hours" not in until and "则为" not in until, until
    # the fallback's first-year total is section 4's, not the summary table's
    p = r.costs.phased
    assert p is not None and p.total is not None
    assert _n(p.total.low) not in decision


@pytest.mark.parametrize("lang", LANGS)
def test_q12_price_bullet_has_one_token_range(lang):
    memo = render_memo_markdown(advice_plan("q12_hk_saas_pi_contract"), lang)
    price = next(line for line in memo.splitlines() if ("**Price:**" in line or "**价格**" in line))
    assert "÷ 3" not in price and "lasts all busy hours" not in price and "则为" not in price, price


@pytest.mark.parametrize("lang", LANGS)
def test_a_wide_running_range_has_a_central_figure(lang):
    r = advice_plan("q01_office_lan_capex_contracts")
    o = r.costs.owned
    assert o.running_monthly.high > 3 * o.running_monthly.low
    memo = render_memo_markdown(r, lang)
    cost = _row(memo, ("| Cost |", "| 成本 |"))
    assert ("180 CNY (range" if lang == "en" else "180 CNY（区间") in cost, cost
    # a narrow one stays a range (q02: ¥32–¥124 is under 4 ×, but over 3 ×: its centre is said too)
    memo06 = render_memo_markdown(advice_plan("q06_l20_batch_72h_claims"), lang)
    assert "(range" not in memo06 and "（区间" not in memo06


@pytest.mark.parametrize("lang", LANGS)
def test_lan_box_payback_gives_the_same_card_rented_and_the_lan_reason(lang):
    r = advice_plan("q02_office_lan_small_design_agency")
    memo = render_memo_markdown(r, lang)
    row = _row(memo, ("| Owning pays off |", "| 自购回本时间 |"))
    rent = r.costs.cloud_monthly
    assert _n(rent.low) in row, row  # the like-for-like rent of the same card
    assert ("LAN-only requirement is the reason to buy" if lang == "en" else "自购的理由是服务只能留在办公室局域网内") in row
    assert row.index(_n(rent.low)) < row.index("4,554"), row  # the same card before the VM above the budget
