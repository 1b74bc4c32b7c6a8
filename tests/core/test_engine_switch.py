"""A GGUF format is served by llama.cpp whatever engine was asked for: `advisor calc` says so (JSON and table) and
its advice gives llama-server's flags, never vLLM's (issue #26 item 9)."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from advisor.sizing.advice import llama_cpp_flags

VLLM_FLAGS = ("--max-num-seqs", "--max-model-len", "--gpu-memory-utilization", "--tensor-parallel-size",
              "--kv-cache-dtype", "--max-num-batched-tokens")


def _calc(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """What `advisor calc` prints, run in-process: the command's output is what is checked here (an interpreter
    start was ~0.7 s of CPU a run; tests/core/test_cli_calc.py checks the process itself)."""
    code = main(["calc", "--model", "qwen2.5-14b-instruct", "--gpu", "l4", "--context", "32768", "--concurrency", "20",
                 "--lang", "en", *args])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_calc_says_a_gguf_format_runs_on_llama_cpp_with_its_own_flags(capsys):
    out = json.loads(_calc(capsys, "--weights", "gguf-q8_0", "--json"))
    assert "llama.cpp" in out["engine_switch"] and "vLLM" in out["engine_switch"]
    assert out["perf"]["engine_profile"] == "llama.cpp" and out["vllm_command"] is None
    flags = " ".join(a["flags"] or "" for a in out["advice"])
    assert not any(f in flags for f in VLLM_FLAGS), flags
    table = _calc(capsys, "--weights", "gguf-q8_0")
    assert "GGUF Q8_0 is a GGUF file" in table
    # asked for llama.cpp, or a vLLM format: nothing switched, nothing said
    assert json.loads(_calc(capsys, "--weights", "gguf-q8_0", "--engine-profile", "llama.cpp", "--json"))["engine_switch"] is None
    assert json.loads(_calc(capsys, "--weights", "awq-int4", "--json"))["engine_switch"] is None


def test_vllm_flags_become_llama_server_flags_or_nothing():
    assert llama_cpp_flags("--max-num-seqs 4") == "-np 4"
    assert llama_cpp_flags("--tensor-parallel-size 2 --max-num-seqs 6") == "--split-mode layer --tensor-split 1,1 -np 6"
    assert llama_cpp_flags("--kv-cache-dtype fp8") == "-fa on -ctk q8_0 -ctv q8_0"
    assert llama_cpp_flags("--gpu-memory-utilization 0.9") is None
    assert llama_cpp_flags("--max-model-len 8192") is None  # llama.cpp's -c counts every slot: no 1:1 flag
    assert llama_cpp_flags("-fa on -ctk q8_0 -ctv q8_0") == "-fa on -ctk q8_0 -ctv q8_0"  # already llama-server's
