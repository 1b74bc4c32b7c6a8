"""A mainland + overseas plan is two real nodes (issue 25, q05): each sized for its own share of the peak with its own
N+1, on a part sold where it runs, priced from its region's rows; the headline GPU count and monthly cost are the
two nodes' sum, and page 1, the cost table and the findings say the same figures (property: over every advice
scenario with two nodes, and a plan whose part is offered on both sides)."""

import json
import math
from pathlib import Path

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from tests.support.planned import planned as shared_plan  # once per session, shared with other files

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "bench" / "advice_scenarios"
LANGS = ("en", "zh_CN")


def _answers(stem: str) -> dict:
    return json.loads((SCENARIOS / f"{stem}.json").read_text(encoding="utf-8"))["answers"]


def _two_node_cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(SCENARIOS.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["expected"].get("region") == "mainland_plus_overseas":
            cases.append((path.stem, data["answers"]))
    # the same part offered on both sides (A10): the overseas node runs it too, sized and priced apart
    cases.append(("q34_on_a10", {**_answers("q34_mixed_users_split"), "gpu_constraint": ["a10"]}))
    return cases


CASES = _two_node_cases()


@pytest.fixture(scope="module", params=CASES, ids=[c[0] for c in CASES])
def planned(request):
    return request.param[0], request.param[1], shared_plan(request.param[1])


def test_there_are_two_node_scenarios_to_check():
    assert len(CASES) >= 3  # q05, q34 and the A10 variant


def test_the_headline_is_the_sum_of_the_nodes(planned):
    _, answers, r = planned
    assert r.region == "mainland_plus_overseas" and r.deployment_form == "cloud"
    assert [n.region == "mainland" for n in r.nodes] == [True, False], r.nodes
    main, over = r.nodes
    # each node carries its own share of the peak: the mainland share rounded up, the rest overseas
    peak = answers["peak_concurrency"]
    assert main.peak == math.ceil(peak * answers["user_mix"]["mainland"] - 1e-9)
    assert over.peak == math.ceil(peak * answers["user_mix"]["overseas"] - 1e-9)
    # each with its own N+1 (a public or business service), counted in its own GPUs
    assert main.spare_units >= 1 and over.spare_units >= 1
    assert main.total_gpus == main.units * main.unit_gpus and over.total_gpus == over.units * over.unit_gpus
    # the headline: GPU count and monthly cost are the two nodes' sum; hardware is the mainland node's
    assert r.costs.gpus == main.total_gpus + over.total_gpus
    assert (r.hardware.gpu, r.hardware.total_gpus, r.hardware.replicas) == (main.gpu, main.total_gpus, main.replicas)
    m = r.costs.recommended_monthly
    assert m is not None and main.monthly is not None and over.monthly is not None
    assert m.low == pytest.approx(main.monthly.low + over.monthly.low, abs=0.05)
    assert m.high == pytest.approx(main.monthly.high + over.monthly.high, abs=0.05)
    # the mainland node is not counted at the whole peak: fewer GPUs than one setup for everybody on every node
    assert r.capacity.peak_concurrency == main.peak
    assert r.capacity.max_concurrency_per_replica is not None
    assert (main.replicas - 1) * r.capacity.max_concurrency_per_replica >= main.peak  # N+1 holds on its own


def test_the_overseas_node_runs_on_a_part_sold_there_priced_there(planned):
    from advisor.plan.data import facts

    _, _, r = planned
    china = set(facts()["gpu_availability"]["china_market_only"]["gpus"])
    over = r.nodes[1]
    assert over.gpu not in china  # never an H20/L20/4090D/H800 outside the mainland
    split = r.finding("region.split")
    assert split is not None and split.params["peak"] == over.peak and split.params["main_peak"] == r.nodes[0].peak
    assert split.params["monthly"] == money_range(over.monthly, r.costs.currency)


@pytest.mark.parametrize("lang", LANGS)
def test_page_one_and_the_cost_table_agree(planned, lang):
    _, _, r = planned
    memo = render_memo_markdown(r, lang)
    sections = memo.split("\n## ")  # title, 1 decision (page 1), 2 sizing, 3 latency, 4 costs, …
    page1, costs = sections[1], sections[4]
    cur = r.costs.currency
    total = money_range(r.costs.recommended_monthly, cur)
    for n in r.nodes:
        node = money_range(n.monthly, cur)
        assert n.text_in(lang) in page1  # the hardware row names both nodes
        assert node in page1 and node in costs  # page 1's cost parts are the cost table's node rows
    assert total in page1
    gpus = sum(n.total_gpus for n in r.nodes)
    assert (f"{gpus} GPUs in all" if lang == "en" else f"共 {gpus} 张 GPU") in page1
    # no sentence still says the mainland part is counted on every node
    assert "counted on every node" not in memo and "计入了所有节点" not in memo


def test_the_json_lists_the_nodes():
    r = shared_plan(_answers("q05_filed_finetune_mainland_sg"))
    data = r.to_json("en")
    assert [n["region"] for n in data["nodes"]] == ["mainland", "singapore"]
    assert sum(n["total_gpus"] for n in data["nodes"]) == data["costs"]["gpus"]
    one = shared_plan(_answers("q14_medical_followup_mainland"))
    assert one.nodes == [] and one.costs.gpus == one.hardware.total_gpus  # one node: nothing changes


@pytest.mark.parametrize("lang", LANGS)
def test_each_node_gets_its_own_serve_command(planned, lang):
    """The overseas node runs another GPU (or the same one for fewer users) and cannot reach ModelScope's mainland
    mirror: its own command, with its own cap, printed under the mainland node's."""
    _, _, r = planned
    main, over = r.nodes
    assert main.command == r.hardware.command
    assert over.command and "VLLM_USE_MODELSCOPE" not in over.command
    assert main.command and ("VLLM_USE_MODELSCOPE=True" in main.command or "--served-model-name" in main.command)
    memo = render_memo_markdown(r, lang)
    assert over.command in memo and main.command in memo
