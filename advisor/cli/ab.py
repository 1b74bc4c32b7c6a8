"""``advisor ab``: quantization A/B — the same prompts against a baseline (A) and a candidate (B)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from advisor.i18n import tr
from advisor.tls import CLI_HELP as TLS_CLI_HELP
from advisor.tls import CLIENT_CERT_HELP, CLIENT_KEY_HELP


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("ab", help=tr("ab.cli.help"), description=tr("ab.cli.help"))
    p.add_argument("--a-url", required=True, help="baseline server, e.g. http://127.0.0.1:8000")
    p.add_argument("--a-model", required=True, help="baseline model id as the server knows it")
    p.add_argument("--b-url", help="candidate server (default: the same as --a-url, for one server with two models)")
    p.add_argument("--b-model", required=True, help="candidate (e.g. quantized) model id")
    p.add_argument("--a-label", default="", help="e.g. bf16")
    p.add_argument("--b-label", default="", help="e.g. awq-int4")
    p.add_argument("--api", choices=("chat", "completions"), default="chat")
    p.add_argument("--prompts", help="prompt file: JSONL ({\"prompt\"} or {\"messages\"}), CSV, ShareGPT JSON "
                   "(default: 8 built-in prompts). Rows with \"reference\" or \"choices\"+\"answer\" (and an "
                   "optional \"scorer\") are scored: accuracy per side, paired 95 %% CI, verdict")
    p.add_argument("--samples", choices=("prompts", "builtin"), default="prompts",
                   help="builtin: score the 30 built-in samples of --language (arithmetic, units, facts, "
                   "multiple choice, JSON) instead of the prompts")
    p.add_argument("--language", choices=("en", "zh"), default="en", help="language of the built-in prompts/samples")
    p.add_argument("--answers", type=int, default=None,
                   help="prompts answered one at a time for the answer pairs (default: 8 prompts, every scored sample)")
    p.add_argument("--drop", type=float, default=3.0, metavar="POINTS",
                   help="the quality drop the sample-size hint is for, in percentage points (default 3)")
    p.add_argument("--task", help="score a standard task on both sides through EvalScope (gsm8k, ceval, cmmlu, "
                   "general_qa, ...; needs: pip install 'inference-advisor[eval]')")
    p.add_argument("--limit", type=int, default=50, help="samples of --task per subset (default 50)")
    p.add_argument("--task-dataset", metavar="PATH", help="a local copy of the task's dataset (default: ModelScope)")
    p.add_argument("--task-subset", help="one subset of --task (e.g. a C-Eval subject)")
    p.add_argument("--task-template", help="the task's prompt template instead of its own, e.g. '{question}'")
    p.add_argument("--judge-url", metavar="URL", help="an OpenAI-compatible endpoint (…/v1) whose model scores the "
                   "samples with \"scorer\": \"rubric\" against their \"rubric\"; its prompt is shown in the result")
    p.add_argument("--judge-model", metavar="ID", help="the judge's model id (with --judge-url)")
    p.add_argument("--judge-key-env", metavar="VAR", help="environment variable with the judge's API key (default: none)")
    p.add_argument("--seed", type=int, default=0, help="seed of the load's prompt order and the bootstrap interval")
    p.add_argument("--requests", type=int, default=16, help="requests per load step")
    p.add_argument("--concurrency", default="1,4", help="load steps, e.g. 1,4,16")
    p.add_argument("--max-tokens", type=int, default=128)
    p.add_argument("--timeout", type=float, default=120.0, help="longest single request, seconds")
    p.add_argument("--ca-bundle", metavar="PATH", help=TLS_CLI_HELP)
    p.add_argument("--client-cert", metavar="FILE", help=CLIENT_CERT_HELP)
    p.add_argument("--client-key", metavar="FILE", help=CLIENT_KEY_HELP)
    p.add_argument("--api-key-env", default=None, help="environment variable with the API key of both sides "
                   "(default: ADVISOR_API_KEY, then OPENAI_API_KEY)")
    p.add_argument("--db", help="benchmark database file for the two load runs (default: the user data folder)")
    p.add_argument("--no-store", action="store_true", help="do not save the two load runs in the history")
    p.add_argument("--project", metavar="FILE", help="link both load runs to this project file (History: this project)")
    p.add_argument("--out", help="write the result: .json (everything) or .md (Markdown)")
    p.add_argument("--json", action="store_true", help="print the result object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import os

    from pydantic import ValidationError

    from advisor.atomic import write_text_atomic
    from advisor.bench.ab import AbConfig, AbError, AbEvent, result_json, run_ab, to_markdown
    from advisor.bench.history import project_key
    from advisor.bench.quality.evalscope_task import TaskError
    from advisor.bench.workload import WorkloadError
    from advisor.cancel import CancelToken
    from advisor.cli.bench import parse_levels
    from advisor.cli.common import (
        UserError,
        check_out_target,
        fail,
        network_settings,
        print_json,
        validation_message,
    )

    try:
        b_url = args.b_url or args.a_url
        if b_url.rstrip("/") == args.a_url.rstrip("/") and args.b_model == args.a_model:
            raise UserError(tr("ab.error.same_target"))
        if args.out and not args.out.endswith((".json", ".md")):
            raise UserError(tr("ab.error.bad_out", path=args.out))
        config = AbConfig.model_validate({
            "a": {"url": args.a_url, "model": args.a_model, "label": args.a_label, "api": args.api},
            "b": {"url": b_url, "model": args.b_model, "label": args.b_label, "api": args.api},
            "prompts_file": args.prompts, "samples": args.samples, "language": args.language,
            "answers": args.answers, "quality_drop": _drop(args.drop), "seed": args.seed, "task": args.task,
            "task_limit": args.limit, "task_dataset": args.task_dataset, "task_subset": args.task_subset,
            "task_prompt_template": args.task_template, "judge_url": args.judge_url, "judge_model": args.judge_model,
            "requests": args.requests, "concurrency": parse_levels(args.concurrency), "max_tokens": args.max_tokens,
            "timeout_s": args.timeout,
        })
        if args.task:
            from advisor.bench.quality.evalscope_task import INSTALL_HINT, available

            if not available():
                raise UserError(tr("quality.task.missing", hint=INSTALL_HINT))
        if args.api_key_env:
            key = os.environ.get(args.api_key_env)
            if not key:
                raise UserError(tr("bench.cli.no_key", env=args.api_key_env))
        else:
            key = os.environ.get("ADVISOR_API_KEY") or os.environ.get("OPENAI_API_KEY") or None
        from advisor.redact import SecretError, check_api_key

        try:
            key = check_api_key(key)
        except SecretError as exc:
            raise UserError(str(exc)) from None

        judge_key = None
        if args.judge_key_env:
            judge_key = os.environ.get(args.judge_key_env)
            if not judge_key:
                raise UserError(tr("bench.cli.no_key", env=args.judge_key_env))
            try:
                judge_key = check_api_key(judge_key)
            except SecretError as exc:
                raise UserError(str(exc)) from None

        check_out_target(args.out)  # said before the load, not after it
        # every endpoint's https is checked against the same CA bundle: both sides and the judge
        network_settings(args.ca_bundle, [u for u in (args.a_url, b_url, args.judge_url) if u],
                         client_cert=args.client_cert, client_key=args.client_key)

        def progress(event: AbEvent) -> None:
            if args.quiet:
                return
            d = event.data
            if event.kind == "phase" and d["phase"] == "answers":
                print(tr("ab.cli.phase_answers", side=d["side"], total=d["total"]), file=sys.stderr)
            elif event.kind == "phase" and d["phase"] == "judge":
                print(tr("ab.cli.phase_judge", judge=d["judge"]), file=sys.stderr)
            elif event.kind == "judged":
                return
            elif event.kind == "task_answered":
                print(tr("ab.task.answered", side=d["side"], task=d["task"], done=d["done"], limit=d["limit"]),
                      file=sys.stderr)
            elif event.kind == "phase" and d["phase"] == "task":
                print(tr("ab.cli.phase_task", task=d["task"], limit=d["limit"]), file=sys.stderr)
            elif event.kind == "phase":
                print(tr("ab.cli.phase_load", side=d["side"], levels=",".join(map(str, d["levels"]))), file=sys.stderr)
            elif event.kind == "step":
                s = d["step"]
                print(tr("ab.cli.step", side=d["side"], concurrency=s.concurrency, ok=s.requests_ok,
                         failed=s.requests_failed, tok_s=f"{s.output_tokens_per_s:.1f}"), file=sys.stderr)

        cancel = CancelToken()
        try:
            result = run_ab(config, store_path=args.db, store=not args.no_store, cancel=cancel, on_event=progress,
                            api_key_a=key, api_key_b=key, project_id=project_key(args.project) if args.project else None,
                            judge_api_key=judge_key)
        except KeyboardInterrupt:
            cancel.cancel()
            return 130
    except ValidationError as exc:
        return fail(validation_message(exc))
    except (UserError, AbError, WorkloadError, TaskError) as exc:  # SampleError is a WorkloadError
        return fail(str(exc))
    if args.out:
        write_text_atomic(args.out, to_markdown(result) if args.out.endswith(".md") else result_json(result) + "\n")
        if not args.quiet:
            print(tr("ab.cli.saved", path=args.out), file=sys.stderr)
    if args.json:
        print_json(result)
    elif not args.quiet or not args.out:
        _print(result)
    return 0 if result.status == "completed" else (130 if result.status == "stopped" else 4)


def _drop(points: float) -> float:
    from advisor.cli.common import UserError

    if not 0 < points < 100:
        raise UserError(tr("ab.cli.bad_drop", value=f"{points:g}"))
    return points / 100


def _print(result: Any) -> None:
    for line in result.verdict_lines:
        print(line)
    q = result.quality
    if q is not None and any(it.disagree for it in q.items):
        from advisor.bench.quality.report import quality_markdown

        print()
        print("\n".join(quality_markdown(q)[len(q.verdict_lines) + 3:]))
