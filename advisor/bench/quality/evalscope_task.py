"""Standard tasks through EvalScope (ModelScope's evaluation framework), an optional extra:
``pip install 'inference-advisor[eval]'``.

Each side is evaluated by ``evalscope.run_task`` against its OpenAI-compatible endpoint (``eval_type
openai_api``) on the same task, subset, ``limit`` and seed; the per-sample scores EvalScope writes
(``reviews/<model>/<task>_<subset>.jsonl``: ``index``, ``sample_score.score.value[main_score_name]``) are paired by
(subset, index) and summarised with the same paired statistics as our own scorers
(:func:`advisor.bench.quality.report.summarise`). Datasets come from ModelScope (reachable from mainland China)
unless ``dataset_path`` points at a local copy (checked first by :mod:`advisor.bench.quality.task_dataset`). Start-up cost measured here (EvalScope 1.14.1): ``import evalscope`` 1.4–1.9 s CPU; one side's
process about 4.5 s CPU before its first answer (docs/history.md).

Each side runs in a child process (:mod:`advisor.bench.quality.evalscope_child`): a Stop ends it within
``POLL_S`` instead of after the side's whole run, and the count of answered samples is reported as it grows.
Blocking (call it from a worker thread).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from advisor.bench.quality.report import QualityItem, QualityResult, summarise
from advisor.i18n import tr

INSTALL_HINT = "pip install 'inference-advisor[eval]'"
POLL_S = 0.2  # how often a running side is checked for a Stop and for progress


class TaskError(ValueError):
    """The EvalScope task cannot run (extra missing, unknown task, dataset not found); the message says why."""


def available() -> bool:
    return importlib.util.find_spec("evalscope") is not None


def _api_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


def _answered(work_dir: Path, task: str) -> int:
    """Samples answered so far: EvalScope appends each prediction to ``predictions/<model>/<task>_<subset>.jsonl``
    as it comes (the progress shown while a side runs)."""
    done = 0
    for path in (work_dir / "predictions").glob(f"*/{task}_*.jsonl"):
        try:
            with path.open("rb") as f:
                done += sum(1 for line in f if line.strip())
        except OSError:  # being replaced: counted at the next poll
            pass
    return done


def _child_error(log: Path) -> str:
    from advisor.bench.quality.evalscope_child import ERROR_MARK

    try:
        lines = log.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        lines = []
    marked = [line[len(ERROR_MARK):] for line in lines if line.startswith(ERROR_MARK)]
    return marked[-1] if marked else (lines[-1][:300] if lines else "")


def run_side(url: str, model: str, task: str, *, limit: int, seed: int, work_dir: str | Path,
             dataset_path: str | None = None, subset: str | None = None, api_key: str | None = None,
             max_tokens: int = 512, prompt_template: str | None = None,
             on_progress: Callable[[int], None] | None = None,
             cancelled: Callable[[], bool] | None = None) -> tuple[dict[tuple[str, int], dict], str] | None:
    """Run one side; returns per-sample results keyed by (subset, index) and the metric's name, or None when
    ``cancelled()`` became true (the EvalScope process is ended at once). ``on_progress(answered)`` is called as
    the count of answered samples grows."""
    if not available():
        raise TaskError(tr("quality.task.missing", hint=INSTALL_HINT))
    from advisor.bench.quality.evalscope_child import API_KEY_ENV

    args: dict[str, Any] = {}
    if dataset_path:
        from advisor.bench.quality.task_dataset import dataset_problem

        problem = dataset_problem(task, dataset_path, subset)  # missing, or not what EvalScope reads for the task
        if problem:
            raise TaskError(problem)
        args["local_path"] = str(Path(dataset_path).expanduser())
    if subset:
        args["subset_list"] = [subset]
    if prompt_template:
        args["prompt_template"] = prompt_template
    work = Path(work_dir)
    work.mkdir(parents=True, exist_ok=True)
    config = {
        "model": model, "api_url": _api_url(url), "eval_type": "openai_api", "datasets": [task],
        "dataset_args": {task: args} if args else {}, "limit": limit, "seed": seed, "work_dir": str(work),
        "no_timestamp": True, "collect_perf": False, "generation_config": {"temperature": 0, "max_tokens": max_tokens},
    }
    config_path = work / "advisor-task.json"  # no key in it: the key travels in the child's environment
    config_path.write_text(json.dumps(config), encoding="utf-8")
    log = work / "evalscope.log"
    env = {**os.environ, API_KEY_ENV: api_key or "EMPTY"}
    with log.open("wb") as err:
        child = subprocess.Popen([sys.executable, "-m", "advisor.bench.quality.evalscope_child", str(config_path)],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env)
        shown = 0
        try:
            while child.poll() is None:
                if cancelled is not None and cancelled():
                    return None
                answered = _answered(work, task)
                if on_progress is not None and answered != shown:
                    shown = answered
                    on_progress(answered)
                time.sleep(POLL_S)
        finally:
            if child.poll() is None:  # stopped (or the caller failed): end EvalScope now, not after its run
                child.terminate()
                try:
                    child.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    child.kill()
                    child.wait()
    if child.returncode != 0:  # EvalScope's own errors (unknown task, dataset download) become one clear message
        error = _child_error(log) or f"exit status {child.returncode}"
        raise TaskError(tr("quality.task.failed", task=task, error=error))
    if on_progress is not None and _answered(work, task) != shown:
        on_progress(_answered(work, task))
    out: dict[tuple[str, int], dict] = {}
    metric = ""
    reviews = sorted((Path(work_dir) / "reviews").glob(f"*/{task}_*.jsonl"))
    if not reviews:
        raise TaskError(tr("quality.task.no_scores", task=task, path=str(work_dir)))
    for path in reviews:
        sub = path.stem[len(task) + 1:]
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            score = (row.get("sample_score") or {}).get("score") or {}
            metric = score.get("main_score_name") or metric
            value = (score.get("value") or {}).get(metric)
            messages = row.get("messages") or [{}]
            target = row.get("target")
            out[(sub, int(row["index"]))] = {
                "score": None if value is None else float(value),
                "prompt": str(messages[0].get("content", ""))[:500],
                "prediction": str(score.get("extracted_prediction") or score.get("prediction") or "")[:80],
                "expected": ", ".join(map(str, target)) if isinstance(target, list) else str(target or ""),
            }
    return out, metric


def compare_task(a: tuple[str, str], b: tuple[str, str], task: str, *, limit: int, seed: int = 0,
                 dataset_path: str | None = None, subset: str | None = None, api_keys: tuple[str | None, str | None]
                 = (None, None), max_tokens: int = 512, prompt_template: str | None = None, drop: float = 0.03,
                 simulated: bool = False, cancelled: Callable[[], bool] | None = None,
                 on_progress: Callable[[str, int], None] | None = None) -> QualityResult | None:
    """Both sides ((url, model) each) on the same task subset and seed → the paired quality result; None when
    stopped (half a comparison is no comparison). ``on_progress(side, answered)``: "A" or "B", samples so far."""
    sides = []
    with tempfile.TemporaryDirectory(prefix="advisor-evalscope-") as tmp:
        for name, (url, model), api_key in zip("AB", (a, b), api_keys, strict=True):
            if cancelled is not None and cancelled():
                return None
            report = None if on_progress is None else lambda n, side=name: on_progress(side, n)
            side = run_side(url, model, task, limit=limit, seed=seed, work_dir=Path(tmp) / name,
                            dataset_path=dataset_path, subset=subset, api_key=api_key, max_tokens=max_tokens,
                            prompt_template=prompt_template, on_progress=report, cancelled=cancelled)
            if side is None:
                return None
            sides.append(side)
    (ra, metric), (rb, _) = sides
    items = []
    for pos, key in enumerate(sorted(ra.keys() | rb.keys())):
        sa, sb = ra.get(key, {}), rb.get(key, {})
        it = QualityItem(index=pos, id=f"{task}/{key[0]}/{key[1]}", scorer=f"evalscope:{metric}",
                         prompt=sa.get("prompt") or sb.get("prompt", ""), expected=sa.get("expected") or
                         sb.get("expected", ""), a_score=sa.get("score"), b_score=sb.get("score"),
                         a_read=sa.get("prediction"), b_read=sb.get("prediction"))
        it.disagree = it.a_score is not None and it.b_score is not None and it.a_score != it.b_score
        items.append(it)
    return summarise(items, seed=seed, drop=drop, simulated=simulated, source=f"evalscope:{task}", metric=metric)
