"""`advisor sim`: serve a simulated OpenAI-compatible server (behaves like vLLM on the chosen GPU)."""

from __future__ import annotations

import argparse
from pathlib import Path

MAX_TIME_SCALE = 1000.0  # a thousand times slower than real: one decode step then takes tens of seconds


def add_setup_arguments(p: argparse.ArgumentParser) -> None:
    """Model/GPU/engine arguments shared by `advisor sim` and `advisor predict`."""
    from advisor.cli.common import engine_version, fraction, positive_int

    p.add_argument("--model", required=True, help="preset id (see `advisor models`) or a path to a config.json")
    p.add_argument("--gpu", required=True, help="GPU id (see `advisor gpus`)")
    p.add_argument("--weights", default=None, help="weight format: bf16, fp8, int8, gptq-int4, awq-int4, gguf-q4_k_m, … "
                   "(default: the checkpoint's own quantization, else bf16)")
    p.add_argument("--gpus", type=positive_int, default=1, help="GPUs in tensor parallel (default 1)")
    p.add_argument("--kv-dtype", default="bf16", choices=["bf16", "fp16", "fp8"], help="KV cache dtype")
    p.add_argument("--context", type=positive_int, default=None, help="max_model_len (default: the model's own limit)")
    p.add_argument("--gpu-memory-utilization", type=fraction, default=0.9, help="engine setting (vLLM default 0.9)")
    p.add_argument("--max-num-seqs", type=positive_int, default=None,
                   help="engine setting (most requests batched; default: the engine's own on this GPU — vLLM 256, 1024 on >= 70 GiB non-A100 GPUs)")
    p.add_argument("--max-num-batched-tokens", type=positive_int, default=None,
                   help="engine setting (tokens per step; default: the engine's own on this GPU — vLLM 2048, 8192 on >= 70 GiB non-A100 GPUs)")
    p.add_argument("--engine-version", type=engine_version, default=None,
                   help="engine version to model, e.g. 0.11.0 (default: the current one). It picks the nearest version whose fused-MoE kernel NVIDIA measured, and for vLLM before 0.14 puts the scheduler between GPU steps")


def build_setup_from_args(args: argparse.Namespace):
    """SimSetup from the parsed arguments; raises UserError with one clear line on bad input."""
    from pydantic import ValidationError

    from advisor.catalog import CatalogError, ModelImportError, get_gpu, resolve_model
    from advisor.cli.common import UserError, validation_message
    from advisor.cli.speculative_args import speculative_from_args
    from advisor.domain.sizing import EngineSettings, SpeedFactors
    from advisor.sim.costs import SimSetupError, build_setup
    from advisor.sizing.quant import UnknownFormatError

    try:
        model = resolve_model(args.model)
        gpu = get_gpu(args.gpu)
        engine = EngineSettings(
            gpu_memory_utilization=args.gpu_memory_utilization,
            max_num_seqs=args.max_num_seqs,
            max_num_batched_tokens=args.max_num_batched_tokens,
        )
        # `advisor predict` has speculative decoding's flags (advisor/cli/speculative_args.py); `advisor sim` not
        speculative = speculative_from_args(args) if hasattr(args, "speculative") else None
        return build_setup(
            model, gpu, model.weights_or_native(args.weights), gpus=args.gpus, kv_dtype=args.kv_dtype,
            context=args.context, engine=engine,
            factors=SpeedFactors(engine_version=args.engine_version) if getattr(args, "engine_version", None) else None,
            speculative=speculative,
        )  # fmt: skip
    except ValidationError as exc:
        raise UserError(validation_message(exc)) from None
    except (CatalogError, ModelImportError, UnknownFormatError, SimSetupError, ValueError) as exc:
        raise UserError(str(exc)) from None


def register(sub: argparse._SubParsersAction) -> None:
    from advisor.cli.common import nonneg_int, positive_float

    p = sub.add_parser(
        "sim", help="serve a simulated OpenAI-compatible server on 127.0.0.1 (timing of the chosen model and GPU)"
    )
    add_setup_arguments(p)
    p.add_argument("--port", type=nonneg_int, default=8000, help="port on 127.0.0.1 (0 = pick a free one; default 8000)")
    p.add_argument("--time-scale", type=positive_float, default=1.0,
                   help="multiply every simulated duration by this (1 = real speed, 0.1 = ten times faster)")
    p.add_argument("--faults", default=None, help='random faults per request, e.g. "429:0.05,reset:0.02,stall=3:0.01" '
                   "(see docs/simulator.md)")
    p.add_argument("--seed", type=nonneg_int, default=0, help="seed of generated text and random faults")
    p.add_argument("--text-lang", default="en", choices=["en", "zh"], help="language of generated text "
                   "(a Chinese prompt always gets Chinese)")
    p.add_argument("--api-key", default=None, help="require this bearer token (401 otherwise)")
    p.add_argument("--answer-error-rate", type=float, default=None, metavar="SHARE",
                   help="share (0-1) of the built-in scored samples answered wrong (default: by weight format, "
                   "bf16 0.02, fp8 0.03, int8 0.04, int4 0.08; see docs/simulator.md)")
    p.add_argument("--ground-truth", type=Path, default=None, metavar="FILE",
                   help="append one JSON line per finished request: monotonic send time of every chunk")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from advisor.cli.common import UserError, fail
    from advisor.i18n import set_language, system_language, tr
    from advisor.sim.faults import FaultRates, FaultSpecError
    from advisor.sim.server import SimServer, SimServerConfig

    set_language(system_language())
    try:
        setup = build_setup_from_args(args)
        if not 0 <= args.port <= 65535:
            raise UserError(f"--port must be between 0 and 65535 (got {args.port})")
        if not 0 < args.time_scale <= MAX_TIME_SCALE:
            raise UserError(tr("inputs.sim.time_scale", most=f"{MAX_TIME_SCALE:g}"))
        if args.answer_error_rate is not None and not 0 <= args.answer_error_rate <= 1:
            raise UserError(tr("sim.error.answer_error_rate", value=f"{args.answer_error_rate:g}"))
        try:
            faults = FaultRates.parse(args.faults, seed=args.seed) if args.faults else None
        except FaultSpecError as exc:
            raise UserError(tr("sim.error.bad_faults", detail=str(exc))) from None
        config = SimServerConfig.from_setup(
            setup, time_scale=args.time_scale, faults=faults, seed=args.seed, language=args.text_lang,
            api_key=args.api_key, ground_truth_path=args.ground_truth, port=args.port,
            answer_error_rate=args.answer_error_rate,
        )  # fmt: skip
        server = SimServer(config)
        try:
            server._bind()
        except OSError as exc:
            raise UserError(f"cannot listen on 127.0.0.1:{args.port}: {exc.strerror or exc}") from None
    except UserError as exc:
        return fail(str(exc))

    def ready(s: SimServer) -> None:
        # The one line on stdout, as the contract says (the rest goes to stderr).
        print(f"listening on {s.base_url}", flush=True)

    asyncio.run(server.serve(on_ready=ready))
    return 0
