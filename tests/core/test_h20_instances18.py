"""H20 instances smaller than a whole server (issue 25, s18-h20rows).

Blind reviewers: "H20 is priced only as whole 8-card servers, so the memos pick single-L20 replicas … even where
their own tables show H20 with 2.8 × the bandwidth per CNY". Alibaba Cloud's ECS page lists the H20's family (gn8v:
96 GB HBM3, 4 TB/s, NVLink 900 GB/s) in 1-, 2-, 4- and 8-GPU instance types, sold in some regions through its
sales; the plan now rents the part in those sizes and asks first to confirm the size in the region with a price.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.critical_steps import after_critical_path
from advisor.plan.instance_on_request import confirm_first, listed_on_request
from advisor.plan.node_shapes import layout, shape_of, vm_source
from advisor.plan.result import NextStep
from tests.support.planned import advice_answers, planned

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh_CN")


@pytest.mark.parametrize("gpu", ["h20-96g", "l20-48g"])
def test_the_china_market_parts_have_sourced_cloud_instance_sizes(gpu):
    src = vm_source(gpu)
    assert src is not None and src["url"].startswith("https://help.aliyun.com/") and src["grade"] in "ABC"
    assert src["date"] and src["title"]
    shapes = json.loads((ROOT / "resources" / "gpus" / "node_shapes.json").read_text(encoding="utf-8"))
    assert {1, 2, 4, 8} <= set(shapes["gpus"][gpu]["cloud_vm_gpus"])
    titles = json.loads((ROOT / "resources" / "plan" / "source_titles_zh.json").read_text(encoding="utf-8"))["titles"]
    assert src["title"] in titles


def test_the_h20_is_rented_by_the_card_and_bought_as_whole_servers():
    rented, bought = shape_of("h20-96g", owned=False), shape_of("h20-96g", owned=True)
    assert not rented.whole_server and rented.basis == "vm_source" and bought.whole_server
    # 3 one-card replicas and an N+1 spare: 4 one-card instances rented, one 8-GPU server bought
    assert (layout("h20-96g", 1, 3, rented, spare=1).total_gpus, layout("h20-96g", 1, 3, bought).total_gpus) == (4, 8)
    # its sizes are listed on request (some regions, through sales); a part rented per GPU on demand is not
    assert listed_on_request("h20-96g") and not listed_on_request("h100-sxm-80g") and not listed_on_request("l20-48g")


def test_q11_rents_h20_instances_of_one_card_and_asks_to_confirm_them_first():
    r = planned(advice_answers("q11_paid_api_b25"))
    hw, ch = r.hardware, r.gpu_choice
    assert hw.gpu == "h20-96g" and hw.layout is not None and hw.layout.unit_gpus == 1 and not hw.layout.whole_server
    assert ch is not None and all(a.per_hour > ch.chosen.per_hour for a in ch.alternatives)
    # no whole-server note (the weighing itself is gone where every other GPU needs a second server, s20-consist20)
    assert "gpu.whole_servers" not in r.finding_ids and (ch.weighing is None or ch.weighing.whole_server == [])
    # after the B25 licence that gates the launch (s18-steps) and, where page 1 leads with a hosted API, after the
    # step that starts on it (s28-lead28, review 18: an API headline's steps start with the API): the first hardware step
    rest = [s for s in after_critical_path(r.next_steps) if s.id != "api_first"]
    first = rest[0]
    assert r.next_steps[0].id == "gate" and first.id == "confirm_instance" and [s.id for s in r.next_steps].count("confirm_instance") == 1
    assert "NVIDIA H20 96GB instances of 1 card" in first.text_in("en") and "placeholder" in first.text_in("en")
    assert "1 卡的 NVIDIA H20 96GB 实例" in first.text_in("zh_CN") and "占位值" in first.text_in("zh_CN")


@pytest.mark.parametrize("name", ["q03_hospital_private_wan_medical", "q17_capex_only_university_lab"])
def test_an_owner_still_buys_one_box_of_pcie_cards_not_a_whole_h20_server(name):
    # the H20 rented by the card is the cheapest rental here; costed on its own bought layout (a whole 8-GPU
    # server) it had flipped both to the cloud: the form is decided on the setup an owner would buy
    r = planned(advice_answers(name))
    assert r.deployment_form == "on_premises"
    assert r.hardware.gpu != "h20-96g" and r.hardware.layout is not None and not r.hardware.layout.whole_server


def test_no_confirmation_step_for_a_quoted_size_an_owned_box_or_a_whole_server():
    a = advice_answers("q11_paid_api_b25")
    quoted = make_plan(answers_from_dict(a), quotes=[
        {"gpu": "h20-96g", "kind": "on_demand", "low": 1.5, "high": 1.5, "vm_gpus": [1]}])  # fmt: skip
    assert quoted.hardware.gpu == "h20-96g" and quoted.hardware.layout.basis == "quote"
    assert "confirm_instance" not in [s.id for s in quoted.next_steps]
    r = planned(a)
    steps = [NextStep(id="serve", key="plan.next.serve")]
    assert confirm_first(steps, r.hardware, "on_premises") == steps
    whole = r.hardware.model_copy(update={"layout": r.hardware.layout.model_copy(update={"unit_gpus": 8})})
    assert confirm_first(steps, whole, "cloud") == steps
    assert [s.id for s in confirm_first(steps, r.hardware, "cloud")] == ["confirm_instance", "serve"]
