"""Blind review 19's memo defects (issue 25, s29-review29): section numbers that skip 9, a hosted-API memo that
speaks of "the self-hosted comparison's speeds" it never shows, "no hosted API serves your own fine-tuned model",
a placeholder GPU pick that no longer says why it takes fewer cards, and a dearer alternative priced without the
N+1 spare the chosen setup's hour counts."""

from __future__ import annotations

import re

import pytest

from advisor import i18n
from advisor.catalog import get_gpu
from advisor.plan import memo_api_only
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, h20_kept, scenario_memo

ZH_NUMBERS = "一二三四五六七八九十"


def _memo(name: str, lang: str) -> str:
    return scenario_memo(next(ADVICE_SCENARIOS.glob(f"{name}*.json")), lang)


def _section_numbers(memo: str, lang: str) -> list[int]:
    if lang == "en":
        return [int(n) for n in re.findall(r"^## (\d+)\. ", memo, re.M)]
    return [ZH_NUMBERS.index(n) + 1 for n in re.findall(rf"^## ([{ZH_NUMBERS}])、", memo, re.M)]


# q15/q16/q27: every step on page 1 (the memos read "8 → 10"); q42: steps left for section 9
@pytest.mark.parametrize("name", ["q15_", "q16_", "q27_", "q42_"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_sections_are_numbered_without_a_gap(name, lang):
    numbers = _section_numbers(_memo(name, lang), lang)
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) == 10, numbers


@pytest.mark.parametrize("name", ["q15_", "q16_"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_an_api_only_memo_speaks_of_no_speed_it_does_not_show(name, lang):
    """Sections 2–3 in one line (``memo_api_only.collapsed``): the evidence section says the API is what the first
    step times, not that "the speeds here are the self-hosted comparison's" or that "every speed here is predicted"."""
    r = advice_plan(next(ADVICE_SCENARIOS.glob(f"{name}*.json")).stem)
    assert memo_api_only.collapsed(r)
    memo = _memo(name, lang)
    evidence = memo.split("## " + i18n.translate(lang, "memo.h.evidence"))[1].split("\n## ")[0]
    model = r.hardware.model_name or r.hardware.model
    gpu = r.hardware.gpu_name
    assert gpu not in evidence  # the comparison's GPU: no speed of it is shown
    assert i18n.translate(lang, "evidence.none_for_plan") not in evidence
    assert model in evidence


@pytest.mark.parametrize("name", ["q30_", "q41_"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_fine_tune_bar_does_not_claim_no_provider_hosts_one(name, lang):
    """A per-token API serves published models; a platform's custom-model deployment may host a fine-tune, as
    dedicated capacity priced otherwise (said with no source: deployment-facts.md has none, so it is hedged)."""
    r = advice_plan(next(ADVICE_SCENARIOS.glob(f"{name}*.json")).stem)
    weighed = r.finding("cost.hosted_weighed")
    assert weighed is not None and weighed.title_key.endswith(".ruled_out.title")
    assert weighed.detail_key == "review29.fine_tune.ruled_out.detail"
    memo = _memo(name, lang)
    assert i18n.translate(lang, "review29.fine_tune.ruled_out.detail") in memo
    old = {"en": "no hosted API serves", "zh_CN": "没有模型 API 服务能提供"}[lang]
    assert old not in memo


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_placeholder_pick_says_why_it_takes_fewer_cards(lang):
    """q42: 3 × H20 chosen over 4 × L20 on a placeholder price. The per-card weighing is not printed there (its middle
    price is no figure the choice rests on), so the opening sentence gives both cards' memory bandwidth (from the
    catalog) and the card counts, and not the weighing's per-card-hour price."""
    r = h20_kept("q42_china_market_gpus_mainland")
    g = r.gpu_choice
    assert g is not None and g.placeholder_pick is not None
    other = g._option(g.placeholder_pick["other"])
    assert other.gpus > g.chosen.gpus
    line = next(x for x in _memo("q42_", lang).splitlines()
                if x.startswith("**" + i18n.translate(lang, "memo.gpu_choice")))
    mine, theirs = (get_gpu(x).bandwidth_bytes_per_s / 1e12 for x in (g.chosen.gpu, other.gpu))
    # s31-q42fix32 (blind review 20b): prefill binds the H20 at q42's load, so its own bandwidth is no longer said as
    # its reason (the L20's, its bound, is); a chosen card bound by its bandwidth still has it said (q11/q36 give
    # compute beside bandwidth, test_q42fix32)
    # s33 (reviews 22–24, q42 m2 partial every round): the chosen card's bandwidth named as what carries its decoding,
    # in the opening, before the other card is named; the other card's bound beside its own figures
    assert f"{theirs:.2f} TB/s" in line and f"{mine:.1f} TB/s" in line
    assert f"{other.gpus}" in line
    assert f"{g.weighing.cards[0].per_card_hour:,.2f}" not in line  # the placeholder's middle price per card-hour


def test_a_dearer_alternative_counts_the_spare_the_chosen_hour_counts():
    """q38: 2 × L40S (one carries the peak, one spare) against an H100 whose one card carries it: the H100's hour
    counts a spare too (the memo set 4.45 USD/h without a spare against 4.30 with one)."""
    r = advice_plan("q38_eu_internal_hr_assistant")
    g = r.gpu_choice
    assert g is not None and g.dearer
    price = {c.gpu_name: c.per_card_hour for c in g.weighing.cards} if g.weighing is not None else {}
    for d in g.dearer:
        assert d.spare_gpus >= d.tp, d
        assert d.gpus == d.serving_gpus + d.spare_gpus
        if price.get(d.gpu_name):  # the spare priced like the serving cards, at the card-hour the weighing states
            assert d.per_hour == pytest.approx(d.gpus * price[d.gpu_name], abs=0.02)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_dearer_alternative_priced_as_whole_servers_says_so(lang):
    """q31: the H20 passed over at 212.37 CNY/h is 2 whole 8-card servers though 3 cards carry the peak; the opening
    sentence gives its hour, so it says what the hour buys (review 19: "implies 16 cards where ~4 would do")."""
    # s31-pricegate32 re-argued: the built-in H20 purchase is now a stand-in (grade U), which the opening says instead
    # of the whole servers; the H20 priced on the vendors' quote keeps the case this protects
    from advisor.plan.memo import render_memo_markdown
    from tests.support.planned import advice_answers, quoted

    h20 = [{"gpu": "h20-96g", "kind": "capex", "low": 125_000, "high": 140_000, "unit": "CNY/GPU", "date": "2026-12"}]
    r = quoted(advice_answers("q31_icp_filed_hosting_move"), h20)
    g = r.gpu_choice
    assert g is not None
    whole = [d for d in g.dearer if d.whole_server and d.spare_gpus > d.tp]
    assert whole
    line = next(x for x in render_memo_markdown(r, lang).splitlines()
                if x.startswith("**" + i18n.translate(lang, "memo.gpu_choice")))
    for d in whole:
        said = i18n.translate(lang, "review29.lead.whole", text="", units=d.units, unit=d.unit_gpus,
                              serving=d.serving_gpus)
        assert said in line and f"{d.per_hour:,.2f}" in line
