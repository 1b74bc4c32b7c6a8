"""Blind review 26 (q26): page 1's set-aside line and the finding weighing the same hosted API read one judgement.

Page 1 said "the two cost about the same" beside the finding's "a hosted API is likely cheaper ... at their middles,
¥71,686 against ¥101,696". Property over every advice scenario, in both languages: where the set-aside line says the
team's running of the service as a trade (``api_plain``), its clause is the one for the finding's own verdict
(the variant its title was chosen by), and its words say what the finding's title says.
"""

from __future__ import annotations

import pytest

from advisor.plan import api_plain, set_aside
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned

LANGS = ("en", "zh_CN")
SCENARIOS = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
# the finding's verdict, read from the title it was given (``hosted_weigh.cost_hosted_weighed``)
# ac43 (review 35, q26): "busy", the finding said on the measured load where page 1 reads it there
VARIANTS = ("tie", "volume", "ends", "far", "overlap", api_plain.BUSY)
# what each clause says, in each language (the finding's own wording for its verdict)
WORDS = {
    f"{api_plain.KEY}.same": {"en": "about the same", "zh_CN": "相差不多"},
    api_plain.LIKELY_KEY: {"en": "likely the cheaper", "zh_CN": "很可能更便宜"},
    # api43 (review 34, q26: "likely cheaper" then "no less" at 80 %): one verdict, the measured load's, the
    # estimated volume's month beside it
    api_plain.BUSY_KEY: {"en": "no less than this plan's", "zh_CN": "API 并不更便宜"},
    api_plain.OVERLAP_KEY: {"en": "depends on the prices you get", "zh_CN": "取决于你们拿到的报价"},
    f"{api_plain.KEY}.gap": {"en": "the API is the cheaper move", "zh_CN": "改用 API 更省钱"},
}
# a title's words that must never stand beside a page-1 "about the same"
NOT_SAME = {"en": ("likely cheaper", "could cost less"), "zh_CN": ()}


def _variant(title_key: str) -> str:
    return next((v for v in VARIANTS if f".hosted_weighed.{v}." in title_key), "clear")


def _plained(name: str):
    r = planned(advice_answers(name))
    f = r.finding("cost.hosted_weighed")
    if f is None or not isinstance(f.params.get("plain"), dict):
        return r, None
    return r, f


@pytest.mark.parametrize("name", SCENARIOS)
def test_page_one_and_the_finding_read_the_same_verdict(name):
    r, f = _plained(name)
    if f is None:
        return
    key = f.params["plain"]["tr"]
    verdict = api_plain.clause_key(_variant(f.title_key))
    # a busy steady load measured for years: both say the API's month at that reading (review 28; ac43, review 35)
    assert key == verdict, (name, key, f.title_key)
    for lang in LANGS:
        line = set_aside.text(r.findings, lang, markdown=True)
        memo = render_memo_markdown(r, lang)
        assert line and line in memo.split("\n## ")[1], (name, lang)
        assert WORDS[key][lang] in line, (name, lang, line)
        if key == f"{api_plain.KEY}.same":
            assert not any(w in memo for w in NOT_SAME[lang]), (name, lang)


def test_q26_is_no_cheaper_at_the_measured_load_on_both_pages():
    """The scenario the reviews read: the ranges meet only at their ends on the estimated volume, but its measured 80 %,
    steady for 36 months, puts the API's month at that reading (blind review 28) no lower than the plan's: page 1 and
    the finding's title both say that one verdict (ac43, blind review 35: section 7 said "likely cheaper")."""
    r, f = _plained("q26_steady_3y_strong_ops_buy")
    assert f is not None and _variant(f.title_key) == api_plain.BUSY
    assert f.params["plain"]["tr"] == api_plain.BUSY_KEY
    line = set_aside.text(r.findings, "en")
    # the estimated volume's month said, its verdict the measured load's alone (api43, blind review 34)
    assert "about the same" not in line and "likely the cheaper" not in line
    assert f"{r.costs.hosted_api_monthly.low:,.0f}" in line and "no less than" in line


def test_some_scenario_has_the_line():
    assert any(_plained(n)[1] is not None for n in SCENARIOS)
