"""The fastest layout of a GPU for one prompt, and the basis of its prefill figure (blind review 12, #25).

q08: "the 4 s first-token target is declared out of reach on a predicted 5.15 s for a 6k-token prompt on TP4 (which
implies ~40 TFLOPS a card); TP8 (two replicas over the 16 owned cards) was never tried". The page-1 warning now names
the fastest layout's own first token alone and what the prefill rests on (the catalog's low-confidence 320 TFLOPS,
the default share of peak with no Ascend measurement, the HCCS link counted as PCIe)."""

from __future__ import annotations

import re

import pytest

from advisor.plan import answers_from_dict
from advisor.plan.context import resolve
from advisor.plan.data import gpus_by_id
from advisor.plan.fastest_layout import fastest_alone, prefill_basis
from tests.support.planned import advice_answers, planned


@pytest.fixture(scope="module")
def q08():
    return planned(advice_answers("q08_ascend_fleet_internal"))


def _relaxed(plan):
    return next(x for x in plan.findings if x.id == "sizing.ttft_relaxed")


def test_tp8_on_one_whole_910b_server_is_weighed_and_named(q08):
    f = _relaxed(q08)
    fast = f.params["fastest"]
    assert q08.hardware.gpus_per_replica == 4 and fast["tp"] == 8  # the fleet's 8-card servers: TP8 is the largest
    # twice the cards a replica reads a prompt faster, yet still above the asked 4,000 ms: the target stays relaxed
    assert f.params["default"] < fast["alone"] < f.params["alone"]
    en, zh = f.detail_in("en"), f.detail_in("zh_CN")
    assert f"about {fast['alone']:,} ms on the fastest layout tried, TP8 (8 cards a replica, bf16)" in en
    assert f"在试过的最快布局 TP8（每个副本 8 张卡，bf16）上约 {fast['alone']:,} ms" in zh


def test_the_prefill_basis_is_said_for_the_910b(q08):
    b = _relaxed(q08).params["basis"]
    # catalog: 320 TFLOPS BF16 "from memory", confidence low; no GEMM measurement for Ascend; interconnect "none"
    assert b["tflops"] == "320" and b["confidence"]["tr"].endswith(".low")
    assert b["rate"]["tr"].endswith(".default") and b["rate"]["mfu_pct"] == 50
    assert b["link"]["tr"].endswith(".pcie")
    en = _relaxed(q08).detail_in("en")
    assert "rests on 320 TFLOPS BF16 a card" in en and "counted as PCIe" in en
    assert len(re.findall(r"\bmeasure\b", en)) == 1  # verify said once


def test_no_basis_where_everything_is_measured_and_sourced():
    table = gpus_by_id()
    h100 = table["h100-sxm-80g"]
    assert prefill_basis(h100, 8) is None  # NVLink, its own GEMM measurement, a vendor figure
    assert prefill_basis(table["ascend-910b"], 1)["link"] == ""  # one card: no link to count


def test_fastest_alone_is_the_largest_tp_a_server_holds():
    c = resolve(answers_from_dict(advice_answers("q08_ascend_fleet_internal")))
    k, ttft = fastest_alone(c, "ascend-910b")
    assert k.tp == 8 and k.weights == "bf16" and ttft > 0
