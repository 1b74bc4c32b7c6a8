"""Workloads: length distributions, real prompt files, histograms, the server's tokenizer or an estimate."""

import json
import random
import statistics

import pytest

from advisor.bench.workload import (
    PromptSource,
    Tokenizer,
    WorkloadError,
    histogram,
    load_dataset,
    sample_length,
)
from advisor.domain.bench import LengthDist, WorkloadConfig
from tests.support.replay import ReplayServer


@pytest.mark.parametrize(
    ("dist", "mean", "sd"),
    [
        (LengthDist(kind="fixed", mean=300), 300, 0),
        (LengthDist(kind="uniform", min=100, max=500), 300, 115.5),
        (LengthDist(kind="normal", mean=300, std=50), 300, 50),
        (LengthDist(kind="lognormal", mean=300, std=150, max=100_000), 300, 150),
    ],
)
def test_length_distributions_have_the_asked_moments(dist, mean, sd):
    rng = random.Random(7)
    xs = [sample_length(dist, rng) for _ in range(6000)]
    assert statistics.mean(xs) == pytest.approx(mean, rel=0.04)
    assert statistics.pstdev(xs) == pytest.approx(sd, rel=0.08, abs=1)
    assert min(xs) >= dist.min and max(xs) <= dist.max


def test_uniform_needs_bounds_and_min_le_max():
    with pytest.raises(ValueError, match="uniform"):
        LengthDist(kind="uniform", mean=10)
    with pytest.raises(ValueError, match="must not exceed"):
        LengthDist(min=10, max=5)


def test_synthetic_prompts_are_unique_and_about_the_asked_length():
    src = PromptSource(WorkloadConfig(prompt_tokens=LengthDist(mean=200), output_tokens=LengthDist(mean=64)))
    a, b = next(src), next(src)
    assert a.text != b.text and a.max_tokens == 64 and a.prompt_tokens == 200
    assert 150 <= len(a.text.split()) <= 210
    zh = next(PromptSource(WorkloadConfig(prompt_tokens=LengthDist(mean=100), language="zh")))
    assert len(zh.text) > 90


def test_import_jsonl_messages_csv_and_sharegpt(tmp_path):
    jl = tmp_path / "p.jsonl"
    jl.write_text('{"prompt": "hello world"}\n\n{"messages": [{"role": "user", "content": "你好，世界"}]}\n',
                  encoding="utf-8")
    prompts = load_dataset(jl)
    assert [p.as_text() for p in prompts] == ["hello world", "你好，世界"]
    assert prompts[1].messages == [{"role": "user", "content": "你好，世界"}]
    cs = tmp_path / "p.csv"
    cs.write_text("id,prompt,output_tokens\n1,\"a, b\",12\n2,second,\n", encoding="utf-8")
    rows = load_dataset(cs)
    assert [p.text for p in rows] == ["a, b", "second"] and rows[0].max_tokens == 12
    sg = tmp_path / "sharegpt.json"
    sg.write_text(json.dumps([{"conversations": [{"from": "human", "value": "Explain KV cache"},
                                                 {"from": "gpt", "value": "It stores keys and values " * 10}]},
                              {"conversations": [{"from": "gpt", "value": "orphan"}]}]), encoding="utf-8")
    (p,) = load_dataset(sg)
    assert p.text == "Explain KV cache" and p.max_tokens > 10
    src = PromptSource(WorkloadConfig(output_tokens=LengthDist(mean=7)), dataset=rows)
    assert {next(src).text for _ in range(4)} == {"a, b", "second"}


def test_bad_files_name_the_problem(tmp_path):
    with pytest.raises(WorkloadError, match="not found"):
        load_dataset(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"prompt": "ok"}\n{oops\n', encoding="utf-8")
    with pytest.raises(WorkloadError, match="line 2"):
        load_dataset(bad)
    empty = tmp_path / "e.jsonl"
    empty.write_text('{"other": 1}\n', encoding="utf-8")
    with pytest.raises(WorkloadError, match="No prompts"):
        load_dataset(empty)


def test_histogram_bins_cover_all_lengths():
    h = histogram([10, 20, 20, 30, 100], bins=3)
    assert sum(b["count"] for b in h) == 5 and h[0]["lo"] == 10 and h[-1]["hi"] == 100
    assert histogram([5, 5]) == [{"lo": 5, "hi": 5, "count": 2}]


def test_tokenizer_uses_the_server_tokenize_endpoint_and_falls_back_to_the_estimate():
    def vllm_tokenize(body):
        if "prompt" not in body:
            return 400, {"error": "bad"}
        return 200, {"count": len(body["prompt"].split()) * 2, "max_model_len": 8192, "tokens": []}

    with ReplayServer(posts={"/tokenize": vllm_tokenize}) as srv:
        tok = Tokenizer(srv.url, "m")
        assert tok.detect() == "vllm"
        assert tok.count("one two three") == (6, "tokenizer")
    with ReplayServer() as srv:
        tok = Tokenizer(srv.url, "m")
        assert tok.detect() is None
        n, source = tok.count("one two three")
        assert source == "estimate" and 2 <= n <= 5


def test_calibration_with_the_server_tokenizer_scales_synthetic_prompts_and_counts_datasets():
    from advisor.bench.workload import Prompt

    def tokenize(body):  # a tokenizer that makes every word two tokens
        return 200, {"count": 2 * len(body["prompt"].split()), "max_model_len": 4096, "tokens": []}

    with ReplayServer(posts={"/tokenize": tokenize}) as srv:
        tok = Tokenizer(srv.url, "m")
        tok.detect()
        src = PromptSource(WorkloadConfig(prompt_tokens=LengthDist(mean=400)))
        src.calibrate(tok)
        text = next(src).text
        assert tok.count(text)[0] == pytest.approx(400, rel=0.05)
        assert src.token_source == "tokenizer"
        data = PromptSource(WorkloadConfig(), dataset=[Prompt(text="a b c"), Prompt(text="d e")])
        data.calibrate(tok)
        assert sorted(p.prompt_tokens for p in data.dataset) == [4, 6]
