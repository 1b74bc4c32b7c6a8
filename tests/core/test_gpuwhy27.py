"""Blind review 17: two wording contradictions.

1. q19/q42 "Why this GPU": "it costs 24 % more than 4 × L20" and then "per request served it is the cheaper card"
   read as a contradiction. The paragraph now compares the two setups' whole hourly cost, and a cost per request is
   said only with the load it rests on (each card filled to what it takes within the target) beside that dearer
   total, and only where it is more than a wash (q19: 0.66 against 0.67).
2. q04 (owned H20 fleet): the headline's choice offered only "keep it, or buy 8 more" while the hardware row and the
   placement finding recommend a free 4th replica on the last 4 H20 once their other work moves; and "11 free at
   30 %" beside "the plan takes 12" read as a gap. The choice names the free replica first with its condition, then
   the purchase; the free-card sum (free + moved = used) is said plainly, and that the 4th replica moves all the
   other work.
"""

from __future__ import annotations

import pytest

from advisor.plan import layout_headline40
from advisor.plan.memo import render_memo_markdown
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import Q04_GIVEN, advice_plan, only_finding

LANGS = ("en", "zh_CN")
Q04, Q08 = "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal"


def _without_signoff(monkeypatch, name: str):
    """The scenario planned as if its owners did not sign off the spare on busy cards (``fleet.signoff_spares`` off):
    s33-fleet33 takes q04's and q08's 4th replica into the plan on that sign-off (blind review 21: "the 4-replica /
    16-card layout should be the headline"); without it the plan keeps 3 replicas and recommends the 4th, the path
    these tests read (not the shared plan: made with the sign-off off)."""
    from advisor.plan import answers_from_dict, fleet, make_plan
    from tests.support.planned import advice_answers

    monkeypatch.setattr(fleet, "signoff_spares", lambda *a, **k: 0)
    # q04 with its 6,000 ms given: as written it now stays on its free cards at the free cards' step (s34-fleet36)
    given = Q04_GIVEN if name == Q04 else {}
    return make_plan(answers_from_dict({**advice_answers(name), **given}))
Q19, Q42 = "q19_export_controlled_h100_mainland", "q42_china_market_gpus_mainland"


# --- 1. one comparison in "Why this GPU" ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", [Q19, Q42])
@pytest.mark.parametrize("lang", LANGS)
def test_the_gpu_paragraph_says_the_whole_setup_costs_more_and_no_bare_cheaper_card(name, lang):
    # s29-prices29: with Alibaba's L20 quote wired in, 4 × L20 costs more an hour than 3 × H20 even at the H20
    # placeholder's top, so q42/q19 take the H20 on cost and pay no decode premium (test_gpu21_choice's
    # test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent); the premium's sentences are tested on the
    # rents these tests were written on, given as quotes (tests/support/former_l20_rent.py).
    r = former_rents_plan(name)
    ch = r.gpu_choice
    assert ch is not None and ch.decode_pick is not None
    more = ch.decode_pick["more_pct"]
    text = ch.text_in(lang)
    assert (f"In all it costs {more} % more an hour than" in text) if lang == "en" else ("整套每小时比" in text
                                                                                      and f"贵 {more}%" in text)
    # the sentence the reviewers read as a contradiction is gone in both languages
    assert "Per request served it is the cheaper card" not in text and "它是更便宜的卡" not in text
    # the premium is the setups' own hourly costs
    other = ch.decode_pick["other"]["per_hour"]
    assert more == round((ch.chosen.per_hour / other - 1) * 100)


# Re-argued in session 28 (gpu28): the per-card request cost (q42 13.27/28 against 8.03/16; q19 a 0.66/0.67 "wash"
# left unsaid) left the N+1 spare and each setup's card count out, and the chosen replica's figure was its plan's
# share (28, 20) where the other's was its limit. The sentence now says what the premium buys on the rule's own
# figures (whole setups, the spare in the cost), and the chosen setup's request-hour is the lower by the rule's own
# condition, so there is no wash to hold back: q19's reads 0.69 against 0.89.
@pytest.mark.parametrize("name", [Q19, Q42])
@pytest.mark.parametrize("lang", LANGS)
def test_the_premium_says_what_it_buys_on_whole_setups(name, lang):
    # s29-prices29: with Alibaba's L20 quote wired in, 4 × L20 costs more an hour than 3 × H20 even at the H20
    # placeholder's top, so q42/q19 take the H20 on cost and pay no decode premium (test_gpu21_choice's
    # test_q42_q19_take_the_h20_on_cost_at_the_sourced_l20_rent); the premium's sentences are tested on the
    # rents these tests were written on, given as quotes (tests/support/former_l20_rent.py).
    r = former_rents_plan(name)
    g = r.gpu_choice
    d = g.decode_pick
    mine, theirs = g.request_hours()
    assert mine < theirs
    text = g.text_in(lang)
    assert f"{mine:,.2f}" in text and f"{theirs:,.2f}" in text
    peak = r.answers["peak_concurrency"]
    assert d["peak"] == peak
    assert f"{d['carried'] / peak:.1f}" in text and f"{d['other_carried'] / peak:.1f}" in text
    assert ("what that buys is room" in text) if lang == "en" else ("多花的钱买的是余量" in text)
    # no per-card cost beside it any more
    assert "a card-hour for" not in text and "每卡小时 13.27 CNY、" not in text


# --- 2. q04: the free replica first, the free-card sum once ----------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_q04_choice_names_the_free_replica_first_with_its_condition_then_the_purchase(lang, monkeypatch):
    r = _without_signoff(monkeypatch, Q04)
    # the plan's layout is unchanged: 3 replicas of 4 H20, 12 cards, the 4th recommended beside it
    assert (r.hardware.replicas, r.hardware.total_gpus) == (3, 12)
    f = next(x for x in r.findings if x.title_key == "plan.owned20.knee.room.title")
    title, detail = f.title_in(lang), f.detail_in(lang)
    buy = f.params["options"]["buy"]
    # re-argued in session 28 (gpu28, review 17b): the purchase, needed for no target, is no longer in the title
    # beside a plan that meets it; the detail names it third, with what it would buy
    if lang == "en":
        assert "free your last 4 cards of their other work for one more replica" in title
        assert f"buy {buy['more']} more" not in title and "keep it" not in title
        assert detail.index("(1) the extra replica: 10 a replica") < detail.index("(2) keep the plan") \
            < detail.index("(3) only for faster tokens, no target needs it")
    else:
        assert "迁走其余 4 张卡上的其他工作后再加一个副本（无需采购）" in title
        assert f"再买 {buy['more']} 张" not in title and "维持现状" not in title
        assert detail.index("(1) 再加的那个副本") < detail.index("(2) 维持方案") < detail.index("(3) 只为更快的 token")
    # the one the detail counts with: 40 over 4 replicas, and 2 of 4 left with a server down, as placement says
    more = f.params["options"]["more"]
    assert more["per"] == 10 and more["loss"]["left"] == 2 and more["loss"]["r"] == 4


def test_without_the_recommended_replica_the_choice_stays_keep_or_buy(monkeypatch):
    """Where no replica more is recommended on the fleet, the choice stays "keep it, or buy" (nothing free to name)."""
    from advisor.plan import fleet_next_replica

    monkeypatch.setattr(fleet_next_replica, "one_more", lambda *a, **k: None)
    r = _without_signoff(monkeypatch, Q04)  # not the shared plan: made without the recommendation
    f = next(x for x in r.findings if x.title_key == "plan.owned20.knee.room.title")
    assert f.params["choice"]["tr"] == "plan.owned20.knee.choice" and f.params["options"]["more"] == ""
    assert "keep it" in f.title_in("en") and "one more replica" not in f.title_in("en")


@pytest.mark.parametrize("lang", LANGS)
def test_q04_free_card_sum_reads_once_and_adds_up(lang):
    # re-argued in s33-fleet33 (blind review 21): the plan takes all 16, the 4th replica on its owners' sign-off, so
    # the sum is 11 free + 5 whose work moves onto the idle L20s, said once as all of the fleet
    r = advice_plan(Q04, **Q04_GIVEN)
    cost = only_finding(r, "cost.fleet")
    p = cost.params
    assert p["used"] == p["free"] + p["moved"] == 16 and p["free"] == 11
    title = cost.title_in(lang)
    # misc32 (review 20b q08: "'12 free at the measured 20 %' treats the 20 % as whole idle cards"), re-argued in
    # s33-numbers2 (review 23, q04: "about 4.8 cards' worth" beside "11 of 16 idle, 5 busy" read as two models): the
    # free cards are the fleet finding's count, said as counted, and the cards' worth worked out there alone
    assert ("Runs on all 16 of your NVIDIA H20 96GB: the 11 counted free at the measured 30 % utilisation "
            "and 5 busy ones whose" in title) if lang == "en" else ("使用现有全部 16 张 NVIDIA H20 96GB：按实测利用率 30 % 计空闲的 11 张，加上" in title)
    memo = render_memo_markdown(r, lang)
    # the table row adds up too, pointing at the fleet finding for how the count is made
    assert ("(11 counted free at 30 % utilisation + 5 whose work moves off: the fleet finding)" in memo) if lang == "en" \
        else ("另 5 张迁走其工作后使用" in memo)
    fleet = only_finding(r, "gpu.fleet").detail_in(lang)
    assert ("about 4.8 cards' worth of other work" in fleet) if lang == "en" else ("约合 4.8 张卡的其他工作" in fleet)


@pytest.mark.parametrize("name", [Q04, Q08])
@pytest.mark.parametrize("lang", LANGS)
def test_a_replica_on_every_card_says_all_the_other_work_moves(name, lang, monkeypatch):
    """q04 review: the 4th replica "means moving all ~4.8 cards of other work"; on all 16 cards it is said so, not as a
    share "not known to be on these cards". s33-fleet33: read where the owners do not sign the spare off."""
    r = _without_signoff(monkeypatch, name)
    cover = only_finding(r, "sizing.placement").params["cover"]
    # session 28 (gpu28): q08's three replicas ride out one down, so its 4th is for a whole server down
    assert cover["tr"] in ("consist25.placement.one_more", "gpu28.placement.one_more_server", "own44.placement.next_step") \
        and cover["total"] == cover["count"]
    assert cover["work"]["tr"] in ("gpuwhy27.placement.work_all", "gpu28.placement.work_all")
    text = only_finding(r, "sizing.placement").detail_in(lang)
    if cover["tr"] == "own44.placement.next_step":  # review 36 (q08): page 1's next step says the work that moves,
        # the placement finding points up to it rather than telling it again
        text = layout_headline40.head_clause(r, lang)
        worth = f"about {cover['busy_cards']} cards' worth (the measured" if lang == "en" else f"约 {cover['busy_cards']} 张卡的量"
        assert worth in text
        return
    # session 30 (r19 q08: "the fix offered depends on moving other work off them"): q08's sentence now opens with
    # that dependence, "It depends on moving the other work off these cards: … all of it (the measured …"
    moves = "all the other work (the measured" in text or "moving the other work off these cards: with every card " \
        "serving, all of it (the measured" in text
    assert (moves and "not known to be on these cards" not in text) \
        if lang == "en" else ("要先全部移走" in text and "不一定就在这些卡上" not in text)
