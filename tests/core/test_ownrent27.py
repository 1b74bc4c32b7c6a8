"""Own against rent: the decision follows the figures it prints (s27-own27, issue #25; blind reviews 15 and 16 sent
back q26/q31 in both languages: "owning pays at 75-80 % over three years" under a headline whose own middle favours
renting, payback 60/65 months against a 36-month horizon).

1. Where renting is cheaper at the middle, page 1 leads with renting and owns only on the purchase threshold it
   prints (s27-ownrent27b, blind review 17: the hybrid spare as a second headline branch read as "buy 2, buy 3 or
   rent"). The hybrid spare is costed in the finding: a server-day of rent from the printed rent a GPU, and the
   server-days the horizon's saving pays for from the printed months.
2. Staff: one rule (``staff_servers``), an engineer's share per server bought, in the owning month (``cost.compute``)
   and in the owning form (``forms._own``): both give the same staff figure in every advice scenario.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from advisor.plan import node_shapes, staff_servers
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import advice_answers, advice_plan, bought_now, only_finding, scenario_plan

ADVICE = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
SCENARIOS = sorted(ADVICE.glob("q*.json"))
Q26, Q31 = "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"
LANGS = ("en", "zh_CN")
RECOMMENDATION = {"en": "**Recommendation**:", "zh_CN": "**建议**："}
RENT_FIRST = {"en": "**Recommendation**: Rent for now", "zh_CN": "**建议**：先租用"}


def _yuan(text: str) -> float:
    return float(re.sub(r"[^\d.]", "", text))


# s28-own28 re-argued: q26 bought like for like pays back within its horizon (test_own28), so only q31 keeps a
# middle that favours renting
@pytest.mark.parametrize("name", [Q31])
@pytest.mark.parametrize("lang", LANGS)
def test_headline_owns_only_on_the_printed_threshold(name: str, lang: str) -> None:
    # s29-prices29 re-argued: at Alibaba's sourced L20 rent (¥14.63 an hour) q31's middle favours owning and it
    # owns (test_ownrent24's test_q31_owns_at_the_sourced_l20_rent_and_says_the_tie); the rent-first page 1 this
    # protects is q31 at the former placeholder rents, given as quotes (no advice scenario has that middle now)
    r = former_rents_plan(name)
    f = only_finding(r, "cost.buy")
    assert f.params["mid"]["mid_months"] > f.params["months"]  # the plan as sized (with its spare) pays back too late
    head = next(line for line in memo_document(r, lang).markdown().splitlines() if line.startswith(RECOMMENDATION[lang]))
    # s27-ownrent27b re-argued (blind review 17, q26/q31 both languages: "a reader cannot tell whether the advice is
    # buy 2, buy 3 or rent"): the headline named the spare-less servers (own27) beside a hardware row, cost row and
    # step 1 that buy all 3. Now it leads with renting at today's figures and owns only on the threshold that the
    # rows, step 1 and the finding share; never "own" alone beside a middle that favours renting.
    assert RENT_FIRST[lang] in head and f.params["threshold"]["max_purchase"] in head, head
    lean = f.params["lean"]
    assert not (lean.get("day") and lean["day"] in head), head  # one purchase branch on page 1


def test_q26_keeps_the_hybrid_spare_in_its_finding() -> None:
    # q26: without the spare server the 2 servers the load needs pay back within the 36 months at the middle (own26's
    # figure). s28-own28 re-argued: that is now the plan itself (own_like, blind review 17b: "an expert would own 2
    # servers in fp8 with a costed repair-day rental"), no longer a figure beside a 3-server plan: the hardware row
    # buys the 2 servers and the finding says how a failed one is covered, in both languages
    r = bought_now(advice_answers(Q26))
    f = only_finding(r, "cost.buy")
    assert r.hardware.total_gpus == r.costs.own_like["gpus"] == 16 and r.hardware.layout.spare_units == 0
    # session 31 re-argued (blind review 20, q26 en/zh: the H20's rent is a placeholder and its cloud supply unsure):
    # the repair-day rent is still counted in the month, said as no sure cover (``repair_cover``)
    # s32-q26own re-argued (blind review 22: that unsure supply is the rented side's too, so neither side counts a
    # spare server): still counted, said with the vendor's parts cover both sides rely on (``like_cover``)
    assert f.params["spare"]["tr"] == "owncover33.spare.parts" and r.costs.own_like["payback_mid"] <= 36
    for lang in LANGS:
        memo = memo_document(r, lang).markdown()
        assert render(lang, f.title_key, f.params) in memo


@pytest.mark.parametrize("lang", LANGS)
def test_hybrid_spare_costed_from_the_printed_figures(lang: str) -> None:
    # s28-own28 re-argued: the hybrid spare is the plan's (above), costed in its month from the rent it prints: the
    # expected server-days a month × a server's cards at the printed rent a GPU, a day of a 730-hour month
    from advisor.plan import own_like

    r = advice_plan(Q26)
    c = r.costs
    per_gpu = (c.cloud_monthly.low / c.gpus, c.cloud_monthly.high / c.gpus)
    days = own_like.repair_server_days_month(r.hardware.total_gpus)
    unit = r.hardware.layout.unit_gpus
    expect = (days[0] * unit * per_gpu[0] * 24 / 730, days[1] * unit * per_gpu[1] * 24 / 730)
    rep = c.bare_metal_repair_monthly
    assert rep.low == pytest.approx(expect[0], rel=0.01) and rep.high == pytest.approx(expect[1], rel=0.01)
    # it is in the owning month: the month less it is the purchase spread and the running costs alone
    parts = (c.bare_metal_amortised_monthly, c.bare_metal_power_monthly, c.bare_metal_colo_monthly,
             c.bare_metal_staff_monthly)
    assert c.bare_metal_monthly.high == pytest.approx(sum(p.high for p in parts) + rep.high, rel=0.001)
    # and the cost table says it beside the purchase, in this language
    assert f"{rep.low:,.0f}–{rep.high:,.0f}" in memo_document(r, lang).markdown()


@pytest.mark.parametrize("lang", LANGS)
def test_tie_finding_does_not_say_owning_pays_where_its_middle_does_not(lang: str) -> None:
    old = {"en": "the load at which owning a GPU pays.", "zh_CN": "这正是自购 GPU 划算的负载"}
    for name in (Q26, Q31):
        assert old[lang] not in memo_document(advice_plan(name), lang).markdown()


def test_staff_servers_counts_the_servers_bought() -> None:
    assert staff_servers.count(12, 4) == 3  # q31: 3 servers of 4 × L20, not 2 "8-GPU nodes"
    assert staff_servers.count(24, 8) == 3
    assert staff_servers.count(12) == 2  # not laid out in servers: 8-GPU servers
    assert staff_servers.count(1, 4) == 1


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_staff_is_one_rule_in_the_owning_month_and_the_owning_form(path: Path) -> None:
    r = scenario_plan(path)
    c = r.costs
    own = getattr(c, "owned", None) if c is not None else None
    if c is None or own is None or c.bare_metal_staff_monthly is None or not own.staff_counted or own.fleet_gpus:
        pytest.skip("no owning month beside an owning form that counts staff")
    lay = r.hardware.layout if r.hardware is not None else None
    if r.deployment_form not in node_shapes.OWNED_FORMS or lay is None or lay.unit != "server":
        # a rented plan's owning form is laid out afresh in bought servers (``forms.owned_layout``, a spare server
        # where the service needs one) while its owning month costs the rented GPUs: two layouts, one rule
        pytest.skip("the plan buys no servers")
    if own.gpus_owned != lay.units * lay.unit_gpus:
        pytest.skip("the form owns another count than the plan (a base with a rented burst)")
    assert (own.staff_monthly.low, own.staff_monthly.high) == pytest.approx(
        (c.bare_metal_staff_monthly.low, c.bare_metal_staff_monthly.high), rel=1e-6)


Q01, Q02, Q03 = "q01_office_lan_capex_contracts", "q02_office_lan_small_design_agency", "q03_hospital_private_wan_medical"


def _numbers(text: str) -> list[float]:
    return [float(x.replace(",", "")) for x in re.findall(r"\d[\d,]*(?:\.\d+)?", text)]


@pytest.mark.parametrize("lang", LANGS)
def test_office_payback_follows_from_the_rent_printed_beside_it(lang: str) -> None:
    # round 16, q01: "5.7–35 months does not obviously follow from the rent range given". Re-argued in s33-rows34
    # (blind review 23): q01 buys on a one-off budget alone and weighs no rent (tests/core/test_office_box19.py), and
    # q02's always-on VM is over its monthly budget, so its one payback is against the marketplace rent the table
    # prints: the best case follows from the printed purchase's low end over that rent's high end less the running
    # month's low end, the worst case is beyond the horizon
    r = advice_plan(Q02)
    memo = memo_document(r, lang).markdown()
    label = "| Owning pays off |" if lang == "en" else "| 自购回本时间 |"
    row = next(line for line in memo.splitlines() if line.startswith(label))
    c, o = r.costs, r.costs.owned
    best = o.capex.low / (c.cloud_monthly.high - o.running_monthly.low)
    assert o.capex.high / (c.cloud_monthly.low - o.running_monthly.high) > c.horizon_months
    # blind review 35 (cst44, q02): that marketplace payback is the like-for-like one ("against the 4090 D rent it is
    # closer to two years"), said after the LAN-only requirement as the reason to buy (review 34 had dropped it)
    assert f"about {best:,.0f} months" in row or f"约 {best:,.0f} 个月" in row, row
    vm = c.payback_vm
    assert vm is not None and f"{vm['low']:,.0f}–{vm['high']:,.0f}" in row  # named only as over the budget
    # review 24 (q02 m3 partial both languages: "the payback that matters for a LAN-only tool is buried"): the VM's
    # payback said once, first, the VM named over the monthly budget
    assert row.count(c.break_even_months.text(lang, "months")) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_rent_instead_of_paying_up_front_keeps_the_data_duties(lang: str) -> None:
    # round 16, q03: "'rent it if the purchase cannot be paid up front' should remind that rented cloud GPUs must also
    # be mainland, classified-protection compliant and under a data-processing contract"
    # Re-argued in session 30 (review30, blind review 19, q03: renting "via site-to-site VPN contradicts 'the data must
    # stay in the private network'"): where the answers keep highly sensitive data on the private network renting is
    # no fallback at all, so the reminder goes with it; q03's answers with the data one level less sensitive (still
    # personal information) are offered the rent again, with the reminder
    reminder = render(lang, "own27.rent_terms.pi", {})
    q03_medium = {**advice_plan(Q03).answers["data_sensitivity"], "level": "medium"}
    plans = {Q02: advice_plan(Q02), Q03: advice_plan(Q03),
             "q03 medium": advice_plan(Q03, data_sensitivity=q03_medium)}
    with_pi = [n for n, r in plans.items() if r.answers["data_sensitivity"].get("personal_info")]
    assert with_pi == [Q03, "q03 medium"]
    for name, r in plans.items():
        memo = memo_document(r, lang).markdown()
        offered = name in with_pi and name != Q03
        assert (reminder in memo) == offered, name
