"""The layout page 1 weighs for the same busy cards is the plan (s41-q04, blind review 34, q04): where an assumed
first-token target was raised to fit the free cards and one replica more of the plan's layout is weighed first
against the usual target's layout for the same cards (``fleet_choice43``), the hardware, commands, cost and power,
the N+1 and placement findings and the steps all read that layout (en: "the headline and hardware table say '10 of
your 16 × NVIDIA H20 96GB: 5 replicas', while the same paragraph ends 'Recommended: TP2 × 6' (12 cards)"; zh: "pick
one and put it in the table"); page 1 says once what moves and how many cards stay free, and the two layouts for
those cards as two bullets, with the wait on long prompts said plainly (zh: "analysts will wait ~8 s")."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, fleet_choice43, headline25, make_plan
from advisor.plan.fleet_spread import machine_left
from advisor.plan.memo import render_memo_markdown
from advisor.plan.ttft_free_cards import KEY
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan

Q04 = "q04_securities_h20_l20_fleet"


def _free_cards_plan(monkeypatch):
    """q04 as planned before this rule: the replica weighed first only recommended, the plan on the free cards."""
    monkeypatch.setattr(fleet_choice43, "server_proof_more", lambda *a, **k: False)
    return make_plan(answers_from_dict(advice_answers(Q04)))


def test_the_weighed_layout_is_the_plans_hardware_cost_and_steps(monkeypatch):
    r = advice_plan(Q04)
    p = next(a for a in r.assumptions if a.key == KEY).params
    hw, lay = r.hardware, r.hardware.layout
    assert p["n"] > p["free"] and hw.gpus_per_replica != p["tp"]
    assert hw.total_gpus == p["n"] and hw.total_gpus > p["free"]  # the same cards the usual target takes
    # what a server down leaves: more of the plan's replicas than of the usual target's
    whole = lay.form_factor in ("sxm", "oam")
    assert machine_left(hw.replicas, hw.gpus_per_replica, lay.fleet_count, whole) * p["replicas"] > \
        machine_left(p["replicas"], p["tp"], lay.fleet_count, whole) * hw.replicas
    # no one-more-replica left to recommend beside the plan: it is the plan
    placement = next(f for f in r.findings if f.id == headline25.PLACEMENT)
    assert headline25._more(placement.params) is None
    before = _free_cards_plan(monkeypatch)
    assert before.hardware.total_gpus < hw.total_gpus and before.hardware.replicas < hw.replicas
    # costed and powered on the cards it runs
    assert r.costs.recommended_monthly.low > before.costs.recommended_monthly.low
    step = next(s for s in r.next_steps if s.id == "placement_check")
    assert step.params["need"] == hw.total_gpus and step.params["free"] == p["free"]
    assert step.params["freed"] == hw.total_gpus - p["free"]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_one_card_count_on_page_1_and_the_two_layouts_as_bullets(lang):
    r = advice_plan(Q04)
    p = next(a for a in r.assumptions if a.key == KEY).params
    hw, lay = r.hardware, r.hardware.layout
    md = render_memo_markdown(r, lang)
    page1 = md.split("\n## 2")[0]
    took = fleet_choice43.choice(r)
    assert took is not None and took["total"] == hw.total_gpus
    stay = lay.fleet_count - hw.total_gpus - (lay.fleet_count - p["free"] - took["moved"])
    if lang == "en":
        assert f"| Hardware | {hw.total_gpus} of your {lay.fleet_count} × {hw.gpu_name}: {hw.replicas} replicas" in md
        assert f"- TP{hw.gpus_per_replica} × {hw.replicas} (this plan): first token within {p['value'] / 1000:g} s" in page1
        assert f"\n- TP{p['tp']} × {p['replicas']}: first token within {p['default'] / 1000:g} s" in page1
        assert "your users will wait about 8 s for the first token on long prompts" in page1
        assert (f"none of the {lay.fleet_count} stays free" if stay == 0 else f"{stay} of the {lay.fleet_count} stay free") \
            in page1
        assert f"{p['free']} free at the measured 30 % load and {took['moved']} busy one" in page1
        assert "Recommended: TP" not in md and "GPUs free on the servers" not in md
    else:
        assert f"| 硬件 | 使用现有 {lay.fleet_count} 张 {hw.gpu_name} 中的 {hw.total_gpus} 张：{hw.replicas} 个副本" in md
        assert f"- TP{hw.gpus_per_replica} × {hw.replicas}（本方案）：首 token P99 在 {p['value'] / 1000:g} 秒以内" in page1
        assert f"\n- TP{p['tp']} × {p['replicas']}：首 token 在 {p['default'] / 1000:g} 秒以内" in page1
        assert "要等约 8 秒才看到第一个 token" in page1
        assert f"{lay.fleet_count} 张中不再有空闲卡" in page1 if stay == 0 else f"还有 {stay} 张空闲" in page1
        assert "只用空闲卡即可满足的最低半秒档" not in md and "建议选 TP" not in md
    # the free cards' layout is not said as the plan anywhere
    before_cards = p["free"] // hw.gpus_per_replica * hw.gpus_per_replica
    assert f"{before_cards} of your {lay.fleet_count}" not in md and f"中的 {before_cards} 张" not in md


def test_a_given_target_is_never_raised_so_the_plan_stays_as_sized():
    r = advice_plan(Q04, **Q04_GIVEN)
    assert fleet_choice43.choice(r) is None
    assert not any(a.key == KEY for a in r.assumptions)


def test_no_raised_target_no_replica_on_busy_cards():
    class Ctx:
        assumptions: list = []

    assert fleet_choice43.raised(Ctx()) is None
    assert not fleet_choice43.server_proof_more(Ctx(), 2, 5, 16, True)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_spares_that_are_not_one_servers_replicas_are_said_as_replicas_down(lang):
    # 6 × TP2 over two 8-GPU servers keeps 2 spares, but a server down takes 3: "10 each on the 4 left with one
    # server down" beside the placement's "3 of 6 remain" would be two answers; the row says the spares down
    r = advice_plan(Q04)
    hw, cap = r.hardware, r.capacity
    spares = hw.replicas - cap.serving_replicas
    assert fleet_choice43.spares_not_a_server(hw, cap.serving_replicas) == spares == 2
    md = render_memo_markdown(r, lang)
    if lang == "en":
        assert f"on the {cap.serving_replicas} left with {spares} replicas down)" in md
        assert f"With {spares} replicas down each of the others takes" in md
        assert "with one server down" not in md.lower()
    else:
        assert f"{spares} 个副本停机时，余下 {cap.serving_replicas} 个副本每个" in md


def test_spares_that_are_one_servers_replicas_keep_the_server_wording():
    r = advice_plan("q18_us_fleet_32_h100")
    assert fleet_choice43.spares_not_a_server(r.hardware, r.capacity.serving_replicas) is None
    assert "left with one server down" in render_memo_markdown(r, "en")
