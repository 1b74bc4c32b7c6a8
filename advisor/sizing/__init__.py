"""The sizing calculator: memory, capacity and speed of a model on a GPU, from the architecture up.

``size(SizingRequest) -> SizingResult`` is the one entry point used by the CLI (`advisor calc`), the UI and
the simulator; it takes well under a millisecond once a model's tensor list is cached.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from advisor.domain.engine_profiles import EngineProfile, factors_for, get_profile, resolve_engine
from advisor.domain.sizing import Advice, PerfEstimate, Range, SizingRequest, SizingResult
from advisor.i18n import current_language, translate
from advisor.sizing.accuracy import predictor_accuracy
from advisor.sizing.advice import (
    build_advice,
    engine_switch_note,
    gpu_memory_note,
    llama_cpp_command,
    sglang_command,
    sglang_flags,
    shared_prefix_note,
    vllm_command,
)
from advisor.sizing.memory import estimate_memory
from advisor.sizing.parallel import tp_accepted, tp_refusal
from advisor.sizing.pool_note import kv_pool_note
from advisor.sizing.quant import KV_DTYPES, WEIGHT_FORMATS, WeightFormat, get_format
from advisor.sizing.roofline import StepCostModel
from advisor.sizing.sglang_hybrid import ratio_flags
from advisor.sizing.sglang_pool import share_and_free, with_default_chunk
from advisor.sizing.speculative import draft_reserve
from advisor.sizing.speculative_speed import speculative_speed

__all__ = ["KV_DTYPES", "WEIGHT_FORMATS", "SizingRequest", "SizingResult", "StepCostModel", "estimate_perf", "size"]

TP_DEGREES = (1, 2, 4, 8, 16)


def engine_profile_of(req: SizingRequest, fmt: WeightFormat) -> EngineProfile:
    """The engine profile that serves this request: llama.cpp for GGUF formats, else the one the request names."""
    return get_profile("llama.cpp" if fmt.engine == "llama.cpp" else req.engine_profile)


def prefix_caching_on(req: SizingRequest, fmt: WeightFormat) -> bool:
    """Whether the request's engine profile reuses a shared prompt prefix by default (as `advisor predict` does)."""
    return engine_profile_of(req, fmt).prefix_caching_default


def cached_prefix_tokens(req: SizingRequest, fmt: WeightFormat, prompt: int) -> int:
    """Prompt tokens a warm prefix cache saves from prefill: the shared prefix's whole blocks, never the last token."""
    if not req.shared_prefix_tokens or not prefix_caching_on(req, fmt):
        return 0
    block = req.engine.block_size
    return min(req.shared_prefix_tokens, prompt - 1) // block * block


def _memory(req: SizingRequest, fmt: WeightFormat, **over: object):
    kv_dtype = str(over.get("kv_dtype", req.kv_dtype))
    gpus = int(over.get("gpus", req.gpus))  # type: ignore[call-overload]
    engine = over.get("engine", req.engine)
    return estimate_memory(
        req.model, fmt, kv_dtype, req.context, req.concurrency, req.gpu.effective_memory_bytes, gpus, engine,  # type: ignore[arg-type]
        shared_prefix_tokens=req.shared_prefix_tokens, prefix_caching=prefix_caching_on(req, fmt),
        # a vLLM release named with --engine-version sizes its KV cache as that release's start-up profile did, an
        # SGLang release takes that release's default memory share (advisor/sizing/vllm_profile.py, sglang_pool.py);
        # TensorRT-LLM keeps the earlier estimate
        engine_version=req.factors.engine_version if engine_profile_of(req, fmt).id in ("vllm", "sglang") else None,
        vllm_profile=engine_profile_of(req, fmt).id in ("vllm", "llama.cpp"),
        sglang_pool=engine_profile_of(req, fmt).id == "sglang",
        nvlink=req.gpu.interconnect == "nvlink",
        # speculative decoding (vLLM): the proposer's weights, its KV in the target's blocks, its lookahead
        draft=draft_reserve(req.speculative, req.model, fmt, kv_dtype, gpus) if req.speculative else None,
    )  # fmt: skip


def min_gpus_that_fit(req: SizingRequest, fmt: WeightFormat) -> int | None:
    for tp in TP_DEGREES:
        if tp > req.gpu.max_gpus_per_node:
            break
        if not tp_accepted(req.model, tp, req.speculative.draft_model if req.speculative else None):  # an EAGLE head too
            continue  # the engine needs the attention (and KV) heads to split evenly (a draft model's too)
        if _memory(req, fmt, gpus=tp).fits:
            return tp
    return None


def estimate_perf(req: SizingRequest, fmt: WeightFormat) -> PerfEstimate:
    profile = engine_profile_of(req, fmt)
    f = factors_for(profile, req.factors)  # the engine's step and streaming overheads, as the simulator uses them
    costs = {
        name: StepCostModel.build(req.model, fmt, req.kv_dtype, req.gpu, req.gpus, f, mfu=mfu, mbu=mbu)
        for name, mfu, mbu in (("mid", f.mfu, f.mbu), ("fast", f.mfu_range[1], f.mbu_range[1]), ("slow", f.mfu_range[0], f.mbu_range[0]))
    }
    prompt, output = req.resolved_prompt_tokens, req.resolved_output_tokens
    chunk = req.engine.max_num_batched_tokens
    batch = req.concurrency
    avg_context = prompt + output / 2

    cached = cached_prefix_tokens(req, fmt, prompt)

    def prefill(c: StepCostModel) -> float:
        if not cached:
            return c.prefill_seconds(prompt, chunk)
        total, done = 0.0, cached  # a warm prefix cache: only the rest is computed, attending to the prefix
        while done < prompt:
            n = min(chunk, prompt - done)
            total += c.step_seconds(n, n * done + n * (n + 1) / 2, 0, 0)
            done += n
        return total

    def timing(c: StepCostModel) -> tuple[float, float]:
        return prefill(c), c.decode_step_seconds(batch, avg_context)

    (pf, dec), (pf_fast, dec_fast), (pf_slow, dec_slow) = (timing(costs[k]) for k in ("mid", "fast", "slow"))
    mid = costs["mid"]
    first_chunk = min(prompt - cached, chunk)
    p_compute, p_memory = mid.step_parts(first_chunk, first_chunk * cached + first_chunk * (first_chunk + 1) / 2, 0, 0)
    d_compute, d_memory = mid.step_parts(0, 0, batch, batch * avg_context)
    # the front end outlasts the GPU's own step: it, not the GPU, sets the decode speed at this concurrency
    gpu_step = dataclasses.replace(mid, stream_token_s=0.0).decode_step_seconds(batch, avg_context)
    front_end_bound = batch * mid.stream_token_s > gpu_step

    def ms(v: float, lo: float, hi: float) -> Range:
        return Range(value=v * 1000, low=lo * 1000, high=hi * 1000)

    def per_s(n: float, v: float, lo: float, hi: float) -> Range:
        return Range(value=n / v if v else 0.0, low=n / hi if hi else 0.0, high=n / lo if lo else 0.0)

    over = profile.request_overhead_s

    def steady(p_s: float, d_s: float) -> tuple[float, float]:
        # Users sending back-to-back: per round each of `batch` users gets `output` tokens and `batch` prompts
        # are prefilled between the decode steps; a user's decode window sees the other batch − 1 prefills.
        round_s = output * d_s + batch * p_s
        return (output * d_s + (batch - 1) * p_s) / output, (batch * output / round_s if round_s else 0.0)

    (st, st_total), (st_fast, st_total_fast), (st_slow, st_total_slow) = (
        steady(pf, dec), steady(pf_fast, dec_fast), steady(pf_slow, dec_slow)
    )
    e2e = over + pf + (output - 1) * dec
    return PerfEstimate(
        prompt_tokens=prompt,
        output_tokens=output,
        cached_prompt_tokens=cached,
        prefill_ms=ms(pf, pf_fast, pf_slow),
        prefill_bound="compute" if p_compute >= p_memory else "bandwidth",
        decode_step_ms=ms(dec, dec_fast, dec_slow),
        decode_bound="front_end" if front_end_bound else "compute" if d_compute > d_memory else "bandwidth",
        front_end_tokens_per_s=1.0 / mid.stream_token_s if mid.stream_token_s else None,
        decode_tokens_per_s=per_s(1, dec, dec_fast, dec_slow),
        decode_tokens_per_s_total=per_s(batch, dec, dec_fast, dec_slow),
        e2e_ms=ms(e2e, over + pf_fast + (output - 1) * dec_fast, over + pf_slow + (output - 1) * dec_slow),
        ttft_ms=ms(over + pf, over + pf_fast, over + pf_slow),
        request_overhead_ms=over * 1000,
        engine_profile=profile.id,
        steady_tpot_ms=ms(st, st_fast, st_slow),
        steady_tokens_per_s_total=Range(value=st_total, low=st_total_slow, high=st_total_fast),
        compute_flops_per_s=mid.flops_per_s,
        bandwidth_bytes_per_s=mid.bytes_per_s,
        expert_share_of_peak=mid.expert_share or None,
        gemm_share_of_peak=mid.flops_per_s / mid.peak_flops_per_s if mid.peak_flops_per_s else None,
        accuracy=predictor_accuracy(),
        # speculative decoding's decode speed at this load (s26-spec28): a range only where acceptance is published
        speculative=speculative_speed(req, costs, f, avg_context, (dec, dec_fast, dec_slow)) if req.speculative else None,
        formula={
            "prefill": "Σ chunks [max(linear FLOPs / GEMM rate (routed MoE experts at the engine's fused-MoE rate), "
            "weights / (bandwidth × weight-read share)) + max(attention FLOPs / "
            "(peak × MFU), KV read / (bandwidth × MBU))] + step overhead; linear FLOPs = 2 × active params × tokens, "
            "attention FLOPs = 4 × layers × heads × head_dim × attended pairs",
            "decode": "max(GPU step, batch × front-end time per streamed token); GPU step = max(linear FLOPs, weights "
            "read / (bandwidth × weight-read share)) + max(attention FLOPs, batch × context × KV bytes/token / (bandwidth × MBU)) + "
            "step overhead",
            "ttft": f"serving overhead {over * 1000:g} ms ({profile.label}) + prefill"
            + (f" of {prompt - cached:,} tokens ({cached:,} shared prefix tokens cached)" if cached else ""),
            "steady": "TPOT = (output × decode step + (users − 1) × prefill) / output; "
            "throughput = users × output / (output × decode step + users × prefill)",
            "factors": f"GEMM rate {mid.flops_per_s / 1e12:,.0f} TFLOP/s ({_gemm_basis(mid)}), "
            f"{'MFU' if mid.gemm_basis == 'mfu' else 'attention MFU'} {f.mfu:g} ({f.mfu_range[0]:g}–{f.mfu_range[1]:g}), MBU {f.mbu:g} ({f.mbu_range[0]:g}–{f.mbu_range[1]:g}), "
            f"weight-read share {_read_share_text(mid, f.mbu)}, overhead {f.step_overhead_ms:g} ms/step"
            f" + {mid.elementwise_fixed_s * 1000:.2f} ms of per-layer norm/activation kernels (NVIDIA aiconfigurator's step model)"
            + (f"; dense layers timed shape by shape ({sum(c for _n, _k, c in mid.shape_times.shapes)} GEMMs of "
               f"{len(mid.shape_times.shapes)} shapes + LM head) from vLLM's GEMM latencies measured on this GPU "
               "(resources/gpus/gemm_shapes.json), in place of the GEMM rate and weight-read share"
               if mid.shape_times else "")
            + (f", routed experts {mid.expert_flops_per_s / 1e12:,.0f} TFLOP/s ({f.kernel_engine}'s fused-MoE kernel as "
               "NVIDIA measured it, resources/engines/moe_kernels.json)" if mid.expert_flops_per_s else "")
            + (f", front end {f.stream_token_us:g} µs/streamed token (at most {1e6 / f.stream_token_us:,.0f} tokens/s)"
               if f.stream_token_us else ""),  # fmt: skip
        },
    )


def _read_share_text(costs: StepCostModel, mbu: float) -> str:
    """At what share of its bandwidth the GPU streams its dense weights, and why, in the words of the formula tooltip."""
    read = costs.read_share
    if read is None:
        return f"{mbu:g} (MBU: no decode GEMM measurement for this GPU)"
    where = "this GPU's" if read.basis == "measured" else f"{read.reference_gpu}'s (same architecture and memory family)"
    return f"{read.share:g} ({where} decode-shaped BF16 GEMMs as NVIDIA measured them, resources/gpus/gemm_rates.json; routed experts at MBU)"


def _gemm_basis(costs: StepCostModel) -> str:
    """Where the linear layers' compute rate comes from, in the words of the formula tooltip."""
    if costs.gemm is None:
        return "peak × MFU: no GEMM measurement for this GPU or precision"
    if costs.gemm.basis == "measured":
        return "measured BF16 GEMMs on this GPU, resources/gpus/gemm_rates.json"
    return f"this GPU's peak × the share {costs.gemm.reference_gpu} reaches in measured BF16 GEMMs"


def _served_lengths(req: SizingRequest) -> SizingRequest:
    """The request with its lengths capped at what the model accepts (speed of a request the engine refuses
    is meaningless: a 10M-token context would read as a TTFT of days)."""
    limit = req.model.max_context
    if req.context <= limit:
        return req
    output = min(req.resolved_output_tokens, max(1, limit // 4))
    prompt = max(1, min(req.resolved_prompt_tokens, limit - output))
    return req.model_copy(update={"context": limit, "prompt_tokens": prompt, "output_tokens": output})


def with_engine_defaults(req: SizingRequest, fmt: WeightFormat | None = None) -> SizingRequest:
    """The request with the batch settings it leaves open set to what its engine picks on its GPU."""
    profile = engine_profile_of(req, fmt or get_format(req.weights))
    engine = resolve_engine(req.engine, profile, req.gpu)
    if profile.id == "sglang":  # its prefill chunk by GPU memory and release (sglang_pool.py)
        engine = with_default_chunk(req.engine, engine, req.gpu.effective_memory_bytes, req.factors.engine_version)
    return req if engine is req.engine else req.model_copy(update={"engine": engine})


def size(req: SizingRequest, lang: str | None = None) -> SizingResult:
    """Everything the calculator shows, for one request (advice in `lang`, default the current language)."""
    asked = req
    fmt = get_format(req.weights)
    req = with_engine_defaults(req, fmt)
    mem = _memory(req, fmt)
    min_gpus = min_gpus_that_fit(req, fmt)

    def what_if(over: dict) -> object:
        alt_fmt = get_format(str(over["weights"])) if "weights" in over else fmt
        return _memory(req, alt_fmt, **{k: v for k, v in over.items() if k != "weights"})

    advice = build_advice(req, fmt, mem, min_gpus, what_if, lang or current_language())  # type: ignore[arg-type]
    refusal: Literal["attention_heads", "kv_heads", "draft_heads"] | None = tp_refusal(req.model, req.gpus)
    draft_refused = refusal is None and req.speculative is not None and not tp_accepted(req.model, req.gpus, req.speculative.draft_model)
    if draft_refused:  # vLLM runs the draft at the target's TP degree: its heads must split too (speculative.py)
        assert req.speculative is not None and req.speculative.draft_model is not None  # tp_accepted: only a draft refuses
        refusal = "draft_heads"
        text = translate(lang or current_language(), "sizing24_models24.spec_tp", tp=req.gpus,
                         model=req.speculative.draft_model.name)  # fmt: skip
        advice = [*advice, Advice(kind="does_not_fit", text=text)]
    too_long = req.context > req.model.max_context
    if too_long:
        verdict = "context_too_long"
    elif refusal is not None:
        verdict = "engine_refuses"
    else:
        verdict = "fits" if mem.fits else "does_not_fit"
    # The command to copy: as asked when it fits; else on the smallest GPU count that fits; else as much as fits.
    # Never a context or a TP degree the engine refuses.
    serve_context = min(req.context, req.model.max_context)
    if too_long and mem.weights_fit and mem.max_context >= 16:
        serve_context = min(serve_context, mem.max_context)
    tp, seqs = req.gpus, req.concurrency
    if not mem.fits or refusal is not None:
        if min_gpus:
            tp = min_gpus
        else:
            seqs = max(mem.max_concurrency, 1)
            if refusal is not None:
                from advisor.sizing.advice import accepted_tp_below

                tp = accepted_tp_below(req, req.gpus)
    # vLLM's batch cap: the memory above reserved the sampler's logits for req.engine.max_num_seqs sequences. When the
    # request fits as asked, the command leaves the cap where that estimate put it (the user's setting, else the
    # engine's default), so the server it starts has exactly the KV cache shown; only a load beyond that cap, or
    # one cut to what fits, is passed on.
    vllm_seqs: int | None = seqs
    if mem.fits and refusal is None and seqs <= (req.engine.max_num_seqs or seqs):
        vllm_seqs = asked.engine.max_num_seqs  # None: the engine default, as estimated
    perf = estimate_perf(_served_lengths(req), fmt)
    # SGLang starts with its own launch line, never `vllm serve` (a GGUF stays on llama.cpp: fmt.engine decides)
    sglang = engine_profile_of(req, fmt).id == "sglang" and fmt.engine == "vllm"
    sglang_line = None
    if sglang:
        fraction, _ = share_and_free(req.engine, mem.gpu_memory_bytes, tp, req.factors.engine_version, req.model.has_vision, 0)
        sglang_line = sglang_command(req, fmt, tp, serve_context, seqs, fraction, ratio_flags(mem))
        advice = [a.model_copy(update={"flags": sglang_flags(a.flags)}) for a in advice]
    return SizingResult(
        request=asked,
        engine=req.engine,
        weight_format=fmt.id,
        memory=mem,
        perf=perf,
        min_gpus=min_gpus,
        advice=advice,
        verdict=verdict,
        engine_refusal=refusal,
        vllm_command=None if sglang else vllm_command(req, fmt, tp, serve_context, vllm_seqs),
        llama_cpp_command=llama_cpp_command(req, fmt, tp, serve_context, seqs),
        shared_prefix_note=shared_prefix_note(req, mem, perf.cached_prompt_tokens, lang or current_language()),
        gpu_memory_basis=req.gpu.usable_memory_basis,
        gpu_memory_note=gpu_memory_note(req.gpu, lang or current_language()),
        engine_switch=engine_switch_note(req, fmt, lang or current_language()),
        kv_pool_note=kv_pool_note(req, engine_profile_of(req, fmt).id, mem, lang or current_language()),
        sglang_command=sglang_line,
    )
