"""Sample files with references: JSONL and CSV, the scorer chosen from the row, and field-level messages."""

import json

import pytest

from advisor.bench.quality.samples import SampleError, load_samples
from advisor.i18n import set_language


def _jsonl(tmp_path, rows, name="s.jsonl"):
    p = tmp_path / name
    p.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    return p


def test_jsonl_rows_pick_their_scorer(tmp_path):
    p = _jsonl(tmp_path, [
        {"_license": "metadata rows are skipped"},
        {"id": "n", "prompt": "17 × 23?", "reference": "391"},
        {"prompt": "Capital of Australia?", "reference": "Canberra"},
        {"prompt": "Unit of resistance?", "choices": ["volt", "ohm"], "answer": "b"},
        {"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "JSON please"}],
         "scorer": "json", "required_keys": ["a"]},
        {"prompt": "no reference: answered, not scored"},
    ])
    s = load_samples(p)
    assert [x.scorer for x in s] == ["numeric", "normalised", "choice", "json", None]
    assert s[0].id == "n" and s[1].id == "s-3"
    assert s[2].answer == "B"
    assert s[3].prompt == "JSON please" and s[3].messages[0]["role"] == "system"
    assert s[3].as_prompt(64).as_messages()[-1]["content"] == "JSON please"
    assert not s[4].scored


def test_csv_with_choices_separated_by_bars(tmp_path):
    p = tmp_path / "s.csv"
    p.write_text("prompt,choices,answer,reference,scorer,tolerance\n"
                 "一斤等于多少克？,,,500,numeric,0.5\n"
                 "电阻的单位？,伏特|欧姆|安培,B,,,\n", encoding="utf-8")
    a, b = load_samples(p)
    assert a.scorer == "numeric" and a.tolerance == 0.5 and a.reference == "500"
    assert b.scorer == "choice" and b.choices == ["伏特", "欧姆", "安培"]


@pytest.mark.parametrize(("row", "words"), [
    ({"prompt": "x", "reference": "1", "scorer": "bleu"}, ["line 1", "unknown scorer \"bleu\"", "numeric"]),
    ({"prompt": "x", "choices": ["a", "b"], "answer": "C"}, ["line 1", "\"answer\"", "A, B"]),
    ({"prompt": "x", "scorer": "regex", "pattern": "("}, ["line 1", "\"pattern\"", "regular expression"]),
    ({"prompt": "x", "scorer": "numeric", "reference": "many"}, ["line 1", "number", "many"]),
    ({"prompt": "x", "scorer": "exact"}, ["line 1", "\"reference\""]),
    ({"prompt": "x", "reference": "1", "tolerance": -1}, ["line 1", "\"tolerance\""]),
    ({"prompt": 5, "reference": "1"}, ["line 1", "\"prompt\" must be text"]),
])
def test_bad_rows_name_the_line_and_the_field(tmp_path, row, words):
    p = _jsonl(tmp_path, [row])
    with pytest.raises(SampleError) as err:
        load_samples(p)
    for w in words:
        assert w in str(err.value)
    assert str(p) in str(err.value)


def test_messages_in_chinese(tmp_path):
    set_language("zh_CN")
    try:
        p = _jsonl(tmp_path, [{"prompt": "x", "reference": "1", "scorer": "bleu"}])
        with pytest.raises(SampleError) as err:
            load_samples(p)
        assert "未知的评分方式" in str(err.value)
    finally:
        set_language("en")


def test_missing_and_empty_files(tmp_path):
    with pytest.raises(SampleError, match="nope"):
        load_samples(tmp_path / "nope.jsonl")
    empty = _jsonl(tmp_path, [{"_about": "only metadata"}])
    with pytest.raises(SampleError):
        load_samples(empty)


def test_cli_names_the_bad_row_before_any_request(tmp_path, capsys):
    from advisor.cli import main as cli_main

    p = _jsonl(tmp_path, [{"prompt": "ok", "reference": "1"}, {"prompt": "x", "choices": ["a", "b"], "answer": "Z"}])
    code = cli_main(["ab", "--a-url", "http://127.0.0.1:9", "--a-model", "m", "--b-model", "n", "--prompts", str(p)])
    err = capsys.readouterr().err
    assert code == 2 and "line 2" in err and "\"answer\" must be the letter" in err and "Traceback" not in err
