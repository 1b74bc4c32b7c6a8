"""Dataset rows of the wrong shape are a clear per-row message (file, line, field), never a traceback."""

from __future__ import annotations

import json

import pytest

from advisor.bench import workload
from advisor.bench.workload import WorkloadError, load_dataset


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ({"messages": "x"}, '"messages" must be a list'),  # issue #13 item 8: was an AttributeError traceback
        ({"messages": [1]}, "message #1 must be an object"),
        ({"messages": [{"role": "user", "content": 5}]}, "message #1"),
        ({"messages": [{"content": "hi"}]}, "message #1"),
        ({"prompt": 5}, '"prompt" must be text'),
        ({"prompt": "hi", "max_tokens": True}, '"max_tokens" must be a whole number'),
        ({"prompt": "hi", "max_tokens": 12.5}, '"max_tokens" must be a whole number'),
        ({"prompt": "hi", "output_tokens": -3}, '"output_tokens" must be a whole number'),
        ({"conversations": "x"}, '"conversations" must be a list'),
        ([1, 2], "expected an object or a text"),
    ],
)
def test_bad_rows_name_the_line_and_the_field(tmp_path, row, words):
    path = tmp_path / "prompts.jsonl"
    path.write_text('{"prompt": "fine"}\n' + json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(WorkloadError) as err:
        load_dataset(path)
    message = str(err.value)
    assert "prompts.jsonl, line 2" in message and words in message


def test_bad_item_of_a_sharegpt_file(tmp_path):
    path = tmp_path / "sg.json"
    path.write_text(json.dumps([{"conversations": [{"from": "human", "value": "hi"}]}, {"messages": "x"}]))
    with pytest.raises(WorkloadError, match=r"sg\.json, item 2: \"messages\" must be a list"):
        load_dataset(path)


def test_deep_nesting_and_nan_in_a_dataset(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    with pytest.raises(WorkloadError, match="levels deep"):
        load_dataset(deep)
    line = tmp_path / "nan.jsonl"
    line.write_text('{"prompt": "a"}\n{"prompt": "b", "max_tokens": NaN}\n')
    with pytest.raises(WorkloadError, match=r"nan\.jsonl, line 2 contains NaN"):
        load_dataset(line)


def test_csv_output_tokens_must_be_whole(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("prompt,output_tokens\nhello,12\nworld,lots\n", encoding="utf-8")
    with pytest.raises(WorkloadError, match="line 3"):
        load_dataset(path)


def test_reading_is_bounded(tmp_path, monkeypatch):
    path = tmp_path / "big.jsonl"
    path.write_text('{"prompt": "x"}\n' * 100, encoding="utf-8")
    monkeypatch.setattr(workload, "DATASET_MAX_BYTES", 200)
    with pytest.raises(WorkloadError, match="too large"):
        load_dataset(path)
    monkeypatch.setattr(workload, "DATASET_MAX_BYTES", 10**6)
    monkeypatch.setattr(workload, "DATASET_MAX_ROWS", 10)
    with pytest.raises(WorkloadError, match="more than 10 prompts"):
        load_dataset(path)


def test_good_rows_still_load(tmp_path):
    path = tmp_path / "ok.jsonl"
    rows = [{"prompt": "a", "max_tokens": 7}, {"messages": [{"role": "user", "content": [{"type": "text", "text": "b"}]}]},
            {"other": 1}, "plain text"]  # fmt: skip
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    prompts = load_dataset(path)
    assert len(prompts) == 3 and prompts[0].max_tokens == 7
