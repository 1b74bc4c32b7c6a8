"""`advisor predict`: the concurrency → latency/throughput curve and its knee, simulated in virtual time."""

from __future__ import annotations

import argparse

from advisor.cli.common import nonneg_float, nonneg_int, positive_int
from advisor.cli.sim import add_setup_arguments, build_setup_from_args
from advisor.cli.speculative_args import add_speculative_arguments

MAX_CONCURRENCY = 16384  # requests in flight; far past any single server's max_num_seqs


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("predict", help="predict TTFT/TPOT/throughput per concurrency and find the knee (simulated)")
    add_setup_arguments(p)
    p.add_argument("--prompt-tokens", type=positive_int, default=1024, help="mean prompt length in tokens (default 1024)")
    p.add_argument("--max-tokens", type=positive_int, default=256, help="mean output length in tokens (default 256)")
    p.add_argument("--spread", default="fixed", choices=["fixed", "uniform", "normal", "lognormal", "sharegpt"],
                   help="how lengths vary around the mean (default fixed, like --ignore-eos benchmarks; sharegpt: the "
                   "prompt/answer pairs vllm bench serve samples from ShareGPT, scaled to the means)")
    p.add_argument("--cv", type=nonneg_float, default=0.5, help="spread of lengths: std ÷ mean (normal, lognormal)")
    p.add_argument("--concurrency", default="1,2,4,8,16,32,64,128,256", help="levels, comma-separated")
    p.add_argument("--request-rate", default=None, help="open-loop request rates per second instead, e.g. 1,2,5,10")
    p.add_argument("--start", default="spread", choices=["spread", "burst"],
                   help="spread: users start spread out (steady state, default); burst: all at once, like a "
                   "benchmark step (equal lengths then stay in lock-step)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of the sampled lengths")
    p.add_argument("--engine-profile", default=None, choices=["vllm", "sglang", "trtllm", "llama.cpp"],
                   help="engine whose serving overhead, batch defaults and saturation behaviour to predict "
                   "(resources/engines/profiles.json; default: vLLM's overhead with the settings given)")
    p.add_argument("--prefix-tokens", "--shared-prefix-tokens", dest="prefix_tokens", type=int, default=0,
                   help="leading prompt tokens every request shares (a system prompt), reused by prefix caching")
    add_speculative_arguments(p)  # the same flags as `advisor calc` (advisor/sim/speculative_costs.py)
    p.add_argument("--lang", default=None, choices=["en", "zh_CN"], help="language of the text output")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _numbers(text: str, kind: type, name: str) -> list:
    """Positive, finite, comma-separated levels (``nan``/``inf`` refused: a rate of nan never finishes)."""
    from advisor.cli.common import number_list

    # bounded: each simulated user costs memory and time (100,000 took 37 s and 340 MB); rates are open loop
    return number_list(text, kind, name, high=MAX_CONCURRENCY if kind is int else None)


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
        if args.engine_profile or args.prefix_tokens:
            from advisor.sim.costs import apply_profile

            if not 0 <= args.prefix_tokens <= args.prompt_tokens:
                raise UserError("--prefix-tokens: give a number between 0 and --prompt-tokens")
            # the batch settings given on the command line stay; those left open follow the engine profile
            engine = setup.sizing.request.engine.model_copy(
                update={"max_num_seqs": args.max_num_seqs, "max_num_batched_tokens": args.max_num_batched_tokens}
            )
            setup = apply_profile(setup, args.engine_profile, shared_prefix_tokens=args.prefix_tokens, engine=engine)
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
        warnings = []
        if longest > min(setup.model.max_context, setup.max_model_len):
            # A real server refuses these requests (prompt + max_tokens > max_model_len): say so first.
            warnings.append(tr("predict.warn.longer_than_model", tokens=longest, limit=min(setup.model.max_context, setup.max_model_len), model=setup.model.id))
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
            prediction = predict_curve(setup.costs, setup.limits, workload, conc, start=args.start, tail=True)
            levels, knee, cpu = prediction.levels, prediction.knee, prediction.cpu_seconds
    except UserError as exc:
        return fail(str(exc))

    from advisor.sim.speculative_report import speculative_json, speculative_lines
    from advisor.sizing.accuracy import (
        accuracy_sentence,
        architecture_group,
        likely_for_level,
        likely_sentence,
        load_of,
        predictor_accuracy,
        speculative_basis_note,
    )

    acc = predictor_accuracy()
    decoding_context = args.prompt_tokens + args.max_tokens / 2  # what a decoding sequence holds on average

    def likely(lv):
        return likely_for_level(acc, knee, lv, architecture_group(setup.model))

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
            "engine_profile": setup.profile.id if setup.profile else None,
            "request_overhead_ms": setup.limits.request_overhead_s * 1000,
            "prefix_tokens": args.prefix_tokens,
            "warnings": warnings,
            "engine": {
                "kv_blocks": setup.limits.kv_blocks, "block_size": setup.limits.block_size,
                "kv_tokens": setup.limits.kv_tokens, "max_num_seqs": setup.limits.max_num_seqs,
                "max_num_batched_tokens": setup.limits.max_num_batched_tokens, "max_model_len": setup.max_model_len,
            },
            "levels": [{**lv.model_dump(mode="json"), "likely": (lk.model_dump(mode="json") if (lk := likely(lv)) else None)}
                       for lv in levels],
            "knee": knee.model_dump(mode="json"),
            "cpu_seconds": cpu,
            "accuracy": acc.model_dump(mode="json") if acc else None,
            # speculative decoding (--speculative): the tokens a simulated step yielded and whose acceptance, or None
            "speculative": speculative_json(setup, levels, decoding_context),
            # the basis of `likely` and `accuracy` under speculative decoding (None without it)
            "likely_speculative_note": speculative_basis_note(setup.sizing.request.speculative, simulated=True) or None,
        })  # fmt: skip
        return 0
    import sys

    for w in warnings:
        print(w, file=sys.stderr)
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
    if knee.confirmed is False:  # the one knee rule: no level after the one that showed it (issue #27)
        print(tr("predict.knee.unconfirmed", level=knee.evidence.get("next_concurrency") or
                 knee.evidence.get("next_request_rate")))
    # the range a newcomer can plan with, at the knee (or the last level below it) and at the highest load asked
    below = [lv for lv in levels if (lk := likely(lv)) and lk.regime == "below_knee"]
    for lv in [*below[-1:], *([levels[-1]] if levels[-1] not in below[-1:] else [])]:
        if line := likely_sentence(likely(lv), concurrency=lv.concurrency, rate=lv.request_rate):
            print(line)
    if note := speculative_basis_note(setup.sizing.request.speculative, simulated=True):
        print(note)  # the ranges above scale a speculative curve by error figures measured without speculation
    for line in speculative_lines(setup, levels, decoding_context):
        print(line)
    print(tr("predict.simulated_note", cpu_ms=cpu * 1000))
    if setup.profile is not None:
        print(tr("predict.profile_note", label=setup.profile.label, overhead=setup.limits.request_overhead_s * 1000))
    engine = setup.profile.id if setup.profile else None
    # the figure for the load asked about first: a request rate, or concurrency levels that all fall in one band
    bands = {load_of(lv.concurrency) for lv in levels if lv.concurrency is not None}
    load = load_of(request_rate=True) if args.request_rate else (bands.pop() if len(bands) == 1 else None)
    if sentence := accuracy_sentence(acc, engine=engine, gpu=setup.gpu, load=load):
        print(sentence)
    return 0


def _f(v: float | None) -> str:
    return "—" if v is None else f"{v:.1f}"
