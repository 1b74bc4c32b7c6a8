"""`advisor calc/gpus/models` as a user runs them: a real subprocess, JSON on stdout, clear errors. The JSON contract
over every fixture config runs the same `main` in-process (49 interpreter starts were ~20 CPU s of the suite); the
process itself — exit status, stdout/stderr, no traceback — is what the other tests here check."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli import main

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "tests" / "fixtures" / "configs"
CONTRACT_KEYS = {
    "params_total", "params_active", "weights_bytes", "kv_bytes_per_token", "kv_cache_bytes", "overhead_bytes",
    "total_bytes", "fits", "max_concurrency", "prefill_ms", "decode_tokens_per_s",
}  # fmt: skip
INT_KEYS = CONTRACT_KEYS - {"fits", "prefill_ms", "decode_tokens_per_s"}


def advisor(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "advisor", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("config", sorted(p.name for p in CONFIGS.glob("*.config.json")))
def test_calc_json_on_every_fixture_config(config, capsys):
    code = main(["calc", "--model", str(CONFIGS / config), "--gpu", "h100-sxm-80g", "--gpus", "8",
                 "--context", "4096", "--concurrency", "4", "--json"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    data = json.loads(out.out)
    assert CONTRACT_KEYS <= data.keys()
    for key in INT_KEYS:
        assert isinstance(data[key], int) and data[key] >= 0, key
    assert data["params_active"] <= data["params_total"]
    # vLLM's held-back share of --gpu-memory-utilization is in the total (the verdict counts it), not in the overhead
    assert data["total_bytes"] == data["weights_bytes"] + data["kv_cache_bytes"] + data["overhead_bytes"] + data["held_back_bytes"]


def test_calc_kv_cache_is_concurrency_times_blocks():
    out = advisor("calc", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--context", "1000",
                  "--concurrency", "3", "--json")  # fmt: skip
    data = json.loads(out.stdout)
    # 1000 tokens → 63 blocks of 16 tokens; 131,072 bytes per token
    assert data["kv_cache_bytes"] == 3 * 63 * 16 * 131072
    assert data["weights_bytes"] == 8_030_261_248 * 2
    assert data["fits"] is True


def test_gpus_and_models_json_contracts():
    gpus = json.loads(advisor("gpus", "--json").stdout)
    models = json.loads(advisor("models", "--json").stdout)
    assert len(gpus) >= 25 and len(models) >= 12
    for g in gpus:
        assert {"id", "name", "memory_bytes", "bandwidth_bytes_per_s", "bf16_tflops_dense"} <= g.keys()
    for m in models:
        assert {"id", "name", "params_total"} <= m.keys()
    ids = {g["id"] for g in gpus}
    assert {"h20-96g", "rtx-4090", "rtx-4090d", "a800-80g", "l20-48g"} <= ids


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--model", "no-such-model"], "unknown model preset"),
        (["--model", "qwen2.5-7b-instruct", "--gpu", "gtx-9999"], "unknown GPU"),
        (["--model", "qwen2.5-7b-instruct", "--weights", "q5"], "unknown weight format"),
        (["--model", "qwen2.5-7b-instruct", "--context", "-1"], "context"),
        (["--model", "qwen2.5-7b-instruct", "--gpus", "0"], "gpus"),
    ],
)
def test_calc_bad_input_is_one_clear_line(args, words):
    out = advisor("calc", *args)
    assert out.returncode == 2
    assert words in out.stderr
    assert "Traceback" not in out.stderr


def test_calc_broken_config_file(tmp_path):
    bad = tmp_path / "config.json"
    bad.write_text('{"model_type": "llama", "hidden_size": 4096')
    out = advisor("calc", "--model", str(bad))
    assert out.returncode == 2 and "not valid JSON" in out.stderr and "Traceback" not in out.stderr


def test_calc_table_in_chinese():
    out = advisor("calc", "--model", "qwen2.5-7b-instruct", "--gpu", "rtx-4090", "--context", "32768",
                  "--concurrency", "8", "--lang", "zh_CN")  # fmt: skip
    assert out.returncode == 0
    assert "放不下" in out.stdout and "--max-model-len" in out.stdout
    # the expected error is stated in words beside the figures, with the figure the bench measured at this load
    # (concurrency 8) first and the overall one after it
    acc = json.loads((ROOT / "resources" / "engines" / "accuracy.json").read_text(encoding="utf-8"))
    at = next(a for a in acc["by_load"] if a["load"] == "concurrency_2_16")
    assert f"此负载（并发 2–16）下的预期误差：对照 {at['measurements']} 个公开实测" in out.stdout
    assert f"TTFT 预测误差中位数为 {at['ttft']['median']:.0%}" in out.stdout
    assert f"分别为 {acc['ttft']['median']:.0%} 和 {acc['tpot']['median']:.0%}" in out.stdout
    english = advisor("calc", "--model", "qwen2.5-7b-instruct", "--gpu", "rtx-4090")  # concurrency 1
    one = next(a for a in acc["by_load"] if a["load"] == "concurrency_1")
    assert f"Expected error at this load (concurrency 1): against {one['measurements']} public measurements" in english.stdout
    assert f"TPOT by {one['tpot']['median']:.0%}" in english.stdout
    assert f"from {acc['sources']} sources, by {acc['ttft']['median']:.0%} and {acc['tpot']['median']:.0%}" in english.stdout


def test_user_can_add_a_gpu_and_size_on_it(tmp_path):
    spec = {
        "id": "my-card-48g", "name": "My Card 48GB", "memory_bytes": 48 * 1024**3, "bandwidth_bytes_per_s": 1.0e12,
        "bf16_tflops_dense": 200.0, "tdp_watts": 300, "source": "vendor datasheet", "confidence": "medium",
    }  # fmt: skip
    f = tmp_path / "gpu.json"
    f.write_text(json.dumps(spec))
    out = advisor("gpus", "--add", str(f))
    assert out.returncode == 0, out.stderr
    ids = {g["id"] for g in json.loads(advisor("gpus", "--json").stdout)}
    assert "my-card-48g" in ids
    calc = json.loads(advisor("calc", "--model", "qwen2.5-7b-instruct", "--gpu", "my-card-48g", "--json").stdout)
    assert calc["gpu"] == "my-card-48g" and calc["fits"] is True


def test_adding_an_absurd_gpu_is_refused(tmp_path):
    f = tmp_path / "gpu.json"
    f.write_text(json.dumps({"id": "tiny", "name": "Tiny", "memory_bytes": 24, "bandwidth_bytes_per_s": 1e12,
                             "bf16_tflops_dense": 100, "tdp_watts": 100, "source": "x"}))  # fmt: skip
    out = advisor("gpus", "--add", str(f))
    assert out.returncode == 2 and "less than 1 GiB" in out.stderr


def test_calc_shared_prefix_in_json_and_text():
    base = ("calc", "--model", "llama-3.1-8b-instruct", "--gpu", "h100-sxm-80g", "--context", "1000", "--concurrency", "3")
    plain = json.loads(advisor(*base, "--json").stdout)
    out = advisor(*base, "--shared-prefix-tokens", "500", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    # 31 whole blocks of the prefix once + 32 own blocks per request (the partial prefix block is per request)
    assert data["shared_prefix_tokens"] == 500 and data["shared_prefix_blocks"] == 31
    assert data["kv_cache_bytes"] == (3 * 32 + 31) * 16 * 131072 < plain["kv_cache_bytes"] == 3 * 63 * 16 * 131072
    assert data["kv_bytes_shared_prefix"] == 31 * 16 * 131072 and data["cached_prompt_tokens"] == 496
    assert data["memory"]["max_concurrency_kv"] > plain["memory"]["max_concurrency_kv"] and "496" in data["shared_prefix_note"]
    assert plain["shared_prefix_blocks"] == 0 and plain["shared_prefix_note"] is None
    # `advisor predict` spells it --prefix-tokens: the same option here
    assert json.loads(advisor(*base, "--prefix-tokens", "500", "--json").stdout)["kv_cache_bytes"] == data["kv_cache_bytes"]
    text = advisor(*base, "--shared-prefix-tokens", "500", "--lang", "en")
    assert text.returncode == 0 and "Shared prefix" in text.stdout and "496 of each shared" in text.stdout
    assert "496 prompt tokens read from the prefix cache" in text.stdout


@pytest.mark.parametrize("value", ["-1", "x", "5000"])
def test_calc_bad_shared_prefix_is_a_clear_error(value):
    out = advisor("calc", "--model", "llama-3.1-8b-instruct", "--context", "4096", "--prompt-tokens", "3000",
                  "--shared-prefix-tokens", value)  # fmt: skip
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "shared-prefix-tokens" in out.stderr or "shared prefix" in out.stderr
