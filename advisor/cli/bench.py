"""``advisor bench``: benchmark a streaming OpenAI-compatible server; JSON on stdout, progress on stderr."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import threading
from collections.abc import Callable
from typing import Any

from advisor.bench.keys import KEYRING_SERVICE, keyring_key  # the store the app saves keys to
from advisor.i18n import tr
from advisor.tls import CLI_HELP as TLS_CLI_HELP
from advisor.tls import CLIENT_CERT_HELP, CLIENT_KEY_HELP

# Bounds of the numeric flags (advisor.domain.bench holds the engine's own; these match them).
MAX_CONCURRENCY = 4096
MAX_REQUESTS = 10_000_000
MAX_TOKENS = 1_000_000
MAX_RATE = 100_000.0


def _int_in(lo: int, hi: int) -> Callable[[str], int]:
    """argparse type: a whole number in [lo, hi] (no fractions, no booleans, no 1e9)."""

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(tr("bench.cli.bad_int", value=text, lo=lo, hi=hi)) from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(tr("bench.cli.bad_int", value=text, lo=lo, hi=hi))
        return value

    return parse


def _float_in(lo: float, hi: float, *, lo_open: bool = True) -> Callable[[str], float]:
    """argparse type: a finite number in (lo, hi] (or [lo, hi]); nan and inf are refused."""

    def parse(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            value = math.nan
        ok = math.isfinite(value) and (value > lo if lo_open else value >= lo) and value <= hi
        if not ok:
            raise argparse.ArgumentTypeError(tr("bench.cli.bad_float", value=text, lo=f"{lo:g}", hi=f"{hi:g}",
                                                bound="<" if lo_open else "≤"))
        return value

    return parse


EPILOG = """exit codes:
  0    completed: every step met the success threshold and everything measured is stored
  1    internal error (a bug: please report it)
  2    bad input (a flag, a file)
  3    the probe failed (connection refused, not an LLM server, TLS mismatch, unknown model, timeout):
       no load was sent; the run is recorded as failed
  4    failed: no request succeeded
  5    degraded: some step was below the success rate (1 - --max-error-rate) or short of its concurrency
  6    incomplete: results could not all be stored (database locked, disk full); the JSON is still printed
  130  stopped with Ctrl+C (everything measured so far is kept; status "stopped")
  143  stopped by SIGTERM, 129 by SIGHUP: as Ctrl+C (partial results printed, written to --out, run kept as
       stopped)
"""

def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("bench", help=tr("bench.cli.help"), description=tr("bench.cli.help"), epilog=EPILOG,
                              formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--url", help="base URL of the server, e.g. http://127.0.0.1:8000 (with or without /v1)")
    p.add_argument("--model", help="model name as the server knows it")
    p.add_argument("--api", choices=("chat", "completions"), default="chat")
    shape = p.add_mutually_exclusive_group()
    shape.add_argument("--concurrency", help="fixed concurrency levels, one step each: 1,2,4 (default 1)")
    shape.add_argument("--ramp", nargs="?", const="auto", metavar="LEVELS",
                       help="step ramp: 1,2,4,… up to --max-concurrency, or the given levels; stops on SLO breach")
    shape.add_argument("--soak", metavar="DURATION", help="soak test at --soak-concurrency for e.g. 30m; reports drift")
    shape.add_argument("--rate", type=_float_in(0, MAX_RATE), metavar="RPS",
                       help="open loop: mean requests per second (Poisson)")
    shape.add_argument("--single", action="store_true", help="single-request baseline")
    p.add_argument("--requests", type=_int_in(1, MAX_REQUESTS), help="requests per step (fixed), at most per step (ramp), total (rate)")
    p.add_argument("--duration", help="time per step (fixed/ramp max) or total (rate): 60, 90s, 5m")
    p.add_argument("--max-concurrency", type=_int_in(1, MAX_CONCURRENCY), default=256,
                   help="ramp ceiling / open-loop in-flight cap")
    p.add_argument("--past-knee", action="store_true",
                   help="ramp: go on to --max-concurrency after a confirmed knee (default: stop once the step after "
                        "the knee's agrees)")
    p.add_argument("--no-stagger", action="store_true",
                   help="start a step's streams together (default: spread over one request's duration)")
    p.add_argument("--min-step-s", type=_float_in(0, 3600, lo_open=False), metavar="SECONDS",
                   help="ramp: each step runs at least this long (default: 4 s when the server's /metrics is read, "
                        "for a few queue readings; else none)")
    p.add_argument("--soak-concurrency", type=_int_in(1, MAX_CONCURRENCY), default=8)
    p.add_argument("--burstiness", type=_float_in(0, 1000), default=1.0, help="open loop: gamma shape (1 = Poisson)")
    p.add_argument("--warmup", type=_int_in(0, 10_000), default=1, help="warm-up requests, excluded from statistics")
    p.add_argument("--prompt-tokens", default="256", help="N, or kind:mean[:std] / uniform:min:max (kinds: fixed, "
                   "uniform, normal, lognormal)")
    p.add_argument("--max-tokens", default="128", help="output tokens: N or a distribution as for --prompt-tokens")
    p.add_argument("--dataset", help="real prompts: JSONL ({\"prompt\"} or {\"messages\"}), CSV, ShareGPT JSON")
    p.add_argument("--language", choices=("en", "zh"), default="en", help="language of synthetic prompts")
    p.add_argument("--ignore-eos", action="store_true", help="ask for exactly max tokens (vLLM/SGLang)")
    p.add_argument("--slo-ttft-ms", type=_float_in(0, 1e9))
    p.add_argument("--slo-tpot-ms", type=_float_in(0, 1e9))
    p.add_argument("--slo-e2e-ms", type=_float_in(0, 1e9))
    p.add_argument("--slo-percentile", type=int, choices=(50, 90, 95, 99), default=95)
    p.add_argument("--max-error-rate", type=_float_in(0, 1, lo_open=False), default=0.05,
                   help="a step above this failure fraction is degraded (and ends a ramp)")
    p.add_argument("--api-key-env", default=None, help="environment variable with the API key "
                   "(default: ADVISOR_API_KEY, then OPENAI_API_KEY)")
    p.add_argument("--keyring", action="store_true", help=f"read the API key from the OS keyring (service "
                   f"{KEYRING_SERVICE!r}, user = the URL)")
    p.add_argument("--client-processes", type=_int_in(1, 32), default=1, metavar="N",
                   help="split closed-loop streams over N client processes (for many hundreds of streams)")
    p.add_argument("--transport", choices=("raw", "raw-loop", "raw-h11", "httpx"), default="raw",
                   help="raw: kernel receive timestamps (Linux, http); raw-loop: event-loop time; raw-h11: raw "
                   "with h11 framing; httpx")
    p.add_argument("--ca-bundle", metavar="PATH", help=TLS_CLI_HELP)
    p.add_argument("--client-cert", metavar="FILE", help=CLIENT_CERT_HELP)
    p.add_argument("--client-key", metavar="FILE", help=CLIENT_KEY_HELP)
    p.add_argument("--timeout", type=_float_in(0, 86_400), default=600.0, help="longest single request, seconds")
    p.add_argument("--probe-timeout", type=_float_in(0, 600), default=30.0,
                   help="longest the probe may take in all, seconds (default 30)")
    p.add_argument("--label", default="")
    p.add_argument("--seed", type=_int_in(0, 2**31 - 1), default=0)
    p.add_argument("--no-probe", action="store_true",
                   help="skip the one-request probe (the tokenizer is still looked for: the workload is the same)")
    p.add_argument("--no-store", action="store_true", help="do not save the run in the benchmark history")
    p.add_argument("--no-telemetry", action="store_true",
                   help="do not sample local GPUs (NVML) and the server's /metrics during the run")
    p.add_argument("--db", help="benchmark database file (default: the user data folder)")
    p.add_argument("--project", metavar="FILE", help="link the run to this project file (History: this project)")
    p.add_argument("--json", action="store_true", help="print the result object on stdout")
    p.add_argument("--out", help="write the result to FILE (.json) or the per-request table (.csv)")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--list", action="store_true", help="list stored runs (with --json as JSON)")
    p.add_argument("--export", metavar="RUN_ID", help="export a stored run (to --out FILE, .json or .csv)")
    p.set_defaults(func=run)


_DUR = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$")


def parse_duration(value: str) -> float:
    from advisor.cli.common import UserError

    m = _DUR.match(value or "")
    if not m:
        raise UserError(tr("bench.cli.bad_duration", value=value))
    return float(m.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[m.group(2)]


def parse_levels(value: str) -> list[int]:
    from advisor.cli.common import UserError

    try:
        levels = [int(x) for x in value.replace(" ", "").split(",") if x]
    except ValueError:
        raise UserError(tr("bench.cli.bad_concurrency", value=value, max=MAX_CONCURRENCY)) from None
    if not levels or any(c < 1 or c > MAX_CONCURRENCY for c in levels) or len(levels) > 64:
        raise UserError(tr("bench.cli.bad_concurrency", value=value, max=MAX_CONCURRENCY))
    return levels


def parse_dist(value: str) -> dict[str, Any]:
    """``512`` → fixed; ``lognormal:512:200``; ``normal:512:100``; ``uniform:100:900``."""
    from advisor.cli.common import UserError

    try:
        dist = _parse_dist(value)
    except (ValueError, IndexError, OverflowError):
        raise UserError(tr("bench.cli.bad_dist", value=value)) from None
    nums = [v for k, v in dist.items() if k != "kind"]
    if not all(math.isfinite(v) for v in nums) or dist["mean"] <= 0 or dist["mean"] > MAX_TOKENS \
            or any(dist.get(k, 1) < 1 or dist.get(k, 1) > MAX_TOKENS for k in ("min", "max")) \
            or dist.get("std", 0) < 0:
        raise UserError(tr("bench.cli.bad_dist_range", value=value, max=MAX_TOKENS))
    return dist


def _parse_dist(value: str) -> dict[str, Any]:
    parts = value.split(":")
    if len(parts) == 1:
        return {"kind": "fixed", "mean": float(parts[0])}
    kind = parts[0]
    if kind not in ("fixed", "uniform", "normal", "lognormal"):
        raise ValueError(kind)
    nums = [float(x) for x in parts[1:]]
    if kind == "uniform":
        return {"kind": "uniform", "min": int(nums[0]), "max": int(nums[1]), "mean": (nums[0] + nums[1]) / 2}
    if kind == "fixed":
        return {"kind": "fixed", "mean": nums[0]}
    return {"kind": kind, "mean": nums[0], "std": nums[1] if len(nums) > 1 else 0.0}


def api_key_from(args: argparse.Namespace) -> str | None:
    """From the environment or the OS keyring; never written anywhere (checked: a key that would inject a
    header is refused here, and a server that echoes it back gets it masked in everything we keep)."""
    from advisor.cli.common import UserError
    from advisor.redact import SecretError, check_api_key

    try:
        return check_api_key(_api_key_lookup(args))
    except SecretError as exc:
        raise UserError(str(exc)) from None


def _api_key_lookup(args: argparse.Namespace) -> str | None:
    from advisor.cli.common import UserError

    if args.keyring:
        key = keyring_key(args.url)  # None without a keyring backend (a headless server)
        if key:
            return key
    if args.api_key_env:
        key = os.environ.get(args.api_key_env)
        if not key:
            raise UserError(tr("bench.cli.no_key", env=args.api_key_env))
        return key
    return os.environ.get("ADVISOR_API_KEY") or os.environ.get("OPENAI_API_KEY") or None


def build_config(args: argparse.Namespace) -> Any:
    """The run's configuration from the flags, built by the same function the Benchmark page calls."""
    from advisor.bench.run_config import RunChoices
    from advisor.bench.run_config import build_config as build_run_config
    from advisor.domain.bench import ScheduleKind

    shape: ScheduleKind
    levels: list[int] | None
    if args.single:
        shape, levels = "single", None
    elif args.ramp:
        shape, levels = "ramp", None if args.ramp == "auto" else parse_levels(args.ramp)
    elif args.soak:
        shape, levels = "soak", [args.soak_concurrency]
    elif args.rate is not None:
        shape, levels = "rate", None
    else:
        shape, levels = "fixed", parse_levels(args.concurrency or "1")
    duration = args.soak if args.soak else args.duration
    return build_run_config(RunChoices(
        url=args.url, model=args.model, shape=shape, levels=tuple(levels) if levels else None,
        requests=args.requests, duration_s=parse_duration(duration) if duration else None,
        max_concurrency=args.max_concurrency, rate=args.rate, burstiness=args.burstiness, warmup_requests=args.warmup,
        client_processes=args.client_processes, continue_past_knee=args.past_knee, stagger=not args.no_stagger,
        min_step_s=getattr(args, "min_step_s", None),
        prompt_tokens=parse_dist(args.prompt_tokens), output_tokens=parse_dist(args.max_tokens), dataset=args.dataset,
        language=args.language, ignore_eos=args.ignore_eos, seed=args.seed,
        api=args.api, transport=args.transport, timeout_s=args.timeout, use_keyring=args.keyring,
        api_key_env=args.api_key_env,
        slo_ttft_ms=args.slo_ttft_ms, slo_tpot_ms=args.slo_tpot_ms, slo_e2e_ms=args.slo_e2e_ms,
        slo_percentile=args.slo_percentile, max_error_rate=args.max_error_rate, label=args.label,
    ))  # fmt: skip


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.1f}"


class _Printer:
    """Live progress on stderr; steps as lines."""

    def __init__(self, quiet: bool, db_path: str = "") -> None:
        self.quiet = quiet
        self.tty = sys.stderr.isatty()
        self.db_path = db_path
        self.model = ""
        self._last_line = 0.0
        self.sim: dict[str, Any] | None = None  # our simulator's setup and time scale (steps shown at real speed)

    def __call__(self, event: Any) -> None:
        kind, d = event.kind, event.data
        if kind == "probe" and not d.ok:  # why no load was sent is always said
            from advisor.redact import terminal_text

            print(terminal_text(tr("bench.cli.probe_stopped", error=d.error or d.error_kind)), file=sys.stderr)
            return
        if self.quiet and kind != "store_problem":  # a store problem is always said
            return
        if kind == "probe":
            self._probe(d)
        elif kind == "tokenizing" and d["total"] >= 200:
            end = "\n" if d["done"] == d["total"] or not self.tty else ""
            sys.stderr.write(("\r" if self.tty else "") + tr("bench.cli.tokenizing", done=d["done"], total=d["total"])
                             + end)
            sys.stderr.flush()
        elif kind == "run_started" and d.get("run_id"):
            print(tr("bench.cli.run_started", run_id=d["run_id"], path=self.db_path), file=sys.stderr)
        elif kind == "progress" and d["step"] >= 0:
            line = tr("bench.cli.progress", step=d["step"], concurrency=d["concurrency"], done=d["done"], ok=d["ok"],
                      failed=d["failed"], in_flight=d["in_flight"], elapsed=d["elapsed_s"])
            if self.tty:
                sys.stderr.write("\r" + line[:150] + "\x1b[K")
                sys.stderr.flush()
            else:  # a log file: a line every 5 s at most
                import time

                now = time.monotonic()
                if now - self._last_line >= 5.0:
                    self._last_line = now
                    print(line, file=sys.stderr, flush=True)
        elif kind == "store_problem":
            if self.tty:
                sys.stderr.write("\r\x1b[K")
            from advisor.redact import terminal_text

            print(terminal_text(tr("bench.cli.store_problem", message=d.get("message") or d.get("kind"))),
                  file=sys.stderr)
        elif kind == "step":
            if self.tty:
                sys.stderr.write("\r\x1b[K")
            if self.sim is not None:
                from advisor.cli.bench_sim import step_as_shown

                d = step_as_shown(d, self.sim)
            print(tr("bench.cli.step", concurrency=d.concurrency, ok=d.requests_ok, failed=d.requests_failed,
                     ttft_p50=_fmt(d.ttft_ms.p50), ttft_p99=_fmt(d.ttft_ms.p99), tpot_p50=_fmt(d.tpot_ms.p50),
                     tok_s=_fmt(d.output_tokens_per_s)), file=sys.stderr)
            if d.client.client_bound:
                print(tr("bench.cli.client_bound", reasons=", ".join(d.client.reasons)), file=sys.stderr)
            if d.requests_failed:  # which failures, and what the server said: not only a count
                from advisor.bench.report import failure_notes
                from advisor.redact import terminal_text

                for note in failure_notes({"steps": [d.model_dump(include={"concurrency", "requests_ok",
                                                                           "requests_failed", "failures",
                                                                           "failure_messages"})]}):
                    print("  " + terminal_text(note), file=sys.stderr)  # server text: escaped, key masked


    def _probe(self, probe: Any) -> None:
        from advisor.redact import terminal_text

        print(terminal_text(tr("bench.cli.probe", dialect=probe.dialect, usage=_yes(probe.usage_in_stream),
                               continuous=_yes(probe.continuous_usage), reasoning=probe.reasoning_field or "-",
                               metrics=_yes(probe.metrics_endpoint), tokenize=probe.tokenize_endpoint or "-")),
              file=sys.stderr)
        if probe.model_ok is False:
            print(terminal_text(tr("bench.cli.model_not_listed", model=self.model, models=", ".join(probe.models[:20]))),
                  file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    import sqlite3

    from pydantic import ValidationError

    from advisor.cli.common import UserError, check_out_target, fail, network_settings, validation_message

    try:
        if args.list or args.export:
            check_out_target(args.out)
            return _history(args)
        if not args.url or not args.model:
            raise UserError(tr("bench.cli.url_model_required"))
        network_settings(getattr(args, "ca_bundle", None), [args.url], client_cert=getattr(args, "client_cert", None),
                         client_key=getattr(args, "client_key", None))
        config = build_config(args)
        api_key = api_key_from(args)
        check_out_target(args.out)  # an --out that cannot be written is said now, not after a long run
        return _bench(args, config, api_key)
    except ValidationError as exc:
        return fail(validation_message(exc))
    except UserError as exc:
        return fail(str(exc))
    except (sqlite3.Error, OSError) as exc:  # the database: a folder, not a database, locked, a full disk
        return fail(tr("bench.cli.store_unavailable", path=args.db or "", error=exc), code=6)
    except ValueError as exc:  # bad distribution numbers, unreadable dataset
        return fail(str(exc))


def _open_store(args: argparse.Namespace, *, read_only: bool = False) -> Any:
    import sqlite3

    from advisor.bench.store import BenchStore, default_path
    from advisor.cli.common import UserError

    path = args.db or str(default_path())
    if os.path.isdir(path):
        raise UserError(tr("bench.cli.db_is_folder", path=path))
    try:
        return BenchStore(path, read_only=read_only)
    except (sqlite3.Error, OSError) as exc:
        raise UserError(tr("bench.cli.store_unavailable", path=path, error=exc)) from None


def _history(args: argparse.Namespace) -> int:
    from advisor.atomic import write_text_atomic
    from advisor.cli.common import UserError, print_json

    store = _open_store(args, read_only=True)  # --list and --export only read
    try:
        if args.list:
            runs = store.runs()
            if args.json:
                print_json(runs)
            else:
                from advisor.redact import terminal_text

                for r in runs:
                    r = {k: terminal_text(v, one_line=True) if isinstance(v, str) else v for k, v in r.items()}
                    print(f"{r['run_id']}  {r['status']:<11} {r['requests']:>6}  {r['model']}  {r['url']}  {r['label']}")
            return 0
        if store.run(args.export) is None:
            raise UserError(tr("bench.cli.export_unknown_run", run_id=args.export))
        text = store.export_csv(args.export) if (args.out or "").endswith(".csv") else store.export_json(args.export)
        if args.out:
            write_text_atomic(args.out, text)
        else:
            sys.stdout.write(text + ("" if text.endswith("\n") else "\n"))
        return 0
    finally:
        store.connection.close()


def _bench(args: argparse.Namespace, config: Any, api_key: str | None) -> int:
    """``advisor bench``: the run is :func:`advisor.bench.session.run_benchmark`'s (in a worker thread, so Ctrl+C,
    SIGTERM and SIGHUP reach this thread and stop it the same way); this prints, writes ``--out`` and exits."""
    from advisor.atomic import write_text_atomic
    from advisor.bench.runner import EXIT_CANCELLED
    from advisor.bench.session import TelemetryOptions, run_benchmark
    from advisor.bench.workload import load_dataset
    from advisor.cancel import CancelToken
    from advisor.cli.common import print_json

    printer = _Printer(args.quiet)
    dataset = None
    if config.workload.dataset:
        dataset = load_dataset(config.workload.dataset)
        lengths = sorted(p.prompt_tokens for p in dataset)
        if not args.quiet:
            print(tr("bench.cli.dataset", count=len(lengths), p50=lengths[len(lengths) // 2],
                     p90=lengths[int(len(lengths) * 0.9)], max=lengths[-1]), file=sys.stderr)
    store = None if args.no_store else _open_store(args)
    # our own simulated server: learn its setup and time scale from itself (a sped-up run is not GPU speed)
    from advisor.bench.session import setup_from_simulator
    from advisor.cli.bench_sim import learn_simulator

    config, sim = learn_simulator(config, args.quiet)
    printer.sim = sim
    printer.db_path = str(store.path) if store else ""
    printer.model = config.endpoint.model
    cancel = CancelToken()
    box: dict[str, Any] = {}
    finished = threading.Event()

    def work() -> None:
        try:
            box["result"] = run_benchmark(
                config, store=store, telemetry=None if args.no_telemetry else TelemetryOptions(), cancel=cancel,
                on_event=printer, api_key=api_key, probe=not args.no_probe, probe_timeout_s=args.probe_timeout,
                dataset=dataset, setup=setup_from_simulator(sim, config.endpoint.model), learn_setup=False,
                project_id=_project_id(args))
        except BaseException as exc:  # re-raised below, in this thread
            box["error"] = exc
        finally:
            finished.set()

    thread = threading.Thread(target=work, name="bench-run", daemon=True)
    thread.start()
    interrupted = False
    stop_signal = _StopSignals()  # SIGTERM/SIGHUP (a job scheduler, a closed terminal) stop as Ctrl+C does
    # Wait on an Event, not Thread.join: a join interrupted by Ctrl+C can mark the thread as stopped while it
    # still runs (CPython 3.11), and we would print before the runner has saved its last step.
    try:
        while not finished.wait(0.2):
            pass
    except KeyboardInterrupt:
        interrupted = True
        cancel.cancel()
        stop_signal.ignore_more()  # a second TERM while the runner saves must not lose what it saves
        finished.wait(30)
        if not args.quiet:
            print("\n" + tr("bench.cli.cancelled"), file=sys.stderr)
    finally:
        stop_signal.restore()
    if "error" in box:
        if store is not None:
            store.connection.close()
        raise box["error"]
    result = box.get("result") or _not_stopped_in_time(config)
    if result.error_kind == "store":
        print(tr("bench.cli.store_unavailable", path=printer.db_path, error=result.error), file=sys.stderr)
    elif result.error_kind == "internal":  # a bug: say so plainly, keep what was measured
        print(tr("bench.cli.internal_error", error=result.error), file=sys.stderr)
    code = (stop_signal.exit_code or EXIT_CANCELLED) if interrupted else result.exit_code
    result.exit_code = code
    from advisor.redact import redact

    out = redact(result.as_dict())  # server text in failures and the probe's verdict: the API key masked
    if sim is not None:  # printed and written at the simulated GPU's real speed, saying from which scale
        from advisor.cli.bench_sim import with_simulator

        out = with_simulator(out, sim)
    if not args.quiet:
        _summary(out)
    if args.out:
        try:
            if args.out.endswith(".csv") and store is not None and result.run_id:
                write_text_atomic(args.out, store.export_csv(result.run_id))
            else:
                write_text_atomic(args.out, json.dumps(out, ensure_ascii=False, indent=2, default=str) + "\n")
            if not args.quiet:
                print(tr("bench.cli.saved", path=args.out), file=sys.stderr)
        except OSError as exc:  # a full disk: the JSON goes to stdout below, --json or not
            print(tr("bench.cli.out_failed", path=args.out, error=exc.strerror or exc), file=sys.stderr)
            code = code or 6
            if not args.json:
                print_json(out)
    if args.json:
        print_json(out)
    if store is not None:
        store.connection.close()
    return code


def _not_stopped_in_time(config: Any) -> Any:
    """The worker did not return within 30 s of the stop: what is stored is all there is."""
    from advisor.bench.runner import EXIT_CANCELLED
    from advisor.domain.run import RunResult, RunStatus

    ep = config.endpoint
    return RunResult(status=RunStatus.stopped, url=ep.url, model=ep.model, api=ep.api, schedule=config.schedule.kind,
                     label=config.label, exit_code=EXIT_CANCELLED, error="the run did not stop within 30 s")


class _StopSignals:
    """While a run is going, SIGTERM and SIGHUP raise KeyboardInterrupt in the main thread, so they take the
    Ctrl+C path (cancel, keep, print, write); ``exit_code`` is then 128 + the signal's number."""

    def __init__(self) -> None:
        import signal

        self.exit_code: int | None = None
        self._old: dict[int, Any] = {}
        if threading.current_thread() is not threading.main_thread():
            return
        for name in ("SIGTERM", "SIGHUP"):
            num = getattr(signal, name, None)
            if num is not None:
                self._old[num] = signal.signal(num, self._handle)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.exit_code is None:
            self.exit_code = 128 + signum
            raise KeyboardInterrupt

    def ignore_more(self) -> None:
        import signal

        for num in self._old:
            signal.signal(num, signal.SIG_IGN)

    def restore(self) -> None:
        import signal

        for num, old in self._old.items():
            signal.signal(num, old)
        self._old = {}


def _yes(flag: bool) -> str:
    return tr("bench.cli.yes") if flag else tr("bench.cli.no")


def _summary(result: dict[str, Any]) -> None:
    """The verdict in words on stderr: status, knee (only where there is one to find), drift, what is missing."""
    knee = result.get("knee") or {}
    if knee.get("reason") not in (None, "not_applicable"):
        print(tr("bench.cli.knee", message=knee.get("message") or knee["reason"]), file=sys.stderr)
    if result.get("drift"):
        d = result["drift"]
        if d.get("outage_windows"):
            verdict = tr("bench.cli.drift_outage", windows=len(d["outage_windows"]), failed=d.get("requests_failed", 0))
        elif d.get("failure_windows"):
            verdict = tr("bench.cli.drift_failures", windows=len(d["failure_windows"]), failed=d.get("requests_failed", 0))
        else:
            verdict = tr("bench.cli.drift_yes") if d["drifting"] else tr("bench.cli.drift_no")
        print(tr("bench.cli.drift", verdict=verdict), file=sys.stderr)
    for step in result.get("steps") or []:
        limited = sum(n for k, n in (step.get("failures") or {}).items() if k.endswith("http_429"))
        if limited:  # rate limiting is its own verdict, with the rate the server did accept
            rate = step.get("requests_ok", 0) / step["duration_s"] if step.get("duration_s") else 0.0
            print(tr("bench.cli.rate_limited", concurrency=step.get("concurrency"), count=limited,
                     rate=f"{rate:.2f}"), file=sys.stderr)
        if step.get("arrivals_not_sent") or (step.get("stop_reason") == "duration" and step.get("requests_cancelled")):
            print(tr("bench.cli.duration_cut", cancelled=step.get("requests_cancelled", 0),
                     not_sent=step.get("arrivals_not_sent", 0)), file=sys.stderr)
        if step.get("concurrency_shortfall"):
            print(tr("bench.cli.shortfall", concurrency=step["concurrency"],
                     steady=step.get("steady_concurrency") if step.get("steady_concurrency") is not None else "-"),
                  file=sys.stderr)
    inc = result.get("incomplete")
    if inc:
        print(tr("bench.cli.incomplete", records=inc.get("records_not_in_db", 0), lost=inc.get("records_lost", 0),
                 journal=inc.get("journal") or "-"), file=sys.stderr)
    print(tr(f"bench.cli.status.{result.get('status', 'failed')}", ok=result.get("requests_ok", 0),
             failed=result.get("requests_failed", 0), code=result.get("exit_code", 0)), file=sys.stderr)


def _project_id(args: argparse.Namespace) -> str | None:
    from advisor.bench.history import project_key

    return project_key(args.project) if getattr(args, "project", None) else None
