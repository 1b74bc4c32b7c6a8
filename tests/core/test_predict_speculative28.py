"""Session 27, helper predict28 (issue #28): `advisor predict --speculative` simulates speculative decoding.

A simulated decode step stands for 1/E of a speculative step (the proposer's k forwards and the target's verification
of k + 1 positions a sequence, advisor/sizing/speculative_speed.py), E = (1 − α^(k+1)) / (1 − α) at the published
acceptance: the same pieces `advisor calc` states, so at one user the curve's TPOT is calc's. Where acceptance for the
pair is unknown, no speed-up is simulated (only the proposer's memory is taken from the KV cache).
"""

from __future__ import annotations

import json

import pytest

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sim import LengthDistribution, SimWorkload
from advisor.domain.sizing import SizingRequest, SpeculativeSettings
from advisor.i18n import translate
from advisor.model_import import model_from_config
from advisor.sim.costs import build_setup
from advisor.sim.predict import predict_curve
from advisor.sim.speculative_costs import SpeculativeStepCosts
from advisor.sizing import size
from advisor.sizing.speculative_acceptance import tokens_per_step

YUHUILI = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
HEAD_CFG = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 4096,
            "intermediate_size": 14336, "num_attention_heads": 32, "num_key_value_heads": 8, "num_hidden_layers": 1,
            "vocab_size": 128256, "draft_vocab_size": 32000, "max_position_embeddings": 2048, "rms_norm_eps": 1e-5,
            "torch_dtype": "float16"}  # fmt: skip
PROMPT, OUTPUT = 1024, 128
WORKLOAD = SimWorkload(prompt=LengthDistribution(kind="fixed", mean=PROMPT, max=PROMPT),
                       output=LengthDistribution(kind="fixed", mean=OUTPUT, max=OUTPUT))  # fmt: skip


def _eagle3(hf_repo: str | None = YUHUILI, k: int = 3) -> SpeculativeSettings:
    head = model_from_config(HEAD_CFG, model_id="eagle3-head", name="eagle3-head", hf_repo=hf_repo)
    return SpeculativeSettings(method="eagle3", draft_model=head, num_speculative_tokens=k, draft_vocab_size=32000)


def _setup(spec: SpeculativeSettings | None):
    return build_setup(get_model("llama-3.1-8b-instruct"), get_gpu("h100-sxm-80g"), "bf16", context=4096, speculative=spec)


def _tpot(setup, levels=(1, 64)) -> dict[int, float]:
    return {lv.concurrency: lv.tpot_ms.p50 for lv in predict_curve(setup.costs, setup.limits, WORKLOAD, levels).levels}


def test_a_decode_step_is_the_speculative_step_over_its_expected_tokens():
    setup = _setup(_eagle3())
    acc = setup.speculative_acceptance
    assert acc is not None and isinstance(setup.costs, SpeculativeStepCosts)
    e = tokens_per_step((acc.alpha_low + acc.alpha_high) / 2, 3)
    assert setup.speculative_tokens_per_step == pytest.approx(e) and 1 < e < 4
    step = setup.speculative_step
    for n in (1, 16, 128):
        ctx = 1100.0
        expected = (step.draft_seconds(n, ctx) + step.target.verify_step_seconds(n, 4, ctx, n * e)) / e
        assert setup.costs.step_seconds(0, 0, n, n * ctx) == pytest.approx(expected, rel=1e-12)
    # a prompt chunk in the step costs what it adds to the target's plain step of the same batch
    plain = step.target
    chunk = plain.step_seconds(512, 512 * 513 / 2, 8, 8 * 1100) - plain.step_seconds(0, 0, 8, 8 * 1100)
    assert setup.costs.step_seconds(512, 512 * 513 / 2, 8, 8 * 1100) == pytest.approx(setup.costs.step_seconds(0, 0, 8, 8 * 1100) + chunk)


def test_at_one_user_the_curve_reads_calcs_speculative_tpot_and_the_gain_shrinks_with_the_load():
    spec = _eagle3()
    with_spec, without = _tpot(_setup(spec)), _tpot(_setup(None))
    m = get_model("llama-3.1-8b-instruct")
    calc = size(SizingRequest(model=m, gpu=get_gpu("h100-sxm-80g"), context=PROMPT + OUTPUT, prompt_tokens=PROMPT,
                              output_tokens=OUTPUT, weights="bf16", speculative=spec)).perf.speculative  # fmt: skip
    # calc times a step at the mean context (prompt + half the answer); the curve each token at its own
    assert with_spec[1] == pytest.approx(calc.tpot_ms.value, rel=0.03)
    assert without[1] == pytest.approx(calc.base_tpot_ms.value, rel=0.03)
    assert without[1] / with_spec[1] > 1.5  # E ≈ 2.5 tokens a step for about one weight read
    assert without[64] / with_spec[64] < without[1] / with_spec[1]  # verifying 4 × 64 positions is arithmetic


def test_unknown_acceptance_simulates_no_speed_up_but_the_proposer_still_takes_kv_memory():
    for spec in (_eagle3(hf_repo=None), SpeculativeSettings(method="ngram", num_speculative_tokens=3)):
        setup = _setup(spec)
        assert setup.speculative_acceptance is None and setup.speculative_tokens_per_step is None
        assert _tpot(setup, (1, 8)) == _tpot(_setup(None), (1, 8))
    assert _setup(_eagle3(hf_repo=None)).limits.kv_tokens < _setup(None).limits.kv_tokens  # the head's weights and KV
    assert _setup(SpeculativeSettings(method="ngram", num_speculative_tokens=3)).limits.kv_tokens == _setup(None).limits.kv_tokens


ARGS = ["predict", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--concurrency", "1,16",
        "--prompt-tokens", "1024", "--max-tokens", "64", "--context", "4096"]  # fmt: skip


def test_predict_json_carries_the_speculation_simulated(capsys, tmp_path):
    head = tmp_path / "EAGLE3-LLaMA3.1-Instruct-8B"  # downloaded into a folder named after the repository
    head.mkdir()
    (head / "config.json").write_text(json.dumps(HEAD_CFG), encoding="utf-8")
    assert main([*ARGS, "--speculative", "eagle3", "--draft-model", str(head), "--num-speculative-tokens", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["speculative"]
    assert data["acceptance_basis"] == "published" and data["acceptance"]["measurements"][0]["drafter"] == YUHUILI
    rng = data["tokens_per_step_range"]
    assert rng["low"] < data["tokens_per_step"] < rng["high"] <= 4 and data["itl_is_mean_per_token"] is True
    assert [lv["streams"] for lv in data["levels"]] == [1, 16] and data["levels"][0]["speedup"]["low"] > 1
    assert data["draft_weights_bytes"] > 0 and data["lookahead_tokens"] == 3
    assert main([*ARGS, "--speculative", "ngram", "--num-speculative-tokens", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["speculative"]
    assert data["acceptance_basis"] == "unknown" and data["tokens_per_step"] is None
    assert all(lv["speedup"] is None and lv["break_even_tokens_per_step"] >= 1 for lv in data["levels"])
    assert main([*ARGS, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["speculative"] is None
    assert main([*ARGS, "--num-speculative-tokens", "3"]) == 2  # the count without a method: refused, as calc does


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_predict_text_says_what_it_simulated(capsys, lang):
    assert main([*ARGS, "--speculative", "mtp", "--num-speculative-tokens", "1", "--model", "deepseek-v3", "--gpu",
                 "h200-sxm-141g", "--gpus", "8", "--lang", lang]) == 0  # fmt: skip
    out = capsys.readouterr().out
    method = translate(lang, "speculative25_spec28.method.mtp")
    assert translate(lang, "speculative27_predict28.simulated", method=method, k=1, e="X", alpha="Y").split("X")[0] in out
    assert "DeepSeek-V3 Technical Report" in out
    assert main([*ARGS, "--speculative", "ngram", "--num-speculative-tokens", "3", "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert translate(lang, "speculative27_predict28.no_speedup") in out
