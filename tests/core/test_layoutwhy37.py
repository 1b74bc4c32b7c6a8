"""Review 27 (s35-layoutwhy): why the plan's layout beat the others, from the plan's own figures.

q35: page 1's memory-risk line reads the serve command's --max-num-seqs as a ceiling vLLM fills only while the KV cache
has room; q40: the memory floor and the "more budget" row say why the plan runs more cards a replica than the fewest
(the fewest misses a target even for one request); q26: a layout passed over at the same price whose first token at
the peak keeps less than the plan's headroom to the TTFT target says so beside its larger headroom.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.plan import kv_page_one37, memo_fixes36
from advisor.plan.memory_floor import _why_more
from advisor.plan.result import KvFit, LayoutSearch, LayoutTry, render

LANGS = ("en", "zh_CN")


def _fit(cap: int, at_full: int = 8) -> KvFit:
    return KvFit(kv_tokens=65536, kv_gib_per_gpu=2.2, kv_dtype="fp8", context=8192, typical_tokens=3000,
                 at_typical=21, at_full=at_full, peak_per_replica=10, failover_per_replica=20, max_num_seqs=cap,
                 verdict="average_lengths", load_over_full=True, source="test")


@pytest.mark.parametrize("lang", LANGS)
def test_cap_above_full_context_fit_is_said_as_a_ceiling_with_both_figures(lang: str) -> None:
    text = kv_page_one37._cap(_fit(24), lang)
    assert "--max-num-seqs 24" in text and "8" in text.replace("8,192", "")


@pytest.mark.parametrize("lang", LANGS)
def test_cap_within_what_the_cache_holds_says_nothing(lang: str) -> None:
    assert kv_page_one37._cap(_fit(8), lang) == ""
    assert kv_page_one37._cap(_fit(6), lang) == ""


def _search(fewer: LayoutTry, chosen_tp: int = 4) -> LayoutSearch:
    return LayoutSearch(gpu="h20-96g", gpu_name="NVIDIA H20 96GB", tries=[
        LayoutTry(tp=1, weights="bf16", outcome="weights", value=135.4, target=86.0), fewer,
        LayoutTry(tp=chosen_tp, weights="bf16", outcome="chosen", gpus=16, replicas=4, headroom=0.2)])


@pytest.mark.parametrize("lang", LANGS)
def test_floor_names_the_one_request_miss_of_the_fewest_cards(lang: str) -> None:
    tried = _search(LayoutTry(tp=2, weights="bf16", outcome="ttft", value=2183.0, target=2000.0))
    got = _why_more(SimpleNamespace(tp=4, weights="bf16"), 2, tried)  # type: ignore[arg-type]
    assert got["tr"] == "layoutwhy37_floor.ttft"
    text = render(lang, "plan.binding.memory_floor.practical", {"tp": 2, "context": 4096, "room": 70, "plan": got})
    assert "2,183" in text and "2,000" in text and "4" in text


def test_floor_keeps_the_general_reason_where_the_fewest_meets_the_target() -> None:
    tried = _search(LayoutTry(tp=2, weights="bf16", outcome="meets", gpus=20, replicas=10, headroom=0.2))
    got = _why_more(SimpleNamespace(tp=4, weights="bf16"), 2, tried)  # type: ignore[arg-type]
    assert got["tr"] == "plan.binding.memory_floor.plan"
    assert _why_more(SimpleNamespace(tp=4, weights="bf16"), 2, None)["tr"] == "plan.binding.memory_floor.plan"  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_more_budget_row_says_why_not_fewer_cards_only_on_a_miss(lang: str) -> None:
    missed = SimpleNamespace(layouts_tried=_search(LayoutTry(tp=2, weights="bf16", outcome="ttft", value=2183.0,
                                                             target=2000.0)))
    text = memo_fixes36._fewer_missed(missed, lang)  # type: ignore[arg-type]
    assert "TP4" in text and "TP2" in text and "2,183" in text and "2,000" in text
    meets = SimpleNamespace(layouts_tried=_search(LayoutTry(tp=2, weights="bf16", outcome="meets", gpus=20,
                                                            replicas=10, headroom=0.2)))
    assert memo_fixes36._fewer_missed(meets, lang) == ""  # type: ignore[arg-type]
    assert memo_fixes36._fewer_missed(SimpleNamespace(layouts_tried=None), lang) == ""  # type: ignore[arg-type]


@pytest.mark.parametrize("lang", LANGS)
def test_layout_passed_over_for_its_first_token_says_it_beside_its_headroom(lang: str) -> None:
    tight = {"ttft": "4,170", "target": "5,000", "room": 20}
    found = LayoutSearch(gpu="h20-96g", gpu_name="NVIDIA H20 96GB", tries=[
        LayoutTry(tp=1, weights="fp8", outcome="meets", gpus=16, replicas=16, headroom=0.6, ttft_tight=tight),
        LayoutTry(tp=2, weights="fp8", outcome="chosen", gpus=14, replicas=7, headroom=0.26)])
    text = found.text_in(lang)
    assert "60%" in text and "4,170" in text and "5,000" in text and "20%" in text
    plain = found.model_copy(update={"tries": [found.tries[0].model_copy(update={"ttft_tight": None}),
                                               found.tries[1]]}).text_in(lang)
    assert "4,170" not in plain
