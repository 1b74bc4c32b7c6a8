"""The cloud uplift by component and the cost per million at an idle share (s22-uplift22c, issue 25, costs).

Blind review 12 sent back two cost items:

- every rented GPU-hour carried a flat 1.3–1.5× "egress, storage and management" (q03's private WAN, q06's and
  q28's internal batch jobs, q24). Now storage and a support plan (each sourced) on every rented setup, and egress
  only where the answers stream to users over the public internet from a cloud billing per GB, priced on the month's
  own output tokens; the memo names the parts once, with sources, or why there is no egress;
- the cost per million tokens at a 1–3 % busy share (q03) read as filler: main took that part alone and its tests are
  in ``test_idle_per_million22.py`` (the branch's copies of them were dropped at the merge, s23-uplift23).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import cloud_overhead
from advisor.plan.cost import HOURS_PER_MONTH
from advisor.plan.data import factor_range, gpu_choice_facts
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned, scenario_memo, scenario_plan

LANGS = ("en", "zh_CN")
Q03 = ADVICE_SCENARIOS / "q03_hospital_private_wan_medical.json"
Q06 = ADVICE_SCENARIOS / "q06_l20_batch_72h_claims.json"
Q24 = ADVICE_SCENARIOS / "q24_us_saas_rent.json"
Q32 = ADVICE_SCENARIOS / "q32_filed_public_chatbot_fast.json"
FORMULA = {"en": "| How the cloud cost is worked out |", "zh_CN": "| 云成本的算法 |"}
CLOUD_MONTH = {"en": "| Cloud GPU servers, per month |", "zh_CN": "| 云 GPU 服务器，每月 |"}


def _row(text: str, labels: tuple[str, ...]) -> str:
    return next((line for line in text.splitlines() if line.startswith(labels)), "")


def _formula(path, lang: str, text: str | None = None) -> str:
    """The cost table's worked product (its own row, or the cloud month row that holds it, s22-pages22)."""
    return next(line for line in (text or scenario_memo(path, lang)).splitlines()
                if line.startswith((FORMULA[lang], CLOUD_MONTH[lang])) and "GPU·h ×" in line)


def _private_rentable(lang: str) -> str:
    """q03 with data of medium sensitivity: its private WAN kept, a rented node allowed (joined over a VPN). q03 as
    answered (highly sensitive data that must stay inside) prints no rent arithmetic at all (s37-quote,
    ``rent_ruled_out39``)."""
    answers = advice_answers(Q03.stem)
    answers["data_sensitivity"] = {**answers["data_sensitivity"], "level": "medium"}
    return render_memo_markdown(planned(answers), lang)


def _rented(support: bool = True) -> tuple[float, float]:
    """Storage + the support plan's share; ``support``: False where the GPUs are not rented from AWS, whose support
    tiers are the only support price sourced (s25-prices25, q30: AWS's percentages were put on a mainland bill)."""
    (s_lo, s_hi), (p_lo, p_hi) = factor_range("overhead_storage_share"), factor_range("overhead_support_share")
    return (s_lo + p_lo, s_hi + p_hi) if support else (s_lo, s_hi)


def _aws(costs) -> bool:
    return cloud_overhead.support_applies([r for r in costs.prices if r.kind in ("on_demand", "reserved", "monthly")])


@pytest.mark.parametrize(("path", "why"), [(Q06, "batch"), (Q03, "private"), (Q32, "line")],
                         ids=["q06_batch", "q03_private_wan", "q32_bgp_line"])
def test_no_egress_where_nothing_streams_to_the_public_internet_per_gb(path, why):
    """A batch job, a private WAN and a node whose BGP line carries its users' traffic pay storage and support
    only: the share is their two sourced factors summed, not the whole-bill survey's 30–50 %. These three rent from
    mainland clouds: since s25-prices25 AWS's support tiers are not put on their bills (no mainland cloud's support
    price is sourced), so storage alone is summed, and the memo says support is not priced."""
    c = scenario_plan(path).costs
    # s24-prices24 (round 13, q35/q38/q41): a rented node on a private WAN joins it by a site-to-site VPN, whose
    # gateway bills a month whatever the traffic: a third part there, still no per-GB egress (test_prices24)
    vpn = [p for p in c.cloud_overhead_parts if p.name == "vpn"]
    support = ["support"] if _aws(c) else []
    assert [p.name for p in c.cloud_overhead_parts] == ["storage", *support, *(["vpn"] if why == "private" else [])]
    assert c.cloud_egress_skipped == why
    lo, hi = _rented(bool(support))
    assert (c.cloud_overhead.low, c.cloud_overhead.high) == pytest.approx(
        (lo + sum(p.low for p in vpn), hi + sum(p.high for p in vpn)), abs=1e-4)
    assert c.cloud_overhead.high < factor_range("overhead_share")[0]  # below the flat uplift's low end


def test_a_public_service_pays_egress_on_its_own_streamed_tokens():
    """q24 streams its answers to users over the internet from a US cloud: egress = the month's output tokens ×
    bytes per streamed token × the per-GB price, said as its share of the on-demand GPU bill so the memo's product
    of printed factors still gives the printed cost."""
    c = scenario_plan(Q24).costs
    assert c.cloud_egress_skipped is None
    eg = next(p for p in c.cloud_overhead_parts if p.name == "egress")
    b = gpu_choice_facts()["line_bandwidth"]["bytes_per_streamed_token"]
    high_tokens = max(c.output_tokens_per_month, c.output_tokens_per_month_high or 0)
    assert eg.egress_gb.low == pytest.approx(c.output_tokens_per_month * b["low"] / 1e9, abs=0.05)
    assert eg.egress_gb.high == pytest.approx(high_tokens * b["high"] / 1e9, abs=0.05)
    r_lo, r_hi = factor_range("egress_per_gb_usd")
    assert eg.cost.low == pytest.approx(eg.egress_gb.low * r_lo, rel=0.01)
    assert eg.cost.high == pytest.approx(eg.egress_gb.high * r_hi, rel=0.01)
    price, billed = c.cloud_per_gpu_hour, c.cloud_billed_gpus
    assert eg.low * price.low * billed * HOURS_PER_MONTH == pytest.approx(eg.cost.low, rel=0.01)
    assert (c.cloud_overhead.low, c.cloud_overhead.high) == pytest.approx(
        (_rented(_aws(c))[0] + eg.low, _rented(_aws(c))[1] + eg.high), abs=1e-4)  # a marketplace row: no AWS support
    od = c.cloud_on_demand_monthly
    assert od.low == pytest.approx(price.low * billed * HOURS_PER_MONTH * (1 + c.cloud_overhead.low), rel=1e-3)


def test_egress_grows_with_the_tokens_and_is_unknown_without_them():
    """Twice the tokens, twice the egress (the same GPU bill); no tokens, no egress part (unknown, never a zero)."""
    bill = (1000.0, 2000.0)
    one = cloud_overhead.egress_part(1e9, None, bill, 1.0, "USD")
    two = cloud_overhead.egress_part(2e9, None, bill, 1.0, "USD")
    assert one is not None and two is not None
    assert two.cost.low == pytest.approx(2 * one.cost.low) and two.high == pytest.approx(2 * one.high)
    assert cloud_overhead.egress_part(0, None, bill, 1.0, "USD") is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_memo_names_the_parts_that_apply_once_with_their_sources(lang):
    """q03 (private WAN): storage and support, no egress to the internet and the site-to-site VPN it joins the WAN by
    (s24-prices24: that reason replaces the LAN-or-private-network one, the node being rented); q24 (public): egress
    with its GB a month and its per-GB price. The flat "egress, storage and management" wording is gone from both."""
    flat = {"en": "egress, storage and management", "zh_CN": "出网流量、存储和管理费"}[lang]
    private, public = _formula(Q03, lang, _private_rentable(lang)), _formula(Q24, lang)
    no_egress = {"en": "no egress to the internet", "zh_CN": "不计公网出网流量"}[lang]
    assert no_egress in private and translate(lang, "prices24.src.vpn_mainland") in private and flat not in private
    assert translate(lang, "uplift22c.src.egress") not in private
    eg = next(p for p in scenario_plan(Q24).costs.cloud_overhead_parts if p.name == "egress")
    assert translate(lang, "uplift22c.src.egress") in public and "GB" in public and flat not in public
    assert f"{eg.per_gb.low:.3g}–{eg.per_gb.high:.3g}" in public
    for path, memo in ((Q03, _private_rentable(lang)), (Q24, scenario_memo(Q24, lang))):
        assert memo.count(translate(lang, "uplift22c.src.storage")) == 1, path.stem
        assert flat not in memo, path.stem


@pytest.mark.parametrize("lang", LANGS)
def test_a_batch_job_says_once_that_it_streams_nothing(lang):
    """q06: why the job pays no egress is said once, in the cost table's worked product."""
    memo = scenario_memo(Q06, lang)
    said = {"en": "a batch job streams nothing to users", "zh_CN": "批处理任务不向用户推送内容"}[lang]
    assert memo.count(said) == 1, memo


def test_the_printed_factors_multiply_to_the_printed_cost_with_egress():
    """q24 (s23-uplift23): egress adds 0.2 % at the high end; the factor printed to three figures ("1.25") made the
    printed product 2 × 730 h × 5 USD × 1.25 = 9,125 against 9,141 beside it. The factor keeps a fourth figure where
    the third would move the product by more than 0.05 %, so the printed numbers multiply to the printed cost."""
    r = scenario_plan(Q24)
    c = r.costs
    row = _row(scenario_memo(Q24, "en"), (CLOUD_MONTH["en"], FORMULA["en"]))
    factor = row.split("USD/GPU·h × ")[1].split(" ")[0]
    lo, hi = (float(x) for x in factor.split("–"))
    price = c.cloud_per_gpu_hour
    for f, p, od in ((lo, price.low, c.cloud_on_demand_monthly.low), (hi, price.high, c.cloud_on_demand_monthly.high)):
        assert c.cloud_billed_gpus * HOURS_PER_MONTH * p * f == pytest.approx(od, rel=5e-4), (factor, od)
    assert f"{c.cloud_on_demand_monthly.high:,.0f}" in row
