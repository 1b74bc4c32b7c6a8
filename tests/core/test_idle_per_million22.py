"""Cost per million tokens where the memo's own volume keeps the setup idle (blind review 12: q03's "output
784–1,120 CNY per million at 2 % busy", q24, q34 read as filler). Taken from s22-uplift22c (its uplift split stays
on its branch: 20 tests that pin budgets and break-evens moved with the lower rent and were not re-argued in time)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import office_token_rows
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_per_million import IDLE_BUSY
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")
# s33-rows34: q03 (a hospital's staff tool) and q37 (a free public app) print no per-million row any more (no one
# prices their tokens, office_token_rows.prices_tokens): the idle and the busy row are read on q13 (a service sold to
# businesses, little used) and q11 (a paid API)
Q03 = ADVICE_SCENARIOS / "q13_sg_sellers_pi_below_threshold.json"
Q37 = ADVICE_SCENARIOS / "q11_paid_api_b25.json"
# s37-owner: q13 leads with a hosted API, so its row is the self-hosted fallback's ("自建时每百万 token 成本")
PER_MILLION = {"en": ("| Cost per million tokens",), "zh_CN": ("| 每百万 token 成本", "| 自建时每百万 token 成本")}


def _labels(lang: str) -> tuple[str, ...]:
    return PER_MILLION[lang]


def _row(text: str, labels: tuple[str, ...]) -> str:
    return next((line for line in text.splitlines() if line.startswith(labels)), "")

@pytest.mark.parametrize("lang", LANGS)
def test_an_idle_setup_says_its_month_not_a_per_million_figure_at_its_volume(lang, monkeypatch):
    """q03's volume keeps the setup about 2 % busy (under IDLE_BUSY): the row is one line, the month whatever the
    tokens and the figure at the assumed share; the figure at the volume (784–1,120 CNY in round 12) is not shown.

    Re-argued in issue 25 (usage25): "the figure at the assumed share" was the 40 % of the load pattern beside a
    volume that fills 2 %, which blind review 15 read as a contradiction (q01, q24: "refuses a figure at that
    volume"). A plan whose usage is its own month of tokens gives the figure at that volume first and the figure at
    full use as a labelled floor (tests/core/test_usage25.py, test_costbasis21.py); this branch is kept for a
    result whose usage is assumed (saved before), and checked here only where it applies."""
    r = scenario_plan(Q03)
    # s36-rowtrim (blind review 27, q13: "'output 56.1–79.9 USD' per million at 1–9 % use is misleading"): q13's memo
    # prints no row any more; the row read here is the one an API at that use prints (office_token_rows.prices_tokens)
    monkeypatch.setattr(office_token_rows, "prices_tokens", lambda result: True)
    # trim42: not as the row of a memo led by a hosted API, which gives the full-load figure (test_trim42.py)
    monkeypatch.setattr(office_token_rows, "api_led_sold", lambda result: False)
    if r.costs.usage_from_tokens:
        row = _row(render_memo_markdown(r, lang), _labels(lang))
        own = r.costs.per_million_basis["own_volume"]
        assert money_range(MoneyRange(**own["output"]), r.costs.currency) in row, row
        return
    own = r.costs.per_million_basis["own_volume"]
    assert own["busy"] < IDLE_BUSY
    row = _row(render_memo_markdown(r, lang), _labels(lang))
    head = translate(lang, "lead22.per_million.idle_estimated", busy="\0", util="\0", value="\0").split("\0")[0]
    assert row.split("|")[2].strip().startswith(head), row
    basis = r.costs.per_million_basis
    assert money_range(MoneyRange(**own["output"]), r.costs.currency) not in row  # the idle hours' figure
    assert money_range(MoneyRange(**basis["output"]), r.costs.currency) in row, row  # the assumed share's
    assert f"{r.costs.utilisation * 100:.0f} %" in row


@pytest.mark.parametrize("lang", LANGS)
def test_a_busy_enough_setup_keeps_its_figure_at_its_own_volume(lang):
    """q37 (a public app about 21 % busy at its volume): the figure at the volume stays, first, as before."""
    r = scenario_plan(Q37)
    own = r.costs.per_million_basis["own_volume"]
    assert own["busy"] >= IDLE_BUSY
    row = _row(scenario_memo(Q37, lang), _labels(lang))
    head = translate(lang, "lead22.per_million.idle_estimated", busy="\0", util="\0", value="\0").split("\0")[0]
    assert row and head not in row
    assert money_range(MoneyRange(**own["output"]), r.costs.currency) in row, row
