"""``advisor gpu [--json] [--watch] [--prometheus URL ...]``: local GPUs through NVML, remote ones through /metrics.

Exits 0 when there is no driver or no GPU (that is a state to report, not an error); 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
from typing import Any

from advisor.i18n import tr

MIN_INTERVAL_S = 0.25
MAX_INTERVAL_S = 60.0


def register(subparsers: argparse._SubParsersAction) -> None:
    from advisor.cli.common import positive_float, positive_int

    parser = subparsers.add_parser("gpu", help=tr("telemetry.cli.help"), description=tr("telemetry.cli.help"))
    parser.add_argument("--json", action="store_true", help=tr("telemetry.cli.help_json"))
    parser.add_argument("--watch", action="store_true", help=tr("telemetry.cli.help_watch"))
    parser.add_argument(
        "--prometheus", action="append", default=[], metavar="URL", help=tr("telemetry.cli.help_prometheus")
    )
    parser.add_argument("--interval", type=positive_float, default=1.0, metavar="S", help=tr("telemetry.cli.help_interval"))
    parser.add_argument("--count", type=positive_int, default=None, metavar="N", help=tr("telemetry.cli.help_count"))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from advisor.cli.common import fail, print_json
    from advisor.telemetry.nvml import NvmlReader
    from advisor.telemetry.prometheus import PrometheusScraper

    if not MIN_INTERVAL_S <= args.interval <= MAX_INTERVAL_S:
        return fail(tr("telemetry.cli.bad_interval", low=MIN_INTERVAL_S, high=MAX_INTERVAL_S))
    if args.count is not None and args.count < 1:
        return fail("--count must be at least 1")
    try:
        scrapers = [PrometheusScraper(url, timeout_s=min(2.0, max(0.5, args.interval))) for url in args.prometheus]
    except ValueError as exc:
        return fail(str(exc))

    reader = NvmlReader()
    try:
        if not args.watch:
            snapshot = take_snapshot(reader, scrapers)
            if args.json:
                print_json(snapshot)
            else:
                print(format_table(snapshot))
            return 0
        ticks = 0
        while args.count is None or ticks < args.count:
            snapshot = take_snapshot(reader, scrapers)
            if args.json:
                sys.stdout.write(json.dumps(snapshot, ensure_ascii=False) + "\n")
            else:
                if sys.stdout.isatty():
                    sys.stdout.write("\x1b[H\x1b[2J")  # clear the screen: a refreshing table
                print(format_table(snapshot))
                print(tr("telemetry.cli.stop_hint"))
            sys.stdout.flush()
            ticks += 1
            if args.count is None or ticks < args.count:
                time.sleep(args.interval)
        return 0
    except KeyboardInterrupt:
        return 0
    finally:
        reader.close()
        for scraper in scrapers:
            scraper.close()


def take_snapshot(reader: Any, scrapers: list[Any]) -> dict[str, Any]:
    """The ``advisor gpu --json`` object (keys are English identifiers, the message is translated)."""
    from advisor.telemetry.clock import to_wall_s
    from advisor.telemetry.derived import notes_for, throttling_seen
    from advisor.telemetry.nvml import STATE_MESSAGE_KEYS

    probe = reader.open()
    devices = reader.read()
    state = reader.state
    message = tr(
        STATE_MESSAGE_KEYS[state], driver=probe.driver_version or "?", count=probe.device_count, detail=probe.detail
    )
    events = [
        {
            "kind": kind,
            "index": index,
            "t_s": t,
            "message": tr("telemetry.event.gpu_lost", index=index, time=time.strftime("%H:%M:%S", time.localtime(to_wall_s(t)))),
        }
        for t, kind, index in reader.events
    ]
    prometheus = []
    servers = []
    remote_gpus = []
    for scraper in scrapers:
        result = scraper.scrape()
        servers.append(result.server)
        remote_gpus.extend(result.gpus)
        s = result.server
        prometheus.append(
            {
                "url": s.url,
                "ok": s.ok,
                "error": s.error,
                "kind": s.kind,
                "kinds": s.kinds,
                "simulated": s.simulated,
                "gauges": s.gauges,
                "counters": s.counters,
                "rates": s.rates,
                "devices": [g.model_dump(mode="json") for g in result.gpus],
            }
        )
    all_gpus = devices + remote_gpus
    notes = notes_for(all_gpus, servers, throttling_seen(all_gpus))
    return {
        "state": state,
        "message": message,
        "driver_version": probe.driver_version,
        "devices": [d.model_dump(mode="json") for d in devices],
        "events": events,
        "prometheus": prometheus,
        "notes": [{"key": key, "text": tr(key)} for key in notes],
    }


def _fmt(value: Any, na: str, digits: int = 0) -> str:
    if value is None:
        return na
    return f"{value:.{digits}f}"


def _gib(n: int | None) -> str:
    return "N/A" if n is None else f"{n / 1024**3:.1f}"


def _device_rows(devices: list[dict]) -> list[list[str]]:
    rows = []
    for d in devices:
        label = d["index"] if not d.get("host") else f"{d['host']}/{d['index']}"
        if d.get("simulated"):
            label += f" [{tr('telemetry.cli.simulated')}]"
        if d["status"] == "lost":
            rows.append([label, d.get("name") or "", tr("telemetry.cli.lost"), "", "", "", "", "", ""])
            continue
        used, total = d.get("memory_used_bytes"), d.get("memory_total_bytes")
        mem = f"{_gib(used)} / {_gib(total)} GiB"
        clocks = f"{_fmt(d.get('sm_clock_mhz'), 'N/A')}/{_fmt(d.get('mem_clock_mhz'), 'N/A')}"
        reasons = d.get("clock_event_reasons")
        rows.append(
            [
                label,
                d.get("name") or "",
                _fmt(d.get("gpu_util_pct"), "N/A"),
                mem,
                _gib(d.get("memory_reserved_bytes")),
                f"{_fmt(d.get('power_w'), 'N/A')} / {_fmt(d.get('power_limit_w'), 'N/A')}",
                _fmt(d.get("temperature_c"), "N/A"),
                clocks,
                "N/A" if reasons is None else (",".join(reasons) or "-"),
            ]
        )
    return rows


def _na_lines(devices: list[dict]) -> list[str]:
    """Why readings are N/A, one line per device and reason (readings not asked for are not listed)."""
    from advisor.telemetry.nvml import NA_MESSAGE_KEYS

    lines = []
    for d in devices:
        by_reason: dict[str, list[str]] = {}
        for name, reason in d.get("na", {}).items():
            if reason != "not_requested":
                by_reason.setdefault(reason, []).append(name)
        for reason, names in sorted(by_reason.items()):
            lines.append(f"  {d['index']}: {', '.join(sorted(names))} — {tr(NA_MESSAGE_KEYS[reason])}")
    return lines


def _width(text: str) -> int:
    """Columns a terminal uses for the text: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(_width(str(c)) for c in col) for col in zip(header, *rows, strict=False)]
    lines = [
        "  ".join(str(c) + " " * (w - _width(str(c))) for c, w in zip(r, widths, strict=False)).rstrip()
        for r in [header, *rows]
    ]
    return "\n".join(lines)


def format_table(snapshot: dict[str, Any]) -> str:
    parts = [snapshot["message"]]
    header = [
        tr("telemetry.cli.col_gpu"),
        tr("telemetry.cli.col_name"),
        tr("telemetry.cli.col_util"),
        tr("telemetry.cli.col_memory"),
        tr("telemetry.cli.col_reserved"),
        tr("telemetry.cli.col_power"),
        tr("telemetry.cli.col_temp"),
        tr("telemetry.cli.col_clocks"),
        tr("telemetry.cli.col_reasons"),
    ]
    if snapshot["devices"]:
        parts.append(_table(header, _device_rows(snapshot["devices"])))
        parts.extend(_na_lines(snapshot["devices"]))
    for event in snapshot["events"]:
        parts.append(event["message"])
    for p in snapshot["prometheus"]:
        if not p["ok"]:
            parts.append(tr("telemetry.cli.scrape_failed", url=p["url"], error=p["error"]))
            continue
        kind = p["kind"] + (f" [{tr('telemetry.cli.simulated')}]" if p["simulated"] else "")
        parts.append(tr("telemetry.cli.scrape_ok", url=p["url"], kind=kind))
        g = p["gauges"]
        if "kv_cache_usage" in g:
            parts.append(f"  {tr('telemetry.cli.kv_cache')}: {g['kv_cache_usage'] * 100:.1f} %")
        if "requests_running" in g or "requests_waiting" in g:
            running = _fmt(g.get("requests_running"), "N/A")
            waiting = _fmt(g.get("requests_waiting"), "N/A")
            parts.append(f"  {tr('telemetry.cli.running_waiting')}: {running} / {waiting}")
        for name, value in sorted(p["rates"].items()):
            parts.append(f"  {name}: {value:.1f}")
        if p["devices"]:
            parts.append(_table(header, _device_rows(p["devices"])))
            parts.extend(_na_lines(p["devices"]))
    for note in snapshot["notes"]:
        parts.append(f"* {note['text']}")
    return "\n".join(parts)
