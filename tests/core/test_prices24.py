"""Costs an expert would not send back (issue 25, round 13's price notes; s24-prices24).

- A colocated rack's BGP bandwidth is the IDC's own rate (an estimate with its source), not a cloud's fixed-bandwidth
  list (q26: "BGP at ¥80/Mbps is a cloud rate"); a rented plan's BGP keeps the cloud's list.
- A rented node reached only over the company's private network joins it by a site-to-site VPN, costed a month with
  its source and said in the cost arithmetic (q35, q38, q41: "the private link is neither described nor costed"); a
  service on the internet, or a batch job, has none.
- A node in Hong Kong or Singapore priced from AWS's US row says AWS sells no such instance there (q25, q37: "g6e is
  not offered in AWS Hong Kong"), with the source's date and grade; a region with its own rows (Tokyo), or a row whose
  provider does sell there (AWS g5 in Hong Kong), says nothing of the kind.
- A plan launched offshore then moved gives its first year's "in all" with both nodes' lines, as page 1 does, or says
  it is the GPU rent alone (q21: "12 months in all" was rent only beside page 1's total with the lines).
"""

from __future__ import annotations

import pytest

from advisor.plan import phased_cost
from advisor.plan.data import factor, gpu_choice_facts, prices
from advisor.plan.line_cost import price_row
from advisor.plan.memo import memo_document
from advisor.plan.money_text import money_range
from tests.support.planned import advice_answers, advice_plan, bought_now, only_finding, planned, unled

Q21, Q25, Q26, Q37 = "q21_fast_launch_hk_rule1", "q25_hk_bank_retail", "q26_steady_3y_strong_ops_buy", "q37_sg_fintech_public"
Q35, Q38, Q41 = "q35_deepseek_v3_h20_internal", "q38_eu_internal_hr_assistant", "q41_finetune_internal_callcentre"


def _colo_row() -> dict:
    return gpu_choice_facts()["line_bandwidth"]["prices"]["bgp_colo"]


def test_a_colocated_racks_bgp_is_priced_at_the_idcs_rate_and_a_rented_plans_at_the_clouds():
    owned = bought_now(advice_answers(Q26))  # s31-ctb32: q26's purchase, as bought once a quote meets its covered gate (bought_now)
    assert owned.deployment_form == "bare_metal" and owned.line == "bgp"
    lc, colo, cloud = owned.line_cost, _colo_row(), price_row("bgp", "mainland")
    assert lc is not None and lc.per_mbps_month is not None and lc.monthly is not None and lc.source is not None
    assert lc.per_mbps_month.low == pytest.approx(colo["low"]) and lc.per_mbps_month.high == pytest.approx(colo["high"])
    assert lc.monthly.low == pytest.approx(colo["low"] * lc.mbps, abs=0.01)
    assert lc.source.url == colo["url"] and colo["grade"] in "BC" and colo["estimate"] is True
    # the finding cites the IDC's estimate, not the cloud list it no longer prices the line with
    urls = [s.url for s in only_finding(owned, "cost.line_bandwidth").sources]
    assert colo["url"] in urls and cloud is not None and cloud["url"] not in urls
    rented = advice_plan("q07_minors_education_app")
    assert rented.deployment_form == "cloud" and rented.line == "bgp" and rented.line_cost is not None
    assert rented.line_cost.source is not None and rented.line_cost.source.url == cloud["url"]
    assert colo["url"] not in [s.url for s in only_finding(rented, "cost.line_bandwidth").sources]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_page_one_says_the_colocated_line_is_bought_from_the_data_centre_at_an_estimate(lang):
    text = memo_document(bought_now(advice_answers(Q26)), lang).markdown()  # s31-ctb32: q26's purchase, as bought once a quote meets its covered gate (bought_now)
    said = "bought from the data centre with the rack at an estimated rate" if lang == "en" else "随机柜向机房购买的"
    assert said in text
    rented = memo_document(advice_plan("q07_minors_education_app"), lang).markdown()
    assert said not in rented


def _vpn(r):
    return next((p for p in r.costs.cloud_overhead_parts if p.name == "vpn"), None)


@pytest.mark.parametrize(("name", "factor_name"), [(Q38, "site_vpn_usd_month"), (Q35, "site_vpn_cny_month_mainland"),
                                                   (Q41, "site_vpn_cny_month_mainland")])
def test_a_rented_node_on_the_private_network_pays_for_its_site_to_site_vpn(name, factor_name):
    r = advice_plan(name)
    assert advice_answers(name)["reach"] == "private_network" and r.deployment_form == "cloud"
    part, f = _vpn(r), factor(factor_name)
    assert part is not None and part.cost is not None and part.grade == f["grade"] and part.source == f["source"]
    c = r.costs
    month = float(f["low"])
    if c.currency == "USD" and factor_name.endswith("mainland"):
        month /= c.fx_rate
    if c.currency == "CNY" and not factor_name.endswith("mainland"):
        month *= c.fx_rate
    assert part.cost.low == pytest.approx(month, abs=0.01)
    # the share, taken of the on-demand GPU bill, gives back the gateway's month at each end
    per_gpu = c.cloud_per_gpu_hour
    assert per_gpu is not None and c.cloud_billed_gpus
    bill_lo = per_gpu.low * 730 * c.cloud_billed_gpus
    assert part.low * bill_lo == pytest.approx(month, rel=0.02)


@pytest.mark.parametrize("name", [Q37, "q06_l20_batch_72h_claims", Q26])
def test_no_vpn_on_the_internet_for_a_batch_job_or_where_nothing_is_rented(name):
    r = advice_plan(name)
    assert _vpn(r) is None


def test_the_same_service_on_the_internet_drops_the_vpn_and_its_cost():
    private = advice_plan(Q38)
    public = planned({**advice_answers(Q38), "reach": "internet"})
    assert _vpn(private) is not None and _vpn(public) is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_cost_arithmetic_says_how_the_node_joins_the_network_and_what_it_costs(lang):
    r = advice_plan(Q41)
    text = memo_document(r, lang).markdown()
    part = _vpn(r)
    assert part is not None and part.cost is not None
    joins = "site-to-site VPN" if lang == "en" else "站点到站点 VPN"
    row = next(line for line in text.splitlines() if joins in line)
    assert money_range(part.cost, r.costs.currency) in row


def _not_offered(r):
    pb = r.costs.price_basis
    return [] if pb is None else pb.not_offered


@pytest.mark.parametrize(("name", "region"), [(Q25, "hong_kong"), (Q37, "singapore")])
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_an_aws_us_row_standing_in_where_aws_sells_no_such_instance_says_so(name, region):
    r = unled({**advice_answers(name)})
    assert r.region == region and r.hardware.gpu == "l40s"
    [n] = _not_offered(r)
    [row] = [x for x in prices()["not_offered"]["rows"] if "l40s.aws" in x["row_ids"]]
    assert (n.provider, n.instance, n.region, n.date, n.grade) == ("AWS", "g6e", region, row["date"], row["grade"])
    assert region in row["regions"] and row["url"]
    for lang, said in (("en", "AWS sells no NVIDIA L40S 48GB instance (g6e)"), ("zh_CN", "AWS 在")):
        assert said in memo_document(r, lang).markdown()


@pytest.mark.parametrize("name", ["q23_japan_game_npc", Q21, "q20_china_parts_offshore_sg"])
def test_a_region_priced_on_its_own_rows_says_nothing_of_an_instance_not_offered(name):
    # Tokyo's own AWS rows (q23), AWS's g5 in Hong Kong (q21), Google Cloud's L4 in Singapore (q20)
    r = advice_plan(name)
    assert _not_offered(r) == []
    assert "sells no" not in memo_document(r, "en").markdown()


def test_every_not_offered_row_names_price_rows_that_exist_with_a_dated_graded_source():
    ids = {r["id"] for r in prices()["rows"]}
    for n in prices()["not_offered"]["rows"]:
        assert set(n["row_ids"]) <= ids and n["regions"] and n["url"].startswith("https://")
        assert n["grade"] in "ABC" and len(n["date"]) >= 7
        # a row that is the region's own price never says it is not offered there
        assert not any(r["region"] in n["regions"] for r in prices()["rows"] if r["id"] in n["row_ids"])


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q21s_cost_row_gives_the_year_with_both_lines_or_says_it_is_rent_only(lang):
    r = advice_plan(Q21)
    p = r.costs.phased
    assert p is not None and p.total is not None and p.total_with_lines is not None
    cur = r.costs.currency
    row = phased_cost.cost_row(p, cur, lang)[1]
    assert money_range(p.total_with_lines, cur) in row and money_range(p.total, cur) not in row
    assert ("both nodes' lines included" if lang == "en" else "含两个节点的线路") in row
    apart = phased_cost.cost_row(p.model_copy(update={"total_with_lines": None}), cur, lang)[1]
    assert money_range(p.total, cur) in apart
    assert ("GPU rent" in apart and "leaves out the lines" in apart) if lang == "en" else "不含线路" in apart
