"""Command-line input: what `int`/`float` would quietly take (nan, inf, 0, 28.5, bools) or what would hang is
refused at once with one line naming the option; damaged user files are a message, not a traceback."""

from __future__ import annotations

import argparse
import json

import pytest

from advisor.catalog import user_gpus_path
from advisor.cli import main
from advisor.cli.common import (
    UserError,
    fraction,
    integer,
    nonneg_int,
    number_list,
    positive_float,
    positive_int,
)

pytestmark = pytest.mark.timeout(60)  # a hang (predict --request-rate nan did) fails instead of blocking the run

SETUP = ["--model", "qwen2.5-7b-instruct", "--gpu", "rtx-4090"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse refuses with exit status 2
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("parse", "text", "words"),
    [
        (positive_int, "0", "at least 1"),
        (positive_int, "-3", "at least 1"),
        (positive_int, "28.5", "a fraction"),
        (positive_int, "True", "whole number"),
        (positive_int, "nan", "whole number"),
        (positive_int, "9" * 5000, "whole number"),
        (positive_int, "1" + "0" * 20, "far too large"),
        (nonneg_int, "-1", "0 or more"),
        (positive_float, "nan", "nan and inf"),
        (positive_float, "inf", "nan and inf"),
        (positive_float, "1e999", "nan and inf"),
        (positive_float, "0", "above 0"),
        (positive_float, "fast", "a number"),
        (fraction, "90", "not a percentage"),
        (fraction, "0", "between 0 and 1"),
    ],
)
def test_argument_types_refuse_with_words(parse, text, words):
    with pytest.raises(argparse.ArgumentTypeError, match=words):
        parse(text)


def test_argument_types_accept_ordinary_values():
    assert positive_int(" 8 ") == 8 and positive_int("1_000") == 1000 and integer("-5") == -5
    assert nonneg_int("0") == 0 and positive_float("0.1") == 0.1 and fraction("1") == 1.0
    assert number_list("1, 2,4", int, "--concurrency") == [1, 2, 4]
    with pytest.raises(UserError, match="--request-rate: expected a real number"):
        number_list("1,nan", float, "--request-rate")
    with pytest.raises(UserError, match="--concurrency: give one or more"):
        number_list(" , ", int, "--concurrency")


@pytest.mark.parametrize("rate", ["nan", "inf", "-1", "0"])
def test_predict_request_rate_nan_is_refused_not_a_hang(capsys, rate):
    code, out, err = run(capsys, "predict", *SETUP, "--request-rate", rate, "--json")
    assert code == 2 and out == "" and "--request-rate" in err


@pytest.mark.parametrize("scale", ["inf", "nan", "0", "-1", "1e9"])
def test_sim_time_scale_inf_is_refused_not_a_hang(capsys, scale):
    code, out, err = run(capsys, "sim", *SETUP, "--port", "0", "--time-scale", scale)
    assert code == 2 and "listening" not in out and "--time-scale" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["calc", "--model", "qwen2.5-7b-instruct", "--gpu", "1"], "unknown GPU '1'"),
        (["calc", "--model", "qwen2.5-7b-instruct", "--gpu", ""], "no GPU given"),
        (["calc", "--model", "qwen2.5-7b-instruct", "--gpu", "h100"], "several GPUs"),
        (["calc", "--model", "qwen2.5-7b-instruct", "--context", "8192.5"], "--context"),
        (["calc", "--model", "qwen2.5-7b-instruct", "--gpu-memory-utilization", "90"], "not a percentage"),
        (["calc", "--model", "qwen2.5-7b-instruct", "--mfu", "nan"], "--mfu"),
        (["predict", *SETUP, "--max-tokens", "0"], "--max-tokens"),
        (["predict", *SETUP, "--concurrency", "1,2,x"], "--concurrency"),
        (["gpu", "--interval", "nan"], "--interval"),
        (["gpu", "--count", "0"], "--count"),
    ],
)
def test_bad_values_are_one_clear_line(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_calc_with_a_nan_config_names_the_file(capsys, tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_text('{"model_type": "qwen2", "hidden_size": NaN, "num_hidden_layers": 2}', encoding="utf-8")
    code, _, err = run(capsys, "calc", "--model", str(cfg))
    assert code == 2 and str(cfg) in err and "NaN" in err


GPU = {"id": "my-card-24g", "name": "My card", "memory_bytes": 24 * 1024**3, "bandwidth_bytes_per_s": 1.0e12,
       "bf16_tflops_dense": 150.0, "tdp_watts": 300, "source": "my own measurement"}  # fmt: skip


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (json.dumps(GPU).replace("150.0", "Infinity"), "Infinity"),  # issue #13 item 7: was accepted
        (json.dumps(GPU).replace("150.0", "1e999"), "not a finite number"),
        (json.dumps(dict(GPU, bf16_tflops_dense=True)), "bf16_tflops_dense"),
        (json.dumps(dict(GPU, memory_bytes="24")), "memory_bytes"),
        ("[" * 10_000 + "]" * 10_000, "levels deep"),
        ("[]", "one GPU as a JSON object"),
        ('{"id": ', "not valid JSON"),
    ],
)
def test_gpus_add_refuses_bad_files(capsys, tmp_path, text, words):
    path = tmp_path / "gpu.json"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "gpus", "--add", str(path))
    assert code == 2 and words in err and "Traceback" not in err
    assert not user_gpus_path().exists()


def test_gpus_add_then_use_it(capsys, tmp_path):
    path = tmp_path / "gpu.json"
    path.write_text(json.dumps(GPU), encoding="utf-8")
    assert run(capsys, "gpus", "--add", str(path))[0] == 0
    code, out, _ = run(capsys, "calc", "--model", "qwen2.5-7b-instruct", "--gpu", "my-card", "--json")
    assert code == 0 and json.loads(out)["gpu"] == "my-card-24g"


@pytest.mark.parametrize("content", ['[{"id": "x"', "[" * 10_000, '[{"id": "x"}]', '{"a": 1}', "\xff\xfe"])
@pytest.mark.parametrize("command", [["gpus"], ["gpus", "--json"], ["calc", "--model", "qwen2.5-7b-instruct"]])
def test_a_damaged_user_gpu_file_is_named_with_the_fix(capsys, tmp_path, content, command):
    user_gpus_path().write_text(content, encoding="latin-1")
    code, _, err = run(capsys, *command)
    assert code == 2 and "Traceback" not in err
    assert str(user_gpus_path()) in err and "user_gpus.json.bak" in err  # names the file and how to reset it


def test_gpus_add_over_a_damaged_file_is_refused_and_keeps_it(capsys, tmp_path):
    user_gpus_path().write_text("[{oops", encoding="utf-8")
    path = tmp_path / "gpu.json"
    path.write_text(json.dumps(GPU), encoding="utf-8")
    code, _, err = run(capsys, "gpus", "--add", str(path))
    assert code == 2 and "not valid JSON" in err
    assert user_gpus_path().read_text() == "[{oops"  # the user's file is not overwritten


def test_user_gpu_file_that_is_a_folder(capsys):
    user_gpus_path().mkdir()
    code, _, err = run(capsys, "gpus")
    assert code == 2 and "is a folder" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["calc", "--model", "qwen2.5-7b-instruct", "--gpu", "9" * 5000], "unknown GPU"),  # was minutes of edit distance
        (["calc", "--model", "9" * 5000], "unknown model preset"),  # was OSError: file name too long
        (["calc", "--model", "a\x00b"], "unknown model preset"),
        (["predict", *SETUP, "--seed", "-1"], "--seed"),  # was ValueError from the sampler
        (["gpus", "--add", ""], "is a folder"),  # was: listed the catalog, exit 0
        (["gpus", "--add", "a\x00b"], "could not be read"),
    ],
)
def test_probe_findings(capsys, argv, words):
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_json_into_a_closed_pipe_is_quiet():
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-m", "advisor", "gpus", "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    proc.stdout.close()  # the reader is gone before the first byte (like `| head -0`)
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=30) == 141 and "Traceback" not in err


def test_predict_concurrency_is_bounded(capsys):
    code, out, err = run(capsys, "predict", *SETUP, "--concurrency", "1,100000", "--json")
    assert code == 2 and out == "" and "at most 16384" in err
