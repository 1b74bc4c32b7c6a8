"""`advisor calc`: memory, capacity and speed of a model on a GPU (table by default, --json for machines)."""

from __future__ import annotations

import argparse

from pydantic import ValidationError

from advisor.cli.common import (
    UserError,
    engine_version,
    fail,
    finite_float,
    fraction,
    nonneg_int,
    positive_int,
    print_json,
    validation_message,
)
from advisor.cli.speculative_args import add_speculative_arguments, speculative_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calc", help="size a model on a GPU: memory, max concurrency, TTFT and tokens/s")
    p.add_argument("--model", required=True, help="preset id (see `advisor models`) or a path to a config.json")
    p.add_argument("--weights", default=None, help="weight format: bf16, fp16, fp8, int8, gptq-int4, awq-int4, gguf-q4_k_m, … "
                   "(default: the checkpoint's own quantization, else bf16)")
    p.add_argument("--kv-dtype", default="bf16", choices=["bf16", "fp16", "fp8"], help="KV cache dtype")
    p.add_argument("--context", type=positive_int, default=8192, help="tokens per request, prompt + output (default 8192)")
    p.add_argument("--concurrency", type=positive_int, default=1, help="requests in flight at once (default 1)")
    p.add_argument("--gpu", default="h100-sxm-80g", help="GPU id (see `advisor gpus`)")
    p.add_argument("--gpus", type=positive_int, default=1, help="GPUs in tensor parallel; byte figures are then per GPU")
    p.add_argument("--prompt-tokens", type=positive_int, default=None, help="prompt length for TTFT (default: context − output)")
    p.add_argument("--output-tokens", type=positive_int, default=None, help="output length (default: min(512, context/4))")
    p.add_argument("--gpu-memory-utilization", type=fraction, default=0.9, help="engine setting (vLLM default 0.9)")
    p.add_argument("--mem-fraction-static", type=fraction, default=None,
                   help="SGLang setting: share of the memory free before loading that weights + KV pool take (default: "
                   "SGLang's own for the GPU, TP degree and --engine-version)")
    # the range is checked by EngineSettings, whose message says what the ratio is and SGLang's default
    p.add_argument("--swa-full-tokens-ratio", type=finite_float, default=None,
                   help="SGLang setting for sliding-window models it gives a window pool (gpt-oss, Llama 4, Gemma 4, "
                   "MiMo-V2-Flash, Step-3.5): tokens each sliding-window layer keeps per full-attention layer token, "
                   "in (0, 1] (default: SGLang's 0.8)")
    p.add_argument("--mamba-full-memory-ratio", type=finite_float, default=None,
                   help="SGLang setting for linear-attention models (Qwen3-Next, Qwen3.5): bytes of request states per "
                   "byte of full-attention KV, above 0 (default: SGLang's 0.9)")
    p.add_argument("--max-num-batched-tokens", type=positive_int, default=None,
                   help="engine setting (tokens per step; default: the engine's own on this GPU — vLLM 2048, 8192 on >= 70 GiB non-A100 GPUs)")
    p.add_argument("--max-num-seqs", type=positive_int, default=None,
                   help="engine setting (most requests batched; default: the engine's own on this GPU — vLLM 256, 1024 on >= 70 GiB non-A100 GPUs)")
    p.add_argument("--block-size", type=positive_int, default=16, help="engine setting (tokens per KV block)")
    p.add_argument("--mamba-cache-mode", default="none", choices=["none", "align"],
                   help="vLLM setting for linear-attention models (Qwen3.5, Qwen3-Next): 'align', what --enable-prefix-caching "
                   "selects for them, holds two state pages per request instead of one (default none: prefix caching off)")
    p.add_argument("--engine-profile", default="vllm", choices=["vllm", "sglang", "trtllm", "llama.cpp"],
                   help="serving engine whose per-request overhead and batching the estimate follows (default vllm; GGUF: llama.cpp)")
    p.add_argument("--engine-version", type=engine_version, default=None,
                   help="engine version to model, e.g. 0.11.0 (default: the current one). It picks the nearest version whose fused-MoE kernel NVIDIA measured, and for vLLM before 0.14 puts the scheduler between GPU steps")
    p.add_argument("--shared-prefix-tokens", "--prefix-tokens", dest="shared_prefix_tokens", type=nonneg_int, default=0,
                   help="leading prompt tokens every request shares (a system prompt): with prefix caching their whole "
                   "KV blocks are stored once and not prefilled again (same as `advisor predict --prefix-tokens`)")
    add_speculative_arguments(p)  # the same flags as `advisor predict`
    p.add_argument("--mfu", type=fraction, default=None, help="share of the dense peak the matmuls reach (default: the GPU's measured GEMM rate for the linear "
                   "layers, 0.5 for attention; a value given here applies to both)")
    p.add_argument("--mbu", type=fraction, default=None, help="share of the memory bandwidth reads reach (default: the GPU's measured "
                   "decode GEMM share for the dense weights, 0.75 for the KV cache and routed experts; a value given here applies to all)")
    p.add_argument("--lang", default=None, choices=["en", "zh_CN"], help="language of the advice (default: system)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _dump(r) -> dict | None:
    return r.model_dump(mode="json") if r is not None else None


def _preset_json(head_id: str) -> dict | None:
    from advisor.sizing.speculative_heads import head_preset

    p = head_preset(head_id)
    if p is None:
        return None
    return {"source": p.source, "commit": p.commit, "released": list(p.released), "checkpoint_bytes": p.checkpoint_bytes}


def flat_json(result) -> dict:
    """The contract keys of ARCHITECTURE.md at the top level, and everything else below them."""
    from advisor.sizing.speculative_text import speculative_speed_text

    m, perf = result.memory, result.perf
    spec = result.request.speculative
    return {
        "model": result.request.model.id,
        "gpu": result.request.gpu.id,
        "gpus": result.request.gpus,
        "weights": result.weight_format,
        "kv_dtype": result.request.kv_dtype,
        "context": result.request.context,
        "concurrency": result.request.concurrency,
        "params_total": m.params_total,
        "params_active": m.params_active,
        "params_checkpoint": m.params_checkpoint,
        "weights_bytes": m.weights_bytes,
        "kv_bytes_per_token": m.kv_bytes_per_token,
        "kv_cache_bytes": m.kv_cache_bytes,
        "overhead_bytes": m.overhead_bytes,
        "held_back_bytes": m.held_back_bytes,
        "total_bytes": m.total_bytes,
        "fits": result.verdict == "fits",  # memory fits AND the engine accepts the setup (memory.fits: memory only)
        "verdict": result.verdict,
        "engine_refusal": result.engine_refusal,
        "max_concurrency": m.max_concurrency,
        "max_context": m.max_context,
        "kv_tokens": m.kv_tokens,
        "kv_blocks": m.kv_blocks,
        "shared_prefix_tokens": m.shared_prefix_tokens,
        "shared_prefix_blocks": m.shared_prefix_blocks,
        "kv_bytes_per_request": m.kv_bytes_per_request,
        "kv_bytes_shared_prefix": m.kv_bytes_shared_prefix,
        "cached_prompt_tokens": perf.cached_prompt_tokens,
        "shared_prefix_note": result.shared_prefix_note,
        "engine_switch": result.engine_switch,  # a GGUF format runs on llama.cpp whatever engine was asked for
        "kv_pool_note": result.kv_pool_note,  # SGLang: the share of the free memory its KV pool comes from
        # speculative decoding with a draft model (vLLM, s24-models24): in weights/KV figures above, each said here
        "speculative_method": spec.method if spec else None,
        "draft_model": spec.draft_model.id if spec and spec.draft_model else None,  # the draft, or the EAGLE head
        # an EAGLE-3 head preset: where its shape is from, the heads released in it, the checkpoint's bytes (None: unknown)
        "draft_preset": _preset_json(spec.draft_model.id) if spec and spec.draft_model else None,
        "draft_weights_bytes": m.draft_weights_bytes,
        "draft_kv_bytes_per_token": m.draft_kv_bytes_per_token,
        "speculative_lookahead_tokens": m.speculative_lookahead_tokens,
        # decode speed with speculation (s26-spec28): a range only where acceptance for the pair is published
        "speculative_tpot_ms": _dump(perf.speculative.tpot_ms) if perf.speculative else None,
        "speculative_tokens_per_s": _dump(perf.speculative.tokens_per_s) if perf.speculative else None,
        "speculative_speedup": _dump(perf.speculative.at_concurrency.speedup) if perf.speculative else None,
        "speculative_break_even_tokens_per_step": perf.speculative.at_concurrency.break_even_tokens_per_step if perf.speculative else None,
        "speculative_regime": perf.speculative.regime if perf.speculative else None,
        "speculative_helps_up_to": perf.speculative.helps_up_to if perf.speculative else None,
        "speculative_no_gain_from": perf.speculative.no_gain_from if perf.speculative else None,
        "speculative_speed_text": speculative_speed_text(result),
        "min_gpus": result.min_gpus,
        "prefill_ms": perf.prefill_ms.value,
        "decode_tokens_per_s": perf.decode_tokens_per_s.value,
        "decode_tokens_per_s_total": perf.decode_tokens_per_s_total.value,
        "advice": [a.model_dump() for a in result.advice],
        "vllm_command": result.vllm_command,
        "llama_cpp_command": result.llama_cpp_command,
        "sglang_command": result.sglang_command,
        "memory": m.model_dump(mode="json"),
        "perf": perf.model_dump(mode="json"),
        "engine": result.engine.model_dump(mode="json"),  # the settings used, the engine's own defaults filled in
    }


def run(args: argparse.Namespace) -> int:
    from advisor.catalog import CatalogError, ModelImportError, get_gpu, resolve_model
    from advisor.domain.sizing import EngineSettings, SizingRequest, SpeedFactors
    from advisor.i18n import current_language, set_language, system_language
    from advisor.sizing import size
    from advisor.sizing.quant import UnknownFormatError

    set_language(args.lang or system_language())
    try:
        model = resolve_model(args.model)
        gpu = get_gpu(args.gpu)
        speculative = speculative_from_args(args)
        factors = {k: v for k, v in (("mfu", args.mfu), ("mbu", args.mbu), ("engine_version", args.engine_version)) if v is not None}
        req = SizingRequest(
            model=model,
            gpu=gpu,
            weights=model.weights_or_native(args.weights),
            kv_dtype=args.kv_dtype,
            context=args.context,
            concurrency=args.concurrency,
            gpus=args.gpus,
            prompt_tokens=args.prompt_tokens,
            output_tokens=args.output_tokens,
            engine=EngineSettings(
                gpu_memory_utilization=args.gpu_memory_utilization,
                max_num_batched_tokens=args.max_num_batched_tokens,
                max_num_seqs=args.max_num_seqs,
                block_size=args.block_size,
                mamba_cache_mode=args.mamba_cache_mode,
                mem_fraction_static=args.mem_fraction_static,
                swa_full_tokens_ratio=args.swa_full_tokens_ratio,
                mamba_full_memory_ratio=args.mamba_full_memory_ratio,
            ),
            factors=SpeedFactors(**factors),
            engine_profile=args.engine_profile,
            shared_prefix_tokens=args.shared_prefix_tokens,
            speculative=speculative,
        )
        result = size(req, current_language())
    except ValidationError as exc:
        return fail(validation_message(exc))
    except (CatalogError, ModelImportError, UnknownFormatError, UserError) as exc:
        return fail(str(exc))
    from advisor.sizing_curve import likely_json

    likely = likely_json(req)  # the regime's likely range at this load, on the predicted curve (issue #28)
    if args.json:
        from advisor.sizing.accuracy import speculative_basis_note

        # the basis of `likely` under speculative decoding: the curve without it (None without speculation)
        note = speculative_basis_note(req.speculative, simulated=False) if likely.get("likely") else ""
        print_json(flat_json(result) | likely | {"likely_speculative_note": note or None})
    else:
        from advisor.cli.calc_table import render

        print(render(result, likely))
    return 0
