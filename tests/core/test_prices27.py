"""Sourced mainland GPU prices staged for issue 25 ("L20 prices are placeholders"; s27-prices27).

``resources/plan/mainland_prices_s27.json`` holds the public prices found for the mainland's L20, A10, RTX 4090 D,
A800 and H800 (Alibaba Cloud's pay-as-you-go quotes, GPU-rental platforms' listed prices), each a prices.json row
with its source, date and grade, staged until the pinned API-versus-self-hosting tests are re-argued (the file's
comment says which). These tests keep the staged rows fit to go live: valid rows, provenance on every one, the
placeholder each replaces still in prices.json, and the yuan converted once at the plan's own rate.
"""

from __future__ import annotations

import json
import re

import pytest

from advisor.plan import cost as costmod
from advisor.plan.data import PriceBook, builtin_rows, prices
from advisor.plan.result import PriceRow
from advisor.resources import resource_path

STAGED = json.loads((resource_path("plan") / "mainland_prices_s27.json").read_text(encoding="utf-8"))["rows"]
# the placeholder each staged row replaces or stands beside (the H20 and the 910B: no dated public price found)
REPLACES = {"cn.l20.aliyun": "cn.l20", "cn.a10.aliyun": "cn.a10", "cn.4090d": "cn.4090d",
            "cn.a800.market": "cn.a800", "cn.h800.market": "cn.h800"}


def _row(raw: dict) -> PriceRow:
    return PriceRow.model_validate({k: v for k, v in raw.items() if k not in ("offer_zh", "source_zh")})


def test_the_staged_rows_are_the_ones_listed():
    assert sorted(r["id"] for r in STAGED) == sorted(REPLACES)


@pytest.mark.parametrize("raw", STAGED, ids=lambda r: r["id"])
def test_a_staged_row_carries_its_source_date_and_grade(raw):
    """Every row says where it came from: a source naming who quoted or listed it, a link, a dated month or day, a
    grade that is no placeholder's, who sells it (a marketplace's row is never costed for a regulated plan), and
    its Chinese offer and source for a zh memo."""
    r = _row(raw)
    assert r.region == "mainland" and r.kind == "on_demand"
    assert r.grade in ("A", "B", "C"), "a sourced price is graded A–C; U is the placeholder's"
    assert r.source and "placeholder" not in r.source.lower() and "placeholder" not in r.offer.lower()
    assert r.url.startswith("https://")
    assert re.fullmatch(r"\d{4}(-\d{2}){0,2}", r.date)
    assert r.provider in ("domestic_cloud", "marketplace")
    assert r.unit == "CNY/GPU-hour", "quoted in yuan, converted once at the stated exchange rate"
    assert 0 < r.low <= r.high
    assert re.search(r"[\u4e00-\u9fff]", raw["offer_zh"]) and re.search(r"[\u4e00-\u9fff]", raw["source_zh"])


@pytest.mark.parametrize("raw", STAGED, ids=lambda r: r["id"])
def test_the_placeholder_a_staged_row_replaces_is_still_a_placeholder(raw):
    """Nothing is invented meanwhile: the live row for the same part stays grade U, the same GPU and region."""
    live = {r.id: r for r in builtin_rows()}[REPLACES[raw["id"]]]
    assert live.grade == "U" and live.gpu == raw["gpu"] and live.region == "mainland" and live.kind == "on_demand"


def test_a_one_gpu_instance_is_its_gpus_hourly_price():
    """Each Alibaba row is a one-GPU instance (its offer says "1 × ...", with its vCPUs and memory), so the
    instance's hourly price is the GPU-hour's: nothing is divided, and the row is no share of a larger instance."""
    for raw in STAGED:
        if raw["id"].endswith(".aliyun"):
            r = _row(raw)
            assert "(1 × " in r.offer and "vCPU" in r.offer and "GiB" in r.offer
            assert r.whole_instance_gpus is None and r.low == r.high


def test_a_yuan_row_is_costed_in_dollars_at_the_plans_rate():
    """The cost model works in USD per GPU-hour: a CNY row is divided by the exchange rate prices.json states (its
    source and date beside it), once, at both ends of its range."""
    fx = float(prices()["fx"]["cny_per_usd"])
    for raw in STAGED:
        r = _row(raw)
        got = costmod.cloud_price(PriceBook((r,)), r.gpu, "mainland", fx)
        assert got is not None and got[2] == [r]
        assert (got[0], got[1]) == (pytest.approx(r.low / fx), pytest.approx(r.high / fx))
