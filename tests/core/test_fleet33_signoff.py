"""The spare replica on busy cards of the team's own fleet, taken into the plan on its owners' sign-off
(s33-fleet33, ``fleet.signoff_spares``; blind review 21).

q04 en: "The headline plan has no spare ... 'one server down leaves 1 of 3 replicas'. Since the fleet has the 4th
group, the 4-replica/16-card layout should be the headline, not an add-on. Option (3), buying an 8-GPU H20 server
... does not belong in a memo whose fleet suffices; remove it. The plan to move 30 % of the load onto the L20s is
plausible but needs the owners' sign-off." q08 zh: "losing one server leaves 1 of 3 replicas (15 of 30 users). I
would make the 4th replica the recommendation, since the cards are 'mostly idle'."
"""

from __future__ import annotations

import re

import pytest

from advisor.plan.fleet import free_gpus
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan, only_finding, planned

LANGS = ("en", "zh_CN")
Q04, Q08, Q18 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q18_us_fleet_32_h100"
SIGNOFF = ".idle_signoff.title"


def _signoff(r):
    return next((f for f in r.findings if f.title_key.endswith(SIGNOFF)), None)


def _row(md: str, *labels: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


@pytest.mark.parametrize("name", [Q04])
def test_the_fourth_replica_is_in_the_plan_on_every_card_and_nothing_is_bought(name):
    # re-argued in s34-fleet36 (blind review 25, q08: "make three replicas on the 12 idle cards the default and the
    # fourth conditional"): where only the spare would take busy cards the plan stays on the free cards
    # (tests/core/test_fleet36_free_default.py); q04's load itself takes a busy card, so its sign-off spare stays
    r = advice_plan(name, **Q04_GIVEN)
    lay, o = r.hardware.layout, r.costs.owned
    assert (r.hardware.replicas, r.hardware.total_gpus, lay.load_units, lay.spare_units) == (4, 16, 3, 1)
    assert lay.fleet_used == lay.fleet_count == 16
    assert o is not None and not o.gpus_bought and o.fleet_gpus == 16  # taken, never bought (q08: no other type)
    f = _signoff(r)
    assert f is not None and f.params["cards"] == 4 and f.params["without"] == 3 and f.params["without_gpus"] == 12
    # the fallback said: without the sign-off the 3 on 12 cards, of which a server down leaves 1
    assert f.params["left_without"] == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q04])
def test_page_one_says_the_sign_off_and_the_plan_without_it(name, lang):
    # re-argued in s34-fleet36 (blind review 25, q08: "make three replicas on the 12 idle cards the default and the
    # fourth conditional"): where only the spare would take busy cards the plan stays on the free cards
    # (tests/core/test_fleet36_free_default.py); q04's load itself takes a busy card, so its sign-off spare stays
    md = render_memo_markdown(advice_plan(name, **Q04_GIVEN), lang)
    hardware = _row(md, "Hardware", "硬件")
    # re-argued (s33-fleetword, blind review 22, q04: "the fallback '3 replicas on 12 cards' also needs one busy
    # card's work moved, so the sign-off is needed even without the spare"): q04's 11 free H20s hold no 3 × TP4, so
    # its fallback says the sign-off is needed either way; q08's 12 free 910Bs hold it, and the row stops there
    either = name == Q04
    assert ("which its owners sign off (without it: 3 replicas on 12 cards" in hardware) if lang == "en" else \
        ("经其负责人同意（不同意时：12 张卡上 3 个副本" in hardware)
    assert (("the sign-off is needed either way" in hardware) if lang == "en" else ("无论如何都需要负责人同意" in hardware)) \
        == either
    assert "recommended besides" not in hardware and "另建议" not in hardware


@pytest.mark.parametrize("lang", LANGS)
def test_q04_offers_no_purchase_and_says_what_a_server_down_leaves(lang):
    r = advice_plan(Q04, **Q04_GIVEN)
    md = render_memo_markdown(r, lang)
    assert not any(f.title_key == "plan.owned20.knee.room.title" for f in r.findings)  # the ¥1M option (3) gone
    # (session 36: page 1 now says "— nothing to buy" of the fleet it runs on, which offers no purchase either)
    assert (not re.search(r"(?<!nothing )to buy", md.split("\n## 4.")[0])) if lang == "en" else ("采购 1 台" not in md)
    # 4 replicas 2 + 2 on the two servers: one down leaves 2 of 4, said on page 1 (the sizing reason)
    page1 = md.split("\n## ")[1]
    assert ("one server down leaves 2 of 4 replicas" in page1) if lang == "en" else ("4 个副本只剩 2 个" in page1)
    # the moved work goes onto the idle L20s, and the detail says so with the sign-off
    detail = _signoff(r).detail_in(lang)
    assert ("onto your idle GPUs of the other type" in detail and "sign that off" in detail) if lang == "en" else \
        ("挪到你们另一种空闲 GPU 上" in detail and "签字同意" in detail)


def test_q18_spares_on_free_cards_are_not_a_sign_off():
    # 14 of 17 free H100s: every card the plan takes is free, so no other work moves for its spares
    r = advice_plan(Q18)
    assert r.hardware.total_gpus <= free_gpus(32, 0.45) and _signoff(r) is None
    assert only_finding(r, "sizing.redundancy").title_key.endswith(".idle.title")


@pytest.mark.parametrize("util", [0.25, 0.5, 0.75])
def test_a_busier_fleet_takes_no_spare_on_busy_cards(util):
    # the other work fills the spare's cards (4 cards' worth at 25 %) and has no other type to go to: no one's to
    # displace for a spare, so no sign-off spare (at 20 %, q08's 12 free cards hold its plan: none either)
    r = planned({**advice_answers(Q08), "measured_utilisation": util})
    assert _signoff(r) is None
    used = r.hardware.layout.fleet_used if r.hardware.layout is not None else None
    assert used is None or used <= free_gpus(16, util)
