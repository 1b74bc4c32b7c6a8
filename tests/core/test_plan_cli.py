"""`advisor plan` end to end: template → answers → plan, JSON contract keys, text in both languages, exit codes."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "fast-launch.answers.json"
CONTRACT = {"deployment_form", "region", "line", "feasible", "hardware", "costs", "findings", "assumptions", "next_steps"}


def test_template_round_trips_through_the_cli(tmp_path, capsys):
    assert main(["plan", "--template", "--lang", "zh_CN"]) == 0
    text = capsys.readouterr().out
    assert "使用场景" in text
    path = tmp_path / "answers.json"
    path.write_text(text, encoding="utf-8")
    assert main(["plan", "--answers", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert CONTRACT <= set(data)
    assert data["assumptions"], "an empty answers file is planned on stated assumptions"


def test_example_json_contract(capsys):
    assert main(["plan", "--answers", str(EXAMPLE), "--json", "--lang", "en"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert CONTRACT <= set(d)
    assert d["deployment_form"] in ("cloud", "bare_metal", "cloud_then_bare_metal", "hosted_api")
    assert d["region"] == "hong_kong" and d["line"] == "three_network" and d["feasible"] is True
    hw = d["hardware"]
    assert {"gpu", "gpus_per_replica", "replicas", "weights", "kv_dtype", "tp", "command"} <= set(hw)
    assert hw["command"].startswith("vllm serve Qwen/Qwen2.5-14B-Instruct")
    for f in d["findings"]:
        assert {"id", "severity", "title", "detail", "sources", "verify"} <= set(f)
    c = d["costs"]
    assert c["currency"] == "CNY" and c["fx_rate"] > 0 and c["fx_date"]
    assert c["prices"] and all({"source", "date", "grade"} <= set(p) for p in c["prices"])
    assert d["cost_series"] and d["latency_curve"]["points"]
    assert {"items", "launch_days_low", "launch_days_high", "deadline_days"} <= set(d["timeline"])
    assert d["answers"]["launch_deadline_days"] == 14 and d["generated_at"] and d["app_version"]


@pytest.mark.parametrize(("lang", "word"), [("en", "Why"), ("zh_CN", "理由")])
def test_text_summary_in_both_languages(capsys, lang, word):
    assert main(["plan", "--answers", str(EXAMPLE), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert word in out and "advisor bench" in out
    assert "icp.deadline" not in out  # rule ids are for --json, not for the reader
    # the deciding reason (the filing that sends the launch to Hong Kong) before the caveat about price grades
    from advisor.i18n import translate

    why = out[out.index(translate(lang, "plan.cli.why")):]
    deadline = next(ln for ln in why.splitlines() if ln.startswith("!"))
    caveat = next(ln for ln in why.splitlines() if "C" in ln and "U" in ln and ln.startswith("•"))
    assert why.index(deadline) < why.index(caveat)


def test_bad_answers_give_field_level_messages_and_exit_2(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"use_case": "chat", "peak_concurrency": -1, "nonsense": 1}), encoding="utf-8")
    assert main(["plan", "--answers", str(path), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "  use_case (Use case): must be one of 'interactive', 'api' or 'offline_batch'" in err
    assert "  peak_concurrency (Peak concurrency): must be between 1 and 1,000,000" in err
    assert "  nonsense: unknown field" in err
    assert "Traceback" not in err
    assert main(["plan", "--answers", str(tmp_path / "missing.json")]) == 2


def test_bad_answers_are_explained_in_chinese_with_lang_zh_cn(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"use_case": "chat", "peak_concurrency": -1, "peak_concurency": 3,
                                "prompt_tokens": {"avg": 3000, "p95": 100}}), encoding="utf-8")  # fmt: skip
    assert main(["plan", "--answers", str(path), "--lang", "zh_CN"]) == 2
    lines = capsys.readouterr().err.splitlines()[1:]
    assert lines == [
        "  peak_concurency：未知字段：是不是 'peak_concurrency'？（`advisor plan --template` 会列出所有字段）",
        "  peak_concurrency（峰值并发）：必须在 1 到 1,000,000 之间",
        "  prompt_tokens（输入长度（token））：p95（100）不能小于平均值（3,000）",
        "  use_case（使用场景）：必须是 'interactive'、'api' 或 'offline_batch' 之一",
    ]
    broken = tmp_path / "broken.json"
    broken.write_text('{"use_case": ', encoding="utf-8")
    assert main(["plan", "--answers", str(broken), "--lang", "zh_CN"]) == 2
    assert f"  文件：{broken} 不是有效的 JSON（第 1 行第 14 列" in capsys.readouterr().err


def test_bad_quotes_are_refused(tmp_path, capsys):
    q = tmp_path / "q.json"
    q.write_text(json.dumps([{"gpu": "l40s", "kind": "on_demand", "low": "cheap"}]))
    assert main(["plan", "--answers", str(EXAMPLE), "--quotes", str(q)]) == 2
    assert "quotes[0]" in capsys.readouterr().err


def test_fresh_process_runs_the_example_without_traceback():
    out = subprocess.run([sys.executable, "-m", "advisor", "plan", "--answers", str(EXAMPLE), "--json"],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["feasible"] is True


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.answers.json")), ids=lambda p: p.name)
def test_every_example_answers_file_plans(path, capsys):
    assert main(["plan", "--answers", str(path), "--json"]) == 0
    assert CONTRACT <= set(json.loads(capsys.readouterr().out))
