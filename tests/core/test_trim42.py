"""Memos without paragraphs the decision does not need (issue 25, blind review 32; s40-trim).

q19/q21 en: "The owning-vs-renting break-even paragraph ('after about 12.9 months in the best case') is irrelevant to
a rent decision"; q32 zh: "cut it to one sentence". q12 zh / q22 en: the self-host figure at this little use "will be
misread as a real unit cost; show the full-load figure or drop it". q17/q30 zh: "预测器的误差范围可达 13,694 毫秒 next to
a predicted 3,423 ms P99 will confuse a newcomer; explain it". q30: "the sizing table's 'TTFT at the peak … P99 541
ms' is the 20-per-replica figure, while the latency table shows 746 ms at 40 (one replica down)".
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import memo_per_million, payback, per_million_costed
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from advisor.plan.result import MoneyRange
from tests.support.planned import ADVICE_SCENARIOS, advice_plan

LANGS = ("en", "zh_CN")
NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("*.json"))


def _rows(memo: str, label: str) -> list[str]:
    return [line for line in memo.splitlines() if line.startswith(f"| {label} |")]


@pytest.mark.parametrize("name", NAMES)
def test_a_rent_decision_says_a_far_off_purchase_in_one_sentence(name: str) -> None:
    """Where owning pays back at best only at the best prices (or never) within the horizon, the rent finding says so
    in one sentence, without the months or the busy-hours share; where it pays back at mid-range prices or in every
    case (a live option) the comparison stays in full."""
    r = advice_plan(name)
    f = next((x for x in r.findings if x.id == "cost.rent"), None)
    if f is None or r.costs is None or r.costs.break_even_months is None:
        return
    be = r.costs.break_even_months
    verdict = payback.verdict(be)
    if f.detail_key.startswith("filedwait") or r.costs.break_even_utilisation is not None:
        return  # a launch that waits on its filing weighs a purchase later; the utilisation-led wording is apart
    far = verdict == "never" or (verdict == "best_case_only" and be.mid is None)
    assert f.detail_key.startswith("trim42.rent.") == far, (name, f.detail_key)
    for lang in LANGS:
        text = f.detail_in(lang)
        if far:
            assert be.text(lang, "months") not in text and "%" not in text, text
            assert len(re.split(r"[.。]\s*", text.strip(". 。"))) <= 3, text  # one sentence, then the scale clause
        elif verdict is not None:
            assert be.text(lang, "months") in text, text


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q19_export_controlled_h100_mainland", "q21_fast_launch_hk_rule1",
                                  "q32_filed_public_chatbot_fast"])
def test_the_reviewed_rent_memos_drop_the_break_even_paragraph(name: str, lang: str) -> None:
    memo = render_memo_markdown(advice_plan(name), lang)
    assert {"en": "That break-even counts only the busy hours", "zh_CN": "这个回本比例只算干活的时段"}[lang] not in memo
    assert {"en": "against renting only those hours", "zh_CN": "与只租这些时段相比"}[lang] not in memo
    said = {"en": "only at the best prices", "zh_CN": "只有按最好的价格"}[lang]
    assert said in memo
    # nor the months in the cost table (the row the finding's months kept out before)
    label = translate(lang, "plan.breakeven.months.label")
    assert not _rows(memo, label), label


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q22_hk_company_telecom_only"])
def test_an_api_led_memo_gives_the_self_host_figure_at_full_load(name: str, lang: str) -> None:
    """The self-host per-million row of a memo led by a hosted API: the full-load figure (below the month's over its
    few tokens), with the share this volume would use said in the same clause, and the API's rates beside it."""
    r = advice_plan(name)
    c = r.costs
    memo = render_memo_markdown(r, lang)
    [row] = _rows(memo, translate(lang, "memo.text15.cost.per_million_self"))
    head = translate(lang, "trim42.per_million.full_load", busy="\0", input="", output="").split("\0")[0]
    assert row.split("|")[2].strip().startswith(head), row
    assert memo_per_million.usage_text(c, lang) in row
    own = c.per_million_basis["own_volume"]
    for side in ("input", "output"):
        assert money_range(MoneyRange(low=own[side]["low"], high=own[side]["high"]), c.currency) not in row
    # the full-load figures: the month's figure × the share of the capacity it uses (every GPU billed)
    word = {"en": "output", "zh_CN": "输出"}[lang]
    got = re.search(re.escape(word) + r" ([\d,.]+)–([\d,.]+) CNY", row)
    assert got, row
    full_hi = float(got.group(2).replace(",", ""))
    assert full_hi < own["output"]["low"]
    hosted = per_million_costed.hosted_clause(c, lang)
    cell = row.split("|")[2].strip()
    assert hosted and hosted.strip() in cell, row  # the API's rates beside it
    # then the plan's own-load figure that reconciles them with a break-even (s42-apif, review 36)
    assert cell.index(hosted.strip()) < cell.index(translate(lang, "apf44.per_million.own_load").split("{")[0])


@pytest.mark.parametrize("lang", LANGS)
def test_the_error_band_says_what_it_means_for_the_target(lang: str) -> None:
    memo = render_memo_markdown(advice_plan("q30_unfiled_finetune_public_30d"), lang)
    [row] = _rows(memo, translate(lang, "memo.cap.ttft"))
    band = {"en": "predictor error band to", "zh_CN": "预测器的误差范围可达"}[lang]
    means = {"en": "the real P99 may miss the target", "zh_CN": "实际 P99 仍可能超标"}[lang]
    assert band in row and means in row and row.index(band) < row.index(means)


@pytest.mark.parametrize("lang", LANGS)
def test_the_peak_latency_rows_say_every_replica_is_up(lang: str) -> None:
    """q30: 40 at the peak, 20 a replica with both up, all 40 on one with the other down: the sizing table's peak
    TTFT row (and the TPOT row under it) are the 20-a-replica figures, said so (the latency table's 40 column is the
    one-down load)."""
    r = advice_plan("q30_unfiled_finetune_public_30d")
    cap = r.capacity
    assert cap.serving_replicas is not None and cap.serving_replicas < r.hardware.replicas
    memo = render_memo_markdown(r, lang)
    up = translate(lang, "trim42.cap.all_up", per=str(cap.concurrency_per_replica))
    [row] = _rows(memo, translate(lang, "memo.cap.ttft"))
    assert row.split("|")[2].strip().startswith(up), row
    [row] = _rows(memo, translate(lang, "memo.cap.tpot"))  # the row under it: said once (pages)
    assert up not in row


@pytest.mark.parametrize("lang", LANGS)
def test_a_plan_without_a_one_down_load_keeps_its_rows_unlabelled(lang: str) -> None:
    r = advice_plan("q15_hosted_api_small_us_team")
    memo = render_memo_markdown(r, lang)
    assert translate(lang, "trim42.cap.all_up", per="\0").split("\0")[0] not in memo


@pytest.mark.parametrize("name", ["q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q33_office_4090d_fleet"])
def test_a_fleet_renting_nothing_lists_no_rental_price_of_its_cards(name: str) -> None:
    """q33: "the rental price row and '2 of 2 prices used are grade C or U' are irrelevant when nothing is rented":
    on the team's own cards, nothing bought or rented, the card's rental rows are neither listed nor counted."""
    r = advice_plan(name)
    gpu = r.hardware.gpu
    rent_rows = [p for p in r.costs.prices if p.gpu == gpu and p.kind in ("on_demand", "monthly", "spot", "reserved")]
    assert rent_rows, name  # the price book has one (the plan's JSON keeps it)
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        for p in rent_rows:  # the price table's kind cell: no rented GPU's price in these memos
            assert f"| {translate(lang, f'memo.value.price_kind.{p.kind}')} |" not in memo, (name, lang)
    f = next((x for x in r.findings if x.id == "cost.prices_verify"), None)
    shown = [p for p in r.costs.prices if p not in rent_rows]
    if f is not None:
        assert f.params["total"] <= len(shown)
