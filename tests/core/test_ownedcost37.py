"""Blind review 26 (issue #25): a paid API on owned cards states its cost per million tokens with the cards' capital
beside the running-cost-only figure (q18); its assumed --max-model-len refusal is asked on page 1 (q18); a replica whose
KV cache holds fewer full-context requests than it carries says so on page 1 with the remedies the plan backs (q35).
Every figure is checked against the plan's own records, not against printed constants."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import kv_condition40, owned_capital37
from advisor.plan.cost import amortisation_months, usd_range
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import advice_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

Q18, Q35, Q04, Q21 = ("q18_us_fleet_32_h100", "q35_deepseek_v3_h20_internal", "q04_securities_h20_l20_fleet",
                      "q21_fast_launch_hk_rule1")
LANGS = ["en", "zh_CN"]


def _split(md: str) -> tuple[str, str]:
    """Page 1 (section 1) and the rest: section 2's heading is "## 2." in English, "## 二、" in Chinese."""
    head = "\n## 2." if "\n## 2." in md else "\n## 二、"
    page1, rest = md.split(head, 1)
    return page1, rest


def _page1(md: str) -> str:
    return _split(md)[0]


def _rng(lo: float, hi: float, cur: str) -> str:
    return money_range(MoneyRange(low=lo, high=hi), cur)


def test_capital_is_the_owned_cards_purchase_over_the_horizon_split_as_the_running_cost():
    r = advice_plan(Q18)
    c, lay = r.costs, r.hardware.layout
    f = owned_capital37.figures(r)
    assert f is not None and lay is not None and lay.fleet_used
    rows = [p for p in c.prices if p.kind == "capex" and p.gpu == r.hardware.gpu]
    card = (min(usd_range(p, c.fx_rate)[0] for p in rows), max(usd_range(p, c.fx_rate)[1] for p in rows))
    months = amortisation_months(c.horizon_months)
    assert f["gpus"] == lay.fleet_used and f["months"] == months
    assert f["monthly"] == pytest.approx((card[0] * lay.fleet_used / months, card[1] * lay.fleet_used / months))
    # the capital adds to the running-only figure at the month's tokens, by the same GPU-time split
    share, tout = c.prefill_gpu_share, c.output_tokens_per_month
    run_out = c.cost_per_million_output_tokens_volume
    assert f["output"][0] == pytest.approx(run_out.low * (1 - share) + f["monthly"][0] * (1 - share) / tout * 1e6)
    assert f["output"][1] > run_out.high  # the capital is not nothing: the figure a newcomer would underprice on


@pytest.mark.parametrize("lang", LANGS)
def test_the_per_million_row_says_running_only_and_the_figure_with_capital(lang):
    r = advice_plan(Q18)
    f = owned_capital37.figures(r)
    cur = r.costs.currency
    md = render_memo_markdown(r, lang)
    row = next(x for x in md.splitlines() if _rng(*f["output"], cur) in x)
    assert _rng(*f["monthly"], cur) in row and _rng(*f["card"], cur) in row
    assert translate(lang, "ownedcost37_capital.grade", grade=f["grade"], mark=" ⚠" if f["grade"] in "CU" else "",
                     date=f["date"]) in row  # the price's grade and date, never a bare figure


def test_a_placeholder_purchase_price_is_said_as_one():
    r = advice_plan(Q18)
    prices = [p.model_copy(update={"grade": "U", "url": "", "user_quote": False}) if p.kind == "capex" else p
              for p in r.costs.prices]
    r2 = r.model_copy(update={"costs": r.costs.model_copy(update={"prices": prices})})
    text = owned_capital37.clause(r2, "en")
    assert translate("en", "ownedcost37_capital.placeholder", grade="U", mark=" ⚠") in text


def test_not_said_for_a_fleet_that_sells_no_tokens():
    assert owned_capital37.figures(advice_plan(Q04)) is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_assumed_context_cap_is_asked_on_page_one_and_not_repeated(lang):
    r = advice_plan(Q18)
    md = render_memo_markdown(r, lang)
    assumed = next(a for a in r.assumptions if a.field == "max_context_tokens").text_in(lang)
    page1, rest = _split(md)
    assert f"--max-model-len {r.hardware.max_model_len}" in r.hardware.command
    line = next(x for x in page1.splitlines() if assumed in x)
    assert f"--max-model-len {r.hardware.max_model_len}" in line and "131,072" in line  # the model's own limit
    assert assumed not in rest


@pytest.mark.parametrize("lang", LANGS)
def test_kv_short_at_failover_is_on_page_one_with_the_plans_figures(lang):
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    assert fit is not None and fit.load_over_full and fit.failover_per_replica
    page1 = _page1(render_memo_markdown(r, lang))
    # a material shortfall is said as a condition of the plan (kv_condition40, review 30), the same figures
    key = "kvfail40_kv.down" if kv_condition40.material(fit, fit.failover_per_replica) else "ownedcost37_kv.down"
    head = translate(lang, key, gib=f"{fit.kv_gib_per_gpu:g}", dtype=fit.kv_dtype, full_fit=f"{fit.at_full:,}",
                     context=f"{fit.context:,}", load=f"{fit.failover_per_replica:,}")
    line = next(x for x in page1.splitlines() if head in x)
    if any(m.kind == "dp_attention" for m in fit.remedies):  # an engine option the plan backs, named
        # s40-kvfail42: in the numbered go/no-go step where the plan has one (kv_replicas42), which the line names
        from advisor.plan import kv_replicas42

        n = kv_replicas42.number(r)
        if n is None:
            assert translate(lang, "ownedcost37_kv.dp_attention") in line
        else:
            assert kv_replicas42.fix_clause(r, lang, quoted=False) in line
            assert "--enable-dp-attention" in r.next_steps[n - 1].text_in(lang)
    assert "141" not in line  # a part the catalog has no row for is not named


def test_kv_line_not_on_page_one_under_an_api_lead():
    # q13's fallback L4s hold 3 of the 10 a replica carries with one down (q21's third A10 is now in its plan: kvp42)
    r = advice_plan("q13_sg_sellers_pi_below_threshold")
    assert r.capacity.kv_fit is not None and r.capacity.kv_fit.load_over_full
    page1 = _page1(render_memo_markdown(r, "en"))
    assert "Memory risk" not in page1 and "A condition of this plan, memory" not in page1
