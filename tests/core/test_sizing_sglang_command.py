"""An SGLang request gets SGLang's launch line and flag names, never `vllm serve` (s18-sglcmd); vLLM's is unchanged.
Flag names: python/sglang/srt/server_args.py (--model-path, --tp, --context-length, --mem-fraction-static,
--max-running-requests, --kv-cache-dtype, --quantization)."""

from __future__ import annotations

import json

from advisor.catalog import get_gpu, get_model
from advisor.cli import main
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.sizing import size
from advisor.sizing.sglang_pool import default_mem_fraction_static

VLLM_ONLY = ("vllm serve", "--gpu-memory-utilization", "--max-model-len", "--tensor-parallel-size", "--max-num-seqs",
             "--max-num-batched-tokens")  # fmt: skip


def _request(profile: str, concurrency: int = 4, **kw) -> SizingRequest:
    return SizingRequest(model=get_model("llama-3.1-8b-instruct"), gpu=get_gpu("rtx-4090"), weights=kw.pop("weights", "bf16"),
                         kv_dtype=kw.pop("kv_dtype", "bf16"), context=8192, concurrency=concurrency, gpus=1,
                         engine_profile=profile, **kw)  # fmt: skip


def _all_flags(res) -> str:
    return " ".join([res.sglang_command or "", res.vllm_command or ""] + [a.flags or "" for a in res.advice])


def test_sglang_gets_its_launch_line_with_the_share_it_was_sized_with():
    res = size(_request("sglang"))
    assert res.vllm_command is None and res.llama_cpp_command is None
    cmd = res.sglang_command
    share = default_mem_fraction_static(res.memory.gpu_memory_bytes, 1)
    assert cmd == ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 8192 "
                   f"--mem-fraction-static {share:g} --max-running-requests 4")  # fmt: skip
    set_share = size(_request("sglang", engine=EngineSettings(mem_fraction_static=0.7))).sglang_command
    assert set_share is not None and "--mem-fraction-static 0.7 " in set_share


def test_sglang_advice_and_command_name_no_vllm_flag():
    """Too many requests for one card: the advice's flags (TP, FP8 KV, fewer requests) are SGLang's too."""
    res = size(_request("sglang", concurrency=6))
    assert res.verdict == "does_not_fit"
    text = _all_flags(res)
    assert "--tp 2" in text and "--kv-cache-dtype fp8_e4m3" in text and "--max-running-requests" in text
    for flag in VLLM_ONLY:
        assert flag not in text, flag


def test_sglang_fp8_on_the_fly_and_tp():
    res = size(_request("sglang", weights="fp8", kv_dtype="fp8").model_copy(update={"gpus": 2}))
    assert res.sglang_command is not None
    assert " --tp 2 " in res.sglang_command and "--kv-cache-dtype fp8_e4m3" in res.sglang_command
    # the same checkpoint as vLLM's line: a published FP8 one is named, not quantized again on loading
    vllm = size(_request("vllm", weights="fp8", kv_dtype="fp8").model_copy(update={"gpus": 2})).vllm_command
    assert vllm is not None
    assert res.sglang_command.split()[4] == vllm.split()[2] and ("--quantization" in res.sglang_command) == ("--quantization" in vllm)


def test_vllm_keeps_its_command_and_gets_no_sglang_line():
    res = size(_request("vllm"))
    assert res.sglang_command is None
    assert res.vllm_command == "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192 --gpu-memory-utilization 0.9"


def test_calc_prints_and_reports_the_sglang_line(capsys):
    argv = ["calc", "--model", "llama-3.1-8b-instruct", "--gpu", "rtx-4090", "--concurrency", "4", "--engine-profile", "sglang"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "$ python -m sglang.launch_server --model-path" in text and "vllm serve" not in text
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sglang_command"].startswith("python -m sglang.launch_server") and data["vllm_command"] is None
