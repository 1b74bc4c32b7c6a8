"""`advisor calc` with a config.json it cannot read says which field or architecture is the problem and what to do,
in English and in Chinese; it never prints a size and never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def _calc(config: dict, tmp_path: Path, lang: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "config.json"
    path.write_text(json.dumps(config), encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "advisor", "calc", "--model", str(path), "--gpu", "h200-141g", "--lang", lang],
                          capture_output=True, text=True, timeout=120)  # fmt: skip


UNKNOWN = {"architectures": ["FooBarForCausalLM"], "model_type": "foobar", "hidden_size": 4096, "num_hidden_layers": 32}


@pytest.mark.parametrize(
    ("config", "lang", "expected"),
    [
        # a family with no close stand-in: the fields to write under model_type llama, if it is a plain decoder
        (UNKNOWN, "en", [r"model_type foobar \(FooBarForCausalLM\) cannot be read yet", r"model_type llama and this model's hidden_size"]),
        (UNKNOWN, "zh_CN", [r"model_type foobar（FooBarForCausalLM）目前还无法读取", r"model_type 填 llama"]),
        # a family with a close one: that family named
        ({"architectures": ["MambaForCausalLM"], "model_type": "mamba"}, "en", [r"nearest supported family is qwen3_next"]),
        ({"architectures": ["MambaForCausalLM"], "model_type": "mamba"}, "zh_CN", [r"最接近的已支持系列是 qwen3_next"]),
        # not a model's config at all
        ({"bos_token_id": 1, "eos_token_id": 2}, "en", [r"names no model_type \(and no architectures\)", r"generation_config.json"]),
        ({"bos_token_id": 1, "eos_token_id": 2}, "zh_CN", [r"没有写 model_type（也没有 architectures）"]),
        # a known family with a field missing: the field, what it is, in the user's language
        ({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 32}, "en",
         [r"has no 'hidden_size' / 'n_embd' / 'd_model' \(the hidden size\)", r"Copy the field"]),
        ({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 32}, "zh_CN",
         [r"config.json 中没有 'hidden_size' / 'n_embd' / 'd_model'（隐藏层宽度）", r"补上这个字段"]),
    ],
)  # fmt: skip
def test_the_refusal_names_what_is_missing_and_what_to_do(config, lang, expected, tmp_path):
    import re

    out = _calc(config, tmp_path, lang)
    assert out.returncode != 0 and "Traceback" not in out.stderr and out.stdout == ""
    for pattern in expected:
        assert re.search(pattern, out.stderr), (pattern, out.stderr)
    if lang == "zh_CN":  # no English sentence left in the Chinese refusal
        assert not re.search(r"\b(is this|cannot|the hidden size|supported family)\b", out.stderr)
