"""Fleet counts told once and taken no further than the peak needs; first-token headroom on equal layouts (blind
review 16, issue #25).

- q08: "the hardware row says 12 cards but also 'recommended besides: a replica more on the other 4 cards', and
  'Accelerators owned: 12' contradicts the owned 16": the memo states used of owned once, and no "owned" row
  gives the plan's count as the fleet's.
- q04: "the plan takes all 16 H20 when the peak needs 12; only 11 are free": no spare displaces other work; the
  fourth replica is recommended with its condition, and the work moved onto a smaller card type is asked to fit.
- q03: "TTFT 3.6 s at 1 request against a 4 s target": on as many GPUs at the same cost, the layout whose P99 TTFT
  at the peak keeps the plan's headroom is kept (TP2 over TP1 on the L20).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import sizing
from advisor.plan.burst_gpu import rented_of
from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_forms import chosen_owned
from tests.support.planned import ADVICE_SCENARIOS, Q04_GIVEN, advice_plan

LANGS = ("en", "zh_CN")
ALL = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
Q03, Q04, Q08 = "q03_hospital_private_wan_medical", "q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal"


def _on_fleet(name: str):
    r = advice_plan(name)
    lay = r.hardware.layout
    o = chosen_owned(r)
    if lay is None or lay.fleet_count is None or o is None or not o.fleet_gpus:
        return None
    return r, lay, o


@pytest.mark.parametrize("name", ALL)
def test_owned_used_and_bought_add_up_and_no_spare_displaces_other_work(name):
    got = _on_fleet(name)
    if got is None:
        pytest.skip("not on the team's fleet")
    r, lay, o = got
    assert o.fleet_gpus == lay.fleet_used <= lay.fleet_count == o.fleet_count
    # what the plan runs is the fleet's cards it uses plus what is bought (a whole server may bring more) or rented
    # for the bursts (q39: counted as the plan's own GPUs before the rented part's conversion)
    burst = (getattr(o, "burst_plan_gpus", None) or o.gpus_burst or 0) if r.deployment_form == "hybrid" else 0
    assert lay.fleet_used <= r.hardware.total_gpus <= lay.fleet_used + (o.gpus_bought or 0) + burst
    # busy cards (their work moved) only for what the load needs, or for a spare the service must have, or
    # (s33-fleet33, blind review 21: q04/q08 "the 4-replica / 16-card layout should be the headline") the one spare
    # replica taken on the owners' sign-off, which the memo says with its condition (``fleet.signoff_spares``)
    if o.fleet_free is not None and lay.redundancy is None:
        signed = next((f for f in r.findings if f.title_key.endswith(".idle_signoff.title")), None)
        allowed = max(0, lay.load_gpus - o.fleet_free) + (signed.params["cards"] if signed is not None else 0)
        assert max(0, lay.fleet_used - o.fleet_free) <= allowed, name


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ALL)
def test_the_memo_says_used_of_owned_once_and_no_owned_row_says_the_plans_count(name, lang):
    got = _on_fleet(name)
    if got is None:
        pytest.skip("not on the team's fleet")
    r, lay, o = got
    md = render_memo_markdown(r, lang)
    rows = [line for line in md.splitlines() if line.startswith("| ")]
    hw_label = translate(lang, "memo.key.hardware")
    hardware = next(line for line in rows if line.startswith(f"| {hw_label} |"))
    name_ = r.hardware.gpu_name
    assert str(lay.fleet_count) in hardware and str(lay.fleet_used) in hardware
    if rented_of(r.costs, r.deployment_form) is None and not o.gpus_burst:  # (a hybrid names both parts: q39)
        # "12 of your 16 × GPU" and nothing that reads "12 × GPU" again as if it were another count
        if lang == "en":
            assert hardware.count(f"{lay.fleet_used} × {name_}") == 0, hardware
        owned_label = translate(lang, "memo.forms.cost.gpus")
        assert not any(line.startswith(f"| {owned_label} |") for line in rows), name


def test_q04_takes_all_16_with_the_fourth_replica_on_its_owners_sign_off():
    # re-argued in s33-fleet33 (blind review 21, q04 en: "the 4-replica/16-card layout should be the headline, not an
    # add-on ... moving 30 % of the load onto the L20s is plausible but needs the owners' sign-off"; zh alike): the
    # plan takes the 12 the peak needs plus the spare on the last 4, and page 1 says the condition and the fallback
    r = advice_plan(Q04, **Q04_GIVEN)
    lay = r.hardware.layout
    assert (r.hardware.total_gpus, lay.load_gpus, lay.spare_units) == (16, 12, 1)
    en = render_memo_markdown(r, "en")
    hardware = next(line for line in en.splitlines() if line.startswith("| Hardware |"))
    assert hardware.startswith("| Hardware | all 16 of your NVIDIA H20 96GB: 4 replicas") and "sign off" in hardware
    # re-argued in s33-fleetword (blind review 22, q04: "the fallback '3 replicas on 12 cards' also needs one busy
    # card's work moved"): 11 of the 16 are free, so the fallback's 12 take a busy card and the row says the
    # sign-off is needed either way
    assert "recommended besides" not in hardware and "(without it: 3 replicas on 12 cards, which take 1 busy card " \
        "too: the sign-off is needed either way)" in hardware
    # the moved cards' work onto the L20s: whether it fits 48 GB is asked, not assumed
    assert "fits in 48 GB" in en


def test_q08_no_accelerators_owned_row_beside_the_fleet_row():
    r = advice_plan(Q08)
    en = render_memo_markdown(r, "en")
    assert "| Accelerators owned | 16 |" not in en
    # s33-fleet33: all 16 (the 4th replica on its owners' sign-off, blind review 21); back to the 12 free ones in
    # s34-fleet36 (blind review 25, q08: "make three replicas on the 12 idle cards the default"), said once
    assert en.count("| Your fleet | 12 of your 16 × Huawei Ascend 910B 64GB") == 1


def test_q03_keeps_the_layout_whose_first_token_keeps_the_headroom():
    r = advice_plan(Q03)
    room = r.layouts_tried.ttft_room
    assert room is not None and r.hardware.tp == room["tp"]
    target = room["target"]
    assert room["ttft"] <= target / (1 + sizing.HEADROOM) < room["other_ttft"]
    for lang in LANGS:
        md = render_memo_markdown(r, lang)
        assert f"{room['ttft']:,.0f}" in md and f"{room['other_ttft']:,.0f}" in md


@pytest.mark.parametrize("name", ALL)
def test_a_ttft_room_choice_is_only_made_between_layouts_on_as_many_gpus(name):
    r = advice_plan(name)
    found = r.layouts_tried
    room = found.ttft_room if found is not None else None
    if room is None:
        return
    chosen = found.chosen
    other = next(t for t in found.tries if t.tp == room["other_tp"] and t.weights == chosen.weights)
    assert other.gpus == chosen.gpus and room["ttft"] < room["other_ttft"]
