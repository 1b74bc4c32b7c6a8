"""Prices the memo shows and counts (issue 25, fifteenth blind review; s25-prices25)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.cloud_overhead import support_applies
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.line_cost import price_row, tiered_monthly
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, only_finding, scenario_memo
from tests.support.weak_prices44 import weak_count

SCENARIOS = sorted(ADVICE_SCENARIOS.glob("q*.json"))


def price_table(memo: str, lang: str) -> list[list[str]]:
    """The cells of each row of the memo's price table (none where it has no table)."""
    head = f"| {translate(lang, 'memo.prices.offer')} |"
    lines = memo.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(head)), None)
    if start is None:
        return []
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip("|").split(" | ")])
    return rows


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem[:3])
def test_weak_price_count_is_the_table_beside_it(path, lang):
    """"5 of 5 prices are grade C or U" stood beside a price table of one row (q15, q16, q27): the count now counts
    exactly the rows the memo's table shows, and the weak ones are those graded C or U that are no user's quote."""
    memo = scenario_memo(path, lang)
    said = weak_count(memo, lang)  # s42-zhx: its words by the count ("the one price used is", "所用的 3 个价格都")
    if said is None:
        return
    rows = price_table(memo, lang)
    weak = [r for r in rows if r[-1][:1] in ("C", "U") and "★" not in r[-1]]
    n, total, words = said
    assert (n, total) == (len(weak), len(rows)), (path.stem, words, rows)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_hosted_api_prices_in_the_table_with_their_grade(lang):
    """q16's plan is a hosted API priced on Qwen2.5-14B's mainland lists (grade C): its input and output list prices
    are rows of the price table with that grade, not only a source at the end."""
    path = ADVICE_SCENARIOS / "q16_public_chatbot_mainland_api.json"
    if not path.exists():
        path = next(p for p in SCENARIOS if p.stem.startswith("q16"))
    plan = advice_plan(path.stem)
    assert plan.deployment_form == "hosted_api"
    api = [p for p in plan.costs.prices if p.id.startswith("api.")]
    assert [p.id for p in api] == ["api.input", "api.output"]
    assert {p.grade for p in api} == {"C"}
    i, o = plan.costs.hosted_api_input_per_million, plan.costs.hosted_api_output_per_million
    assert (api[0].low, api[0].high, api[1].low, api[1].high) == (i.low, i.high, o.low, o.high)  # CNY lists, CNY plan
    rows = price_table(scenario_memo(path, lang), lang)
    shown = [r for r in rows if "Qwen2.5-14B-Instruct" in r[0]]
    assert len(shown) == 2 and all(r[-1].startswith("C") for r in shown)


def test_alibaba_bandwidth_is_tiered_as_its_list_states():
    """Alibaba Cloud's fixed bandwidth: 23 CNY a Mbps for the first 5 Mbps, 80 for each Mbps above (q32's 6 Mbps was
    6 × 80 = 480 CNY; the list gives 5 × 23 + 1 × 80 = 195). The range's top stays 80 on every Mbps (another
    provider's flat rate), so neither end falls as the cap grows."""
    row = price_row("bgp", "mainland", "cloud")
    lo, hi, tier = float(row["low"]), float(row["high"]), float(row["low_up_to_mbps"])
    assert tiered_monthly(6, lo, hi, tier) == 5 * lo + 1 * hi
    assert tiered_monthly(3, lo, hi, tier) == 3 * lo
    lows = [tiered_monthly(n, lo, hi, tier) for n in range(1, 30)]
    assert lows == sorted(lows)
    plan = advice_plan(next(p for p in SCENARIOS if p.stem.startswith("q32")).stem)
    lc = plan.line_cost
    assert lc is not None and lc.mbps > tier and lc.monthly is not None
    assert lc.monthly.low == round(tiered_monthly(lc.mbps, lo, hi, tier), 2)  # CNY plan: no conversion
    assert lc.monthly.high == round(hi * lc.mbps, 2)


@pytest.mark.parametrize("stem", ["q30", "q32"])
def test_aws_support_share_only_on_aws_bills(stem):
    """AWS Business Support's percentages were added to a mainland cloud's GPU bill (q30): no mainland cloud's support
    price is sourced, so a plan renting from one carries no support share and its memo says support is not priced."""
    plan = advice_plan(next(p for p in SCENARIOS if p.stem.startswith(stem)).stem)
    rows = [r for r in plan.costs.prices if r.kind in ("on_demand", "reserved", "monthly")]
    assert rows and not support_applies(rows)
    assert [p.name for p in plan.costs.cloud_overhead_parts if p.name == "support"] == []
    memo = scenario_memo(next(p for p in SCENARIOS if p.stem.startswith(stem)), "en")
    assert "support plan not priced" in memo and "AWS Business Support" not in memo


def test_aws_support_share_kept_on_an_aws_bill():
    """A plan rented from AWS alone keeps the support plan's share (its own provider's published tiers); one renting
    from no AWS row carries none (two-node plans, whose top-level parts are one node's, are left out)."""
    plans = [advice_plan(p.stem) for p in SCENARIOS]
    rented = [(r, [x for x in r.costs.prices if x.kind in ("on_demand", "reserved", "monthly")]) for r in plans
              if r.costs.cloud_overhead_parts]
    aws = [r for r, rows in rented if rows and all(support_applies([x]) for x in rows)]
    none = [r for r, rows in rented if rows and not support_applies(rows)]
    assert aws and none
    assert all(any(p.name == "support" for p in r.costs.cloud_overhead_parts) for r in aws)
    assert all(all(p.name != "support" for p in r.costs.cloud_overhead_parts) for r in none)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("stem", ["q13", "q25", "q37"])
def test_page_one_says_the_part_is_not_sold_there(stem, lang):
    """A node priced from AWS's US row of an instance AWS does not sell in the node's region (prices.json's
    ``not_offered``, sourced): page 1's cost says so where the figure is, once, instead of a generic "stand-in"."""
    path = next(p for p in SCENARIOS if p.stem.startswith(stem))
    plan = advice_plan(path.stem)
    basis = plan.costs.price_basis
    gone = [n for n in basis.not_offered if n.region == basis.stand_in_where] if basis is not None else []
    if not gone:
        pytest.skip(f"{stem} no longer priced on an instance not sold in its region")
    memo = scenario_memo(path, lang)
    where = translate(lang, f"plan.region.{gone[0].region}")
    from advisor.plan import memo_api_rows

    if memo_api_rows.applies(plan):
        # s40-pages (q13 API-led, its L40S fallback): page 1's cost row says the fallback's stand-in short, and
        # section 4's "which prices" says, once, that the provider sells no such instance there, with its source
        full = translate(lang, "prices24.basis.not_offered", provider=gone[0].provider, gpu=gone[0].gpu_name,
                         instance=gone[0].instance, region=where, date=gone[0].date, grade=gone[0].grade)
        assert memo.count(full) == 1, full
        assert memo.count(translate(lang, "pg42.key.stand_in", region=where)) == 1
        assert translate(lang, "rows18.key.stand_in", region=where) not in memo
        return
    said = translate(lang, "prices25.key.not_offered", provider=gone[0].provider, gpu=gone[0].gpu_name,
                     instance=gone[0].instance, region=translate(lang, f"plan.region.{gone[0].region}"))
    assert memo.count(said) == 1
    assert translate(lang, "rows18.key.stand_in", region=translate(lang, f"plan.region.{gone[0].region}")) not in memo


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q10_shows_the_one_server_option_inside_the_budget(lang):
    """q10 rents 2 servers of 8 H800 (4 TP4 replicas, N+1) whose month straddles the ¥150k budget; one server (2 TP4
    replicas, no spare) carries the peak of 8 at the most a replica takes within the target (4) and costs less than
    the budget at its low end. The budget finding says so, at the plan's own prices and factors, with what it gives
    up; the decision (two servers, a spare for a production service) stays."""
    # re-argued by s31-q10lead32 (blind review 21, q10 sent back in both languages: "the one-server option should be
    # the recommendation"): q10 as answered now rents the one server, its spare the named upgrade
    # (``spare_over_budget``); with a per-use charge the N+1 stays, and this direction is pinned there
    plan = advice_plan(next(p for p in SCENARIOS if p.stem.startswith("q10")).stem, charges_users=True)
    hw, c = plan.hardware, plan.costs
    assert (hw.replicas, hw.tp, hw.total_gpus, hw.layout.units) == (4, 4, 16, 2)
    f = only_finding(plan, "cost.budget_straddles")
    assert f.detail_key.endswith("one_server.detail")
    p = f.params
    assert (p["one_gpus"], p["one_replicas"], p["one_tp"], p["one_per"]) == (8, 2, 4, 4)
    gpus = 8
    line = (c.monthly_with_line.low - c.recommended_monthly.low, c.monthly_with_line.high - c.recommended_monthly.high)
    lo = c.cloud_per_gpu_hour.low * HOURS_PER_MONTH * gpus * c.cloud_monthly_factor.low * (1 + c.cloud_overhead.low)
    hi = c.cloud_per_gpu_hour.high * HOURS_PER_MONTH * gpus * c.cloud_monthly_factor.high * (1 + c.cloud_overhead.high)
    assert p["one_cost"] == f"¥{lo + line[0]:,.0f}–¥{hi + line[1]:,.0f}"
    assert lo + line[0] < c.budget_monthly < c.monthly_with_line.high
    text = f.detail_in(lang)
    assert p["one_cost"] in text and (("gives up the spare" in text) if lang == "en" else ("没有备用" in text))


def test_no_one_server_option_where_one_server_cannot_carry_the_peak():
    """The same plan with a peak of 20: two TP4 replicas on one server take at most 8 each within the target (the
    curve's 8-request TTFT p99 is 28.3 s of the 30 s target, and the KV cache caps the replica), 16 < 20: no option."""
    path = next(p for p in SCENARIOS if p.stem.startswith("q10"))
    plan = advice_plan(path.stem, peak_concurrency=20)
    sizing = only_finding(plan, "sizing.plan")
    assert 2 * sizing.params["c_max"] < 20
    f = plan.finding("cost.budget_straddles")
    assert f is None or not f.detail_key.endswith("one_server.detail")
