"""``advisor history``: the stored benchmark runs — list (filter/search), delete, export, import, compare 2–4."""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
from typing import Any

from advisor.bench.compare_export import _fmt, metric_cell
from advisor.i18n import tr


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("history", help=tr("history.cli.help"), description=tr("history.cli.help"))
    p.add_argument("--db", help="benchmark database file (default: the user data folder)")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.add_argument("--filter", action="append", default=[], metavar="KEY=VALUE",
                   help="model=, target=, gpu=, status=, shape=, since=YYYY-MM-DD, until=YYYY-MM-DD, text= "
                        "(repeatable; a bare word searches everything)")
    p.add_argument("--project", metavar="FILE", help="only the runs started with this project file")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--show", metavar="ID", help="one run: summary, steps, GPU memory per step")
    action.add_argument("--delete", metavar="ID", help="delete a run with its requests, steps and telemetry")
    action.add_argument("--export", metavar="ID", help="export a run to --out FILE (.json or .csv; stdout: JSON)")
    action.add_argument("--import", dest="import_file", metavar="FILE",
                        help="add a run exported on another machine (.json), or every run of another "
                             "benchmark database (.sqlite3)")
    action.add_argument("--compare", nargs="+", metavar="ID", help="compare 2–4 runs (ids or unique prefixes)")
    p.add_argument("--out", help="file for --export (.json or .csv) or --compare (.md or .csv)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from advisor.bench.history import HistoryError, RunFilter, RunHistory
    from advisor.cli.common import fail, print_json

    try:
        if args.db and os.path.isdir(args.db):
            return fail(tr("bench.cli.db_is_folder", path=args.db))
        flt = RunFilter.parse(args.filter)
        if args.project:
            from advisor.bench.history import project_key

            flt.project = project_key(args.project)
        # listing, showing, exporting and comparing only read (dead runs shown as interrupted, not marked so);
        # deleting and importing open the database for writing, which also marks and imports what is pending
        with RunHistory(args.db, read_only=not (args.delete or args.import_file)) as history:
            if args.delete:
                run_id = history.delete(args.delete)
                if args.json:
                    print_json({"deleted": run_id})
                else:
                    print(tr("history.cli.deleted", run_id=run_id))
                return 0
            if args.export:
                if args.out:
                    run_id = history.export_to(args.export, args.out)
                    print(tr("history.cli.exported", run_id=run_id, path=args.out), file=sys.stderr)
                else:
                    sys.stdout.write(history.export(args.export) + "\n")
                return 0
            if args.import_file:
                if args.import_file.endswith((".sqlite3", ".sqlite", ".db")):
                    ids = history.import_database(args.import_file)
                else:
                    from advisor.safe_json import JsonInputError, read_bounded

                    try:  # bytes, bounded: a binary or huge file is a message, not a traceback
                        raw = read_bounded(args.import_file)
                    except JsonInputError as exc:
                        raise HistoryError(str(exc)) from None
                    ids = [history.import_json(raw, source=args.import_file)]
                if args.json:
                    print_json({"imported": ids})
                else:
                    print(tr("history.cli.imported", run_id=", ".join(ids) or "-"))
                return 0
            if args.show:
                detail = history.detail(args.show)
                if args.json:
                    print_json(detail)
                else:
                    _print_detail(detail)
                return 0
            if args.compare:
                comparison = history.compare(args.compare)
                if args.out:
                    from advisor.bench.compare_export import write_comparison

                    try:
                        write_comparison(comparison, args.out)
                    except ValueError as exc:
                        return fail(str(exc))
                    print(tr("history.cli.compare_written", path=args.out), file=sys.stderr)
                if args.json:
                    print_json(comparison)
                else:
                    _print_compare(comparison)
                return 0
            runs = history.list(flt)
            if args.json:
                print_json([r.model_dump(mode="json") for r in runs])
            else:
                _print_list(runs)
            return 0
    except HistoryError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(str(exc))
    except sqlite3.Error as exc:  # a newer, corrupt, read-only or unopenable database: said, never a traceback
        from advisor.bench.store import NewerDatabaseError, disk_full_at

        if isinstance(exc, NewerDatabaseError):
            return fail(str(exc))
        path = args.db or str(_default_db())
        if disk_full_at(path, exc):  # not a damaged file: moving the history aside would be the wrong advice
            return fail(tr("history.cli.disk_full", path=path, error=exc), 6)
        return fail(tr("history.cli.db_unusable", path=path, error=exc))


def _default_db() -> Any:
    from advisor.bench.store import default_path

    return default_path()


def _print_list(runs: list[Any]) -> None:
    if not runs:
        print(tr("history.cli.empty"))
        return
    cols = ["history.col.run", "history.col.date", "history.col.status", "history.col.model", "history.col.target",
            "history.col.gpu", "history.col.shape", "history.col.knee", "history.col.requests", "history.col.label"]
    rows = [[tr(c) for c in cols]]
    for r in runs:
        target = ("simulated · " if r.simulated else "") + r.url
        status = tr("history.status.interrupted_unmarked") if r.status == "interrupted" and \
            r.stored_status == "running" else tr(f"history.status.{r.status}")
        rows.append([r.run_id, r.created, status, r.model, target, r.gpu or "-",
                     r.shape or "-", _fmt(r.knee_concurrency), f"{r.requests_ok}/{r.requests_failed}", r.label])
    widths = [max(len(row[i]) for row in rows) for i in range(len(cols))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def _print_detail(detail: dict[str, Any]) -> None:
    s = detail["summary"]
    print(f"{s['run_id']}  {tr('history.status.' + s['status'])} — {s['status_reason']}")
    print(f"{s['model']} @ {s['url']}  {s['gpu'] or ''}  {s['shape'] or ''}  {s['created']}")
    if s.get("knee_message"):
        print(s["knee_message"])
    mem = {m["step"]: m for m in detail["step_memory"]}
    for st in detail["steps"]:
        m = mem.get(st["step"], {})
        print(f"  c={st['concurrency']:<4} ok {st['requests_ok']:<5} failed {st['requests_failed']:<4} "
              f"TTFT p50 {_fmt(st['ttft_ms']['p50'])} ms p99 {_fmt(st['ttft_ms']['p99'])} ms · "
              f"TPOT p50 {_fmt(st['tpot_ms']['p50'])} ms · {_fmt(st['output_tokens_per_s'])} tok/s · "
              f"GPU mem {metric_cell('gpu_memory_peak_bytes', m.get('gpu_memory_peak_bytes'))}")
    _print_quality(detail.get("quality") or [])


def _print_quality(stored: list[dict[str, Any]]) -> None:
    """Scored quantization A/Bs stored with these runs, one sentence each (as the memo says them)."""
    from advisor.bench.quality.memo import quality_memo_lines
    from advisor.i18n import current_language

    for line in quality_memo_lines(stored, current_language()):
        print(f"{tr('quality.md.title')}: {line}")


def _print_compare(c: dict[str, Any]) -> None:
    from advisor.bench.compare_export import comparison_rows

    rows = comparison_rows(c)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    if c["notes"]:
        print(tr("history.cli.notes"))
        for note in c["notes"]:
            print(f"- {note}")
    _print_quality(c.get("quality") or [])
