"""One card a replica before tensor parallelism over PCIe on the same GPU (ninth blind review, q31: TP2 over PCIe on
L20 chosen beside a TP1 fp8 that needs the same 8 GPUs, "as few: fp8 is kept as the better precision" of two fp8
setups). At the same GPUs and precision the layout search keeps TP1, and the sentence says why; between equal
precisions the reason is never "the better precision"."""

from __future__ import annotations

import pytest

from advisor.plan.result import LayoutSearch, LayoutTry
from tests.support.planned import advice_answers, planned


def test_q31_runs_one_l20_a_replica_where_its_kv_cache_holds_the_load():
    # re-argued in s29-gpu29 (blind review 18, q31): at q31's own 5,120-token context one L20 a replica holds 4
    # full-context requests against the 5 it carries at the peak, so TP2 on the same 8 cards (whose KV cache holds
    # its load) is kept now (tests/core/test_kvfit29.py). The PCIe rule still decides where both layouts hold their
    # load: q31 with p95 prompts of 3,000 tokens (a 4,096-token context) keeps one card a replica, as before.
    plan = planned({**advice_answers("q31_icp_filed_hosting_move"), "prompt_tokens": {"avg": 1500, "p95": 3000}})
    assert plan.hardware.tp == 1
    tried = {(t.weights, t.tp): t for t in plan.layouts_tried.tries}
    one, two = tried[(plan.hardware.weights, 1)], tried[(plan.hardware.weights, 2)]
    assert one.outcome == "chosen" and two.outcome == "meets" and two.gpus >= one.gpus
    assert plan.layouts_tried.pcie
    text = plan.layouts_tried.text_in("en")
    assert "as few: TP1 is kept, as it splits no replica across PCIe cards" in text
    assert "better precision" not in text
    assert all(f.id != "gpu.pcie_tp" for f in plan.findings)


def _search(pcie: bool, chosen_tp: int, other_tp: int) -> LayoutSearch:
    return LayoutSearch(gpu="g", gpu_name="G", pcie=pcie, tries=[
        LayoutTry(tp=chosen_tp, weights="fp8", outcome="chosen", gpus=8, replicas=8 // chosen_tp, headroom=0.3),
        LayoutTry(tp=other_tp, weights="fp8", outcome="meets", gpus=8, replicas=8 // other_tp, headroom=0.2)])


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_same_precision_same_cards_never_reads_as_the_better_precision(lang):
    pcie = _search(True, 1, 2).text_in(lang)
    nvlink = _search(False, 2, 1).text_in(lang)
    if lang == "en":
        assert "TP1 is kept, as it splits no replica across PCIe cards" in pcie
        assert "better precision" not in pcie + nvlink
        assert "TP2 fp8 is kept for its headroom (30% against 20%)" in nvlink
    else:
        assert "保留 TP1，因为它不把一个副本拆到多张 PCIe 卡上" in pcie
        assert "精度更高" not in pcie + nvlink
        assert "保留 TP2 fp8，因为余量更大（30%，对比 20%）" in nvlink
