"""One cost per million tokens a memo can trust (s31-permillion31, issue 25, blind review 20).

q24: "the per-token row says 18.9–51.1 USD 'at the estimated volume' but is computed on the 100M busiest-hour
floor, while the busiest-hour row gives 43–116 USD 'at the estimate'"; q12 "875–1,246 CNY per million conflicts with
the next row's 433–617"; q03/q10/q13: a figure at 1-5 % use "will alarm a reader without context". Each memo's cost
table states one per-million figure, its label names the month it divides (the busiest-hour floor or the estimate)
with the monthly cost and tokens it multiplies out from, and a little-used setup says why the figure is high beside
its full-load figure and a priced hosted API's rates.
"""

from __future__ import annotations

import os
import re

import pytest

from advisor.i18n import translate
from advisor.plan import office_token_rows, per_million_costed
from advisor.plan.memo import PER_MILLION_ROWS, render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.volume_low_end import FLOOR
from tests.support.planned import advice_plan, peak_read_plan

LANGS = ("en", "zh_CN")
# q12 and q24 raised to their busiest hour's floor, q13/q22 costed on the estimate, all little used (q03 and q10
# were here: s33-rows34 leaves the row out of services whose tokens no one prices, office_token_rows.prices_tokens)
REVIEWED = ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q22_hk_company_telecom_only",
            "q24_us_saas_rent")
PER_MILLION_WORDS = {"en": re.compile(r"per million"), "zh_CN": re.compile(r"每百万")}
NUM = r"([\d,]+(?:\.\d+)?)"
RANGE = rf"{NUM}(?:–{NUM})? (?:USD|CNY)"


@pytest.fixture(autouse=True)
def _row_printed(monkeypatch):
    """The row as a service whose tokens are priced at any use prints it (an API: office_token_rows.prices_tokens).
    s36-rowtrim (blind review 27, q12/q13/q43: "misleading at 2-9 % use") leaves it out of these little-used
    services sold by use; its wording, checked here, is still what such an API's memo says."""
    monkeypatch.setattr(office_token_rows, "prices_tokens", lambda result: True)
    # trim42 (blind review 32, q12/q22): a memo led by a hosted API gives the full-load figure alone
    # (tests/core/test_trim42.py); the wording checked here is the one a memo of the rented setup itself prints
    monkeypatch.setattr(office_token_rows, "api_led_sold", lambda result: False)


WORDS = {"en": {"input": "input", "output": "output", "prefill": "prefill", "decode": "decode"},
         "zh_CN": {"input": "输入", "output": "输出", "prefill": "预填充", "decode": "解码"}}


def _table_rows(memo: str) -> list[tuple[str, str]]:
    rows = []
    for line in memo.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 2:
            rows.append((cells[0], cells[1]))
    return rows


def _per_million_row(memo: str, lang: str) -> str:
    labels = {translate(lang, k) for k in PER_MILLION_ROWS}
    [value] = [v for label, v in _table_rows(memo) if label in labels]
    return value


def _num(s: str) -> float:
    return float(s.replace(",", ""))


def _range_after(text: str, word: str) -> tuple[float, float]:
    m = re.search(re.escape(word) + " " + RANGE, text)
    assert m, (word, text)
    return _num(m.group(1)), _num(m.group(2) or m.group(1))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", REVIEWED)
def test_one_per_million_figure_in_the_cost_table(name, lang):
    """The per-million row is the table's only per-million statement on the plan's own cost: the busiest-hour floor
    row and the tokens row price no token at another volume (the hosted API's own row prices its list rates)."""
    memo = render_memo_markdown(advice_plan(name), lang)
    labels = {translate(lang, k) for k in PER_MILLION_ROWS}
    hosted = {translate(lang, k) for k in ("memo.cost.hosted_monthly", "memo.cost.hosted_job")}
    rows = _table_rows(memo)
    assert sum(label in labels for label, _ in rows) == 1
    others = [label for label, v in rows if label not in labels | hosted and PER_MILLION_WORDS[lang].search(v)]
    assert others == []


def _head(row: str, lang: str) -> str:
    """The row up to its first figure per million: the label naming the month."""
    return row.split(WORDS[lang]["input"] + " ")[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", REVIEWED)
def test_the_label_names_the_month_the_figure_divides(name, lang):
    """The costed month's tokens are printed in the label, and a month raised to its busiest-hour floor is called
    that, an estimate never (q24: "'at the estimated volume' but computed on the 100M busiest-hour floor")."""
    # q24 at a peak of 45 (``planned.PEAK_READ``): at 50 its month is held to the people's most on its FP8 cache
    r = peak_read_plan(name)
    row = _per_million_row(render_memo_markdown(r, lang), lang)
    head = _head(row, lang)
    c = r.costs
    assert f"{round_money(c.input_tokens_per_month)} / {round_money(c.output_tokens_per_month)}" in head
    # s33-tokens33 (re-argued, review 21: "busiest-hour floor" / "最忙一小时下限" hard to follow): said in plain words
    floor_word = {"en": "month read from the peak", "zh_CN": "按高峰推算的用量"}[lang]
    raised = bool((c.volume_basis or {}).get(FLOOR))
    assert (floor_word in head) == raised
    estimate_label = translate(lang, "permillion31.per_million.estimated").split(" (")[0].split("（")[0]
    assert (estimate_label in head) == (not raised)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", REVIEWED)
def test_the_printed_figure_multiplies_out_from_the_printed_month_and_tokens(name, lang):
    """input = monthly × prefill share ÷ input tokens, output = monthly × decode share ÷ output tokens, from the
    figures the row itself prints (to their rounding: three significant figures and a whole-percent share)."""
    r = advice_plan(name)
    row = _per_million_row(render_memo_markdown(r, lang), lang)
    w = WORDS[lang]
    monthly = re.search(RANGE, row)
    assert monthly
    m_lo, m_hi = _num(monthly.group(1)), _num(monthly.group(2) or monthly.group(1))
    tokens = re.search(r"([\d,]{5,}) / ([\d,]{5,})", row)
    assert tokens
    tin, tout = _num(tokens.group(1)), _num(tokens.group(2))
    shares = {k: float(re.search(re.escape(w[k]) + r" (\d+) %", row).group(1)) for k in ("prefill", "decode")}
    for side, share, tok in (("input", shares["prefill"], tin), ("output", shares["decode"], tout)):
        lo, hi = _range_after(row, w[side])
        tol = 0.5 / share + 0.006  # the share printed to a whole percent, the figure to three significant figures
        assert lo == pytest.approx(m_lo * share / 100 / tok * 1e6, rel=tol), side
        assert hi == pytest.approx(m_hi * share / 100 / tok * 1e6, rel=tol), side


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", REVIEWED)
def test_low_use_says_why_beside_full_load_and_the_api(name, lang):
    """Under LOW_USE the row says in plain words that the figure is the month's cost over few tokens, with the
    full-load figure and, where a hosted API is priced, its rates, after the figure itself."""
    r = advice_plan(name)
    c = r.costs
    row = _per_million_row(render_memo_markdown(r, lang), lang)
    assert per_million_costed.low_use(c)  # the premise: all five reviewed memos are 1-5 % used
    # the idle words, alone or joined by the per-person assumption they rest on (their common opening)
    idle = os.path.commonprefix([translate(lang, "permillion31.per_million.idle", busy="\0"),
                                 translate(lang, "permillion31.per_million.idle_per_person", busy="\0", per="")])
    idle = idle.split("\0")[0]
    assert len(idle) > 5
    full = translate(lang, "usage25.per_million.full", input="", output="").split("：")[0].split(":")[0]
    assert idle in row and full in row
    assert row.index(idle) < row.index(full)
    api = translate(lang, "permillion31.per_million.hosted", input="", output="").split(" ")[0:3]
    priced = c.hosted_api_input_per_million is not None and c.hosted_api_output_per_million is not None
    assert (" ".join(api) in row) == priced


def test_a_busy_setup_is_not_called_idle():
    """A setup used above LOW_USE keeps its figure without the idle words (q24 with twenty times the requests)."""
    r = advice_plan("q24_us_saas_rent", requests_per_day=400_000)
    assert not per_million_costed.low_use(r.costs)  # the premise: twenty times the requests keep it busy
    row = _per_million_row(render_memo_markdown(r, "en"), "en")
    assert translate("en", "permillion31.per_million.idle", busy="\0").split("\0")[0] not in row
