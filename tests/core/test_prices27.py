"""Sourced mainland GPU prices in place of placeholders (issue 25: "L20 prices are placeholders"; s27-prices27, wired in
s28-prices28; how the GPU choice ranks a sourced price against a placeholder: test_prices28).

Alibaba Cloud's pay-as-you-go quotes for the L20 and the A10, and GPU-rental platforms' listed prices for the L20,
the RTX 4090 D, the A800 and the H800, each with its source, date and grade (C: read through a third party, not on
the vendor's page here). The H20 and the Ascend 910B stay placeholders: no dated public price was found for them.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan import cost as costmod
from advisor.plan.data import PriceBook, builtin_rows, prices
from tests.support.planned import advice_plan

SOURCED_MAINLAND = ("cn.l20.aliyun", "cn.a10.aliyun", "cn.4090d", "cn.a800.market", "cn.h800.market")
STILL_PLACEHOLDERS = ("cn.h20", "cn.h800", "cn.a800", "cn.910b")


def _row(row_id: str):
    [row] = [r for r in builtin_rows() if r.id == row_id]
    return row


@pytest.mark.parametrize("row_id", SOURCED_MAINLAND)
def test_a_sourced_mainland_row_carries_its_source_date_and_grade(row_id):
    """Every new row says where it came from: a source naming who quoted it, a link, a dated month or day, a grade
    that is no placeholder's, and who sells it (a marketplace's row is never costed for a regulated plan)."""
    r = _row(row_id)
    assert r.region == "mainland" and r.kind == "on_demand"
    assert r.grade in ("A", "B", "C"), "a sourced price is graded A–C; U is the placeholder's"
    assert r.source and "placeholder" not in r.source.lower()
    assert r.url.startswith("https://")
    assert re.fullmatch(r"\d{4}(-\d{2}){0,2}", r.date)
    assert r.provider in ("domestic_cloud", "marketplace")
    assert r.unit == "CNY/GPU-hour", "quoted in yuan, converted once at the stated exchange rate"
    assert 0 < r.low <= r.high


@pytest.mark.parametrize("row_id", STILL_PLACEHOLDERS)
def test_a_part_with_no_dated_public_price_stays_a_placeholder(row_id):
    """Never invent a price: where nothing public and dated was found, the row stays grade U and says so."""
    r = _row(row_id)
    assert r.grade == "U" and "placeholder" in r.offer.lower()


def test_a_one_gpu_instance_is_its_gpus_hourly_price():
    """Each Alibaba row is a one-GPU instance (its offer says "1 × ..."), so the instance's price is the GPU-hour's:
    nothing is divided, and the offer names what else the price includes (vCPUs, memory)."""
    for row_id in ("cn.l20.aliyun", "cn.a10.aliyun"):
        r = _row(row_id)
        assert "(1 × " in r.offer and "vCPU" in r.offer and "GiB" in r.offer
        assert r.whole_instance_gpus is None and r.low == r.high


def test_a_yuan_row_is_costed_in_dollars_at_the_stated_rate():
    """The cost model works in USD per GPU-hour: a CNY row is divided by the exchange rate prices.json states (its
    source and date beside it), once, at both ends of its range."""
    fx = float(prices()["fx"]["cny_per_usd"])
    for row_id in SOURCED_MAINLAND:
        r = _row(row_id)
        got = costmod.cloud_price(PriceBook((r,)), r.gpu, "mainland", fx)
        assert got is not None and got[2] == [r]
        assert (got[0], got[1]) == (pytest.approx(r.low / fx), pytest.approx(r.high / fx))


def test_a_regulated_plan_is_costed_on_the_cloud_not_the_marketplace():
    """q10 (a 128k document assistant on confidential documents): the H800 rental platform's price is left out, the
    mainland clouds' placeholder is used (and the GPU choice says its price is a placeholder)."""
    r = advice_plan("q10_128k_document_assistant")
    ids = {p.id for p in r.costs.prices}
    assert "cn.h800" in ids and "cn.h800.market" not in ids
    assert r.gpu_choice is not None and not r.gpu_choice.chosen.price_sourced


def test_the_l20_rents_at_alibabas_quote():
    """q06 (an insurer's L20 batch): the job is costed on Alibaba's dated quote, no longer a placeholder."""
    ids = {p.id for p in advice_plan("q06_l20_batch_72h_claims").costs.prices}
    assert ids == {"cn.l20.aliyun"}


def test_sourced_mainland_cloud_rows_are_not_called_placeholders():
    """q31's rented L20 rests on Alibaba's quote and a marketplace's price (grade C): the memo asks to verify them
    rather than calling them placeholders ("no public, dated RMB prices were found"); its purchase's placeholder
    server price keeps its own finding. Where a placeholder cloud row is still used (q39's H20 burst), it is said."""
    q31 = {f.id for f in advice_plan("q31_icp_filed_hosting_move").findings}
    assert "cost.mainland_prices" not in q31 and {"cost.prices_verify", "cost.placeholder_purchase"} <= q31
    q39 = advice_plan("q39_hybrid_l20_base_cloud_burst")
    assert "cn.h800" in {p.id for p in q39.costs.prices}  # s38-burst40: the burst part rented by the hour
    assert "cost.mainland_prices" in {f.id for f in q39.findings}
