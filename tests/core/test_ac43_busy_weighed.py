"""ac43 (blind review 35, q26): the finding weighing a hosted API says page 1's verdict on page 1's basis.

Page 1 read the API's month at the measured 80 % utilisation ("¥97,233–¥139,712, no less than this plan"), while the
section 7 finding's title said "a hosted API is likely cheaper (¥58,835–¥84,538 …)" and its detail "模型 API 服务很可能
更便宜". Where page 1's set-aside line reads the measured load (``api_plain.BUSY_KEY``), the finding's title and detail
now give that month as the verdict, the estimated volume's month beside it, and say which one decides. Property over
every advice scenario, in both languages, through the engine.
"""

from __future__ import annotations

import pytest

from advisor.plan import api_plain, set_aside
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

LANGS = ("en", "zh_CN")
SCENARIOS = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
Q26 = "q26_steady_3y_strong_ops_buy"
# the words of a "likely cheaper" verdict, which must not stand in the finding beside page 1's "no less"
LIKELY = {"en": ("likely cheaper", "likely the cheaper"), "zh_CN": ("很可能更便宜",)}
NO_LESS = {"en": "no cheaper", "zh_CN": "并不更便宜"}
DECIDES = {"en": "The measured load decides", "zh_CN": "以实测负载为准"}


def _weighed(name: str):
    r = planned(advice_answers(name))
    return r, r.finding("cost.hosted_weighed")


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_finding_reads_the_measured_load_where_page_one_does(name):
    r, f = _weighed(name)
    if f is None:
        return
    plain = f.params.get("plain")
    busy = isinstance(plain, dict) and plain.get("tr") == api_plain.BUSY_KEY
    assert (f.title_key == api_plain.BUSY_TITLE) == busy, (name, f.title_key)
    if not busy:
        return
    for lang in LANGS:
        title, detail = f.title_in(lang), f.detail_in(lang)
        assert str(plain["busy"]) in title and NO_LESS[lang] in title, (name, lang, title)
        assert DECIDES[lang] in detail, (name, lang, detail)
        assert not any(w in title + detail for w in LIKELY[lang]), (name, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q26_says_one_verdict_on_page_one_and_in_section_seven(lang):
    r, f = _weighed(Q26)
    assert f is not None and f.title_key == api_plain.BUSY_TITLE
    memo = render_memo_markdown(r, lang)
    assert set_aside.text(r.findings, lang, markdown=True) in memo
    title = f.title_in(lang)
    # both months in the title: the measured load's first, as the verdict, the estimated volume's after it
    busy, low = str(f.params["plain"]["busy"]), f"¥{r.costs.hosted_api_monthly.low:,.0f}"
    assert busy in title and low in title and title.index(busy) < title.index(low), title
    assert not any(w in memo for w in LIKELY[lang]), lang  # nowhere in the memo (page 1 or section 7)
    assert "None" not in title + f.detail_in(lang)
