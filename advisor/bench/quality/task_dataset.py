"""Does a local dataset copy look like what EvalScope loads for a task? Checked before anything runs (the page's
field, ``advisor ab --task-dataset``, and :func:`advisor.bench.quality.evalscope_task.run_side`), so a wrong path
is said at once and in words, instead of as EvalScope's error after both load runs.

EvalScope (1.14.1, ``DefaultDataAdapter.load``) reads a local copy two ways:

* the ``general_*`` tasks (general_qa, general_mcq, ...) load files themselves (``LocalDataLoader``): a
  ``.jsonl``/``.csv``/``.tsv``/``.parquet`` file, or a folder with ``<subset>_<split>.<ext>`` or ``<subset>.<ext>``;
  the subset is ``default`` unless one is named;
* every other task (gsm8k, ceval, cmmlu, ...) opens the folder as a copy of its ModelScope dataset (what
  ``modelscope download --dataset <id> --local_dir <folder>`` writes), so it must be a folder holding data files.

Qt-free; no EvalScope import (this runs as the user types).
"""

from __future__ import annotations

from pathlib import Path

from advisor.i18n import tr

LOCAL_FILE_EXTS = (".jsonl", ".csv", ".tsv", ".parquet")
# what a ModelScope dataset copy holds its rows in (a dataset script or Arrow files count too)
SNAPSHOT_EXTS = (*LOCAL_FILE_EXTS, ".json", ".arrow", ".py", ".zip")
SNAPSHOT_SCAN_LIMIT = 5_000  # files looked at in a copy before calling it "has data" (a big copy is not walked)


def loads_local_files(task: str) -> bool:
    """True for EvalScope's own-data tasks (general_qa, general_mcq, ...), which read files, not a dataset copy."""
    return task.strip().lower().startswith("general_")


def _subset_file(folder: Path, subset: str) -> bool:
    for ext in LOCAL_FILE_EXTS:
        if (folder / f"{subset}{ext}").is_file():
            return True
        if any(p.is_file() for p in folder.glob(f"{subset}_*{ext}")):
            return True
    return False


def _has_data_files(folder: Path) -> bool:
    for seen, path in enumerate(folder.rglob("*")):
        if seen >= SNAPSHOT_SCAN_LIMIT:
            return True  # thousands of entries: a real copy, not an empty or wrong folder
        if path.is_file() and path.suffix.lower() in SNAPSHOT_EXTS:
            return True
    return False


def dataset_problem(task: str, path: str | Path | None, subset: str | None = None) -> str | None:
    """None when ``path`` is empty (the task's dataset then comes from ModelScope) or looks like what EvalScope
    loads for ``task``; otherwise one sentence naming the path and saying what is expected."""
    if path is None or not str(path).strip():
        return None
    where = Path(str(path).strip()).expanduser()
    if not where.exists():
        return tr("abtask.dataset.missing", path=str(where))
    if loads_local_files(task):
        sub = (subset or "").strip() or "default"
        if where.is_file():
            if where.suffix.lower() in LOCAL_FILE_EXTS:
                return None
            return tr("abtask.dataset.bad_file", path=str(where), task=task.strip(), subset=sub)
        if _subset_file(where, sub):
            return None
        return tr("abtask.dataset.no_subset_file", path=str(where), task=task.strip(), subset=sub)
    if where.is_file():
        return tr("abtask.dataset.needs_folder", path=str(where), task=task.strip())
    if not _has_data_files(where):
        return tr("abtask.dataset.empty_folder", path=str(where), task=task.strip())
    return None
