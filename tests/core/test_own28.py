"""Own vs rent like for like, and the decided form follows the figures (s28-own28, issue 25; blind reviews 14–17b:
q26 bought 24 H20 in bf16 with a whole spare server against 16 rented in fp8, and q26/q31's page 1 said "rent for
now" while ``deployment_form`` stayed ``bare_metal``)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from advisor.plan import answers_from_dict, make_plan, own_like, rent_first27
from advisor.plan.memo import memo_document
from advisor.plan.result import MoneyRange
from tests.support.former_l20_rent import former_rents_plan
from tests.support.page_one import page_one
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, advice_plan, bought_now, only_finding

Q26 = "q26_steady_3y_strong_ops_buy"
Q31 = "q31_icp_filed_hosting_move"
# s31-ctb32: renting until a quote pays with the cover leads with renting too, in its own words
RENT_FIRST = {"en": ("**Recommendation**: Rent for now", "**Recommendation**: Rent cloud GPU servers now"),
              "zh_CN": ("**建议**：先租用", "**建议**：现在租用")}
HARDWARE = {"en": "| Hardware |", "zh_CN": "| 硬件 |"}


def _costs(rent_low: float, rent_high: float, *, rented: int = 16, load: int = 14, bought: int = 24,
           unit: int = 8) -> SimpleNamespace:
    """A plan's cost figures as ``own_like`` reads them: 24 GPUs bought (three 8-GPU servers) at ¥165k–216k each,
    running ¥1.1k–2.8k a GPU a month, against ``rented`` GPUs rented for ``rent_low``–``rent_high`` a month."""
    return SimpleNamespace(
        bare_metal_capex=MoneyRange(low=165_000.0 * bought, high=215_625.0 * bought),
        bare_metal_power_monthly=MoneyRange(low=176.0 * bought, high=418.0 * bought),
        bare_metal_colo_monthly=MoneyRange(low=670.0 * bought, high=1327.0 * bought),
        bare_metal_staff_monthly=MoneyRange(low=279.0 * bought, high=1048.0 * bought),
        bare_metal_repair_monthly=None, cloud_monthly=MoneyRange(low=rent_low, high=rent_high), horizon_months=36,
        rent_sized={"gpus": rented, "load_gpus": load, "bought_gpus": bought, "bought_unit_gpus": unit,
                    "weights": "fp8", "bought_weights": "bf16"}, own_like=None)


def test_like_for_like_owns_the_rented_gpus_in_their_format_in_whole_servers():
    got = own_like.figures(_costs(62_713.0, 182_975.0))
    assert got is not None
    assert got.weights == "fp8"  # the rented side's format, not the bf16 the spare-server layout kept
    assert got.gpus == 16 and got.servers == 2  # the 16 rented GPUs fill two 8-GPU servers exactly


def test_the_cheaper_honest_cover_of_a_failed_server_is_chosen_and_its_cost_counted():
    c = _costs(62_713.0, 182_975.0)
    got = own_like.figures(c)
    assert got is not None
    # one server down leaves 8 GPUs, under the load's 14: N+1 inside needs a third server; renting its 8 cards for
    # the expected repair days costs far less than that server's month
    assert got.spare == "repair_rent"
    per_gpu = ((c.cloud_monthly.low / 16), (c.cloud_monthly.high / 16))
    expected = sum(own_like.repair_rent_month(16, 8, per_gpu)) / 2
    assert got.repair_month == pytest.approx(expected)
    assert 0 < got.repair_month < got.other_month  # the other cover (a third server) said with its cost
    # the repair-day rent is in the owning month, so a month without it would be cheaper
    running = sum((p.low + p.high) / 2 for p in (c.bare_metal_power_monthly, c.bare_metal_colo_monthly,
                                                  c.bare_metal_staff_monthly)) * 16 / 24
    assert got.running_mid == pytest.approx(running + got.repair_month)


def test_n_plus_1_inside_where_one_server_down_still_leaves_the_load():
    """q31's shape: 9 L20 rented (8 carry the load), 4-card servers: three servers hold the 9, and two of them
    still hold the load's 8, so N+1 is inside the servers at no extra cost and nothing is rented for repairs."""
    got = own_like.figures(_costs(20_578.0, 63_337.0, rented=9, load=8, bought=12, unit=4))
    assert got is not None and got.spare == "inside" and got.servers == 3 and got.repair_month == 0


@pytest.mark.parametrize("rent_per_gpu_month", [4_000.0, 6_000.0, 8_000.0, 10_000.0, 14_000.0])
def test_the_verdict_follows_the_price_passed_in(rent_per_gpu_month):
    """Figure-driven whatever price row applies: owning pays exactly where its month is under the rent's and the
    purchase pays back within the horizon, and a dearer rent never turns owning from paying to not."""
    mid = rent_per_gpu_month * 16
    got = own_like.figures(_costs(mid * 0.8, mid * 1.2))
    assert got is not None
    assert got.rent_mid == pytest.approx(mid)
    assert got.pays == (got.month_mid < got.rent_mid and got.payback_mid is not None and got.payback_mid <= 36)
    dearer = own_like.figures(_costs(mid * 0.8 * 1.5, mid * 1.2 * 1.5))
    assert dearer is not None and (dearer.pays or not got.pays)


def test_q26_buys_what_it_rents_in_the_same_format():
    r = bought_now(advice_answers(Q26))  # s31-ctb32: q26's purchase, as bought once a quote meets its covered gate (bought_now)
    assert r.deployment_form == "bare_metal"
    like = r.costs.own_like
    assert like is not None and like["pays"]
    # the servers bought are the rented GPUs in the rented format: a bf16 purchase beside an fp8 rent fails here
    assert r.hardware.weights == like["weights"] == "fp8"
    assert r.hardware.total_gpus == like["gpus"] == 16
    sized = r.costs.rent_sized
    assert sized is None or sized.get("weights", r.hardware.weights) == r.hardware.weights
    # the cover of a failed server is in the owning month, and the N+1 finding says how it is held
    assert r.costs.bare_metal_repair_monthly is not None
    # session 31 re-argued (blind review 20, q26): the rented H20 is a placeholder price and an unsure supply, so the
    # finding says so and names the covers left, a third server or written acceptance (test_redundancy31).
    # s32-q26own re-argued (blind review 22, q26): that unsure supply is the rented side's too (sold through sales, by
    # the month), so both sides are covered alike: the vendor's parts cover, today's capacity the failover
    # (test_owncover33); the two covers stay where renting's replacement is sure (test_redundancy31's rent_sure)
    assert only_finding(r, "sizing.redundancy").title_key.endswith("redundancy.repair_parts.title")
    assert only_finding(r, "cost.buy").title_key == "own28.rule.cost.buy.like_own.title"


def test_q31_rents_now_where_owning_like_for_like_costs_more():
    # s29-prices29: at Alibaba's sourced L20 rent q31 owns (its middle favours owning: test_ownrent24); the
    # rent-first branch is tested on the former placeholder rents, given as quotes
    r = former_rents_plan(Q31)
    like = own_like.figures(r.costs)
    assert like is not None and not like.pays  # 12 L20 with N+1 inside dearer than 9 rented at the middle
    assert r.deployment_form == "cloud_then_bare_metal"
    assert rent_first27.applies(r)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("name", [Q26, Q31])
def test_headline_and_deployment_form_say_one_thing(name, lang):
    r = advice_plan(name)
    page = page_one(memo_document(r, lang).markdown())
    # a page 1 that leads with renting is the rent-now-buy-later form; a bought form never leads with renting
    assert any(p in page for p in RENT_FIRST[lang]) == (r.deployment_form == "cloud_then_bare_metal"), page[:600]
    if r.deployment_form == "bare_metal":  # and its hardware row is the setup the cost figures bought
        hardware = next(line for line in page.splitlines() if line.startswith(HARDWARE[lang]))
        assert str(r.hardware.total_gpus) in hardware and r.hardware.weights in hardware, hardware


def test_q31_owns_at_the_sourced_mainland_l20_rent():
    """prices28 wires the sourced Alibaba Cloud L20 rent (¥14.63 an hour on demand, prices27's staged row): passed
    in as a quote, owning like for like pays and the form is bought, the headline no longer rents first."""
    r = make_plan(answers_from_dict(advice_answers(Q31)), quotes=[
        {"gpu": "l20-48g", "kind": "on_demand", "low": 14.63, "high": 14.63, "unit": "CNY/GPU-hour"}])
    assert r.deployment_form == "bare_metal"
    assert not rent_first27.applies(r)


def _owning_scenarios() -> list[str]:
    """The advice scenarios whose expected forms include a bought one (read from the files, not planned)."""
    owned = {"bare_metal", "cloud_then_bare_metal", "on_premises", "hybrid"}
    return sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json")
                  if owned & set(json.loads(p.read_text(encoding="utf-8"))["expected"]["deployment_form"]))


@pytest.mark.parametrize("name", _owning_scenarios())
def test_every_purchase_is_weighed_in_the_rented_format(name):
    """Every plan that buys colocated servers weighs them against a rent of the same format, and a page 1 that
    leads with renting is never a bought form (the JSON and the headline say one thing)."""
    r = advice_plan(name)
    if rent_first27.applies(r):
        assert r.deployment_form == "cloud_then_bare_metal"
    if r.deployment_form != "bare_metal" or r.hardware is None:
        return
    sized = r.costs.rent_sized or {}
    assert sized.get("weights", r.hardware.weights) == r.hardware.weights, sized
