"""Standard tasks through EvalScope (ModelScope's evaluation framework), an optional extra:
``pip install 'inference-advisor[eval]'``.

Each side is evaluated by ``evalscope.run_task`` against its OpenAI-compatible endpoint (``eval_type
openai_api``) on the same task, subset, ``limit`` and seed; the per-sample scores EvalScope writes
(``reviews/<model>/<task>_<subset>.jsonl``: ``index``, ``sample_score.score.value[main_score_name]``) are paired by
(subset, index) and summarised with the same paired statistics as our own scorers
(:func:`advisor.bench.quality.report.summarise`). Datasets come from ModelScope (reachable from mainland China)
unless ``dataset_path`` points at a local copy (a folder with ``<subset>_test.jsonl``/``<subset>.jsonl``, EvalScope's
local layout). Start-up cost measured here: ``import evalscope`` 1.3 s; a 6-sample local task against a loopback
server 6.5 s wall for one side, process start included (EvalScope 1.14.1).

Blocking (call it from a worker thread); a stop takes effect between the two sides.
"""

from __future__ import annotations

import importlib.util
import json
import tempfile
from pathlib import Path
from typing import Any

from advisor.bench.quality.report import QualityItem, QualityResult, summarise
from advisor.i18n import tr

INSTALL_HINT = "pip install 'inference-advisor[eval]'"


class TaskError(ValueError):
    """The EvalScope task cannot run (extra missing, unknown task, dataset not found); the message says why."""


def available() -> bool:
    return importlib.util.find_spec("evalscope") is not None


def _api_url(url: str) -> str:
    url = url.rstrip("/")
    return url if url.endswith("/v1") else url + "/v1"


def run_side(url: str, model: str, task: str, *, limit: int, seed: int, work_dir: str | Path,
             dataset_path: str | None = None, subset: str | None = None, api_key: str | None = None,
             max_tokens: int = 512, prompt_template: str | None = None) -> tuple[dict[tuple[str, int], dict], str]:
    """Run one side; returns per-sample results keyed by (subset, index) and the metric's name."""
    if not available():
        raise TaskError(tr("quality.task.missing", hint=INSTALL_HINT))
    from evalscope import TaskConfig, run_task

    args: dict[str, Any] = {}
    if dataset_path:
        if not Path(dataset_path).exists():
            raise TaskError(tr("quality.task.no_dataset", path=dataset_path))
        args["local_path"] = str(dataset_path)
    if subset:
        args["subset_list"] = [subset]
    if prompt_template:
        args["prompt_template"] = prompt_template
    config = TaskConfig(
        model=model, api_url=_api_url(url), api_key=api_key or "EMPTY", eval_type="openai_api",
        datasets=[task], dataset_args={task: args} if args else {}, limit=limit, seed=seed,
        work_dir=str(work_dir), no_timestamp=True, collect_perf=False,
        generation_config={"temperature": 0, "max_tokens": max_tokens},
    )
    try:
        run_task(config)
    except Exception as exc:  # EvalScope's own errors (unknown task, dataset download) become one clear message
        raise TaskError(tr("quality.task.failed", task=task, error=f"{type(exc).__name__}: {exc}"[:300])) from None
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
                 simulated: bool = False, cancelled: Any = None) -> QualityResult:
    """Both sides ((url, model) each) on the same task subset and seed → the paired quality result."""
    sides = []
    with tempfile.TemporaryDirectory(prefix="advisor-evalscope-") as tmp:
        for n, (url, model) in enumerate((a, b)):
            if cancelled is not None and cancelled():
                break
            sides.append(run_side(url, model, task, limit=limit, seed=seed, work_dir=Path(tmp) / "AB"[n],
                                  dataset_path=dataset_path, subset=subset, api_key=api_keys[n],
                                  max_tokens=max_tokens, prompt_template=prompt_template))
    (ra, metric), (rb, _) = sides[0], sides[1] if len(sides) > 1 else ({}, "")
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
