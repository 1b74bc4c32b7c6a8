"""A two-node plan's overseas node on a part priced by its region's own row, the stand-in part named as the one to
quote (issue #25, blind review 25, q34: "The Singapore node uses a GPU with no known seller there … Put an SKU
actually listed in Singapore in the headline") — ``node_supply``, supply_lead's rule one level down."""

from __future__ import annotations

import pytest

from advisor.plan import supply_lead
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from tests.support.planned import advice_answers, planned, unled

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

Q34 = "q34_mixed_users_split"
# s39-sgp (issue #25): since Google Cloud's L4 is priced on the VM that holds the replica, q34's Singapore node is
# sized on one L4 a replica at Singapore's own row from the start (cheaper than the stand-in L40S): nothing to switch.
# q05's Singapore node (its L40S a stand-in, its L4 pairs priced there) is the example of the switch now
SWITCHED = "q05_filed_finetune_mainland_sg"
HARDWARE = {"en": "Hardware", "zh_CN": "硬件"}


def _row(md: str, key: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {key} |"))


def test_overseas_node_leaves_the_stand_in_for_the_part_priced_there() -> None:
    before = unled(advice_answers(SWITCHED))
    fb = before.in_region_fallback
    assert before.nodes is not None and fb is not None and fb["meets"]
    assert before.nodes[1].gpu_name == fb["instead_of"]  # the node rests on the stand-in part
    r = planned(advice_answers(SWITCHED))
    s = r.supply_switch
    assert s is not None and s["node"] and s["kind"] == "region" and s["region"] == fb["region"]
    assert s["gpu"] == fb["instead_of"] and s["lead_gpu"] == fb["gpu"]
    assert r.nodes is not None and r.nodes[1].gpu_name == fb["gpu"]
    assert r.in_region_fallback is None  # nothing left to fall back to: the node is priced on the region's row
    # everything else of the plan kept: the mainland node, the decision, the form
    assert r.nodes[0].model_dump() == before.nodes[0].model_dump()
    assert (r.hardware.gpu, r.region, r.deployment_form, r.feasible) == \
        (before.hardware.gpu, before.region, before.deployment_form, before.feasible)
    assert r.costs.within_budget is not False
    assert "gpu_constraint" not in r.answers


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_and_the_step_name_the_part_to_quote(lang: str) -> None:
    r = planned(advice_answers(SWITCHED))
    s = r.supply_switch
    assert s is not None
    md = render_memo_markdown(r, lang)
    hw = _row(md, HARDWARE[lang])
    assert s["lead_gpu"] in hw and s["gpu"] in hw and round_money(s["below"]) in hw
    n = supply_lead.step_number(r, 3)
    assert n is not None and str(n) in hw
    step = r.next_steps[n - 1]
    assert step.id == supply_lead.STEP_ID
    assert f"{s['n']} × {s['gpu']}" in step.text_in(lang) and round_money(s["below"]) in step.text_in(lang)
    assert step.text_in(lang).count(s["lead_gpu"]) >= 1
    split = r.finding("region.split")
    assert split is not None and s["gpu"] in split.detail_in(lang) and s["lead_gpu"] in split.detail_in(lang)


def test_the_switch_figure_is_the_node_s_own_low_end() -> None:
    r = planned(advice_answers(SWITCHED))
    s = r.supply_switch
    ov = r.nodes[1]
    assert ov.monthly is not None and s["below"] == pytest.approx(ov.monthly.low, abs=0.01)


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_node_on_a_part_priced_there_is_left_alone() -> None:
    """q05's Singapore node is on the L4, priced by Google Cloud's Singapore row: nothing to move."""
    r = planned(advice_answers("q05_filed_finetune_mainland_sg"))
    before = unled(advice_answers("q05_filed_finetune_mainland_sg"))
    assert r.supply_switch is None and r.nodes[1].gpu_name == before.nodes[1].gpu_name


def test_node_over_budget_keeps_the_stand_in() -> None:
    before = unled(advice_answers(Q34))
    budget = before.nodes[0].monthly.high  # no room left for any overseas node on its own row
    a = advice_answers(Q34)
    r = planned({**a, "monthly_budget": {**a["monthly_budget"], "amount": budget}})
    assert r.supply_switch is None or not r.supply_switch.get("node")
