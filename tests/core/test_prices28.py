"""How the GPU choice ranks a sourced price against a placeholder (issue 25; s28-prices28).

Where only some GPUs have sourced prices (the mainland's L20, A10, RTX 4090 D, A800 and H800 rows, wired in
s29-prices29, the H20's and the 910B's still placeholders; a user's quote beside a placeholder), a setup priced from
placeholder (grade U) rows only is ranked at the top of its guessed range (``gpu_choice.ranked_hourly``): it is chosen over a sourced setup only when it costs less even there. Whichever side
the choice falls on, the memo says it rests on a placeholder or names the placeholder passed over. These hold over
every advice scenario, in both languages.
"""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, gpu_choice, make_plan
from advisor.plan.data import PriceBook, builtin_rows
from tests.support.planned import ADVICE_SCENARIOS, H20_KEPT, advice_answers, advice_plan

NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))


@pytest.mark.parametrize("name", NAMES)
def test_a_choice_between_a_sourced_and_a_placeholder_price_is_said(name):
    ch = advice_plan(name).gpu_choice
    if ch is None:
        return
    pick, cheaper = ch.placeholder_pick, ch.unsourced_cheaper
    assert pick is None or cheaper is None  # one side or the other
    if pick is not None:
        # chosen on a placeholder: cheaper than the sourced setup even at the top of its range, dearer there than at
        # the middle the cost table uses; the sentence names the sourced GPU and the quote above which it wins
        other = pick["other"]
        assert not ch.chosen.price_sourced and other["price_sourced"]
        assert ch.chosen.per_hour <= pick["top"] < other["per_hour"]
        en, zh = ch.text_in("en"), ch.text_in("zh_CN")
        # s35-sentences (blind review 26, q42 zh): a part sold only by the month says the other setup by the month
        # (its month shared over this setup's cards), not by the hour
        said = f"{other['per_hour']:,.2f}" if "switch_month" not in pick else f"{pick['other_month']:,}"
        # s36-sourced: a part sold only by the month says its price is a placeholder in the switch rule's own short
        # sentence (sourced38_pick), and where the sourced setup breaks the budget that budget and that the plan
        # waits on the quote
        words = ("placeholder", "占位") if "switch_month" in pick else ("rests on a placeholder price", "占位价格")
        assert words[0] in en and said in en
        assert words[1] in zh and said in zh
        if "over_budget" in pick:
            assert f"{pick['over_budget']:,}" in en and f"{pick['over_budget']:,}" in zh
        assert other["gpu_name"] in en and other["gpu_name"] in zh
    if cheaper is not None:
        # a sourced setup chosen over a placeholder cheaper at its middle: named as perhaps cheaper, with a quote
        assert ch.chosen.price_sourced and not cheaper.price_sourced and cheaper.per_hour < ch.chosen.per_hour


def _q42(l20_usd_an_hour: float, **change: object):
    """q42 (a decode-heavy chat on China-market parts) with the L20's rent given as a quote (grade A, sourced), the
    H20's still the placeholder (USD 1.2–2.6): the mix of grades the mainland's sourced rows make
    (resources/plan/prices.json: Alibaba's L20 at ¥14.63 an hour, USD 2.094 at the plan's rate)."""
    answers = answers_from_dict({**advice_answers("q42_china_market_gpus_mainland"), **change})
    return make_plan(answers, quotes=[{"gpu": "l20-48g", "kind": "on_demand", "low": l20_usd_an_hour,
                                       "high": l20_usd_an_hour}])


def test_a_placeholder_cheaper_even_at_its_top_is_chosen_and_said_to_rest_on_it():
    """At Alibaba's L20 quote, 3 × H20 at its placeholder's top (USD 2.6) costs less an hour than 4 × L20: the H20
    is chosen (a sourced-first rule chose the L20s at 47 % more than the H20's middle), and the memo says the
    choice rests on a placeholder, with the L20 setup's sourced price above which the L20 is the choice."""
    # s36-sourced: only where no sourced setup fits the budget (here one under the L20s' 42,720 a month); within
    # it, the sourced L20 is the plan and the H20 the part to quote (test_sourced38)
    ch = _q42(2.094, **H20_KEPT).gpu_choice
    assert ch is not None and ch.chosen.gpu == "h20-96g" and not ch.chosen.price_sourced
    pick = ch.placeholder_pick
    assert pick is not None and pick["other"]["gpu"] == "l20-48g" and ch.unsourced_cheaper is None
    h20 = {r.id: r for r in builtin_rows()}["cn.h20"]
    # the top the sentence states is the chosen setup's hour at the top of the H20 row's range, not a figure of ours
    assert pick["top"] == pytest.approx(ch.chosen.per_hour * h20.high / ((h20.low + h20.high) / 2), abs=0.02)
    assert "placeholder" in ch.text_in("en") and "占位" in ch.text_in("zh_CN")
    # the cheaper RTX 4090 D is still set aside as a consumer card, said so (no price tier stops the reason)
    assert ch.reason == "grade"


def test_a_placeholder_cheaper_only_at_its_middle_is_passed_over_and_named():
    """An L20 quote of USD 1.50: 4 × L20 (about USD 6.0 an hour) costs more than 3 × H20 at the placeholder's middle
    (5.7) but less than at its top (7.8): the sourced L20 is chosen, the H20 named as perhaps cheaper, get a quote."""
    ch = _q42(1.5).gpu_choice
    assert ch is not None and ch.chosen.gpu == "l20-48g" and ch.chosen.price_sourced and ch.placeholder_pick is None
    assert ch.unsourced_cheaper is not None and ch.unsourced_cheaper.gpu == "h20-96g"
    assert ch.unsourced_cheaper.per_hour < ch.chosen.per_hour


def test_sourced_means_a_row_graded_a_to_c_or_a_quote():
    """What the ranking reads as sourced: the H20's mainland placeholder is not, a US list price is."""
    book = PriceBook(builtin_rows())
    assert not gpu_choice.sourced(gpu_choice.price_rows(book, "h20-96g", "mainland"))
    assert gpu_choice.sourced(gpu_choice.price_rows(book, "l40s", "us"))
