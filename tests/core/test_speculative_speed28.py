"""Session 26, helper spec28 (issue #28): decode speed with speculative decoding (advisor/sizing/speculative_speed.py).

A step drafts k tokens a sequence and the target verifies k + 1 positions in one forward; it yields
E = (1 − α^(k+1)) / (1 − α) tokens for per-token acceptance α (Leviathan et al. 2023). At one stream the decode step
is a weight read, so verifying costs about what one token does and speculation pays; with many streams verifying
becomes arithmetic, (k + 1) times a decode step's, and the gain shrinks (vLLM's docs: "medium-to-low QPS,
memory-bound workloads"; SpecDecode-Bench, arXiv 2601.11580). A speed-up is stated only where acceptance for the
method on the model is published, as the range over the published data sets.
"""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sizing import SizingRequest, SpeculativeSettings
from advisor.i18n import current_language, set_language, translate
from advisor.model_import import model_from_config
from advisor.sizing import size
from advisor.sizing.speculative_acceptance import PUBLISHED, alpha_for, published_acceptance, tokens_per_step
from advisor.sizing.speculative_speed import SpeculativeStep
from advisor.sizing.speculative_text import speculative_speed_text

LANGS = ("en", "zh_CN")
# an EAGLE-3 head of Llama-3.1-8B's shape (one Llama-3.1-8B layer, draft vocabulary 32,000)
EAGLE3_L31 = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
              "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1,
              "vocab_size": 128256, "draft_vocab_size": 32000, "max_position_embeddings": 2048, "rms_norm_eps": 1e-5,
              "torch_dtype": "float16"}  # fmt: skip


# The head is named as the one whose acceptance is published (yuhuili's, on the nebius card): acceptance is the
# (method, model, head) pair's since s27-predict28, and an unnamed head of the same shape has none stated
# (test_speculative_acceptance_by_head28.py). Before, any EAGLE-3 head on Llama-3.1-8B took yuhuili's figures.
YUHUILI_L31 = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def _head():
    return model_from_config(EAGLE3_L31, model_id="eagle3-llama31-8b", name="eagle3-llama31-8b", hf_repo=YUHUILI_L31)


def _spec(method: str, k: int = 3) -> SpeculativeSettings:
    if method == "eagle3":
        return SpeculativeSettings(method="eagle3", draft_model=_head(), num_speculative_tokens=k, draft_vocab_size=32000)
    if method == "draft_model":
        return SpeculativeSettings(method="draft_model", draft_model=get_model("llama-3.2-3b"), num_speculative_tokens=k)
    return SpeculativeSettings(method=method, num_speculative_tokens=k)


def _sized(model: str, spec: SpeculativeSettings, concurrency: int = 1, gpus: int = 1, context: int = 1024):
    m = get_model(model)
    return size(SizingRequest(model=m, gpu=get_gpu("h100-sxm-80g"), context=context, concurrency=concurrency, gpus=gpus,
                              weights=m.native_weights, speculative=spec))  # fmt: skip


def _step(model: str, spec: SpeculativeSettings) -> SpeculativeStep:
    """The mid cost model's speculative step for the request, as estimate_perf builds it."""
    from advisor.domain.engine_profiles import factors_for, get_profile
    from advisor.sizing.roofline import StepCostModel

    req = _sized(model, spec).request
    f = factors_for(get_profile("vllm"), req.factors)
    target = StepCostModel.build(req.model, req.weights, req.kv_dtype, req.gpu, req.gpus, f, mfu=f.mfu, mbu=f.mbu)
    return SpeculativeStep(req, target, spec.draft_weights, f, f.mfu, f.mbu, 1024)


def test_the_expected_tokens_a_step_run_from_one_to_k_plus_one_and_acceptance_is_read_back_from_them():
    for k in (1, 3, 7):
        assert tokens_per_step(0.0, k) == 1.0  # nothing accepted: the target's own token
        assert tokens_per_step(1.0, k) == k + 1  # everything accepted, and the bonus token
        assert tokens_per_step(0.5, k) < tokens_per_step(0.7, k) < tokens_per_step(0.9, k)
        for alpha in (0.3, 0.7, 0.9):
            assert alpha_for(tokens_per_step(alpha, k), k) == pytest.approx(alpha, abs=1e-9)
    # one proposed token: τ = 1 + α, so DeepSeek-V3's "85% to 90%" second-token acceptance reads back as itself
    assert alpha_for(1.85, 1) == pytest.approx(0.85) and alpha_for(1.90, 1) == pytest.approx(0.90)


def test_the_published_acceptance_is_pinned_to_its_sources_and_every_figure_names_one():
    by = {(p.method, p.models, p.k): p for p in PUBLISHED}
    # nebius/EAGLE3-Llama-3.3-70B-Instruct's card, "Comparison with Public Checkpoints" (temperature 1, K = 7):
    # yuhuili/EAGLE3-LLaMA3.1-Instruct-8B MT-bench 2.77, HumanEval 3.49, GSM8K 3.34;
    # RedHatAI/Llama-3.3-70B-Instruct-speculator.eagle3 2.88, 3.62, 3.29
    l8 = by[("eagle3", ("llama-3.1-8b-instruct",), 7)]
    assert (l8.tau_low, l8.tau_high, l8.drafter) == (2.77, 3.49, "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    l70 = by[("eagle3", ("llama-3.3-70b-instruct",), 7)]
    assert (l70.tau_low, l70.tau_high) == (2.88, 3.62)
    # DeepSeek-V3 Technical Report §5.4.3: second-token acceptance 85 %–90 %; nebius/MTP-DeepSeek-V3-0324's card:
    # the original MTP module at K = 7, 3.20 (temperature 0) and 3.09 (temperature 1)
    assert (by[("mtp", ("deepseek-v3",), 1)].tau_low, by[("mtp", ("deepseek-v3",), 1)].tau_high) == (1.85, 1.90)
    assert (by[("mtp", ("deepseek-v3",), 7)].tau_low, by[("mtp", ("deepseek-v3",), 7)].tau_high) == (3.09, 3.20)
    for p in PUBLISHED:
        assert p.source and p.drafter and 1.0 < p.tau_low <= p.tau_high <= p.k + 1
        for lang in LANGS:
            key = f"speculative26_spec28.data.{p.data}"
            assert translate(lang, key) != key


def test_acceptance_at_an_unmeasured_k_spans_the_measurements_on_either_side():
    # MTP measured at k = 1 (α 0.85–0.90) and k = 7 (α ≈ 0.7): at k = 3 α lies between, so the range spans both
    rows = published_acceptance(_spec("mtp", 3), get_model("deepseek-v3"))
    assert [p.k for p in rows] == [1, 7]
    acc = _sized("deepseek-v3", _spec("mtp", 3), gpus=8).perf.speculative.acceptance
    assert acc.alpha_high == pytest.approx(0.90) and acc.alpha_low == pytest.approx(alpha_for(3.09, 7))
    assert acc.alpha_low < 0.85
    assert [p.k for p in published_acceptance(_spec("mtp", 1), get_model("deepseek-v3"))] == [1]
    assert published_acceptance(_spec("mtp", 1), get_model("deepseek-r1")) == ()  # R1's MTP: nobody measured it here


def test_verifying_one_position_a_sequence_is_a_decode_step():
    step = _step("llama-3.1-8b-instruct", _spec("eagle3"))
    for streams in (1, 16, 128):
        assert step.target.verify_step_seconds(streams, 1, 1024, streams) == step.base_seconds(streams)
    # four positions a sequence cost about one at one stream (a weight read) and clearly more at 128 (arithmetic)
    ratio = {n: step.target.verify_step_seconds(n, 4, 1024, n) / step.base_seconds(n) for n in (1, 128)}
    assert ratio[1] < 1.1 and ratio[128] > 1.25


def test_speculation_pays_at_one_stream_with_acceptance_near_07_and_the_gain_shrinks_with_the_streams():
    step = _step("llama-3.1-8b-instruct", _spec("eagle3"))
    alphas = (0.7, 0.7, 0.7)
    one, many = step.at_load(1, alphas).speedup, step.at_load(128, alphas).speedup
    assert one.value > 1.5  # E ≈ 2.5 tokens for about one decode step and three small head forwards
    assert many.value < one.value - 0.5
    speedups = [step.at_load(n, alphas).speedup.value for n in (16, 32, 64, 128)]
    assert speedups == sorted(speedups, reverse=True)  # past the ridge every doubling gains less


def test_n_gram_costs_the_gpu_nothing_and_needs_less_acceptance_than_a_head_or_a_draft_model():
    steps = {m: _step("llama-3.1-8b-instruct", _spec(m)) for m in ("ngram", "eagle3", "draft_model")}
    assert steps["ngram"].draft_seconds(8) == 0.0 < steps["eagle3"].draft_seconds(8) < steps["draft_model"].draft_seconds(8)
    for n in (1, 8, 32):
        need = {m: s.at_load(n, None).break_even_tokens_per_step for m, s in steps.items()}
        assert need["ngram"] <= need["eagle3"] <= need["draft_model"]


def test_no_speed_up_is_claimed_where_no_acceptance_is_published():
    for method in ("ngram", "draft_model"):
        s = _sized("llama-3.1-8b-instruct", _spec(method)).perf.speculative
        assert s.acceptance is None and s.tpot_ms is None and s.tokens_per_s is None and s.at_concurrency.speedup is None
        assert s.regime == "unknown" and s.at_concurrency.break_even_tokens_per_step is not None
        assert all(a.speedup is None for a in s.by_streams) and s.helps_up_to is None
    # a draft model of 3B for an 8B target at 64 streams cannot pay even accepting everything: said so, not "unknown"
    s = _sized("llama-3.1-8b-instruct", _spec("draft_model"), concurrency=64).perf.speculative
    assert s.at_concurrency.break_even_tokens_per_step is None and s.regime == "no_gain"


def test_a_published_pair_states_tpot_with_and_without_as_ranges_and_the_load_regime_in_both_languages():
    before = current_language()
    try:
        for lang in LANGS:
            set_language(lang)
            r = _sized("llama-3.1-8b-instruct", _spec("eagle3"))
            s = r.perf.speculative
            assert s.tpot_ms.low < s.tpot_ms.value < s.tpot_ms.high < s.base_tpot_ms.low  # faster at one stream
            assert s.regime == "helps" and s.at_concurrency.speedup.low > 1 and s.helps_up_to >= 1
            text = speculative_speed_text(r)
            assert f"{s.tpot_ms.low:.1f}–{s.tpot_ms.high:.1f}" in text and f"{s.base_tpot_ms.low:.1f}–{s.base_tpot_ms.high:.1f}" in text
            assert "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" in text and "nebius" in text
            assert translate(lang, "speculative26_spec28.regime.helps", n=1) in text
            unknown = speculative_speed_text(_sized("llama-3.1-8b-instruct", _spec("ngram")))
            method = translate(lang, "speculative25_spec28.method.ngram")
            assert unknown.startswith(translate(lang, "speculative26_spec28.unknown", method=method, model="Llama 3.1 8B Instruct", n=1,
                                                need="1.00", k1=4)[:20])  # fmt: skip
            assert "×" not in unknown and "倍" not in unknown  # no speed-up stated
    finally:
        set_language(before)


def test_calc_json_carries_the_speculative_speed(capsys):
    assert main(["calc", "--model", "deepseek-v3", "--gpu", "h200-sxm-141g", "--gpus", "8", "--speculative", "mtp",
                 "--num-speculative-tokens", "1", "--context", "2048", "--json", "--lang", "en"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["speculative_regime"] == "helps" and data["speculative_speedup"]["low"] > 1
    assert data["speculative_tpot_ms"]["high"] < data["perf"]["decode_step_ms"]["low"]
    assert data["perf"]["speculative"]["acceptance"]["measurements"][0]["source"].startswith("DeepSeek-V3 Technical Report")
    assert "DeepSeek-V3" in data["speculative_speed_text"]
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--speculative", "ngram", "--num-speculative-tokens", "3",
                 "--json"]) == 0  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert data["speculative_speedup"] is None and data["speculative_tpot_ms"] is None
    assert data["speculative_regime"] == "unknown" and data["speculative_break_even_tokens_per_step"] >= 1
    assert main(["calc", "--model", "llama-3.1-8b-instruct", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["speculative_regime"] is None and data["perf"]["speculative"] is None


def test_sglangs_published_eagle3_run_falls_in_the_stated_ranges():
    # SGLang's docs (advanced_features/speculative_decoding, "Performance Highlights"): LLaMA-Instruct 3.1 8B on
    # MT-bench, one H100: 158.34 tokens/s without speculation, 373.25 with EAGLE-3 (its default 5 drafting steps, a
    # tree where this models vLLM's chain). Nothing here was fitted to it: the acceptance is the nebius card's.
    for k in (3, 5):
        s = _sized("llama-3.1-8b-instruct", _spec("eagle3", k)).perf.speculative
        assert s.base_tokens_per_s.low <= 158.34 <= s.base_tokens_per_s.high
        assert s.tokens_per_s.low <= 373.25 <= s.tokens_per_s.high
