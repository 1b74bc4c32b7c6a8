"""Purchase rules and next steps as the decision reads them (issue #25, blind review 31; s39-plan41).

A. A monthly budget's ceiling far above the estimate is room, not a price to order at (q03); the break-even against
   renting stays the buy rule, now the first sentence (q26, q31; review 34: no "Get quotes, then decide" before it,
   the purchase's earliest date after the estimate); over a one-off budget a nearly idle
   service's smaller setup serves the load, no degraded option (q17).
B. After an infeasible plan's decision, the steps follow its path (q40: none for the ruled-out self-hosted setup where
   the API is the answer; q30: the tests run on the setup the change keeps).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import budget_room41, capex_condition, quiet_peak41, quote_lead35, supply_lead
from advisor.plan.critical_steps import BENCH_IDS, DECIDE_ID
from advisor.plan.memo import render_memo_markdown
from advisor.plan.placeholder_purchase import _gate_money
from tests.support.planned import advice_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")
Q03, Q17, Q26, Q31 = ("q03_hospital_private_wan_medical", "q17_capex_only_university_lab",
                      "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move")
Q30, Q40 = "q30_unfiled_finetune_public_30d", "q40_tiny_budget_72b"


def _headline(memo: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(("**Recommendation**", "**建议**")))


def _step_one(memo: str) -> str:
    return memo.split("**Next steps:**" if "**Next steps:**" in memo else "**下一步：**", 1)[1].split("\n1. ", 1)[1] \
        .split("\n", 1)[0]


def _decided(lang: str) -> str:
    return translate(lang, "plan41_form.decide", form="").strip()


def _first_sentence(head: str, lang: str) -> str:
    body = head.split("**", 2)[2].lstrip(": ：")
    return body.split(". " if lang == "en" else "。", 1)[0]


# ---- A: the budget's ceiling far above the estimate (q03) ----------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q03_budget_ceiling_far_above_the_estimate_is_room_not_an_order_price(lang: str) -> None:
    r = advice_plan(Q03)
    gate = r.costs.price_gate
    assert gate["kind"] == "budget" and budget_room41.roomy(gate)
    assert gate["per_server"] >= budget_room41.ROOM * gate["estimate_high_per_server"]
    memo = render_memo_markdown(r, lang)
    ceiling = _gate_money(gate["per_server"], gate["currency"])
    head, step = _headline(memo), _step_one(memo)
    assert ceiling not in head and ceiling not in step  # nothing a vendor could read as the accepted price
    servers = gate["servers"]
    capex = r.costs.owned.capex
    each = f"¥{round(capex.low / servers, -3):,.0f}–¥{round(capex.high / servers, -3):,.0f}"
    assert each in head and each in step  # the estimate a server is the planning price
    budget = _gate_money(gate["budget"], gate["currency"])
    room = {"en": "leaves room", "zh_CN": "仍有"}[lang]
    # the budget said as room above it, once: in the recommendation; step 1 judges the quotes against the estimate
    # and points up to it, section 7's finding keeps the price basis (rep44, review 35: q03 "said three times")
    assert budget in head and room in head
    assert budget not in step and room not in step and translate(lang, "rep44.next.budget_room_said") in step
    assert ("order only if" if lang == "en" else "才下单") not in head + step
    # section 7's finding no longer points to a ceiling in step 1
    capex = next(f for f in r.findings if f.id == "cost.placeholder_purchase").params["capex"]
    assert translate(lang, "rep44.placeholder_purchase.room_said.detail", gpu=r.hardware.gpu_name, capex=capex) in memo
    assert translate(lang, "plan41.rule.cost.placeholder_purchase.room.detail", gpu=r.hardware.gpu_name,
                     capex=capex) not in memo


def test_a_budget_ceiling_near_the_estimate_stays_the_order_rule() -> None:
    near = {"kind": "budget", "per_server": 500_000.0, "estimate_high_per_server": 460_000.0}
    assert not budget_room41.roomy(near)
    assert budget_room41.roomy({**near, "per_server": 460_000.0 * budget_room41.ROOM})
    assert not budget_room41.roomy({**near, "kind": "rent", "per_server": 2_000_000.0})  # a break-even is a rule
    assert not budget_room41.roomy({**near, "per_server": None})


# ---- A: the break-even against renting is the first sentence (q26, q31; review 34) ---------------------------------

@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q26, Q31])
def test_break_even_gate_is_the_headlines_buy_rule_after_get_quotes(name: str, lang: str) -> None:
    r = advice_plan(name)
    gate = r.costs.price_gate
    assert gate["kind"] == "rent" and gate["per_server"] is not None
    head = _headline(render_memo_markdown(r, lang))
    assert _decided(lang) not in head, head  # review 34: the threshold line itself comes first
    first = _first_sentence(head, lang)
    gate_said = _gate_money(gate["per_server"], gate["currency"])
    if name == Q26:  # the cover-aware gate a server, rounded as the finding rounds it (its own figure)
        gate_said = next(f for f in r.findings if f.id == "cost.buy").params["spare"]["per_server"]
    assert gate_said in first  # the one buy/rent threshold a server, in the first sentence
    assert ("otherwise rent" if lang == "en" else "否则租用") in first
    assert head.count(gate_said) == 1
    if name == Q31:  # the one rule a server, not the same threshold in all beside it (review 31)
        rule = {"en": f"Buy {gate['servers']} servers if", "zh_CN": f"就购买这 {gate['servers']} 台"}[lang]
        assert rule in first
        # review 34 (q31): the decision says the threshold, the expected price and the cutover date
        tl = r.timeline
        cutover = {"en": f"the earliest cutover is in {tl.launch_days_low}–{tl.launch_days_high} days",
                   "zh_CN": f"最早 {tl.launch_days_low}–{tl.launch_days_high} 天可完成切换"}[lang]
        assert cutover in head and head.index("expect about" if lang == "en" else "预计每台约") < head.index(cutover)
        edge = next(f for f in r.findings if f.id == "cost.buy").params
        assert edge["max_purchase"] not in head  # the same threshold in all is not said beside it
        assert f"{edge['util']} %" in head if lang == "en" else f"{edge['util']}%" in head  # the load it rests on
        assert head.index(gate_said) < head.index("expect about" if lang == "en" else "预计每台约")


# ---- A: over a one-off budget, a nearly idle service's smaller setup (q17) ------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q17_smaller_setup_serves_a_nearly_idle_lab_without_sign_off(lang: str) -> None:
    r = advice_plan(Q17)
    s = capex_condition.smaller(r)
    assert s is not None and s["holds"] < s["peak"]
    busy = quiet_peak41.busy(r)
    assert busy is not None and float(r.costs.usage_high or r.costs.utilisation) <= quiet_peak41.QUIET
    memo = render_memo_markdown(r, lang)
    head = _headline(memo)
    # review 34: where the purchase hinges on the quote, the threshold line is the first sentence, its "otherwise"
    # the smaller setup right after it (no "Get quotes, then decide." before it, no estimate's basis between)
    assert _decided(lang) not in head
    first = _first_sentence(head, lang)
    budget = f"{r.costs.owned.capex_budget:,.0f}"
    assert budget in first and (f"otherwise {s['gpus']} ×" if lang == "en" else f"否则买 {s['gpus']} 张") in first
    for word in {"en": ("degraded", "sign-off"), "zh_CN": ("降级", "书面同意")}[lang]:
        assert word not in memo.split("\n## ", 2)[1], word  # page 1: headline, feasibility row, steps
    assert f"{busy} %" in head if lang == "en" else f"{busy}%" in head
    assert str(s["holds"]) in head and str(s["peak"]) in head  # what it holds of the rare peak, the plan's figures


def test_q17_smaller_setup_stays_degraded_where_the_service_is_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    r = advice_plan(Q17)
    monkeypatch.setattr(quiet_peak41, "QUIET", 0.0)
    assert quiet_peak41.busy(r) is None
    assert "degraded option" in quote_lead35.straddle_clause(r, "en")


# ---- B: the steps after an infeasible plan's decision (q40, q30) ----------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q40_api_answer_lists_no_steps_for_the_ruled_out_self_hosted_setup(lang: str) -> None:
    r = advice_plan(Q40)
    assert not r.feasible and r.fixes[0].id == "hosted_api"
    first = r.next_steps[0]
    assert first.id == DECIDE_ID and first.key == "plan41_next.decide_api"
    assert not any(s.id in BENCH_IDS and s.id != "api_trial" for s in r.next_steps)
    assert not any(s.id == "confirm_instance" for s in r.next_steps)
    memo = render_memo_markdown(r, lang)
    assert first.text_in(lang) in memo
    steps = memo.split("**Next steps:**" if lang == "en" else "**下一步：**", 1)[1].split("\n## ", 1)[0]
    assert r.hardware.gpu_name not in steps


@pytest.mark.parametrize("lang", LANGS)
def test_q30_change_that_keeps_the_setup_tests_that_setup(lang: str) -> None:
    r = advice_plan(Q30)
    step = next(s for s in r.next_steps if s.id == DECIDE_ID)
    assert step.key == "plan41_next.decide_same_setup"
    assert any(s.id == "ramp" for s in r.next_steps)
    text = step.text_in(lang)
    assert ("not the one ruled out" if lang == "en" else "已判定不可行") not in text


# ---- B: a quote to switch parts is no first step days before the launch (q32) ---------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_q32_switch_quote_follows_the_launch_steps_when_the_deadline_is_days_away(lang: str) -> None:
    r = advice_plan("q32_filed_public_chatbot_fast")
    s = r.supply_switch
    assert s is not None and s["kind"] == "sales" and s["deadline_days"] <= supply_lead.SOON_DAYS
    assert r.feasible  # the plan it launches on meets its targets
    ids = [x.id for x in r.next_steps]
    assert ids.index(supply_lead.STEP_ID) > max(ids.index(x) for x in ("serve", "ramp"))
    step1 = _step_one(render_memo_markdown(r, lang))
    assert s["gpu"] not in step1 and s["lead_gpu"] in step1  # step 1 starts the part it runs, not the quote


def test_without_a_near_deadline_the_quote_stays_before_serving() -> None:
    r = advice_plan("q05_filed_finetune_mainland_sg")
    ids = [x.id for x in r.next_steps]
    assert r.supply_switch is not None and r.supply_switch.get("deadline_days") is None
    assert ids.index(supply_lead.STEP_ID) < ids.index("serve")
