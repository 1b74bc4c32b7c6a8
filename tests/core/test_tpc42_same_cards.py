"""An assumed first-token target raised to fit the free cards, on page 1 (s40-q04, blind review 32, q04): the
deployment leads and the target's sign-off follows (zh: "lead with 'use 10 existing H20, no purchase' and put the SLO
sign-off second"); where section 7's one more replica takes as many cards as the usual target's layout, the two are
weighed as the real choice for those cards and one is recommended (en: "TP4 'takes 12 × … more than your free cards
hold', yet section 7 recommends 'One more replica on the other 2 cards (12 of your 16)' … Both options use the same
12 cards"); and the CSRC Measures' sign-off the findings set before launch is a next step (en: "Add the CSRC Order
218 sign-off to the next steps, not only to the findings")."""

from __future__ import annotations

from advisor.plan import answers_from_dict, headline25, make_plan, ttft_choice42
from advisor.plan.fleet_spread import machine_left
from advisor.plan.memo import render_memo_markdown
from advisor.plan.ttft_free_cards import KEY
from advisor.plan.ttft_rule41 import decide
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan
from tests.support.rec_block import recommendation_block

Q04 = "q04_securities_h20_l20_fleet"


def _recommendation(md: str) -> str:
    return recommendation_block(md)  # its choices as bullets below the first line (s42-hyb)


def _free_cards_plan(monkeypatch):
    """q04 with the plan on the free cards and one more replica only recommended: since s41-q04 (blind review 34)
    the replica weighed first for the busy cards is the plan (``fleet_choice43``), so the weighing on the
    recommendation line is read on the plan as it stood before that rule."""
    return make_plan(answers_from_dict(advice_answers(Q04)))


def _params(r):
    return next(a for a in r.assumptions if a.key == KEY).params


def test_the_same_cards_are_weighed_as_the_real_choice_and_one_recommended(monkeypatch):
    r = _free_cards_plan(monkeypatch)
    p = _params(r)
    placement = next(f for f in r.findings if f.id == headline25.PLACEMENT)
    more = headline25._more(placement.params)
    assert more["total"] >= p["n"] > p["free"]  # both need busy cards: "more than your free cards hold" decides nothing
    both = ttft_choice42.same_cards(r, p)
    assert both is not None and both["total"] == more["total"] and both["moved"] == more["total"] - p["free"]
    left = machine_left(p["replicas"], p["tp"], r.hardware.layout.fleet_count, whole=True)
    assert both["tp_left"] == left
    # the layout that keeps the larger share of its replicas with a server down is recommended
    assert both["pick"] == ("target" if left * more["next"] >= more["left_after"] * p["replicas"] else "server")
    hw = r.hardware
    # s42-hyb (blind review 35, q04: "stop at 5 replicas on the idle cards and not touch other teams' jobs ... present
    # that trade-off as the main decision"): the plan on the free cards against the usual target's layout, one choice
    en = _recommendation(render_memo_markdown(r, "en"))
    assert f"- TP{hw.gpus_per_replica} × {hw.replicas} on {hw.total_gpus} free cards (this plan): first token within " \
           f"{p['value'] / 1000:g} s at P99; no other team's work moves; a server down leaves {more['left_now']} of " \
           f"the {hw.replicas} replicas, carrying {more['carried_now']} of the peak's {more['peak']}" in en
    assert f"- TP{p['tp']} × {p['replicas']} on {p['n']} cards: first token within {p['default'] / 1000:g} s; the " \
           f"work on {p['n'] - p['free']} busy card moves off first, with its owners' agreement; a server down " \
           f"leaves {left} of the {p['replicas']}" in en
    assert f"TP{hw.gpus_per_replica} × {more['next']}" not in en and "Recommended:" not in en  # no third layout
    assert f"Choose TP{p['tp']} × {p['replicas']} only if the users need {p['default'] / 1000:g} s" in en
    assert "more than your free cards hold" not in en
    zh = _recommendation(render_memo_markdown(r, "zh_CN"))
    assert f"在 {hw.total_gpus} 张空闲卡上跑 TP{hw.gpus_per_replica} × {hw.replicas}（本方案）" in zh
    assert f"在 {p['n']} 张卡上跑 TP{p['tp']} × {p['replicas']}" in zh and "请业务负责人书面确认一件事" in zh


def test_the_deployment_leads_the_recommendation_in_both_languages():
    r = advice_plan(Q04)
    hw, lay = r.hardware, r.hardware.layout
    assert lay.fleet_used >= hw.total_gpus  # nothing bought
    en = _recommendation(render_memo_markdown(r, "en"))
    zh = _recommendation(render_memo_markdown(r, "zh_CN"))
    assert en.startswith(f"**Recommendation**: Run it on {hw.total_gpus} of your {lay.fleet_count} × {hw.gpu_name}, "
                         "in your own server room: nothing to buy. The one decision for the business owner, in writing")
    assert zh.startswith(f"**建议**：使用现有 {lay.fleet_count} 张 {hw.gpu_name} 中的 {hw.total_gpus} 张，放在自有机房，"
                         "无需新购。请业务负责人")


def test_a_one_more_replica_on_fewer_cards_leaves_the_usual_targets_layout_as_the_upgrade(monkeypatch):
    r = _free_cards_plan(monkeypatch)
    p = dict(_params(r))
    more = headline25._more(next(f for f in r.findings if f.id == headline25.PLACEMENT).params)
    p["n"] = more["total"] + p["tp"]  # the usual target's layout needs more cards than the one more replica
    assert ttft_choice42.same_cards(r, p) is None
    for lang, said in (("en", f"choose {p['default'] / 1000:g} s only with that move"),
                       ("zh_CN", f"只有同意迁走上述工作，才选 {p['default'] / 1000:g} 秒")):
        line = decide(r, p, lang, "")
        assert said in line and f"{p['n']}" in line


def test_the_usual_targets_layout_is_recommended_where_it_rides_out_a_server_as_well(monkeypatch):
    r = _free_cards_plan(monkeypatch)
    more = headline25._more(next(f for f in r.findings if f.id == headline25.PLACEMENT).params)
    p = {**_params(r), "n": more["total"], "tp": r.hardware.gpus_per_replica, "replicas": more["next"]}
    both = ttft_choice42.same_cards(r, p)  # the same replicas on the same servers: as large a share left
    assert both is not None and both["pick"] == "target"
    # s42-hyb (review 35): the plan and the usual target's layout as one choice, no third layout recommended
    assert f"Choose TP{p['tp']} × {p['replicas']} only if" in decide(r, p, "en", "")
    assert f"只有用户确实需要 {p['default'] / 1000:g} 秒时才选 TP{p['tp']} × {p['replicas']}" in decide(r, p, "zh_CN", "")


def test_a_given_target_says_no_choice():
    r = advice_plan(Q04, **Q04_GIVEN)
    assert not ttft_choice42.weighed(r)
    assert "one of two" not in render_memo_markdown(r, "en")


def test_the_csrc_sign_off_is_a_step_before_launch_and_a_next_step():
    r = advice_plan(Q04)
    assert any(f.id == "fin.csrc_it_security" for f in r.findings)
    assert any(t.id == "csrc_signoff" and t.days_low is None for t in r.timeline.items)
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    first = next(line for line in en.splitlines() if line.startswith("1. Before launch"))
    assert "the firm's IT-security and compliance sign-off under the CSRC's Measures (Order No. 218)" in first
    assert "公司信息安全与合规部门按证监会第 218 号令签字确认" in next(
        line for line in zh.splitlines() if line.startswith("1. 上线之前"))


def test_no_securities_firm_no_csrc_step():
    r = advice_plan("q03_hospital_private_wan_medical")
    assert not any(t.id == "csrc_signoff" for t in r.timeline.items)
