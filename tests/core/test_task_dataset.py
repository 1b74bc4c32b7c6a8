"""A local copy of an EvalScope task's dataset (``--task-dataset``, the A/B page's "local dataset" field): a path
that does not exist, or is not what EvalScope reads for the task, is said in words that say what is expected,
before any request — by the CLI, by ``run_ab`` (the page's worker calls it) and by ``run_side``. Qt-free; no
EvalScope needed (the check runs before EvalScope is started)."""

import json

import pytest

from advisor.bench.ab import AbConfig, AbError, run_ab
from advisor.bench.quality.task_dataset import dataset_problem, loads_local_files
from advisor.cli import main as cli_main
from advisor.i18n import set_language


def _qa_file(path):
    path.write_text(json.dumps({"query": "2+2?", "response": "4"}) + "\n", encoding="utf-8")
    return path


def test_empty_means_modelscope_and_a_missing_path_is_named(tmp_path):
    assert dataset_problem("gsm8k", "") is None and dataset_problem("gsm8k", None) is None
    assert dataset_problem("gsm8k", "   ") is None
    missing = tmp_path / "nope"
    problem = dataset_problem("gsm8k", str(missing))
    assert problem is not None and str(missing) in problem and "does not exist" in problem
    assert "ModelScope" in problem  # what leaving it empty does instead


def test_general_tasks_read_a_data_file_or_a_folder_with_the_subset_file(tmp_path):
    assert loads_local_files("general_qa") and loads_local_files("General_MCQ") and not loads_local_files("gsm8k")
    assert dataset_problem("general_qa", str(_qa_file(tmp_path / "mine.jsonl"))) is None
    assert dataset_problem("general_qa", str(_qa_file(tmp_path / "mine.csv"))) is None
    text = tmp_path / "notes.txt"
    text.write_text("2+2? 4", encoding="utf-8")
    problem = dataset_problem("general_qa", str(text))
    assert problem is not None and str(text) in problem and ".jsonl, .csv, .tsv or .parquet" in problem
    folder = tmp_path / "qa"
    folder.mkdir()
    _qa_file(folder / "other_test.jsonl")
    problem = dataset_problem("general_qa", str(folder))
    assert problem is not None and "default_test.jsonl" in problem and str(folder) in problem
    assert dataset_problem("general_qa", str(folder), subset="other") is None  # a named subset's file counts
    _qa_file(folder / "default_test.jsonl")
    assert dataset_problem("general_qa", str(folder)) is None
    only_plain = tmp_path / "plain"
    only_plain.mkdir()
    _qa_file(only_plain / "default.csv")  # EvalScope's other name: <subset>.<ext>
    assert dataset_problem("general_qa", str(only_plain)) is None


def test_named_tasks_read_a_folder_holding_a_dataset_copy(tmp_path):
    data_file = _qa_file(tmp_path / "gsm8k.jsonl")
    problem = dataset_problem("gsm8k", str(data_file))
    assert problem is not None and "reads a folder" in problem and "modelscope download --dataset" in problem
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.md").write_text("no data here", encoding="utf-8")
    problem = dataset_problem("gsm8k", str(empty))
    assert problem is not None and "no data files" in problem
    copy = tmp_path / "gsm8k"
    (copy / "main").mkdir(parents=True)
    (copy / "main" / "test-00000-of-00001.parquet").write_bytes(b"PAR1")  # the layout `modelscope download` writes
    assert dataset_problem("gsm8k", str(copy)) is None


def test_the_messages_are_translated(tmp_path):
    set_language("zh_CN")
    try:
        assert "不存在" in dataset_problem("ceval", str(tmp_path / "nope"))
        assert "default_test.jsonl" in dataset_problem("general_qa", str(tmp_path)) and "文件夹" in \
            dataset_problem("general_qa", str(tmp_path))
    finally:
        set_language("en")


def test_run_ab_refuses_a_wrong_dataset_before_any_request(tmp_path):
    """The page's worker and the CLI both call run_ab: a wrong dataset stops it before the sides are contacted
    (port 9 is never listened on; reaching the side check would give a connection error instead)."""
    config = AbConfig.model_validate({
        "a": {"url": "http://127.0.0.1:9", "model": "m"}, "b": {"url": "http://127.0.0.1:9", "model": "n"},
        "task": "gsm8k", "task_dataset": str(tmp_path / "nope"), "task_limit": 5})
    with pytest.raises(AbError, match="does not exist"):
        run_ab(config, store_path=tmp_path / "bench.sqlite3")


def test_the_cli_says_what_the_task_expects(tmp_path, monkeypatch, capsys):
    import advisor.bench.quality.evalscope_task as task

    monkeypatch.setattr(task, "available", lambda: True)  # the check is ours, before EvalScope would start
    data_file = _qa_file(tmp_path / "cmmlu.jsonl")
    code = cli_main(["ab", "--a-url", "http://127.0.0.1:9", "--a-model", "m", "--b-model", "n", "--task", "cmmlu",
                     "--task-dataset", str(data_file), "--db", str(tmp_path / "bench.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and str(data_file) in err and "reads a folder" in err and "Traceback" not in err


def test_run_side_checks_the_dataset_before_starting_evalscope(tmp_path, monkeypatch):
    import advisor.bench.quality.evalscope_task as task

    monkeypatch.setattr(task, "available", lambda: True)
    started = []
    monkeypatch.setattr(task.subprocess, "Popen", lambda *a, **k: started.append(a))
    with pytest.raises(task.TaskError, match="default_test.jsonl"):
        task.run_side("http://127.0.0.1:9", "m", "general_qa", limit=2, seed=0, work_dir=tmp_path / "w",
                      dataset_path=str(tmp_path))
    assert started == []
