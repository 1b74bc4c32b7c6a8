"""The own box in the office (ninth blind review, issue #25, s19-office19): how long buying it takes depends on what
is bought, its power carries an office's cooling overhead (not a data centre's), and the memo's figures say what they
are."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.data import duration
from advisor.plan.office_purchase import WORKSTATION_MAX_GPUS

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


def scenario(name: str):
    data = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    return make_plan(answers_from_dict(data["answers"]))


def procurement(r):
    [item] = [i for i in r.timeline.items if i.id == "procurement"]
    return item


def test_one_workstation_for_the_office_is_bought_from_stock_in_days_not_a_servers_months():
    r = scenario("q01_office_lan_capex_contracts")
    assert r.deployment_form == "on_premises" and 0 < r.costs.owned.gpus_owned <= WORKSTATION_MAX_GPUS
    item = procurement(r)
    ws, server = duration("office_workstation_procurement"), duration("bare_metal_procurement")
    assert (item.days_low, item.days_high) == ws and ws[1] < server[0]  # days to two weeks, not 30-90 days
    assert item.label_key == "plan.timeline.procurement_workstation"
    # the launch waits for the shorter purchase, plus the setup
    setup = duration("cloud_setup")
    assert (r.timeline.launch_days_low, r.timeline.launch_days_high) == (ws[0] + setup[0], ws[1] + setup[1])


def test_a_multi_gpu_server_for_the_server_room_keeps_a_server_orders_lead_time():
    r = scenario("q17_capex_only_university_lab")
    assert r.deployment_form == "on_premises" and r.costs.owned.gpus_owned > WORKSTATION_MAX_GPUS
    item = procurement(r)
    assert (item.days_low, item.days_high) == duration("bare_metal_procurement")
    assert item.label_key == "plan.timeline.procurement_office"
