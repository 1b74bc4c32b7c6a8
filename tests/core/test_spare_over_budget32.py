"""A rented plan's N+1 spare server the budget cannot carry: the plan without it is the recommendation, the spare the
named upgrade (s31-q10lead32; blind reviews 20 and 21, q10 sent back in both languages: "the one-server option should
be the recommendation, with the provider's written replacement time as the mitigation").

Both directions: q10 as answered (a consultancy's business clients, rented, no per-use charge; two servers within the
¥150,000 budget over 13 % of their range, one over 74 %) rents one server; with a per-use charge, a public audience,
or a budget that carries the two servers over most of their range, the two servers (N+1) stay.
"""

from __future__ import annotations

import pytest

from advisor.plan import budget_fit43, budget_share, spare_over_budget
from advisor.plan.line_total import judged_total
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan, only_finding

Q10 = "q10_128k_document_assistant"
UPGRADE = {"en": "**The upgrade: a second server as the spare (N+1).**", "zh_CN": "**升级选项：第二台服务器作备用（N+1）。**"}
ONE_SERVER = {"en": "**Or, within the budget: one server, without the spare.**",
              "zh_CN": "**或者，在预算之内：只用一台服务器，不留备用。**"}
REPLACEMENT = {"en": "get the provider's replacement time for a failed server in writing", "zh_CN": "书面承诺故障服务器的更换时限"}


def _page_one(memo: str) -> str:
    return memo.split("\n## 2")[0]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q10_rents_the_one_server_and_names_the_second_as_the_upgrade(lang: str) -> None:
    r = advice_plan(Q10)
    lay, c = r.hardware.layout, r.costs
    assert lay is not None and lay.units == 1 and lay.spare_units == 0 and r.hardware.total_gpus == 8
    # it carries the peak within the target on its own curve: 2 replicas at the most one takes, TTFT under 30 s
    assert r.hardware.replicas * r.capacity.max_concurrency_per_replica >= r.capacity.peak_concurrency
    assert r.capacity.ttft_p99_ms is not None and r.capacity.ttft_p99_ms <= 30_000 and r.feasible
    total = judged_total(c)
    assert total is not None and budget_share.part(total.low, total.high, c.budget_monthly) == "most"
    # the two servers, costed all month at the monthly price (one more server of the same kind), are the upgrade
    point = only_finding(r, "sizing.single_point")
    v = point.params["verdict"]
    assert v["tr"] in budget_fit43.UPGRADE and v["gpus"] == 16
    lo, hi = total.low + c.cloud_monthly.low, total.high + c.cloud_monthly.high  # a second server = this one again
    assert v["two"] == f"¥{lo:,.0f}–¥{hi:,.0f}" and v["pct"] == budget_share.percent(lo, hi, c.budget_monthly) < 50
    memo = render_memo_markdown(r, lang)
    page = _page_one(memo)
    assert UPGRADE[lang] in page and ONE_SERVER[lang] not in memo
    para = page[page.index(UPGRADE[lang]):].split("\n")[0]
    # blind review 34 (pb43): the quote the two servers fit the budget at, not the share of their range
    assert v["tr"] == "pb43.q10lead32.sp.upgrade" and f"{v['pct']} %" not in para
    for figure in (v["two"], v["fit_two"]["month"]):
        assert figure in para, (figure, para)
    # s32-headline33 (blind review 21): this plan's own share of the range now stands in its own paragraph beside the
    # lead, just above the upgrade's ("This plan, one server: … within it over 74 %"), no longer in brackets inside it
    one = page[page.index(("**This plan, one server:**", "**本方案（一台服务器）**")[lang != "en"]):].split("\n")[0]
    fit = budget_fit43.quote_at(c, total.low, total.high, c.budget_monthly)  # blind review 34: the quote, not a share
    assert fit is not None and fit["month"] in one and f"{budget_share.percent(total.low, total.high, c.budget_monthly)} %" not in one, one
    # the replacement time in writing: the first next step after the launch's gate (review 34: the contracts'
    # PIPL Art. 55 assessment, said first), on page 1
    first = next(s for s in r.next_steps if s.id != "waits")
    assert first.id == "replacement_time" and REPLACEMENT[lang] in first.text_in(lang)
    assert first.text_in(lang) in page
    # said once: section 7's single-point finding points to page 1 rather than repeating the upgrade's figures
    assert memo.count(v["two"]) == 1
    # no N+1 claimed for one server
    assert r.finding("sizing.redundancy") is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("change", [{"charges_users": True}, {"audience": "public"},
                                    {"monthly_budget": {"amount": 250_000, "currency": "CNY"}}],
                         ids=["per_use_charge", "public", "budget_carries_the_spare"])
def test_the_spare_stays_where_users_pay_the_public_uses_it_or_the_budget_carries_it(change, lang: str) -> None:
    r = advice_plan(Q10, **change)
    assert r.hardware.layout is not None and r.hardware.layout.units == 2 and r.hardware.total_gpus == 16
    assert r.next_steps[0].id != "replacement_time"
    point = r.finding("sizing.single_point")
    assert point is None
    assert UPGRADE[lang] not in render_memo_markdown(r, lang)


def test_an_owned_or_paid_plan_never_gives_its_spare_to_the_budget() -> None:
    """``applies`` on q10's own two-server setup: rented and business-facing it may; bought, paid per use or at
    classified protection level 3 it may not (the engine's other directions in the test above)."""
    from advisor.plan.answers import PlanAnswers
    from advisor.plan.context import resolve
    from tests.support.planned import advice_answers

    answers = advice_answers(Q10)
    c = resolve(PlanAnswers.model_validate(answers))

    class Lay:
        basis, regions, whole_server, units, spare_units, unit_gpus = "no_vm_source", 1, True, 2, 0, 8

    class Ch:
        layout = Lay()

    month = (124_000.0, 305_000.0)
    assert spare_over_budget.applies(c, Ch(), "cloud", "mainland", month)
    assert not spare_over_budget.applies(c, Ch(), "bare_metal", "mainland", month)  # bought: no provider replaces it
    assert not spare_over_budget.applies(c, Ch(), "cloud", "mainland", (100_000.0, 160_000.0))  # the budget carries it
    paid = resolve(PlanAnswers.model_validate({**answers, "charges_users": True}))
    assert not spare_over_budget.applies(paid, Ch(), "cloud", "mainland", month)
