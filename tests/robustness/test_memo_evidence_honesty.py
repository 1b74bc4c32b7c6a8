"""Issue #29 item 19: the memo's measured evidence does not blame the server for a rate limiter or an
interrupted run ("no level met the target"), and a run of another model is marked as such."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.bench.store import BenchStore
from advisor.domain.bench import Percentiles, StepSummary
from advisor.i18n import translate
from advisor.plan.evidence import evidence_from_runs
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "memo" / "plan_result.json"


def _run(db: Path, *, model: str, status: str, steps: list[StepSummary]) -> str:
    store = BenchStore(db)
    run_id = store.start_run(json.dumps({"slo": {"ttft_ms": 500.0}}), label=f"{model} {status}",
                             url="http://127.0.0.1:8000", model=model)
    for s in steps:
        store.add_step(s)
    store.flush()
    store.finish_run(status, json.dumps({"knee": None, "steps": [s.model_dump(mode="json") for s in steps]}))
    store.close()
    return run_id


def _memo(db: Path, ids: list[str]) -> str:
    result = PlanResult.model_validate_json(FIXTURE.read_text(encoding="utf-8"))
    return render_memo_markdown(result, "en", evidence=evidence_from_runs(db, ids))


def test_an_all_429_run_is_rate_limited_not_slow(tmp_path):
    db = tmp_path / "b.sqlite3"
    limited = StepSummary(step=0, concurrency=4, requests_ok=0, requests_failed=900,
                          failures={"http_error:http_429": 900}, status="failed")
    text = _memo(db, [_run(db, model="Qwen/Qwen3-8B", status="failed", steps=[limited])])
    assert "HTTP 429" in text
    assert translate("en", "memo.evidence.none_within", ms="500") not in text


def test_an_interrupted_run_is_not_a_missed_target(tmp_path):
    db = tmp_path / "b.sqlite3"
    text = _memo(db, [_run(db, model="Qwen/Qwen3-8B", status="interrupted", steps=[])])
    assert translate("en", "evidence.reason.interrupted") in text  # listed as not evidence, with why
    assert translate("en", "memo.evidence.none_within", ms="500") not in text


def test_a_run_of_another_model_is_marked(tmp_path):
    db = tmp_path / "b.sqlite3"
    ok = StepSummary(step=0, concurrency=1, requests_ok=10, ttft_ms=Percentiles(count=10, p99=90.0),
                     output_tokens_per_s=50.0, status="ok")
    same = _run(db, model="Qwen/Qwen3-8B-Instruct", status="completed", steps=[ok])
    other = _run(db, model="meta-llama/Llama-3.1-70B", status="completed", steps=[ok])
    text = _memo(db, [same, other])
    assert translate("en", "evidence.reason.other_model", model="meta-llama/Llama-3.1-70B") in text
    assert translate("en", "evidence.reason.other_model", model="Qwen/Qwen3-8B-Instruct") not in text
