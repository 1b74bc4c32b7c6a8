"""`advisor predict`: the concurrency → latency/throughput curve and its knee, simulated in virtual time."""

from __future__ import annotations

import argparse

from advisor.cli.sim import add_setup_arguments, build_setup_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("predict", help="predict TTFT/TPOT/throughput per concurrency and find the knee (simulated)")
    add_setup_arguments(p)
    p.add_argument("--prompt-tokens", type=int, default=1024, help="mean prompt length in tokens (default 1024)")
    p.add_argument("--max-tokens", type=int, default=256, help="mean output length in tokens (default 256)")
    p.add_argument("--spread", default="fixed", choices=["fixed", "uniform", "normal", "lognormal"],
                   help="how lengths vary around the mean (default fixed, like --ignore-eos benchmarks)")
    p.add_argument("--cv", type=float, default=0.5, help="spread of lengths: std ÷ mean (normal, lognormal)")
    p.add_argument("--concurrency", default="1,2,4,8,16,32,64,128,256", help="levels, comma-separated")
    p.add_argument("--request-rate", default=None, help="open-loop request rates per second instead, e.g. 1,2,5,10")
    p.add_argument("--start", default="spread", choices=["spread", "burst"],
                   help="spread: users start spread out (steady state, default); burst: all at once, like a "
                   "benchmark step (equal lengths then stay in lock-step)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled lengths")
    p.add_argument("--lang", default=None, choices=["en", "zh_CN"], help="language of the text output")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _numbers(text: str, kind: type, name: str) -> list:
    from advisor.cli.common import UserError

    try:
        values = [kind(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise UserError(f"{name}: expected comma-separated numbers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise UserError(f"{name}: give one or more positive numbers, e.g. 1,2,4,8")
    if len(values) > 64:
        raise UserError(f"{name}: at most 64 levels")
    return values


def run(args: argparse.Namespace) -> int:
    import time

    from pydantic import ValidationError

    from advisor.cli.common import UserError, fail, print_json, validation_message
    from advisor.domain.sim import LengthDistribution, SimWorkload
    from advisor.i18n import set_language, system_language, tr
    from advisor.sim.predict import find_knee, predict_curve, predict_rates

    set_language(args.lang or system_language())
    try:
        setup = build_setup_from_args(args)
        try:
            workload = SimWorkload(
                prompt=LengthDistribution(kind=args.spread, mean=args.prompt_tokens, cv=args.cv,
                                          max=args.prompt_tokens if args.spread == "fixed" else None),
                output=LengthDistribution(kind=args.spread, mean=args.max_tokens, cv=args.cv,
                                          max=args.max_tokens if args.spread == "fixed" else None),
                seed=args.seed,
            )  # fmt: skip
        except ValidationError as exc:
            raise UserError(validation_message(exc)) from None
        longest = workload.prompt.upper + workload.output.upper
        if longest > setup.limits.kv_tokens:
            raise UserError(
                f"a request of up to {longest} tokens does not fit in the whole KV cache ({setup.limits.kv_tokens} tokens); "
                "shorten --prompt-tokens/--max-tokens or add GPUs"
            )
        if args.request_rate:
            rates = _numbers(args.request_rate, float, "--request-rate")
            started = time.process_time()
            levels = predict_rates(setup.costs, setup.limits, workload, rates)
            knee = find_knee(levels, setup.limits)
            cpu = time.process_time() - started
        else:
            conc = _numbers(args.concurrency, int, "--concurrency")
            prediction = predict_curve(setup.costs, setup.limits, workload, conc, start=args.start)
            levels, knee, cpu = prediction.levels, prediction.knee, prediction.cpu_seconds
    except UserError as exc:
        return fail(str(exc))

    if args.json:
        print_json({
            "simulated": True,
            "model": setup.model.id,
            "gpu": setup.gpu.id,
            "gpus": setup.gpus,
            "weights": setup.weights,
            "kv_dtype": setup.kv_dtype,
            "prompt_tokens": args.prompt_tokens,
            "max_tokens": args.max_tokens,
            "start": args.start,
            "engine": {
                "kv_blocks": setup.limits.kv_blocks, "block_size": setup.limits.block_size,
                "kv_tokens": setup.limits.kv_tokens, "max_num_seqs": setup.limits.max_num_seqs,
                "max_num_batched_tokens": setup.limits.max_num_batched_tokens, "max_model_len": setup.max_model_len,
            },
            "levels": [lv.model_dump(mode="json") for lv in levels],
            "knee": knee.model_dump(mode="json"),
            "cpu_seconds": cpu,
        })  # fmt: skip
        return 0
    print(tr("predict.table.header"))
    for lv in levels:
        label = str(lv.concurrency) if lv.concurrency is not None else f"{lv.request_rate:g}/s"
        print(
            f"{label:>11}  {_f(lv.ttft_ms.p50):>11}  {_f(lv.tpot_ms.p50):>11}  {_f(lv.itl_ms.p99):>10}  "
            f"{_f(lv.e2e_ms.p50):>10}  {lv.output_tokens_per_s:>12.0f}  {lv.requests_per_s:>5.2f}  "
            f"{lv.kv_usage['max']:>6.0%}  {lv.queue['mean']:>5.1f}"
        )
    if knee.request_rate is not None:
        print(tr("predict.knee_rate", rate=f"{knee.request_rate:g}", reason=knee.reason))
    else:
        print(tr(f"predict.knee.{knee.reason}", concurrency=knee.concurrency))
    print(tr("predict.simulated_note", cpu_ms=cpu * 1000))
    return 0


def _f(v: float | None) -> str:
    return "—" if v is None else f"{v:.1f}"
