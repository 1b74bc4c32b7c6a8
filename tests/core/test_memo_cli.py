"""`advisor plan --memo`: the memo from the command line, with measured evidence from stored runs."""

import sys
from pathlib import Path

from advisor.cli import main
from advisor.i18n import translate
from tests.core.test_memo_evidence import _record_run

ANSWERS = Path(__file__).resolve().parents[1] / "fixtures" / "plan_scenarios" / "03_overseas_only.json"


def _answers(tmp_path: Path) -> Path:
    import json

    data = json.loads(ANSWERS.read_text(encoding="utf-8"))
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(data["answers"]), encoding="utf-8")
    return path


def test_memo_carries_the_measured_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ui.memo_export", None)  # as without Qt: the import fails, Markdown only
    db = tmp_path / "bench.sqlite3"
    # the plan: Qwen2.5 7B Instruct on an A10; the run measured that model on that GPU against a real server
    run_id = _record_run(db, label="ramp on A10", slo_ms=500.0, model="Qwen/Qwen2.5-7B-Instruct", gpu_name="NVIDIA A10",
                         total_gib=24)
    out = tmp_path / "memo.md"
    code = main(["plan", "--answers", str(_answers(tmp_path)), "--memo", str(out), "--lang", "zh_CN",
                 "--runs", run_id, "--db", str(db)])
    assert code == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert "ramp on A10" in text
    assert translate("zh_CN", "memo.evidence.knee_at", c=16) in text
    assert "10.0 GiB / 24.0 GiB (NVIDIA A10)" in text  # peak GPU memory, of which GPU
    assert translate("zh_CN", "evidence.none_for_plan") not in text


def test_memo_errors_are_messages_not_tracebacks(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ui.memo_export", None)
    answers = str(_answers(tmp_path))
    assert main(["plan", "--answers", answers, "--memo", str(tmp_path / "memo.docx"), "--lang", "en"]) == 3
    assert ".md (Markdown) or .pdf" in capsys.readouterr().err
    assert main(["plan", "--answers", answers, "--memo", str(tmp_path / "memo.pdf"), "--lang", "en"]) == 3
    assert "PySide6" in capsys.readouterr().err
    db = tmp_path / "bench.sqlite3"
    _record_run(db, label="x", slo_ms=None)
    assert main(["plan", "--answers", answers, "--memo", str(tmp_path / "m.md"), "--runs", "nope", "--db",
                 str(db)]) == 3
    assert "nope" in capsys.readouterr().err
    assert not (tmp_path / "m.md").exists()
