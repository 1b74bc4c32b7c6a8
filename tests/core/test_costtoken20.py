"""Cost figures that agree and mean something (issue 25, s20-costtoken20; ninth blind review q02, q14, q24, q42, q43).

- The cost per million tokens is the setup's: its monthly cost over the tokens it serves at its stated throughput
  (the sizing table's output tokens/s, every replica at its planned load) busy the cost table's utilisation, input
  at the plan's prompt:output mix; the memo says that basis; the figure at the month's volume beside it (since
  s21-costbasis21 also where the volume is estimated, labelled so); the paid-API margin finding quotes the same
  figures.
- Any throughput the memo states as the peak's demand is served by the planned setup.
- A premium line is in page 1's total where priced, said left out where not (q43).
- A latency budget within 5 % of the TTFT target, at the planned load or with one replica down, is a risk (q43).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan import failover_budget, office_token_rows, per_million_costed
from advisor.plan.capacity_per_million import ANSWERED_VOLUMES, HOURS_PER_MONTH
from advisor.plan.data import facts
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_per_million import usage_text
from advisor.plan.memo_text15 import per_million_split
from advisor.plan.money_text import round_money
from advisor.plan.volume_low_end import FLOOR
from tests.support.planned import (
    ADVICE_SCENARIOS,
    advice_answers,
    no_stand_in,
    planned,
    scenario_memo,
    scenario_plan,
)

FILES = sorted(ADVICE_SCENARIOS.glob("*.json"))
LANGS = ("en", "zh_CN")


def _row(text: str, lang: str, en: str, zh: str) -> str:
    label = f"| {en}" if lang == "en" else f"| {zh}"
    return next((line for line in text.splitlines() if line.startswith(label)), "")


def _per_million_row(text: str, lang: str) -> str:
    return _row(text, lang, "Cost per million tokens", "每百万 token 成本") or _row(
        text, lang, "Cost per million tokens if you served it yourself", "自建时每百万 token 成本")


def _owned_monthly(r):
    c = r.costs
    if r.deployment_form == "on_premises" and c.owned is not None:
        return c.owned.monthly
    if r.deployment_form == "hybrid" and c.hybrid is not None:
        return c.hybrid.monthly
    return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_cost_per_million_is_the_setups_monthly_cost_over_its_capacity_at_the_utilisation(path: Path):
    """Property: per million output tokens = the monthly cost ÷ (output tokens/s × 3,600 × 730 × utilisation), and
    per million tokens the same over input + output at the plan's mix, from the plan's own figures; the monthly cost
    divided is the one the memo shows for the form (page 1's, or the owned form's own)."""
    r = scenario_plan(path)
    c = r.costs
    b = c.per_million_basis
    if b is None:
        assert c.per_job or c.cost_per_million_output_tokens is None, path.stem  # only a batch divides its own job
        return
    tok_s = float(b["output_tokens_per_s"])
    if r.nodes:  # both nodes' capacity: more than the mainland node's alone, and said so
        assert tok_s > (r.capacity.output_tokens_per_s_total or 0) and b["nodes"] == 2
        # said in the capacity's clause, or, where the volume keeps the setup idle and the row is one line
        # (s22-uplift22c), in the split's own words: each node's GPU time, added
        # s33-rows34: a two-node service whose tokens no one prices (q05, q34) prints no row; the figures stay
        row = "" if office_token_rows.drops_per_million(r) else _per_million_row(scenario_memo(path, "en"), "en")
        # issue 25: at the month's own tokens the row divides those tokens, not a capacity, so it names none
        assert not row or "of both nodes at its planned load" in row or "each node's GPU time at its planned load, added" in row \
            or (c.usage_from_tokens and row.split("|")[2].strip().startswith(
                # raised to it: s31-permillion31; named in plain words since s33-tokens33 (review 21)
                ("at the estimated volume", "at the month read from the peak")))
    else:
        assert tok_s == pytest.approx(r.capacity.output_tokens_per_s_total, abs=0.05)
    # over the GPU-hours billed: replicas beyond the always-on ones only for their share of the month (s20-consist20)
    billed = b.get("billed_gpus")
    assert billed is None or (0 < billed < c.gpus and billed == c.cloud_billed_gpus)
    full = tok_s * (billed / c.gpus if billed else 1.0) * 3600 * HOURS_PER_MONTH
    # Re-argued in s26-usage26: the basis states the cost table's one usage reading (``c.utilisation``), never a
    # second share of another capacity (q11's basis said 40 % beside the GPU-use row's 24 %). Where that usage is
    # the month's tokens (issue 25), the figure divides those tokens themselves; else the capacity × the usage
    assert b["utilisation"] == c.utilisation
    if c.usage_from_tokens:
        out = float(c.output_tokens_per_month or 0)
        # one definition in the JSON: the usage is the tokens over what the setup serves with every replica fully
        # busy around the clock (the GPU-use row's "over what the setup serves fully busy")
        assert b["full_output_tokens"] * b["utilisation"] == pytest.approx(out, rel=1e-3)
    else:
        out = full * b["utilisation"]
        assert b["full_output_tokens"] == pytest.approx(full, rel=1e-3)
    mix = (c.input_tokens_per_month or 0) / (c.output_tokens_per_month or 1)
    m = c.per_million_monthly
    assert m is not None
    shown = _owned_monthly(r) or (c.recommended_monthly if r.deployment_form != "hosted_api" else None)
    if shown is not None:
        assert (m.low, m.high) == pytest.approx((shown.low, shown.high), abs=0.01), path.stem
    assert c.cost_per_million_output_tokens.low == pytest.approx(m.low * 1e6 / out, rel=1e-3)
    assert c.cost_per_million_output_tokens.high == pytest.approx(m.high * 1e6 / out, rel=1e-3)
    assert c.cost_per_million_tokens.high == pytest.approx(m.high * 1e6 / (out * (1 + mix)), rel=1e-3)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_figure_at_the_months_volume_is_given_and_labelled_answered_or_estimated(path: Path):
    """Re-argued in s21-costbasis21: session 20 gave the month's own figure only where the answers gave the volume,
    and round 10's reviewers (q24, q25, q37, q42) read the capacity's figure at 40 % busy as the cost of a token
    while the memo's own estimate kept the setup about 1–2 % busy. The own-volume figure is now always given where
    the month has tokens, said "at your own volume" where answered and "at the estimated volume" where assumed."""
    r = scenario_plan(path)
    c = r.costs
    if c.per_million_basis is None:
        return
    answered = (c.volume_basis or {}).get("tr") in ANSWERED_VOLUMES
    assert c.cost_per_million_output_tokens_volume is not None, path.stem
    assert c.cost_per_million_output_tokens_volume.low == pytest.approx(
        c.per_million_monthly.low * 1e6 / c.output_tokens_per_month, rel=1e-3)
    assert c.per_million_basis["own_volume"]["answered"] == answered
    for lang in LANGS:
        row = _per_million_row(scenario_memo(path, lang), lang)
        if not row:
            continue
        said = ("at your own volume" if lang == "en" else "按你们自己给出的用量") in row
        estimated = ("at the estimated volume" if lang == "en" else "按估算的用量") in row
        # s31-permillion31 re-argued (blind review 20, q24: "'at the estimated volume' but computed on the 100M
        # busiest-hour floor"): an estimate raised to its busiest hour's floor is labelled with the floor it divides
        raised = bool((c.volume_basis or {}).get(FLOOR))
        # misc32 (re-argued, review 20b q08): raised to what the people send, the label names that cap instead
        capped = raised and bool(c.volume_basis[FLOOR].get("cap"))
        floor = (("at the people's most" if lang == "en" else "按这些人最多发出的量") if capped else
                 # s33-tokens33 (re-argued, review 21: "busiest-hour floor" / "最忙一小时下限" hard to follow): the
                 # floor is named in plain words, the month read from the peak
                 ("at the month read from the peak" if lang == "en" else "按高峰推算的用量")) in row
        # trim42/pg42 (blind review 32, q12/q22): a memo led by a hosted API, its setup little used, gives the one
        # figure comparable with the API's rates, at full load, labelled so with the share this volume keeps the GPUs
        # busy; the volume it reads (answered or estimated) is then said in the same table's "GPU use" row
        full_load = translate(lang, "trim42.per_million.full_load", busy="", input="", output="").split("（")[0]
        full_load = full_load.split("(")[0]
        if row.split(" | ")[1].startswith(full_load):
            led = r.deployment_form == "hosted_api" or office_token_rows.api_led_sold(r)
            assert led and per_million_costed.low_use(c), (path.stem, lang, row)
            assert usage_text(c, lang) in row and not (said or estimated or floor), (path.stem, lang, row)
            gpu_use = _row(scenario_memo(path, lang), lang, "GPU use", "GPU 使用率")
            volume = ("your month's tokens" if answered else "the month's estimated tokens") if lang == "en" else (
                "你们给出的每月 token 数" if answered else "每月估算的 token 数")
            assert volume in gpu_use, (path.stem, lang, gpu_use)
            continue
        assert (said, estimated, floor) == (answered, not answered and not raised, raised), (path.stem, lang, row)


def test_q36s_answered_requests_a_day_keep_their_own_figure_beside_the_capacitys(monkeypatch):
    # q36's memo leaves the row out since s33-rows34 (a free business service: office_token_rows.prices_tokens); the
    # wording an answered volume gets where tokens are priced is read with that rule set aside
    monkeypatch.setattr(office_token_rows, "prices_tokens", lambda result: True)
    r = scenario_plan(ADVICE_SCENARIOS / "q36_bursty_b2b_event_mainland.json")
    c = r.costs
    assert c.cost_per_million_output_tokens_volume is not None and c.per_million_basis is not None
    for lang in LANGS:
        row = _per_million_row(render_memo_markdown(r, lang), lang)  # rendered here: the session's copy has no row
        assert ("at your own volume" if lang == "en" else "按你们自己给出的用量") in row


def test_the_paid_api_margin_quotes_the_cost_tables_figures_on_the_capacity_basis():
    """q11 sells tokens: the margin finding's own cost per million is the memo's split. Re-argued in issue 25
    (usage25): it was said "at the setup's capacity and about 40 % utilisation", the share q11's month of tokens was
    itself estimated from (blind review 15: circular); it is now the figure at the month's own tokens, which the
    capacity's figure equals, with the share of the setup they fill, the cost table's "GPU use"."""
    r = scenario_plan(ADVICE_SCENARIOS / "q11_paid_api_b25.json")
    f = r.finding("cost.token_margin")
    assert f is not None and f.detail_key.endswith(".volume.detail")
    (in_lo, in_hi), (o_lo, o_hi) = per_million_split(r.costs)
    assert f.params["own_in"] == f"¥{round_money(in_lo)}–¥{round_money(in_hi)}"
    assert f.params["own_out"] == f"¥{round_money(o_lo)}–¥{round_money(o_hi)}"
    for lang in LANGS:
        assert usage_text(r.costs, lang) in f.detail_in(lang)
        assert "40 %" not in f.detail_in(lang)


def _volume_rate(c) -> float | None:
    rate = (c.volume_basis or {}).get("rate")
    return float(str(rate).replace(",", "")) if rate is not None else None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_throughput_the_memo_states_as_demand_is_served_by_the_planned_setup(path: Path):
    """Property (q14: 842 tokens/s of demand against 818 served): the line's stream and the month's "the peak's
    … tokens/s" never exceed the setup's stated throughput with every replica at its planned load."""
    r = scenario_plan(path)
    total = r.capacity.output_tokens_per_s_total
    if total is None or r.costs.per_job:
        return
    if r.line_cost is not None:
        assert r.line_cost.output_tokens_per_s <= total + 0.1, (path.stem, r.line_cost.output_tokens_per_s, total)
    rate = _volume_rate(r.costs)
    if rate is not None and not r.nodes:
        assert rate <= total + 1, (path.stem, rate, total)


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_q14s_users_draw_what_the_setup_serves_and_the_row_says_so():
    path = ADVICE_SCENARIOS / "q14_medical_followup_mainland.json"
    r = scenario_plan(path)
    assert r.line_cost is not None and r.line_cost.stream_simulated
    assert r.line_cost.output_tokens_per_s == pytest.approx(r.capacity.output_tokens_per_s_total, rel=1e-3)
    en = _row(scenario_memo(path, "en"), "en", "Output speed", "")
    # s34-rows36: the draw is the total, so the row says one figure (not 818 twice) and why each user gets less
    # than the median: the prediction's stream with the first token's wait in it, not the cautious figure
    assert "counting the wait for the first token" in en and "cautious" not in en
    assert en.count(f"{r.capacity.output_tokens_per_s_total:,.0f} tokens/s") == 1, en


def test_the_stream_takes_the_prediction_only_where_it_is_below_the_cautious_figure():
    from advisor.plan import answers_from_dict, peak_stream
    from advisor.plan.context import resolve

    a = advice_answers("q43_us_team_mainland_low_latency")
    r = planned(a)
    assert r.line_cost is not None and not r.line_cost.stream_simulated  # q43: the cautious figure is the lower
    assert r.line_cost.output_tokens_per_s < r.capacity.output_tokens_per_s_total
    c = resolve(answers_from_dict(a))

    class Cand:  # a setup only screened: no simulated level, the cautious figure alone
        tpot_p99_ms, per_replica, checked = 50.0, 10, {}

    assert peak_stream.peak_rate(c, Cand()) == pytest.approx(c.peak * 1000 / (50.0 / 1.25))


def _cost_row(text: str, lang: str) -> str:
    return _row(text, lang, "Cost |", "成本 |")


def test_a_total_says_plainly_that_it_leaves_out_an_unpriced_three_network_line(monkeypatch):
    """Was q43's Hong Kong node; s22-premium22 priced the Hong Kong three-network line (tests/core/
    test_premium22.py), so the unpriced case was q13's Singapore node: the source gives no CN2 GIA price there.
    lines38 (blind review 27) prices it at Hong Kong's row as a stand-in: the unpriced case is q13 without it."""
    r = no_stand_in(monkeypatch, advice_answers("q13_sg_sellers_pi_below_threshold"))
    c = r.costs
    assert r.line_cost is not None and r.line_cost.monthly is None  # no sourced per-Mbps price: unknown, not 0
    assert c.line_excluded and c.monthly_with_line is None
    en, zh = (_cost_row(render_memo_markdown(r, lang), lang) for lang in ("en", "zh_CN"))
    assert "this total leaves out the network line" in en and f"about {r.line_cost.mbps:,.0f} Mbps" in en
    assert "此合计不含三网优化" in zh
    assert r.finding("cost.line_bandwidth").detail_key.endswith(".excluded.detail")


def test_a_priced_line_is_added_to_page_ones_total_with_its_grade():
    path = ADVICE_SCENARIOS / "q14_medical_followup_mainland.json"
    r = scenario_plan(path)
    c, line = r.costs, r.line_cost
    assert line is not None and line.monthly is not None and c.monthly_with_line is not None
    assert c.monthly_with_line.low == pytest.approx(c.recommended_monthly.low + line.monthly.low, abs=0.01)
    assert c.monthly_with_line.high == pytest.approx(c.recommended_monthly.high + line.monthly.high, abs=0.01)
    for lang in LANGS:
        row = _cost_row(scenario_memo(path, lang), lang)
        total = f"{c.monthly_with_line.low:,.0f}–{c.monthly_with_line.high:,.0f}"
        assert total in row and f"{line.source.grade}" in row, (lang, row)
    assert r.finding("cost.line_bandwidth").detail_key.endswith(".in_total.detail")


def test_q43s_failover_budget_is_said_as_a_risk_with_its_figures():
    """q43: one replica down → the other at 30 requests, P99 TTFT ~101 ms, + 45 ms round trip = ~146 of 150 ms.
    Since s24-redund24 the plan adds the third L40S where the budget covers it (tests/core/test_redund24.py): here a
    3,000 USD budget covers two but not three, so the risk is said with its figures instead."""
    a = {**advice_answers("q43_us_team_mainland_low_latency"), "monthly_budget": {"amount": 3000, "currency": "USD"}}
    r = planned(a)
    f = r.finding("region.latency_budget")
    assert f is not None
    rtt_high = int(facts()["rtt_ms"]["hong_kong"]["high"])
    slo = r.latency_curve.slo_ttft_p99_ms
    down = next(p for p in r.latency_curve.points if p.concurrency == 30)  # the peak on the one replica left
    total = round(down.ttft_p99_ms + rtt_high)
    assert total >= (1 - failover_budget.MARGIN) * slo
    for lang in LANGS:
        text = f.detail_in(lang)
        assert f"{total}" in text and f"{round(down.ttft_p99_ms)}" in text, (lang, text)
    assert "Risk: with one replica down" in f.detail_in("en")


def test_a_roomy_latency_budget_carries_no_risk_clause():
    """Property in the other direction: the same offshore plan with a target far above its budget says no risk."""
    a = advice_answers("q43_us_team_mainland_low_latency")
    roomy = {**a, "latency_slo": {**(a.get("latency_slo") or {}), "ttft_p99_ms": 900}}
    f = planned(roomy).finding("region.latency_budget")
    assert f is None or not re.search(r"Risk:", f.detail_in("en"))
