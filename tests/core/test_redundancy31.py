"""A failed owned server covered by renting its cards only where the rented GPU is a sourced, generally sold offer
(blind review 20, q26 en: "The cover is renting 8 H20 on demand, a part whose cloud supply is limited and sold through
sales, so I would want a third server or written acceptance of degraded service"; zh: redundancy only half there).
The rule: ``advisor.plan.repair_cover``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.plan import own_like, repair_cover
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.page_one import page_one
from tests.support.planned import advice_answers, bought_now, only_finding

Q26 = "q26_steady_3y_strong_ops_buy"
LANGS = ("en", "zh_CN")
UNSURE = "plan.rule.sizing.redundancy.repair_unsure.title"
# the old wording that offered the rent as the cover: page 1's clause, and the N+1 finding's readiness advice
PAGE_ONE_COVER = {"en": "rented for its repair days", "zh_CN": "维修期间租用 8 张 GPU 补上"}
READY = {"en": "so the rented cards start within hours", "zh_CN": "使租来的卡能在几小时内启动"}
DEGRADED = {"en": "degraded service", "zh_CN": "服务降级"}


def _money_digits(x: float) -> str:
    return f"{round(x):,}"


@pytest.mark.parametrize("lang", LANGS)
def test_q26_prices_a_third_server_or_written_acceptance_not_the_rent(lang: str) -> None:
    # s31-ctb32: q26's purchase, as bought once a quote meets its covered gate (bought_now); s32-q26own: with the
    # rented side's replacement taken as sure (rent_sure), the asymmetric case these covers are for (q26's own
    # sales-only H20 is now weighed like for like: test_owncover33)
    r = bought_now(advice_answers(Q26), rent_sure=True)
    red = only_finding(r, "sizing.redundancy")
    assert red.title_key == UNSURE
    lay = r.hardware.layout
    detail = render(lang, red.detail_key, red.params)
    # a third server priced on the plan's own purchase rows: the purchase a server, low and high
    capex = r.costs.bare_metal_capex
    for end in (capex.low, capex.high):
        assert _money_digits(end / lay.units) in detail, detail
    # what it brings: with one of the three down, the other servers' replicas against those the peak needs
    per_server = lay.unit_gpus // r.hardware.tp
    assert red.params["left_more"] == lay.units * per_server >= red.params["need"]
    assert red.params["left"] < red.params["need"]  # one server down today leaves the peak short
    # the repair time is an assumption and is said to be one (the repair file's own range)
    days = own_like.repair_facts()["repair_days"]
    assert days["grade"] == "U" and f"{days['low']}–{days['high']}" in detail
    # why the rent is no cover: the H20's mainland rent is a placeholder and its supply unsure
    assert red.params["doubt"]["tr"] == "redundancy31.doubt.both"
    memo = memo_document(r, lang).markdown()
    assert READY[lang] not in memo
    head = page_one(memo)
    assert PAGE_ONE_COVER[lang] not in head and DEGRADED[lang] in head  # page 1 no longer offers the rent as cover


def test_the_dearer_clause_follows_the_plans_own_figures() -> None:
    # a third server's month added to owning's, against renting's middle: said only where it tips owning over
    # s31-ctb32: q26's purchase, as bought once a quote meets its covered gate (bought_now); s32-q26own: with the
    # rented side's replacement taken as sure (rent_sure), the asymmetric case these covers are for (q26's own
    # sales-only H20 is now weighed like for like: test_owncover33)
    r = bought_now(advice_answers(Q26), rent_sure=True)
    like = r.costs.own_like
    red = only_finding(r, "sizing.redundancy")
    dearer = like["month_mid"] + like["other_month"] >= like["rent_mid"]
    assert bool(red.params["dearer"]) == dearer
    head = page_one(memo_document(r, "en").markdown())
    assert ("third server makes owning dearer than renting" in head) == dearer


def _facts(gpu: str, region: str, rows: list[SimpleNamespace]) -> SimpleNamespace:
    return SimpleNamespace(region=region, cost=SimpleNamespace(costs=SimpleNamespace(prices=rows)))


def _row(gpu: str, grade: str, kind: str = "on_demand", quote: bool = False) -> SimpleNamespace:
    return SimpleNamespace(gpu=gpu, kind=kind, grade=grade, user_quote=quote)


@pytest.mark.parametrize(("gpu", "region", "rows", "doubt"), [
    ("l40s-48g", "overseas", [_row("l40s-48g", "B")], None),  # a sourced offer sold generally: the rent covers
    ("l40s-48g", "overseas", [_row("l40s-48g", "U")], "price"),  # a placeholder rent
    ("l40s-48g", "overseas", [_row("l40s-48g", "U", quote=True)], None),  # the user's own quote is sourced
    ("l40s-48g", "overseas", [_row("l40s-48g", "B", kind="capex")], "price"),  # a purchase row rents nothing
    ("h20-96g", "mainland", [_row("h20-96g", "B")], "supply"),  # export-sensitive, sold through sales
    ("h20-96g", "mainland", [_row("h20-96g", "U")], "both"),
])
def test_why_the_rent_is_unsure(gpu: str, region: str, rows: list, doubt: str | None) -> None:
    ch = SimpleNamespace(gpu=SimpleNamespace(id=gpu))
    assert repair_cover._doubt(_facts(gpu, region, rows), ch) == doubt


def test_no_doubt_without_a_rented_cover() -> None:
    # a plan that keeps a spare server or buys nothing has no rented cover to doubt
    f = SimpleNamespace(chosen=None, cost=None)
    assert repair_cover.unsure(f, None) is None
