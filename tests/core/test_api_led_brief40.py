"""An API-led memo says its self-hosted fallback briefly (blind review 29, s38-shape: q13 grew to 6 pages)."""

from __future__ import annotations

import re

import pytest

from advisor.plan import api_led_brief40, memo_self_host_rows
from advisor.plan.memo import render_memo_markdown
from advisor.plan.peak_reserve_rules import RULE
from advisor.plan.result import render
from tests.support.planned import advice_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")
NAME = "q13_sg_sellers_pi_below_threshold"


def _bare(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_fallback_binding_keeps_its_limit_and_drops_what_would_lift_it(lang):
    r = advice_plan(NAME)
    assert memo_self_host_rows.api_leads(r)
    b = r.binding_constraint
    beyond = [p for p in b.then if p.get("tr") in api_led_brief40.BEYOND_THE_LIMIT]
    assert beyond  # the plan (--json, the app) keeps them
    memo = _bare(render_memo_markdown(r, lang))
    assert _bare(api_led_brief40.binding_text(r, lang)) in memo
    for p in beyond:
        assert _bare(render(lang, p["tr"], {k: v for k, v in p.items() if k != "tr"})) not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_reserve_finding_is_left_to_the_cost_row(lang):
    r = advice_plan(NAME)
    got = r.finding(RULE)
    assert got is not None and got.params.get("reserved")
    memo = render_memo_markdown(r, lang)
    assert _bare(got.title_in(lang)) not in _bare(memo)
    # page 1's cost row says every GPU is reserved, and why (its one basis: s40-pages, ``api_cost_brief42``)
    said = render(lang, "pg42.basis.peak", {"gpus": r.costs.gpus})
    assert _bare(said) in _bare(memo)


@pytest.mark.parametrize("lang", LANGS)
def test_the_gpu_paragraph_is_its_opening_sentence(lang):
    r = advice_plan(NAME)
    opening = api_led_brief40.gpu_why(r, lang)
    assert opening and _bare(opening) in _bare(render_memo_markdown(r, lang))
    assert len(opening) < len(r.gpu_choice.text_in(lang))


def test_a_self_hosted_lead_keeps_them():
    r = advice_plan("q01_office_lan_capex_contracts")
    assert not memo_self_host_rows.api_leads(r)
    assert api_led_brief40.gpu_why(r, "en") == ""
    if r.binding_constraint is not None:
        assert api_led_brief40.binding_text(r, "en") == r.binding_constraint.text_in("en")
