"""What a benchmark result says, in words and tables: the step table, the knee and its evidence, the SLO verdict,
client-bound steps with their fix, peak GPU memory, the predicted curve for the same setup, and Markdown.

Qt-free, so the desktop result view (``ui/widgets/bench_result.py``), the History page and the CLI share it.
A result is the ``advisor bench --json`` object (``Runner.result`` plus ``telemetry``/``slo``/``setup`` when
known); :func:`load_result` rebuilds one from the bench store by run id.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from advisor.bench.metrics import failures_say_server_lost, knee_notes
from advisor.bench.sim_label import SIM_LABEL, parse_sim_label, sim_label  # noqa: F401 - re-exported for callers
from advisor.domain.bench import SloConfig
from advisor.i18n import tr
from advisor.tls import client_cert_refusal
from advisor.units import format_gib, format_ms, format_tokens_per_s

FINAL_STATUSES = ("completed", "stopped", "cancelled", "interrupted", "failed", "degraded", "incomplete")


def load_result(run_id: str, db_path: str | Path | None = None) -> dict[str, Any] | None:
    """The stored result of a run (a :class:`advisor.domain.run.RunResult`, old stored shapes read by
    :mod:`advisor.bench.stored_result`), with its telemetry summary (same database), or None if unknown."""
    from advisor.bench.store import BenchStore
    from advisor.bench.stored_result import result_from_stored

    store = BenchStore(db_path, read_only=True)  # a reader: writes nothing
    try:
        run = store.run(run_id)
        if run is None:
            return None
        stored = result_from_stored(run, store.steps(run_id) if not (run.get("result") or {}).get("steps") else None)
        result = stored.as_dict()
        if not result.get("telemetry"):
            _add_stored_telemetry(result, run_id, store.connection)
    finally:
        store.connection.close()
    return result


def _add_stored_telemetry(result: dict[str, Any], run_id: str, conn: sqlite3.Connection) -> None:
    """The telemetry summary of a run whose stored result lacks one, read through the reader's connection
    (nothing is created or written in the user's file)."""
    from advisor.domain.telemetry import StepWindow
    from advisor.telemetry.derived import summarize
    from advisor.telemetry.store import TelemetryStore

    try:
        tstore = TelemetryStore.reader(conn)
        gpu, server = tstore.gpu_samples(run_id), tstore.server_samples(run_id)
        if gpu or server:
            windows = [
                StepWindow(label=str(s.get("concurrency")), start_s=s["window_start_s"], end_s=s["window_end_s"],
                           output_tokens=s.get("output_tokens") or 0)
                for s in result["steps"]
                if s.get("window_start_s") is not None and s.get("window_end_s") is not None
            ]  # fmt: skip
            result["telemetry"] = summarize(gpu, server, windows).model_dump(mode="json")
    except (sqlite3.Error, ValueError):  # telemetry is optional: a run without it still has its result
        pass


# ------------------------------------------------------------------------------------------- pieces
def _pct(d: dict[str, Any] | None, key: str) -> float | None:
    return None if not d else d.get(key)


def slo_of(result: dict[str, Any]) -> SloConfig:
    raw = result.get("slo") or {}
    try:
        return SloConfig.model_validate(raw)
    except Exception:
        return SloConfig()


def step_rows(result: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per step: concurrency, requests, TTFT/TPOT p50/p99, tok/s, errors, knee and client-bound flags."""
    knee = (result.get("knee") or {}).get("concurrency")
    rows = []
    for s in result.get("steps") or []:
        client = s.get("client") or {}
        rows.append({
            "step": s.get("step"),
            "concurrency": s.get("concurrency"),
            "target_rate": s.get("target_rate"),
            "ok": s.get("requests_ok", 0),
            "failed": s.get("requests_failed", 0),
            "ttft_p50": _pct(s.get("ttft_ms"), "p50"),
            "ttft_p99": _pct(s.get("ttft_ms"), "p99"),
            "tpot_p50": _pct(s.get("tpot_ms"), "p50"),
            "tpot_p99": _pct(s.get("tpot_ms"), "p99"),
            "itl_p99": _pct(s.get("itl_ms"), "p99"),
            "tok_s": s.get("output_tokens_per_s") or 0.0,
            "error_rate": s.get("error_rate") or 0.0,
            "knee": knee is not None and s.get("concurrency") == knee and not client.get("client_bound"),
            "client_bound": bool(client.get("client_bound")),
            "client_reasons": list(client.get("reasons") or []),
            "partial": s.get("stop_reason") == "cancelled",  # stopped by the user before it ended: not a full step
        })  # fmt: skip
    return rows


def _fmt_limit(ms: float) -> str:
    return format_ms(ms)


def slo_verdict(result: dict[str, Any]) -> str:
    """One sentence: "meets TTFT p99 ≤ 2 s and TPOT p99 ≤ 50 ms up to 24 concurrent requests" (or why not)."""
    slo = slo_of(result)
    limits = [(name, value) for name, value in (("TTFT", slo.ttft_ms), ("TPOT", slo.tpot_ms), ("E2E", slo.e2e_ms))
              if value is not None]  # fmt: skip
    if not limits:
        return tr("bench.report.no_slo")
    p = slo.percentile
    what = tr("bench.report.and").join(f"{name} p{p} ≤ {_fmt_limit(v)}" for name, v in limits)
    lost = lost_step(result, slo)
    steps = [s for s in (result.get("steps") or []) if s.get("requests_ok", 0) > 0 and s is not lost]
    judged = _slo_judgement(steps, slo, what)
    if lost is None:
        return judged[1] if judged is not None else tr("bench.report.slo_no_data", what=what)
    # A server that stopped answering broke no limit: its last level is not judged (after a real llama.cpp was
    # killed mid-run this read "does not meet …, not even at concurrency 1 … the failures broke it").
    if judged is None:
        return tr("bench.report.slo_lost", what=what, step=lost.get("concurrency"))
    kind, sentence, best = judged
    if kind != "all":
        return sentence  # it broke before the server was lost: that stands
    return tr("bench.report.slo_up_to_lost", what=what, concurrency=best, step=lost.get("concurrency"))


def lost_step(result: dict[str, Any], slo: SloConfig | None = None) -> dict[str, Any] | None:
    """The run's last step when the run ended there because the server stopped answering (the runner gave up on
    it, ``stop_reason`` server_lost, or refused/dropped connections made most of its failures and broke the error
    limit, as :func:`advisor.bench.metrics.server_lost` reads them); else None. Its few finished requests measure
    the crash, not the load: the SLO verdict does not judge it and the result chart does not draw it."""
    slo = slo or slo_of(result)
    steps = result.get("steps") or []
    if not steps:
        return None
    last = steps[-1]
    if last.get("stop_reason") == "server_lost":
        return last
    failures = last.get("failures") or {}
    if failures_say_server_lost(failures) and (last.get("error_rate") or 0.0) > slo.max_error_rate:
        return last
    return None


def _slo_judgement(steps: list[dict[str, Any]], slo: SloConfig, what: str) -> tuple[str, str, Any] | None:
    """(kind, sentence, highest concurrency that meets it) over the steps with answers; None without any."""
    if not steps:
        return None
    key = f"p{slo.percentile}"
    best = None
    first_bad = None
    by_errors = ""  # the first bad step broke only the error rate, not a latency limit: say so
    for s in sorted(steps, key=lambda s: s.get("concurrency") or 0):
        rate_ok = (s.get("error_rate") or 0.0) <= slo.max_error_rate
        latency_ok = True
        for metric, limit in (("ttft_ms", slo.ttft_ms), ("tpot_ms", slo.tpot_ms), ("e2e_ms", slo.e2e_ms)):
            value = (s.get(metric) or {}).get(key)
            if limit is not None and (value is None or value > limit):
                latency_ok = False
        ok = rate_ok and latency_ok
        if ok and first_bad is None:
            best = s.get("concurrency")
        elif not ok and first_bad is None:
            first_bad = s.get("concurrency")
            if latency_ok:  # found against llama-cpp-python: "does not meet TTFT p99 ≤ 2 s …" at 241 ms
                by_errors = tr("bench.report.slo_by_errors", concurrency=first_bad,
                               rate=f"{s.get('error_rate') or 0.0:.0%}", limit=f"{slo.max_error_rate:.0%}")  # fmt: skip
    if best is None:
        return "never", tr("bench.report.slo_never", what=what, concurrency=first_bad) + by_errors, None
    if first_bad is None:
        return "all", tr("bench.report.slo_all", what=what, concurrency=best), best
    return "up_to", tr("bench.report.slo_up_to", what=what, concurrency=best, step=first_bad) + by_errors, best


def client_bound_notes(result: dict[str, Any]) -> list[str]:
    """Plain sentences for the steps where the client, not the server, was the bottleneck, with the fix (one
    sentence per distinct set of reasons, naming every such step)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for row in step_rows(result):
        if row["client_bound"]:
            groups.setdefault(tuple(row["client_reasons"]), []).append(str(row["concurrency"]))
    notes = []
    for reasons, levels in groups.items():
        text = ", ".join(
            tr(f"bench.report.client_reason.{r}") if r in _CLIENT_REASONS else r for r in reasons
        )
        notes.append(tr("bench.report.client_bound", concurrency=", ".join(levels), reasons=text))
    return notes


_CLIENT_REASONS = ("client_queueing", "client_cpu_saturated", "event_loop_lag", "late_reads_merged_tokens")

_OUTCOMES = ("http_error", "connect_error", "timeout", "stream_error", "truncated", "empty", "invalid")


# failure outcomes whose message is the server's own words (an HTTP error body, an error event in the stream)
_SERVER_SAID = ("http_error", "stream_error")


def failure_notes(result: dict[str, Any]) -> list[str]:
    """One sentence per step where requests failed or the concurrency was not reached, naming the failure classes
    in words (a status that says "with problems" must show the problems; found against a real vLLM whose random
    model sent answers of undecodable bytes only: the step table said "1 failed" and nothing said why), with what
    the server said for each class (found against a real llama-server: a prompt longer than a slot's context failed
    every request as "HTTP error (http_error:http_400)", and its reason — "request (3124 tokens) exceeds the
    available context size (1024 tokens)" — was nowhere but in the per-request table)."""
    notes = []
    for s in result.get("steps") or []:
        failures = {k: n for k, n in (s.get("failures") or {}).items() if n}
        messages = s.get("failure_messages") or {}
        failed = s.get("requests_failed") or 0
        if failed or failures:
            parts = []
            for key, n in sorted(failures.items(), key=lambda kv: -kv[1])[:4]:
                outcome = key.split(":", 1)[0]
                what = tr(f"bench.report.outcome.{outcome}") if outcome in _OUTCOMES else outcome
                said = messages.get(key) if outcome in _SERVER_SAID else None  # not the client's own OS errors
                hint = ""
                if key == "connect_error:SSLError" and messages.get(key):  # OpenSSL's reason: the TLS alert
                    said = str(messages[key])[:200]
                    if client_cert_refusal(said):  # e.g. --no-probe against a server that wants a certificate
                        hint = " — " + tr("bench.report.tls_client_cert")
                parts.append(f"{n} × {what} ({key})" + (tr("bench.report.failure_said", message=said) if said else "")
                             + hint)
            notes.append(tr("bench.report.failures", concurrency=s.get("concurrency"), failed=failed,
                            total=failed + (s.get("requests_ok") or 0), classes="; ".join(parts) or "?"))  # fmt: skip
        if s.get("concurrency_shortfall"):
            achieved = s.get("steady_concurrency") or s.get("achieved_concurrency") or 0.0
            notes.append(tr("bench.report.shortfall", concurrency=s.get("concurrency"), achieved=f"{achieved:.1f}"))
        if s.get("long_enough") is False and s.get("stop_reason") != "cancelled":  # a ramp step cut short
            notes.append(tr("bench.report.too_short", concurrency=s.get("concurrency"),
                            requests=(s.get("requests_ok") or 0) + failed, min_requests=s.get("min_requests"),
                            seconds=f"{s.get('duration_s') or 0.0:.1f}", min_seconds=f"{s.get('min_duration_s') or 0:g}"))
    return notes


def knee_message(knee: dict[str, Any]) -> str | None:
    """The knee sentence rebuilt from its reason and evidence in the current language (the stored ``message`` is in
    the language the run was made in: after a language switch it stayed English on a Chinese screen). None when the
    reason or its evidence is not one this version knows: the stored message is used then."""
    reason = knee.get("reason") or ""
    ev = knee.get("evidence") or {}
    c = knee.get("concurrency")
    try:
        if reason in ("too_few_steps", "not_applicable"):
            return tr(f"bench.knee.{reason}")
        if reason == "client_bound":
            return tr("bench.knee.client_bound", concurrency=ev["concurrency"])
        if reason == "server_lost":
            return tr("bench.knee.server_lost", step=ev["step_concurrency"])
        if reason == "not_reached":
            return _noted(tr("bench.knee.not_reached", concurrency=ev["highest_concurrency"]), knee)
        if reason == "server_queueing":
            return _noted(tr("bench.knee.server_queueing", concurrency=c, step=ev["step_concurrency"],
                             queue=round(ev["server_queue"], 2)), knee)
        if reason == "throughput_plateau_latency_inflation":
            worst = max(v for v in ev["latency_inflation_vs_baseline"].values() if v is not None)
            if ev.get("throughput_gain_needed") is not None:  # the one knee rule (issue #27): gain per doubling
                return _noted(tr("bench.knee.plateau_gain", concurrency=c, step=ev["step_concurrency"],
                                 gain=f"{ev['throughput_gain']:.2f}", needed=f"{ev['throughput_gain_needed']:.2f}",
                                 inflation=round(worst, 2)), knee)  # fmt: skip
            return tr("bench.knee.plateau", concurrency=c, step=ev["step_concurrency"],
                      gain=round(ev["throughput_efficiency"] * 100), inflation=round(worst, 2))
        if reason == "error_rate":
            return _noted(tr("bench.knee.error_rate", concurrency=c, step=ev["step_concurrency"],
                             rate=f"{ev['error_rate']:.0%}", limit=f"{ev['thresholds']['error_rate_above']:.0%}"), knee)
    except (KeyError, TypeError, ValueError):  # an older or foreign result without this evidence
        return None
    return None


def _noted(sentence: str, knee: dict[str, Any]) -> str:
    notes = knee_notes(knee)
    return f"{sentence} {notes}" if notes else sentence


def knee_text(result: dict[str, Any]) -> tuple[str, list[str]]:
    """The knee sentence (in the current language) and its evidence as short lines."""
    knee = result.get("knee") or {}
    message = knee_message(knee) or knee.get("message") or ""
    reason = knee.get("reason") or ""
    if not message:
        message = tr("bench.report.knee_none") if reason in ("", "not_applicable") else reason
    ev = knee.get("evidence") or {}
    lines = []
    if "throughput_tok_s" in ev:
        a, b = ev["throughput_tok_s"]
        lines.append(tr("bench.report.ev_throughput", prev=ev.get("previous_concurrency"),
                        step=ev.get("step_concurrency"), a=format_tokens_per_s(a), b=format_tokens_per_s(b),
                        eff=round(100 * (ev.get("throughput_efficiency") or 0))))  # fmt: skip
    infl = ev.get("latency_inflation_vs_baseline") or {}
    worst = {k: v for k, v in infl.items() if v is not None}
    if worst:
        k, v = max(worst.items(), key=lambda kv: kv[1])
        lines.append(tr("bench.report.ev_inflation", metric=k.replace("_", " ").upper(), ratio=f"{v:.2f}",
                        base=ev.get("baseline_concurrency")))  # fmt: skip
    if ev.get("server_queue") is not None:
        lines.append(tr("bench.report.ev_queue", queue=f"{ev['server_queue']:.2f}"))
    return message, lines


def peak_memory(result: dict[str, Any]) -> list[tuple[str, int | None, int | None, bool]]:
    """(device label, peak used bytes, total bytes, simulated) per GPU seen during the run."""
    tel = result.get("telemetry") or {}
    out = []
    for d in tel.get("devices") or []:
        label = f"GPU {d.get('index')}" + (f" · {d['name']}" if d.get("name") else "")
        out.append((label, d.get("peak_used_bytes"), d.get("total_bytes"), bool(tel.get("simulated"))))
    return out


def status_text(result: dict[str, Any]) -> str:
    status = result.get("status") or "completed"
    key = f"bench.report.status.{status}"
    return tr(key) if status in FINAL_STATUSES else status


# ------------------------------------------------------------------------------------------- markdown
def _md(v: float | None) -> str:
    return "–" if v is None else f"{v:.1f}"


def to_markdown(result: dict[str, Any]) -> str:
    """The whole result as Markdown (for a chat message or an issue); a time-scaled simulator run at the simulated
    GPU's real speed, and said so."""
    from advisor.bench.provenance import at_real_speed

    result = at_real_speed(result)
    lines = [
        f"### {tr('bench.report.md_title', model=result.get('model') or '?', url=result.get('url') or '?')}",
        "",
    ]
    if result.get("simulated"):
        lines += [f"_{tr('bench.report.simulated_note')}_", ""]
    if (prov := result.get("provenance") or {}).get("shown_at_real_speed"):
        note = tr("bench.report.real_speed_note", scale=f"{prov['time_scale']:g}")
        lines += [f"_{note}_", ""]
    lines.append(f"- {tr('bench.report.md_status')}: {status_text(result)}")
    message, evidence = knee_text(result)
    lines.append(f"- {tr('bench.report.md_knee')}: {message}")
    lines += [f"  - {e}" for e in evidence]
    lines.append(f"- {tr('bench.report.md_slo')}: {slo_verdict(result)}")
    for label, peak, total, simulated in peak_memory(result):
        sim = f" ({tr('bench.report.simulated_short')})" if simulated else ""
        lines.append(
            f"- {tr('bench.report.md_peak_memory')} {label}: {format_gib(peak)} / {format_gib(total)}{sim}"
        )
    for note in failure_notes(result) + client_bound_notes(result):
        lines.append(f"- ⚠ {note}")
    lines.append("")
    head = [
        "concurrency",
        "ok",
        "failed",
        "TTFT p50 ms",
        "TTFT p99 ms",
        "TPOT p50 ms",
        "TPOT p99 ms",
        "tok/s",
        "",
    ]
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for r in step_rows(result):
        flag = tr("bench.report.knee_flag") if r["knee"] else (tr("bench.report.client_flag") if r["client_bound"]
                                                               else "")  # fmt: skip
        if r["partial"]:
            flag = " · ".join(filter(None, [flag, tr("bench.report.partial_flag")]))
        lines.append("| " + " | ".join([
            str(r["concurrency"]), str(r["ok"]), str(r["failed"]), _md(r["ttft_p50"]), _md(r["ttft_p99"]),
            _md(r["tpot_p50"]), _md(r["tpot_p99"]), _md(r["tok_s"]), flag]) + " |")  # fmt: skip
    return "\n".join(lines) + "\n"
