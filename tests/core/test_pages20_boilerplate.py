"""Text that does not apply to the situation is not said (issue #25, pages20; blind reviewers of session 19's memos):
an export-rule check on GPUs the team already owns or on China-market parts bought in the mainland, "mainland GPU
prices are placeholders" where nothing is bought or rented, a same-region bucket for an office box, "the machine
layout is not known" worded as a fault, an idle office box at half its full power, and ranges that overlap said
to "meet" (相接). Each condition in both directions."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import H20_KEPT, advice_answers, planned

# an office tool on the team's own 8 × H20, with nothing bought (the fleet carries it), and the same team without
# the fleet (it buys the H20 it needs)
H20_FLEET = {"use_case": "interactive", "audience": "internal", "reach": "lan", "peak_concurrency": 8,
             "model": "qwen2.5-7b-instruct", "user_location": "mainland", "mainland_entity": True,
             "ops_capability": "basic", "expected_duration_months": 24, "measured_utilisation": 0.1,
             "gpu_constraint": ["h20-96g"], "current_fleet": {"gpu": "h20-96g", "count": 8}}  # fmt: skip
H20_BOUGHT = {k: v for k, v in H20_FLEET.items() if k not in ("current_fleet", "measured_utilisation")}


def ids(answers: dict[str, Any]) -> set[str]:
    return {f.id for f in planned(answers).findings}


def finding(answers: dict[str, Any], rule: str):
    [f] = [f for f in planned(answers).findings if f.id == rule]
    return f


def test_no_export_check_or_placeholder_price_note_for_gpus_the_team_owns_and_buys_none_of():
    r = planned(H20_FLEET)
    assert r.costs.owned.fleet_gpus and not r.costs.owned.gpus_bought
    assert not {"gpu.export_verify", "cost.mainland_prices"} & ids(H20_FLEET)
    # the same H20 bought: the export rules and the placeholder prices apply again
    assert {"gpu.export_verify", "cost.mainland_prices"} <= ids(H20_BOUGHT)


def test_the_office_fleet_of_4090d_gets_neither_note():
    q33 = advice_answers("q33_office_4090d_fleet")
    assert not {"gpu.export_verify", "cost.mainland_prices"} & ids(q33)
    bought = {k: v for k, v in q33.items() if k not in ("current_fleet", "measured_utilisation")}
    assert "cost.mainland_prices" in ids(bought)  # buying the cards: their prices are placeholders again


# q42 limited to the L20 and the 4090 D: q42 itself runs on the H20 since s21-gpu21 (a decode-heavy chat,
# ``decode_pick``), and the H20 keeps its export check (2025 licence rule, Chinese guidance: the test below)
Q42_L20 = {**advice_answers("q42_china_market_gpus_mainland"), "gpu_constraint": ["l20-48g", "rtx-4090d"]}


@pytest.mark.parametrize("answers", [Q42_L20, advice_answers("q01_office_lan_capex_contracts")], ids=["q42_l20", "q01"])
def test_no_export_check_on_china_market_parts_bought_in_the_mainland(answers):
    r = planned(answers)
    assert r.hardware.gpu in ("l20-48g", "rtx-4090d") and r.region == "mainland"
    assert "gpu.export_verify" not in ids(answers)


def test_the_export_check_stays_for_the_h20_bought_and_for_a_card_under_the_rules():
    assert "gpu.export_verify" in ids(advice_answers("q35_deepseek_v3_h20_internal"))
    # rented H20 (s21-gpu21), on the budget that keeps it (``h20_kept``): as written q42 rents the L20 (s36-sourced)
    assert "gpu.export_verify" in ids({**advice_answers("q42_china_market_gpus_mainland"), **H20_KEPT})
    assert "gpu.export_verify" in ids(H20_BOUGHT)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_an_office_box_keeps_the_weights_on_its_own_disk_not_in_a_same_region_bucket(lang):
    q01 = advice_answers("q01_office_lan_capex_contracts")
    f = finding(q01, "scaling.prestage_weights")
    text = f.title_in(lang) + f.detail_in(lang)
    assert "premises" in f.detail_key or "premises" in str(f.params)
    assert ("bucket" not in text and "in the region" not in text) if lang == "en" else "对象存储" not in text
    # a rented mainland node keeps the bucket
    rented = finding(advice_answers("q36_bursty_b2b_event_mainland"), "scaling.prestage_weights")
    assert "premises" not in rented.detail_key and "premises" not in str(rented.params)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_fleets_machines_are_not_said_to_be_unknown(lang):
    f = finding(advice_answers("q33_office_4090d_fleet"), "sizing.placement")
    text = f.title_in(lang) + f.detail_in(lang)
    assert ("not known" not in text) if lang == "en" else ("不知道" not in text)
    # s21-gpu21b (eleventh review, q33: "3 TP2 replicas cannot be on 3 different machines when there are only two
    # workstations"): three replicas are spread over the smallest split of the fleet, two machines, said as such
    assert ("two machines" in text) if lang == "en" else ("两台" in text)
    assert ("different machines" not in text) if lang == "en" else ("不同机器" not in text)


def test_an_office_box_idles_far_below_half_its_full_load_a_server_at_half():
    office = planned(advice_answers("q01_office_lan_capex_contracts")).costs.owned
    server = planned(advice_answers("q26_steady_3y_strong_ops_buy")).costs.owned
    assert office.idle_draw.high < 0.5 <= server.idle_draw.low
    memo = render_memo_markdown(planned(advice_answers("q01_office_lan_capex_contracts")), "en")
    assert "about half its full power" not in memo and "Idle draw" in memo  # the idle share, cited


@pytest.mark.parametrize("name", ["q07_minors_education_app", "q23_japan_game_npc", "q26_steady_3y_strong_ops_buy"])
def test_ranges_that_overlap_are_said_to_overlap_in_chinese(name):
    memo = render_memo_markdown(planned(advice_answers(name)), "zh_CN")
    assert "相接" not in memo
    weighed = [f for f in planned(advice_answers(name)).findings if f.id == "cost.hosted_weighed"]
    for f in weighed:
        if "ends" in f.detail_key:  # the API's dear end and the plan's cheap end share an interval: 重叠
            assert "重叠" in f.title_in("zh_CN") and "重叠" in f.detail_in("zh_CN")


def test_placeholder_prices_and_weak_prices_are_one_note_on_the_mainland_two_rules_elsewhere():
    q07 = ids(advice_answers("q07_minors_education_app"))
    assert "cost.mainland_prices" in q07 and "cost.prices_verify" not in q07
    f = finding(advice_answers("q07_minors_education_app"), "cost.mainland_prices")
    assert f.params["rows"] <= f.params["total"] and "grade C (second-hand) or U (placeholder)" in f.title_in("en")
    # no mainland placeholder (a US plan): the weak prices keep their own note
    us = ids(advice_answers("q24_us_saas_rent"))
    assert "cost.prices_verify" in us and "cost.mainland_prices" not in us


def test_a_result_saved_before_the_idle_share_says_no_duty_rather_than_a_guess():
    r = planned(advice_answers("q01_office_lan_capex_contracts"))
    assert "idle the rest at" in render_memo_markdown(r, "en")
    r.costs.owned.idle_draw = None  # as a result saved by session 19 loads
    assert "idle the rest at" not in render_memo_markdown(r, "en")
