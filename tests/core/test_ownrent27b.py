"""Page 1 says one thing where the plan's own middle favours renting (s27-ownrent27b; blind review 17 sent q26/q31
back in both languages: "a reader cannot tell whether the advice is buy 2, buy 3 or rent" — the headline rented or
bought 2 servers while the hardware, cost, launch and feasible rows described buying 3).

The headline leads with renting at today's figures and states the purchase as the condition; every page-1 row that
describes the purchase says so, step 1 orders on the same threshold only, and no second purchase branch is named.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import rent_first27
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.page_one import next_step_line, page_one
from tests.support.planned import advice_plan, only_finding

Q26, Q31 = "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"
LANGS = ("en", "zh_CN")
RECOMMENDATION = {"en": "**Recommendation**:", "zh_CN": "**建议**："}


def _row(page: str, label: str) -> str:
    return next(line for line in page.splitlines() if line.startswith(f"| {label} |")).split(" | ", 1)[1]


@pytest.mark.parametrize("name", [Q26, Q31])
@pytest.mark.parametrize("lang", LANGS)
def test_page_one_rows_follow_the_headlines_branch(name: str, lang: str) -> None:
    r = advice_plan(name)
    assert r.deployment_form == "bare_metal" and rent_first27.applies(r)  # the bench's form is kept
    f = only_finding(r, "cost.buy")
    threshold, rent = f.params["threshold"]["max_purchase"], f.params["cloud"]
    memo = memo_document(r, lang).markdown()
    page = page_one(memo)
    head = next(line for line in page.splitlines() if line.startswith(RECOMMENDATION[lang]))
    # the headline leads with what to do at today's figures (rent, its month), the purchase after it as the condition
    assert rent in head and threshold in head and head.index(rent) < head.index(threshold), head
    # one purchase branch: not the spare-less servers (blind review 17: "buy 2, buy 3 or rent")
    spare_less = [v for v in (f.params["lean"].get("lean_max"), f.params["lean"].get("day")) if v]
    assert not any(v in page for v in spare_less), head
    bought = translate(lang, "ownrent27b.key.if_bought", value="")
    for key in ("memo.key.hardware", "memo.key.cost", "memo.key.launch"):  # the rows that describe the purchase
        assert _row(page, translate(lang, key)).startswith(bought), key
    feasible = _row(page, translate(lang, "memo.key.feasible"))
    assert translate(lang, "ownrent27b.key.feasible_either") in feasible  # "yes" is not a yes to buying alone
    step = next_step_line(memo, 1, lang)
    assert threshold in step and not any(v in step for v in spare_less), step  # step 1 orders on the headline's threshold


@pytest.mark.parametrize("lang", LANGS)
def test_whole_server_title_does_not_say_the_cloud_rents_whole_servers(lang: str) -> None:
    # q26 rents 2-card instances: the title said "只能按整台 8 卡服务器购买或租用" (blind review 17)
    r = advice_plan(Q26)
    f = only_finding(r, "gpu.whole_servers")
    title = render(lang, f.title_key, f.params)
    assert "租用" not in title and "rent" not in title.lower(), title


def test_rows_unmarked_where_owning_is_not_conditional() -> None:
    # a plan whose middle does not favour renting keeps its rows as they were: the mark follows the finding
    r = advice_plan(Q31, expected_duration_months=120)
    if rent_first27.applies(r):
        pytest.skip("renting still cheaper at the middle over this horizon")
    page = page_one(memo_document(r, "en").markdown())
    assert "If bought:" not in page and "rented or bought" not in page


@pytest.mark.parametrize("lang", LANGS)
def test_comparison_sentence_says_why_the_precisions_differ(lang: str) -> None:
    # q26 rents in fp8 (accepted) while the servers bought keep bf16: the own-or-rent sentence says so rather than
    # comparing the two silently (blind review 17: "mixes fp8 TP2 (rent) with bf16 TP2 (buy)")
    r = advice_plan(Q26)
    sized = r.costs.rent_sized
    assert sized["weights"] != sized["bought_weights"]
    f = only_finding(r, "cost.buy")
    text = render(lang, f.detail_key, f.params)
    assert sized["bought_weights"] in text and sized["weights"] in text, text
    same = only_finding(advice_plan(Q31), "cost.buy")  # one precision both ways: nothing to explain
    assert "bf16" not in render(lang, same.detail_key, same.params)
