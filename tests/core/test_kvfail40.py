"""Blind review 30 (issue #25): where a replica's KV cache at the full context holds materially fewer requests than it
carries with one replica down, page 1 says it as a condition of the plan with its fix: the quote step where the plan
has one (q42), else the remedies section 2 names, to be shown in a pressure test before committing (q35). Figures are
read from the plan's own records."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import kv_condition40
from advisor.plan.memo import render_memo_markdown
from advisor.plan.quote_first39 import MATERIAL_SHORTFALL, STEP_ID
from tests.support.planned import advice_plan

Q35, Q42 = "q35_deepseek_v3_h20_internal", "q42_china_market_gpus_mainland"
LANGS = ["en", "zh_CN"]


CUT = "\x00"


def _before(text: str) -> str:
    """``text`` up to the parameter filled with CUT."""
    return text.split(CUT)[0]


def _page1(md: str) -> str:
    head = "\n## 2." if "\n## 2." in md else "\n## 二、"
    return md.split(head, 1)[0]


def _condition_line(r, lang: str) -> str:
    fit = r.capacity.kv_fit
    load = fit.failover_per_replica
    assert fit.load_over_full and load and kv_condition40.material(fit, load)
    head = kv_condition40.head(fit, load, True, lang)
    return next(x for x in _page1(render_memo_markdown(r, lang)).splitlines() if head in x)


def test_material_is_the_quote_steps_own_share():
    fit = advice_plan(Q35).capacity.kv_fit
    at = fit.at_full
    short = int(at / (1 - MATERIAL_SHORTFALL)) + 1  # the cache holds under 90 % of it
    assert kv_condition40.material(fit, short)
    assert not kv_condition40.material(fit, at)  # the cache holds it all
    assert not kv_condition40.material(fit, 0)


@pytest.mark.parametrize("lang", LANGS)
def test_with_the_quote_step_in_the_plan_the_condition_points_to_it(lang):
    # a budget that carries the four L20s but not a fifth (s40-kvp42: within it, the fifth is the plan and no
    # condition is left): the shortfall stays, and the quote step is its fix
    r = advice_plan(Q42, monthly_budget={"amount": 45000, "currency": "CNY"})
    n = next(i + 1 for i, s in enumerate(r.next_steps) if s.id == STEP_ID)
    line = _condition_line(r, lang)
    assert translate(lang, "kvfail40_fix.quote", n=n, gpu=r.gpu_choice.quote_switch["gpu"]) in line
    assert _before(translate(lang, "kvfit33.remedies", items=CUT)) not in line  # the step, not a remedy list
    risk = translate(lang, "ownedcost37_kv.down", gib=CUT, dtype="", full_fit="", context="", load="")
    assert _before(risk) not in line  # said once, as the condition


@pytest.mark.parametrize("lang", LANGS)
def test_without_a_quote_step_the_condition_points_to_the_go_no_go_step(lang):
    # s40-kvfail42 (review 32, q35: "a concrete ask ... as a gate, not a footnote"): the remedies are the numbered
    # gate's (kv_replicas42), which page 1 names with the load to be shown at the full context
    from advisor.plan import kv_replicas42

    r = advice_plan(Q35)
    assert not any(s.id == STEP_ID for s in r.next_steps)
    fit = r.capacity.kv_fit
    line = _condition_line(r, lang)
    n = kv_replicas42.number(r)
    assert n is not None
    assert translate(lang, "kvfail42.fix.gate", n=n, was=f"{fit.failover_per_replica:,}") in line
    assert line.count(f"{fit.at_full:,}") >= 1 and "141" not in line  # a part the catalog has no row for: unnamed
