"""Answers in words: does it fit, why not, and what would make it fit — with the engine's own flags."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Sequence
from functools import cache

from advisor.domain.engine_profiles import get_profile
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import Advice, MemoryEstimate, SizingRequest
from advisor.i18n import translate
from advisor.resources import resource_path
from advisor.sizing.memory import weight_bytes
from advisor.sizing.parallel import tp_accepted, tp_refusal
from advisor.sizing.quant import WeightFormat
from advisor.sizing.sglang_share_warning import sglang_share_warning
from advisor.units import format_bytes, format_context

# Formats tried, smallest step first, when the weights do not fit.
FALLBACK_FORMATS = ("fp8", "awq-int4", "gguf-q4_k_m")


# Formats vLLM can produce on the fly from a 16-bit checkpoint (dynamic FP8); every other quantized format needs
# a checkpoint quantized ahead of time (AWQ/GPTQ calibration, W8A8 scales, DeepSeek-style block scales).
ON_THE_FLY = ("bf16", "fp16", "fp8")
# --speculative-config's "method" for each sized method: vLLM reads DeepSeek's MTP layers as "deepseek_mtp"
# (SpeculativeConfig maps it to its "mtp" family), the others by their own names
SPEC_CONFIG_METHOD = {"draft_model": "draft_model", "eagle": "eagle", "eagle3": "eagle3", "mtp": "deepseek_mtp",
                      "ngram": "ngram"}  # fmt: skip


@cache
def _known_checkpoints() -> dict[str, dict[str, str]]:
    raw = json.loads(resource_path("models", "quantized", "checkpoints.json").read_text(encoding="utf-8"))
    return {k: v for k, v in raw.items() if not k.startswith("_")}


def known_checkpoints() -> dict[str, dict[str, str]]:
    """Published quantized checkpoints by preset id and weight format (resources/models/quantized/checkpoints.json)."""
    return _known_checkpoints()


def quantized_checkpoint(model_id: str, fmt: WeightFormat) -> str | None:
    """A published checkpoint of this preset in this format, when one is known. A GGUF repository listed under the
    format's own id (gpt-oss: "gguf-mxfp4_moe") holds that format only; one listed as "gguf" holds the usual set."""
    known = _known_checkpoints().get(model_id, {})
    if fmt.engine == "llama.cpp":  # the usual set (Q2_K-Q8_0) has no MXFP4_MOE file: only a repo listed for it has one
        return known.get(fmt.id) or (known.get("gguf") if fmt.id != "gguf-mxfp4_moe" else None)
    return known.get(fmt.id)


def needs_checkpoint(req: SizingRequest, fmt: WeightFormat) -> bool:
    """True when serving this format needs a checkpoint quantized ahead of time that the model's own is not."""
    return fmt.engine == "vllm" and fmt.id not in ON_THE_FLY and req.model.checkpoint_quant != fmt.id


def _repo(req: SizingRequest) -> str:
    # An imported config.json has no repository: point at its folder, never at a bare folder name.
    return req.model.hf_repo or f"<path/to/{req.model.id}>"


def _serve_checkpoint(req: SizingRequest, fmt: WeightFormat) -> tuple[str, str | None]:
    """What a vLLM or SGLang serve command loads, and the ``--quantization`` it adds (the same name in both): a
    published quantized checkpoint of this format when one is known (it declares its quantization; the engine
    picks the kernel, e.g. awq_marlin), a placeholder for one the user must make, or the model itself, quantized
    as it loads where the format allows (dynamic FP8 from the 16-bit checkpoint)."""
    repo = _repo(req)
    own = req.model.checkpoint_quant == fmt.id
    quantized = None if own else quantized_checkpoint(req.model.id, fmt)
    if quantized:
        return quantized, None
    on_load = fmt.vllm_flag if fmt.vllm_flag and not own and fmt.id in ON_THE_FLY else None
    if needs_checkpoint(req, fmt):
        return f"<{fmt.label} checkpoint of {repo}>", on_load
    return repo, on_load


def vllm_command(req: SizingRequest, fmt: WeightFormat, tp: int, context: int, max_seqs: int | None) -> str | None:
    """The `vllm serve` line; ``max_seqs`` None leaves --max-num-seqs at the engine's default."""
    if fmt.engine != "vllm":
        return None
    repo, on_load = _serve_checkpoint(req, fmt)
    parts = [f"vllm serve {repo}"]
    if tp > 1:
        parts.append(f"--tensor-parallel-size {tp}")
    parts.append(f"--max-model-len {context}")
    parts.append(f"--gpu-memory-utilization {req.engine.gpu_memory_utilization:g}")
    if max_seqs is not None:
        parts.append(f"--max-num-seqs {max(1, max_seqs)}")
    tokens = req.engine.max_num_batched_tokens
    if tokens is not None and tokens != get_profile("vllm").batch_defaults(req.gpu)[1]:  # only what differs from vLLM's own
        parts.append(f"--max-num-batched-tokens {tokens}")
    if req.kv_dtype == "fp8":
        parts.append("--kv-cache-dtype fp8")
    if req.engine.mamba_cache_mode == "align" and req.model.num_linear_layers:
        parts.append("--enable-prefix-caching")  # what makes vLLM hold its hybrid states in 'align' mode, as sized
    if on_load:
        parts.append(f"--quantization {on_load}")
    if req.speculative is not None:  # the draft the memory was sized with (advisor/sizing/speculative.py)
        spec = req.speculative
        config: dict[str, object] = {"method": SPEC_CONFIG_METHOD[spec.method]}
        if spec.draft_model is not None:  # the draft model or the EAGLE head (MTP's layers are the target's)
            config["model"] = spec.draft_model.hf_repo or spec.draft_model.id
        config["num_speculative_tokens"] = spec.num_speculative_tokens
        parts.append(f"--speculative-config {shlex.quote(json.dumps(config, separators=(',', ':')))}")
    return " ".join(parts)


def sglang_command(req: SizingRequest, fmt: WeightFormat, tp: int, context: int, max_running: int, mem_fraction_static: float,
                   pool_flags: Sequence[str] = ()) -> str:  # fmt: skip
    """The `python -m sglang.launch_server` line with SGLang's own flags (python/sglang/srt/server_args.py:
    --model-path, --tp, --context-length, --mem-fraction-static, --max-running-requests, --kv-cache-dtype,
    --quantization), ``mem_fraction_static`` the share the sizing used (the user's or SGLang's default);
    ``pool_flags`` the hybrid pools' ratios the sizing used where they are not SGLang's defaults
    (advisor/sizing/sglang_hybrid.py ratio_flags)."""
    repo, on_load = _serve_checkpoint(req, fmt)
    parts = [f"python -m sglang.launch_server --model-path {repo}"]
    if tp > 1:
        parts.append(f"--tp {tp}")
    parts.append(f"--context-length {context}")
    parts.append(f"--mem-fraction-static {mem_fraction_static:g}")
    parts.append(f"--max-running-requests {max(1, max_running)}")
    parts.extend(pool_flags)
    if req.kv_dtype == "fp8":
        parts.append("--kv-cache-dtype fp8_e4m3")
    if on_load:
        parts.append(f"--quantization {on_load}")
    return " ".join(parts)


def llama_cpp_command(req: SizingRequest, fmt: WeightFormat, gpus: int, context: int, parallel: int) -> str | None:
    if fmt.engine != "llama.cpp":
        return None
    parallel = max(1, parallel)
    name = (req.model.hf_repo or req.model.id).split("/")[-1]
    gguf_repo = quantized_checkpoint(req.model.id, fmt)
    tag = fmt.gguf_file_tag or fmt.gguf_ftype
    if gguf_repo and _known_checkpoints().get(req.model.id, {}).get(fmt.id) == gguf_repo:
        model = f"-hf {gguf_repo}"  # a repository of this one format: its model card's own command, no tag to match
    elif gguf_repo:
        model = f"-hf {gguf_repo}:{tag}"
    else:
        model = f"-m {name}-{tag}.gguf"
    parts = [f"llama-server {model}", "-ngl 99", f"-c {context * parallel}", f"-np {parallel}"]
    if req.kv_dtype == "fp8":
        parts.append("-fa on -ctk q8_0 -ctv q8_0")  # llama.cpp's 8-bit KV cache needs flash attention
    if gpus > 1:
        parts.append(f"--split-mode layer --tensor-split {','.join(['1'] * gpus)}")
    return " ".join(parts)


def largest_tp(req: SizingRequest) -> int:
    """The largest tensor-parallel degree one node of this GPU allows that the engine accepts for the model."""
    best = 1
    for tp in (2, 4, 8, 16):
        if tp <= req.gpu.max_gpus_per_node and tp_accepted(req.model, tp, _draft(req)):
            best = tp
    return best


def accepted_tp_below(req: SizingRequest, limit: int) -> int:
    """The largest tensor-parallel degree ≤ ``limit`` the engine accepts for the model (1 always works)."""
    return max(tp for tp in range(1, max(1, limit) + 1) if tp_accepted(req.model, tp, _draft(req)))


def _draft(req: SizingRequest) -> ModelSpec | None:
    """The speculative-decoding draft model, whose heads vLLM splits at the target's TP degree too."""
    return req.speculative.draft_model if req.speculative else None


# The smallest prefill chunk suggested: vLLM's own default on GPUs under 70 GiB, so prompts still prefill at full speed.
LEAN_BATCHED_TOKENS = 2048


def _lean_batch(req: SizingRequest, fmt: WeightFormat, what_if: Callable[[dict], MemoryEstimate]) -> tuple[int, int, MemoryEstimate] | None:
    """Batch settings no larger than the load asked for, when they let it fit: the engine's start-up profile reserves
    the peak of a ``max_num_batched_tokens`` step or of sampling ``max_num_seqs`` rows of logits (advisor/sizing/
    vllm_profile.py) before it hands the rest to the KV cache, so defaults sized for 1,024 users can crowd out one long
    context. ``(max_num_seqs, max_num_batched_tokens, memory then)``, or None when that changes nothing or is not enough."""
    if fmt.engine != "vllm" or req.engine.max_num_seqs is None or req.engine.max_num_batched_tokens is None:
        return None
    seqs = min(req.engine.max_num_seqs, max(1, req.concurrency))
    tokens = min(req.engine.max_num_batched_tokens, LEAN_BATCHED_TOKENS)
    if (seqs, tokens) == (req.engine.max_num_seqs, req.engine.max_num_batched_tokens):
        return None
    alt = what_if({"engine": req.engine.model_copy(update={"max_num_seqs": seqs, "max_num_batched_tokens": tokens})})
    return (seqs, tokens, alt) if alt.fits else None


def build_advice(
    req: SizingRequest,
    fmt: WeightFormat,
    mem: MemoryEstimate,
    min_gpus: int | None,
    what_if: Callable[[dict], MemoryEstimate],
    lang: str,
) -> list[Advice]:
    def t(key: str, **kw: object) -> str:
        return translate(lang, key, **kw)

    out: list[Advice] = []
    ctx = format_context(req.context)
    # What the engine refuses comes first, whatever the memory says: the headline is the first
    # fits/does_not_fit sentence, and a setup the engine will not start must never read "fits".
    refused = False
    if mem.context_exceeds_model:
        refused = True
        limit = req.model.max_context
        cap = min(limit, mem.max_context) if mem.weights_fit and mem.max_context >= 16 else limit
        key = "sizing.advice.context_refused" if cap >= limit else "sizing.advice.context_refused_memory"
        out.append(
            Advice(
                kind="does_not_fit",
                text=t(key, context=ctx, limit=format_context(limit), cap=format_context(cap), n=req.concurrency),
                flags=f"--max-model-len {cap}",
            )
        )
    why = tp_refusal(req.model, req.gpus)
    if why is not None:
        refused = True
        ok = accepted_tp_below(req, req.gpus)
        better = min_gpus if min_gpus is not None else ok
        out.append(
            Advice(
                kind="does_not_fit",
                text=t(
                    f"sizing.advice.tp_refused_{why}", gpus=req.gpus, heads=req.model.num_attention_heads,
                    kv_heads=req.model.num_kv_heads, tp=better,
                ),
                flags=f"--tensor-parallel-size {better}" if better > 1 else None,
            )
        )  # fmt: skip
    if mem.fits and refused:
        out.append(Advice(kind="suggestion", text=t("sizing.advice.memory_only_fits", n=mem.max_concurrency, context=ctx)))
    elif mem.fits:
        key = "sizing.advice.fits_engine_cap" if mem.limited_by == "max_num_seqs" else "sizing.advice.fits"
        if key == "sizing.advice.fits" and mem.max_concurrency == 1:
            key = "sizing.advice.fits_one"  # never "up to 1 concurrent requests"
        out.append(Advice(kind="fits", text=t(key, n=mem.max_concurrency, context=ctx, cap=req.engine.max_num_seqs)))
        if req.concurrency > req.engine.max_num_seqs:
            out.append(Advice(kind="suggestion", text=t("sizing.advice.raise_max_num_seqs", n=req.concurrency), flags=f"--max-num-seqs {req.concurrency}"))
    elif not mem.weights_fit:
        out.append(
            Advice(
                kind="does_not_fit",
                text=t("sizing.advice.weights_too_big", weights=format_bytes(mem.weights_bytes), budget=format_bytes(mem.engine_budget_bytes), gpus=req.gpus),
            )
        )
    else:
        if not mem.context_exceeds_model:  # else the cap leads: the KV an over-long context would need is beside the point
            need = mem.kv_bytes_per_request * req.concurrency + mem.kv_bytes_shared_prefix  # the shared prefix once
            out.append(
                Advice(
                    kind="does_not_fit",
                    text=t("sizing.advice.kv_too_small", n=req.concurrency, context=ctx, need=format_bytes(need), have=format_bytes(max(0, mem.kv_budget_bytes))),
                )
            )
        lean = _lean_batch(req, fmt, what_if)
        if lean is not None:
            seqs, tokens, alt = lean
            out.append(
                Advice(
                    kind="suggestion",
                    text=t(
                        "sizing.advice.lean_batch", seqs=seqs, tokens=f"{tokens:,}", freed=format_bytes(mem.activation_bytes - alt.activation_bytes),
                        n=alt.max_concurrency, context=ctx,
                    ),
                    flags=f"--max-num-seqs {seqs} --max-num-batched-tokens {tokens}",
                )
            )  # fmt: skip
        if mem.max_concurrency > 0:
            out.append(Advice(kind="suggestion", text=t("sizing.advice.lower_concurrency", n=mem.max_concurrency, context=ctx), flags=f"--max-num-seqs {mem.max_concurrency}"))
        if mem.max_context >= 256 and not mem.context_exceeds_model:  # else the cap leads already
            out.append(
                Advice(
                    kind="suggestion",
                    text=t("sizing.advice.lower_context", context=format_context(mem.max_context), n=req.concurrency),
                    flags=f"--max-model-len {mem.max_context}",
                )
            )
        if req.kv_dtype != "fp8":
            alt = what_if({"kv_dtype": "fp8"})
            if alt.fits:
                flag = "--kv-cache-dtype fp8" if fmt.engine == "vllm" else "-fa on -ctk q8_0 -ctv q8_0"
                out.append(Advice(kind="suggestion", text=t("sizing.advice.fp8_kv", n=alt.max_concurrency, context=ctx), flags=flag))
    if not mem.fits and not mem.context_exceeds_model:  # more GPUs or bits cannot make an over-long context fit
        for alt_fmt in FALLBACK_FORMATS:
            if alt_fmt == fmt.id:
                continue
            alt = what_if({"weights": alt_fmt})
            if alt.fits:
                out.append(Advice(kind="suggestion", text=t("sizing.advice.quantize", format=alt_fmt, n=alt.max_concurrency, context=ctx)))
                break
        if min_gpus and min_gpus > req.gpus:
            out.append(Advice(kind="suggestion", text=t("sizing.advice.more_gpus", gpus=min_gpus, gpu=req.gpu.name), flags=f"--tensor-parallel-size {min_gpus}"))
        elif min_gpus is None:
            out.append(Advice(kind="warning", text=t("sizing.advice.no_tp_fits", gpu=req.gpu.name)))
            node = largest_tp(req)
            if node > req.gpus:
                at_node = what_if({"gpus": node})
                if at_node.weights_fit and at_node.max_concurrency > 0:
                    out.append(
                        Advice(
                            kind="suggestion",
                            text=t("sizing.advice.full_node", gpus=node, gpu=req.gpu.name, n=at_node.max_concurrency, context=ctx),
                            flags=f"--tensor-parallel-size {node} --max-num-seqs {at_node.max_concurrency}",
                        )
                    )
    if mem.kv_replication > 1:
        out.append(Advice(kind="warning", text=t("sizing.advice.kv_replicated", gpus=req.gpus, heads=req.model.num_kv_heads, times=mem.kv_replication)))
    if mem.sliding_window_layers and mem.kv_bytes_per_request < mem.kv_bytes_per_request_all_full:
        # An engine that keeps every layer whole (SGLang for most sliding-window models) has one figure, not two:
        # its own pool note says so; two equal sizes under "keeps only the window" would read as a windowed saving.
        out.append(
            Advice(
                kind="suggestion",
                text=t(
                    "sizing.advice.sliding_window",
                    layers=mem.sliding_window_layers,
                    window=req.model.sliding_window or 0,
                    windowed=format_bytes(mem.kv_bytes_per_request),
                    full=format_bytes(mem.kv_bytes_per_request_all_full),
                ),
            )
        )
    if fmt.engine == "vllm" and req.model.checkpoint_quant != fmt.id and fmt.id not in ("bf16", "fp16"):
        known = quantized_checkpoint(req.model.id, fmt)
        if known:
            out.append(Advice(kind="suggestion", text=t("sizing.advice.quantized_checkpoint", format=fmt.label, repo=known)))
        elif needs_checkpoint(req, fmt):
            out.append(Advice(kind="warning", text=t("sizing.advice.needs_checkpoint", format=fmt.label, repo=_repo(req))))
    share = sglang_share_warning(req, mem, lang)  # SGLang's static share against one step's activations
    if share is not None:
        out.append(share)
    if not mem.headroom_ok:
        out.append(Advice(kind="warning", text=t("sizing.advice.headroom", util=req.engine.gpu_memory_utilization), flags="--gpu-memory-utilization 0.9"))
    if fmt.compute == "fp8" and not req.gpu.fp8_tflops_dense:
        out.append(Advice(kind="warning", text=t("sizing.advice.no_fp8_cores", gpu=req.gpu.name)))
    if fmt.id == "mxfp4" and not req.model.is_moe:  # the format quantizes routed experts only: nothing to shrink here
        out.append(Advice(kind="warning", text=t("sizing.advice.mxfp4_dense", model=req.model.name)))
    if fmt.id == "gguf-mxfp4_moe" and not req.model.is_moe:  # llama.cpp then stores every weight in Q8_0
        out.append(Advice(kind="warning", text=t("sizing.advice.mxfp4_moe_dense", model=req.model.name)))
    if req.model.has_vision and req.model.image_tokens:
        # the stated image-token budget: images are prompt tokens the user's prompt length must include
        key = "sizing.advice.image_tokens_dynamic" if req.model.vision_kind in ("qwen2_5_vl", "qwen3_vl") else "sizing.advice.image_tokens_fixed"
        out.append(Advice(kind="suggestion", text=t(key, model=req.model.name, tokens=f"{req.model.image_tokens:,}",
                                                     vision=format_bytes(weight_bytes(req.model, fmt, 1).vision_per_gpu, 2))))  # fmt: skip
    if fmt.engine == "llama.cpp":  # a GGUF runs on llama-server: its flags, never vLLM's
        out = [a.model_copy(update={"flags": llama_cpp_flags(a.flags)}) for a in out]
    return out


def engine_switch_note(req: SizingRequest, fmt: WeightFormat, lang: str) -> str | None:
    """A GGUF format is served by llama.cpp whatever engine the request names: said in words (None when the format
    leaves the named engine in charge), so the switch is never silent."""
    if fmt.engine != "llama.cpp" or req.engine_profile == "llama.cpp":
        return None
    return translate(lang, "sizing.engine_switch", format=fmt.label,
                     asked=translate(lang, f"sizing.engine_profile.{req.engine_profile}"),
                     engine=translate(lang, "sizing.engine_profile.llama.cpp"))


# vLLM flags in the advice and what llama-server takes instead (None: no llama.cpp setting does the same thing).
_LLAMA_CPP_FLAGS: dict[str, Callable[[str], str | None]] = {
    "--max-num-seqs": lambda n: f"-np {n}",
    "--kv-cache-dtype": lambda v: "-fa on -ctk q8_0 -ctv q8_0" if v == "fp8" else None,
    "--tensor-parallel-size": lambda n: f"--split-mode layer --tensor-split {','.join(['1'] * int(n))}",
    "--max-model-len": lambda _n: None,  # llama.cpp's -c is the context of all slots together: no one-to-one flag
    "--gpu-memory-utilization": lambda _v: None,  # llama.cpp allocates what the model and -c need
    "--max-num-batched-tokens": lambda _n: None,
}


# vLLM's flags as SGLang names them (python/sglang/srt/server_args.py); its chunked prefill is vLLM's step budget
_SGLANG_FLAGS: dict[str, Callable[[str], str | None]] = {
    "--max-num-seqs": lambda n: f"--max-running-requests {n}",
    "--kv-cache-dtype": lambda v: "--kv-cache-dtype fp8_e4m3" if v == "fp8" else f"--kv-cache-dtype {v}",
    "--tensor-parallel-size": lambda n: f"--tp {n}",
    "--max-model-len": lambda n: f"--context-length {n}",
    "--gpu-memory-utilization": lambda _v: None,  # SGLang's share is --mem-fraction-static, of the memory free before loading
    "--max-num-batched-tokens": lambda n: f"--chunked-prefill-size {n}",
}


def _converted(flags: str | None, table: dict[str, Callable[[str], str | None]]) -> str | None:
    if not flags:
        return flags
    words = flags.split()
    out = []
    for name, value in zip(words[::2], words[1::2], strict=False):
        convert = table.get(name)
        mapped = convert(value) if convert else f"{name} {value}"  # not a vLLM flag: already the other engine's
        if mapped:
            out.append(mapped)
    return " ".join(out) or None


def llama_cpp_flags(flags: str | None) -> str | None:
    """``flags`` written for vLLM, as llama-server's flags; None when none of them has a llama.cpp counterpart."""
    return _converted(flags, _LLAMA_CPP_FLAGS)


def sglang_flags(flags: str | None) -> str | None:
    """``flags`` written for vLLM, as SGLang's launch_server flags; None when none has an SGLang counterpart."""
    return _converted(flags, _SGLANG_FLAGS)


def gpu_memory_note(gpu: GpuSpec, lang: str) -> str:
    """Where the usable memory of ``gpu`` comes from, in words: measured, published (with its source), or the
    98.5 % estimate (said to be one, so a newcomer does not take it for the card's real CUDA total)."""
    usable = format_bytes(gpu.effective_memory_bytes, 2)
    basis = gpu.usable_memory_basis
    if basis == "estimate":
        return translate(lang, "sizing.gpu_memory.estimate", usable=usable, built=format_bytes(gpu.memory_bytes, 0))
    source = (gpu.usable_memory_source or "").split(" ", 1)[0]  # the file or URL the figure is quoted from
    return translate(lang, f"sizing.gpu_memory.{basis}", usable=usable, source=source)


def shared_prefix_note(req: SizingRequest, mem: MemoryEstimate, cached_prompt_tokens: int, lang: str) -> str | None:
    """The shared-prefix assumption in words (None without one): what is shared, and what each request keeps."""
    prefix = req.shared_prefix_tokens
    if not prefix:
        return None
    from advisor.units import format_count

    llama_cpp = req.weights.lower().startswith("gguf") or req.engine_profile == "llama.cpp"
    profile = get_profile("llama.cpp" if llama_cpp else req.engine_profile)
    engine = translate(lang, f"sizing.engine_profile.{profile.id}")
    n = format_count(prefix)
    if llama_cpp:
        return translate(lang, "sizing.prefix.llama_cpp", prefix=n)
    if not profile.prefix_caching_default:
        return translate(lang, "sizing.prefix.no_caching", prefix=n, engine=engine)
    if not mem.shared_prefix_blocks:
        return translate(lang, "sizing.prefix.too_short", prefix=n, block=mem.block_size)
    shared = mem.shared_prefix_blocks * mem.block_size
    text = translate(
        lang, "sizing.prefix.shared", prefix=n, engine=engine, blocks=format_count(mem.shared_prefix_blocks),
        tokens=format_count(shared), bytes=format_bytes(mem.kv_bytes_shared_prefix),
        rest=format_count(req.resolved_prompt_tokens - cached_prompt_tokens),
    )  # fmt: skip
    if prefix > shared:
        text += ("" if lang.startswith("zh") else " ") + translate(lang, "sizing.prefix.partial", partial=format_count(prefix - shared), block=mem.block_size)
    return text
