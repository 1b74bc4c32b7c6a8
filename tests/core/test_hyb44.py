"""Plans on cards the team already owns, as blind review 35 read them (s42-hyb).

q04 (both languages): "I would stop at 5 replicas on the 10–11 idle cards and not touch other teams' jobs"; "TP4 x 3
meets 6 s on the same 12 cards, so present that trade-off as the main decision"; "Electricity … is not incremental
because these cards are already powered in the room"; "The tokens estimate assumes '200 people' … state that
assumption plainly". q33: "'no other GPU considered meets the target' is wrong on its face"; "Replace the built-in
prices with your providers' quotes … makes little sense for owned office machines". q39 (sent back in both
languages): "The sizing table says '50 × NVIDIA L20 48GB: 50 replicas' … though no such fleet exists in the plan";
zh "另外 34 张的工作量"; "Section 1 is one unreadable paragraph"; the H800 fallback on a placeholder price."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from advisor.i18n import translate
from advisor.plan import fleet_choice43, hybrid_path43
from advisor.plan.memo import render_memo_markdown
from advisor.plan.rules_fleet import powered_new
from advisor.plan.ttft_free_cards import KEY
from tests.support.planned import advice_plan
from tests.support.rec_block import recommendation_block

LANGS = ("en", "zh_CN")
Q04 = "q04_securities_h20_l20_fleet"
Q08 = "q08_ascend_fleet_internal"
Q33 = "q33_office_4090d_fleet"
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _row(md: str, label: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {label} |"))


@pytest.mark.parametrize("lang", LANGS)
def test_q04_stays_on_the_idle_cards_and_puts_one_choice_to_the_owner(lang: str) -> None:
    r = advice_plan(Q04)
    p = next(a for a in r.assumptions if a.key == KEY).params
    hw = r.hardware
    # the load's replicas and one spare on the idle cards; no busy card taken for a second spare
    assert hw.total_gpus <= p["free"] and hw.layout.spare_units == 1
    assert not any(f.title_key == fleet_choice43.SIGNOFF_TITLE for f in r.findings)
    block = recommendation_block(render_memo_markdown(r, lang))
    bullets = [line for line in block.splitlines() if line.startswith("- ")]
    assert len(bullets) == 2  # one choice: the plan, or the usual target's layout
    plan, usual = bullets
    if lang == "en":
        assert f"TP{hw.gpus_per_replica} × {hw.replicas} on {hw.total_gpus} free cards (this plan)" in plan
        assert "no other team's work moves" in plan
        assert f"TP{p['tp']} × {p['replicas']} on {p['n']} cards: first token within {p['default'] / 1000:g} s" in usual
        assert "owners' agreement" in usual and "Recommended:" not in block
    else:
        assert f"在 {hw.total_gpus} 张空闲卡上跑 TP{hw.gpus_per_replica} × {hw.replicas}（本方案）" in plan
        assert "不动其他团队的工作" in plan
        assert f"在 {p['n']} 张卡上跑 TP{p['tp']} × {p['replicas']}：首 token 在 {p['default'] / 1000:g} 秒以内" in usual
        assert "建议选" not in block


@pytest.mark.parametrize("name", [Q04, Q08, Q33])
@pytest.mark.parametrize("lang", LANGS)
def test_owned_cards_in_the_teams_room_say_the_power_is_mostly_paid_and_ask_for_the_tariff(name: str,
                                                                                          lang: str) -> None:
    r = advice_plan(name)
    own = r.costs.owned
    new = powered_new(own)
    assert new is not None and 0 <= new[0] <= new[1] < own.power_monthly.high  # only the draw above idle is new
    md = render_memo_markdown(r, lang)
    said = {"en": "the cards stand powered today whether or not they serve", "zh_CN": "这些卡现在无论是否使用都已通电"}
    assert said[lang] in md
    assert translate(lang, "hyb44.next.tariff") in md and translate(lang, "plan.next.quotes") not in md


def test_power_said_as_new_only_where_nothing_is_bought_or_rented() -> None:
    base = dict(site="office", gpus_bought=0, gpus_burst=0, fleet_gpus=8, average_draw=0.6, average_draw_high=0.7,
                idle_draw=SimpleNamespace(low=0.5, high=0.5), power_monthly=SimpleNamespace(low=600.0, high=1400.0))
    got = powered_new(SimpleNamespace(**base))
    assert got is not None and got == pytest.approx((100.0, 400.0))
    for change in ({"gpus_bought": 8}, {"gpus_burst": 2}, {"site": "colocation"}, {"fleet_gpus": 0}):
        assert powered_new(SimpleNamespace(**{**base, **change})) is None


@pytest.mark.parametrize("lang", LANGS)
def test_a_fleet_choice_never_says_no_other_gpu_meets_the_target(lang: str) -> None:
    md = render_memo_markdown(advice_plan(Q33), lang)
    assert translate(lang, "plan.gpu_choice.sentence_only", chosen="", why="", unsourced="").split("；")[-1].split(
        "; ")[-1] not in md


@pytest.mark.parametrize("lang", LANGS)
def test_q04_tokens_row_says_where_its_head_count_comes_from(lang: str) -> None:
    md = render_memo_markdown(advice_plan(Q04), lang)
    row = _row(md, "Tokens per month (input / output)" if lang == "en" else "每月 tokens（输入 / 输出）")
    assert ("about 200 people (assumed from your 40 at once)" if lang == "en" else
            "约 200 人（由高峰同时使用的 40 人推算的假设）") in row


@pytest.mark.parametrize("lang", LANGS)
def test_q39_lays_out_no_fleet_the_plan_does_not_have(lang: str) -> None:
    r = advice_plan(Q39)
    assert hybrid_path43.applies(r)
    md = render_memo_markdown(r, lang)
    c = hybrid_path43.carried(r)
    assert c is not None
    # the measured reading's 50 replicas and the 34 cards' work never appear as a fleet
    assert not re.search(r"\b50 (replicas|个副本)|all 50 up|50 个副本都在", md)
    assert "the work of about 34" not in md and "另外 34 张" not in md and "34 more NVIDIA L20" not in md
    peak = _row(md, "Peak concurrency planned for" if lang == "en" else "规划的峰值并发")
    assert f"{c['own']}" in peak and f"{c['replicas']}" in peak
    share = hybrid_path43.shares(next(f for f in r.findings if f.id == "sizing.fleet_load_disagrees").params)
    assert 0 < share["api_pct"] < 100 and f"{share['api_pct']} %" in md


@pytest.mark.parametrize("lang", LANGS)
def test_q39_section_1_reads_in_short_paragraphs_with_the_placeholder_said_once(lang: str) -> None:
    r = advice_plan(Q39)
    md = render_memo_markdown(r, lang)
    block = recommendation_block(md)
    paragraphs = [x for x in block.split("\n\n") if x.strip()]
    assert len(paragraphs) == 3  # the owned base and the count; the API's overflow; the rented fallback
    api, fallback = paragraphs[1], paragraphs[2]
    assert r.costs.hybrid.burst_gpu_name not in api and r.costs.hybrid.burst_gpu_name in fallback
    placeholder = {"en": "unverified placeholder price", "zh_CN": "未经核实的占位价"}[lang]
    assert block.count(placeholder) == 1 and placeholder in fallback
    assert r.hardware.gpu_name in fallback[fallback.index(placeholder):]  # quotes asked on the team's own card too
    sentences = re.split(r"(?<=[.。])\s*", paragraphs[0])
    assert max(len(s) for s in sentences) < (260 if lang == "en" else 120)


@pytest.mark.parametrize("lang", LANGS)
def test_q33_weighs_tp4_per_machine_and_says_which_and_why(lang: str) -> None:
    r = advice_plan(Q33)
    up = r.layouts_tried.tp_up
    assert up is not None and (up["tp"], up["up"], up["replicas"], up["cards"]) == (2, 4, 2, 8)
    assert up["left_up"] == 1 and up["left_now"] == 2  # still N+1 across the two machines, one replica each
    assert float(up["ttft_up"]) < float(up["ttft_now"])
    assert up["verdict"] == "keep" and up["gain"]["tr"] == "hyb44.tp_up.gain_small"  # PCIe eats most of the gain
    text = r.layouts_tried.text_in(lang)
    said = {"en": "TP4 was weighed too, as 2 replicas of 4 cards (8 in all; one machine down leaves 1)",
            "zh_CN": "也评估了 TP4：2 个副本、每个 4 张卡（共 8 张；一台机器停机时剩 1 个）"}[lang]
    assert said in text and ("TP2 stays" if lang == "en" else "保留 TP2") in text
    assert f"{up['ttft_up']} " in text and f"{up['ttft_now']} " in text


def test_no_larger_layout_weighed_where_it_would_take_busy_cards() -> None:
    r = advice_plan(Q04)  # TP4 × 3 takes 12 cards, more than the 11 free: it is page 1's choice, not this one's
    assert r.layouts_tried.tp_up is None
