"""Blind review 27 (issue #25): commitments and capacity risk said where a reader decides.

- a budget met only at the committed (reserved) price says so in the recommendation's first line (q38, q41);
- a public service's peak-hour replicas on on-demand stock: reserve them where committing for every GPU fits the
  budget, the cost on page 1 (q32, q37), else the stock risk said (``scaling.commit38_peak``, variant ``over``);
- the one-card premium sentence names what costs more ("this setup"), not "it" (q38);
- rented GPUs for sensitive data are not "in your server room" (q41);
- the fp8 "check quality first" caveat is no reason on page 1 (its A/B step is in the steps) (q32, q37);
- a filed model served from public weights: confirm the weights are the filed ones (q32).
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.plan import peak_reserve_rules
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.reasons import deciding
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_answers, advice_plan

LANGS = ("en", "zh_CN")


def _first_line(r, lang: str) -> str:
    memo = render_memo_markdown(r, lang)
    return next(line for line in memo.splitlines() if line.startswith(("**Recommendation**", "**建议**")))


def _cost_row(r, lang: str) -> str:
    memo = render_memo_markdown(r, lang)
    return next(line for line in memo.splitlines() if line.startswith(("| Cost |", "| 费用 |", "| 成本 |")))


# --- the commitment in the decision line (q38, q41) ----------------------------------------------------------------


@pytest.mark.parametrize("name", ["q38_eu_internal_hr_assistant", "q41_finetune_internal_callcentre"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_budget_met_only_on_a_commitment_says_so_in_the_first_line(name, lang):
    r = advice_plan(name)
    c = r.costs
    # the case: within on the committed month, on demand's high end over the budget
    assert c.within_budget and c.cloud_on_demand_monthly.high > c.budget_monthly >= c.recommended_monthly.high
    line = _first_line(r, lang)
    assert money_range(c.cloud_on_demand_monthly, c.currency) in line, line
    term = c.cloud_monthly_factor.term_months
    assert term == 12  # the reserved factor's row names a 1-year commitment
    assert ("1-year commitment" if lang == "en" else "1 年承诺") in line, line
    # over at both ends, or at the high end only (review 28, q41: 22,808–24,944 against 20,000 is over at both)
    both = c.cloud_on_demand_monthly.low > c.budget_monthly
    high = "over budget at the high end" if lang == "en" else "按区间上限计超出预算"
    assert (high not in line) if both else (high in line), (name, line)


@pytest.mark.parametrize("lang", LANGS)
def test_a_budget_that_on_demand_also_meets_leaves_the_first_line_alone(lang):
    r = advice_plan("q32_filed_public_chatbot_fast")
    assert r.costs.cloud_on_demand_monthly.high <= r.costs.budget_monthly
    line = _first_line(r, lang)
    assert "commitment" not in line and "承诺" not in line, line


# --- a public service's peak-hour replicas (q32, q37) ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["q32_filed_public_chatbot_fast", "q37_sg_fintech_public"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_public_peak_on_demand_is_reserved_where_every_gpu_committed_fits(name, lang):
    r = advice_plan(name)
    f = r.finding(peak_reserve_rules.RULE)
    assert f is not None and f.params["fits"] is True and not f.title_key.endswith(".over.title")
    every, floor = r.costs.cloud_reserved_all_monthly, r.costs.cloud_peak_floor
    # review 29: the reservation of every GPU is the plan's month, the mixed floor kept as the option not taken
    assert floor is not None and floor["load"] == "diurnal" and r.costs.cloud_reserved_floor is None
    assert f.params["gpus"] == r.hardware.total_gpus and f.params["reserved"] is True
    # page 1's cost row leads with the committed figure, in the row's own money style, and says why
    row = _cost_row(r, lang)
    assert money_range(every, r.costs.currency) in row.split("|")[2].strip()[:40], row
    assert ("can run out at peaks" if lang == "en" else "可能售罄") in row, row


def _mixed(r) -> SimpleNamespace:
    """The plan's costs as they were before the reservation of every GPU was adopted (the mixed month page 1's; the
    line's total on it): the rule's other case, which a real budget reaching it would also re-plan elsewhere."""
    c, p = r.costs, r.costs.cloud_peak_floor
    mixed = MoneyRange(low=p["low"], high=p["high"])
    line = None if c.monthly_with_line is None else MoneyRange(
        low=c.monthly_with_line.low - c.cloud_monthly.low + mixed.low,
        high=c.monthly_with_line.high - c.cloud_monthly.high + mixed.high)
    floor = {k: v for k, v in p.items() if k not in ("low", "high")}
    return c.model_copy(update={"cloud_monthly": mixed, "recommended_monthly": mixed, "monthly_with_line": line,
                                "cloud_reserved_floor": floor, "cloud_peak_floor": None})


def _facts(r, budget: float, costs=None) -> SimpleNamespace:
    """The rule's view of a planned result (its real costs and chosen setup) under another budget: a budget that
    changes the plan itself (q32 at a tighter budget moves to another GPU) cannot reach the case."""
    ctx = SimpleNamespace(internal_only=False, is_batch=False, budget_amount=budget, currency=r.costs.currency)
    chosen = SimpleNamespace(total_gpus=r.hardware.total_gpus, gpu=SimpleNamespace(name=r.hardware.gpu_name))
    return SimpleNamespace(form="cloud", ctx=ctx, cost=SimpleNamespace(costs=costs or r.costs), chosen=chosen,
                           region=r.region)


@pytest.mark.parametrize("lang", LANGS)
def test_where_committing_every_gpu_breaks_the_budget_the_stock_risk_is_said(lang):
    r = advice_plan("q32_filed_public_chatbot_fast")
    c = _mixed(r)
    # a budget between the month as planned on the mixed basis (with the line) and the month with every GPU committed
    planned_high = c.monthly_with_line.high
    committed_high = planned_high + c.cloud_reserved_all_monthly.high - c.cloud_monthly.high
    assert committed_high > planned_high
    f = peak_reserve_rules.peak_reserve(_facts(r, (planned_high + committed_high) / 2, c))
    assert f is not None and f.params["fits"] is False and f.title_key.endswith(".over.title")
    assert "over" in f.params["budget"]["tr"] and f.detail_in(lang)
    page_one = SimpleNamespace(finding=lambda _id: f, costs=c)
    clause = peak_reserve_rules.key_clause(page_one, lang)
    assert ("over budget" if lang == "en" else "超出预算") in clause, clause
    assert ("can run out at peaks" if lang == "en" else "可能售罄") in clause, clause
    # a budget just above the month with every GPU committed: it fits
    fits = peak_reserve_rules.peak_reserve(_facts(r, committed_high + 1, c))
    assert fits is not None and fits.params["fits"] is True


@pytest.mark.parametrize("name", ["q38_eu_internal_hr_assistant", "q41_finetune_internal_callcentre",
                                  "q36_bursty_b2b_event_mainland"])
def test_internal_tools_and_scheduled_bursts_get_no_peak_reservation(name):
    """An internal tool is not a public service; scheduled bursts keep their own reservation rule."""
    assert advice_plan(name).finding(peak_reserve_rules.RULE) is None


# --- wording (q38, q41) ---------------------------------------------------------------------------------------------


def test_the_one_card_premium_names_the_setup_that_costs_more():
    g = advice_plan("q38_eu_internal_hr_assistant").gpu_choice
    assert g is not None and g.single_card is not None
    en, zh = g.text_in("en"), g.text_in("zh_CN")
    assert "It is chosen over" not in en and "though it costs" not in en, en
    assert f"though this setup costs {g.single_card['more_pct']} % more" in en, en
    assert "选它而不选" not in zh and f"本方案虽然贵 {g.single_card['more_pct']}%" in zh, zh


def test_rented_gpus_for_sensitive_data_are_not_in_your_server_room():
    r = advice_plan("q41_finetune_internal_callcentre")
    assert r.deployment_form == "cloud" and r.gpu_choice is not None
    assert r.gpu_choice.reason_params.get("internal") == "sensitive"
    en, zh = r.gpu_choice.text_in("en"), r.gpu_choice.text_in("zh_CN")
    assert "server room" not in en and "provider's data centre" in en, en
    assert "你们机房" not in zh and "云服务商数据中心" in zh, zh


# --- the fp8 caveat and the filed weights (q32) ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["q32_filed_public_chatbot_fast", "q23_japan_game_npc"])
def test_the_fp8_quality_check_is_a_step_not_a_reason(name):
    r = advice_plan(name)
    assert r.hardware.weights == "fp8"
    assert r.finding("sizing.quantized") is not None  # still said (section 7)
    assert "sizing.quantized" not in [f.id for f in deciding(r.findings)]
    assert any("baseline" in s.text_in("en").lower() for s in r.next_steps)


@pytest.mark.parametrize("lang", LANGS)
def test_a_filed_model_on_public_weights_confirms_the_weights_are_the_filed_ones(lang):
    r = advice_plan("q32_filed_public_chatbot_fast")
    assert not advice_answers("q32_filed_public_chatbot_fast").get("model_customisation") == "fine_tuned"
    f = r.finding("genai.filed")
    assert f is not None
    detail = f.detail_in(lang)
    assert f.params["weights"] == r.hardware.weights and f.params["weights"] in detail
    assert ("exactly the model named in the filing" if lang == "en" else "正是备案中所列的模型") in detail, detail
