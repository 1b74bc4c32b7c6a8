"""Own against rent like for like (s26-own26, issue #25, blind reviews 15 and 16 sent back q26 and q31: "owned 24
H20 in bf16, three whole servers, one a spare, against 16 rented in FP8"; "3 servers of 4 × L20 while the purchase
price row is built on an 8-card PCIe server").

1. Same precision when it buys fewer servers: the bought servers keep a better precision than the rented one only
   where the rented precision, laid out to buy with the same spare, would need as many servers (a property over
   every advice scenario whose rent is priced at a lower precision).
2. The price row for the server size bought: where a purchase row is built on a share of a larger server than the
   plan buys, the memo says so beside the purchase (a property over every advice scenario), the figure unchanged.
3. The spare: where renting is cheaper at the middle, the memo also gives owning without the spare server (the
   servers the load needs) with its break-even and what a failed server then leaves, and says whether the spare
   server or the purchase price makes owning dearer, in both languages.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.plan import node_shapes, rent_cheaper_tie, server_size_price
from advisor.plan.data import builtin_rows
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from advisor.sizing.quant import get_format
from tests.support.former_l20_rent import former_rents_plan
from tests.support.planned import advice_answers, advice_plan, bought_now, scenario_plan

ADVICE = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
SCENARIOS = sorted(ADVICE.glob("q*.json"))
Q26, Q31 = "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"
LANGS = ("en", "zh_CN")


def _bought(r):
    lay = r.hardware.layout if r.hardware is not None else None
    return lay if lay is not None and r.deployment_form in node_shapes.OWNED_FORMS and lay.unit == "server" else None


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem[:3])
def test_bought_servers_keep_a_better_precision_only_where_the_rented_one_buys_no_fewer(path):
    r = scenario_plan(path)
    sized = r.costs.rent_sized if r.costs is not None else None
    lay = _bought(r)
    if not sized or "weights" not in sized or lay is None:
        pytest.skip("rent not priced at a lower precision beside a purchase")
    assert get_format(sized["weights"]).bits < get_format(r.hardware.weights).bits
    tp = int(sized["tp"])
    load_replicas = int(sized["load_gpus"]) // tp
    shape = node_shapes.shape_of(r.hardware.gpu, owned=True)
    as_rented = node_shapes.layout(r.hardware.gpu, tp, load_replicas, shape, spare=lay.spare_units // lay.regions)
    # the rented precision laid out to buy, with the purchase's spare: not fewer servers, nor fewer GPUs
    assert as_rented.units >= lay.units and as_rented.total_gpus >= r.hardware.total_gpus


def _capex_row(gpu: str):
    rows = [x for x in builtin_rows() if x.kind == "capex" and x.gpu == gpu]
    return max(rows, key=lambda x: x.high) if rows else None


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem[:3])
def test_a_purchase_row_built_on_a_larger_server_is_said_beside_the_purchase(path):
    r = scenario_plan(path)
    c = r.costs
    if c is None or r.hardware is None:
        pytest.skip("no setup")
    lay, row = _bought(r), _capex_row(r.hardware.gpu)
    got = c.bare_metal_server_size
    if got is not None:  # said only of a row built on a larger server than the servers bought
        assert row is not None and got["row_gpus"] == row.server_gpus and got["unit_gpus"] < got["row_gpus"]
    smaller = lay is not None and lay.basis != "fleet" and row is not None and row.server_gpus is not None \
        and lay.unit_gpus < row.server_gpus and (c.bare_metal_capex is not None or c.owned is not None)
    if not smaller:
        return
    assert got == {"row_gpus": row.server_gpus, "unit_gpus": lay.unit_gpus}
    for lang in LANGS:
        clause = render(lang, "ownspare26.cost.server_size", got)
        assert clause in memo_document(r, lang).markdown()


def test_a_row_with_no_server_size_or_one_as_large_as_bought_says_nothing():
    row = SimpleNamespace(server_gpus=8)
    assert server_size_price.mismatch(row, 8) is None and server_size_price.mismatch(row, None) is None
    assert server_size_price.mismatch(SimpleNamespace(server_gpus=None), 4) is None
    assert server_size_price.mismatch(row, 4) == {"row_gpus": 8, "unit_gpus": 4}


def test_the_row_says_its_server_size_leaves_the_price_as_sourced():
    # the figure stays the row's: the server size is said, not priced on an assumption (q17 went to 8 x A10 when a
    # doubled server share was tried)
    r = advice_plan(Q31)
    row = _capex_row(r.hardware.gpu)
    assert r.hardware.layout.unit_gpus == 4 and row.server_gpus == 8
    hidden = r.costs.bare_metal_capex.high / r.hardware.total_gpus / row.high
    assert math.isclose(hidden, r.costs.bare_metal_capex.low / r.hardware.total_gpus / row.low, rel_tol=0.1)


def _tie(r):
    return next((x for x in r.findings if x.id == "cost.buy" and x.title_key == rent_cheaper_tie.TIE_RENT_TITLE), None)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem[:3])
@pytest.mark.parametrize("lang", LANGS)
def test_renting_cheaper_says_owning_without_the_spare_server(path, lang):
    r = scenario_plan(path)
    f = _tie(r)
    if f is None:
        pytest.skip("renting not cheaper at the middle")
    lay = r.hardware.layout
    lean = f.params["lean"]
    if lay.spare_units < 1:
        assert lean == ""
        return
    assert lean["servers"] == lay.units - lay.spare_units
    assert lean["gpus"] == lean["servers"] * lay.unit_gpus < r.hardware.total_gpus
    assert 0 <= lean["left_pct"] < 100  # a failed server leaves the peak short: why the plan keeps its spare
    own = r.costs.bare_metal_monthly
    assert _yuan(lean["month"]) < (own.low + own.high) / 2  # fewer servers, a smaller month
    text = memo_document(r, lang).markdown()
    assert render(lang, "ownspare26.lean", {**lean, "month": "X", "pay": "Y", "spare": "Z"}).split("X")[0].split(
        "Z")[0] in text
    assert "{" not in render(lang, f.detail_key, f.params)


def _yuan(text: str) -> float:
    return float(re.sub(r"[^0-9.]", "", text))


# s28-own28 re-argued: q26 is bought like for like now (no spare server to be dearer by: test_own28)
@pytest.mark.parametrize("name", [Q31])
def test_the_dearer_clause_follows_the_month_a_gpu(name):
    # s29-prices29: at Alibaba's sourced L20 rent q31 owns (its middle favours owning: test_ownrent24); the
    # rent-first branch is tested on the former placeholder rents, given as quotes
    r = former_rents_plan(name)
    f = _tie(r)
    assert f is not None
    own, rent = _yuan(f.params["own_per_gpu"]), _yuan(f.params["rent_per_gpu"])
    assert f.params["dearer"]["tr"] == ("ownspare26.dearer.price" if own >= rent else "ownspare26.dearer.spare")


def test_q26_without_the_spare_server_buys_what_is_rented_and_pays_back_within_the_horizon():
    # 2 H20 servers hold 16 GPUs, the 16 rented in fp8; at the middle of these prices they pay back within 36 months
    # (the whole spare server is what puts the plan's own payback past it). s28-own28 re-argued: that is now the
    # decision, not only a figure beside it (blind review 17b: "an expert would own 2 servers in fp8 with a costed
    # repair-day rental"): the plan buys those servers, and its own payback is within the horizon
    r = bought_now(advice_answers(Q26))
    like = r.costs.own_like
    assert like["gpus"] == r.hardware.total_gpus == r.costs.gpus == 16
    assert like["payback_mid"] <= r.costs.horizon_months and like["spare"] == "repair_rent"
    assert r.deployment_form == "bare_metal"
