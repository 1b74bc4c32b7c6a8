"""Readable text rendering of a sizing result for the terminal."""

from __future__ import annotations

import unicodedata
from typing import Any

from advisor.domain.sizing import LikelyLatency, SizingResult
from advisor.i18n import tr
from advisor.sizing.accuracy import accuracy_sentence, likely_sentence, load_of, speculative_basis_note
from advisor.sizing.speculative_text import speculative_speed_text, speculative_summary
from advisor.units import format_bytes, format_count, format_ms, format_tokens_per_s


def _width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _ttft(p) -> str:
    ttft = p.ttft_ms or p.prefill_ms
    return (f"{format_ms(ttft.value)} ({format_ms(ttft.low)}–{format_ms(ttft.high)}), {p.prompt_tokens:,} tokens, "
            f"{tr('calc.bound.' + p.prefill_bound)}; " + tr("calc.ttft_parts", prefill=format_ms(p.prefill_ms.value),
                                                             overhead=f"{p.request_overhead_ms:g} ms", engine=p.engine_profile)
            + (tr("sizing.prefix.ttft_cached", cached=f"{p.cached_prompt_tokens:,}") if p.cached_prompt_tokens else "")
            + (tr("calc.moe_experts", share=f"{p.expert_share_of_peak:.0%}", engine=tr(f"sizing.engine_profile.{p.engine_profile}"))
               if p.expert_share_of_peak else ""))


def _likely_lines(likely: dict[str, Any] | None) -> list[str]:
    """The predicted curve's figures at the request's own load and the range its regime makes likely (``likely_json``):
    stated before the expected error, which stays beneath (issue #28)."""
    basis = (likely or {}).get("likely_basis")
    if not basis:
        return []
    lines = [tr("sizing.curve.at_requested", n=format_count(basis["concurrency"]), ttft=format_ms(basis["ttft_p50_ms"]),
                tpot=format_ms(basis["tpot_p50_ms"]), tokens=format_tokens_per_s(basis["output_tokens_per_s"]))]
    if likely and likely.get("likely"):
        lines.append(likely_sentence(LikelyLatency.model_validate(likely["likely"]), concurrency=basis["concurrency"]))
    return lines


def render(r: SizingResult, likely: dict[str, Any] | None = None) -> str:
    m, p, q = r.memory, r.perf, r.request
    rows = [
        (tr("calc.row.model"), f"{q.model.name} ({q.model.attention_kind}{', MoE' if q.model.is_moe else ''})"),
        (tr("calc.row.gpu"), f"{q.gpus} × {q.gpu.name} ({format_bytes(m.gpu_memory_bytes)} {tr('calc.each')}"
         + (f", {tr('calc.estimated')})" if r.gpu_memory_basis == "estimate" else ")")),
        (tr("calc.row.format"), f"{r.weight_format}, KV {q.kv_dtype}"),
        (tr("calc.row.params"), f"{format_count(m.params_total)} ({tr('calc.active')} {format_count(m.params_active)})"),
        (tr("calc.row.weights"), format_bytes(m.weights_bytes, 2)),
        # speculative decoding (vLLM): the proposer's weights on each GPU, its KV and its lookahead slots (speculative.py)
        *([(tr("speculative25_spec28.row"), speculative_summary(r, "speculative25_spec28.row_value",
                                                                 "speculative25_spec28.row_ngram"))] if q.speculative else []),
        *([(tr("speculative26_spec28.row"), speculative_speed_text(r))] if r.perf.speculative else []),
        (tr("calc.row.kv_per_token"), f"{format_count(m.kv_bytes_per_token)} B"),
        (tr("calc.row.kv_cache"), f"{format_bytes(m.kv_cache_bytes, 2)} ({q.concurrency} × {format_count(q.context)} tokens"
         + (f"; {tr('sizing.prefix.shared_once', tokens=format_count(m.shared_prefix_blocks * m.block_size))})" if m.shared_prefix_blocks else ")")),
        (tr("calc.row.overhead"), format_bytes(m.overhead_bytes, 2)),
        *([(tr("sglcmd18.row.held_back"),
            f"{format_bytes(m.held_back_bytes, 2)} (--gpu-memory-utilization {r.engine.gpu_memory_utilization:g})")]
          if m.held_back_bytes else []),  # in the total: the verdict counts it as taken
        (tr("calc.row.total"), f"{format_bytes(m.total_bytes, 2)} / {format_bytes(m.gpu_memory_bytes, 2)}"),
        (tr("calc.row.kv_capacity"), f"{format_count(m.kv_tokens)} tokens ({format_count(m.kv_blocks)} × {m.block_size})"),
        (tr("calc.row.max_concurrency"), format_count(m.max_concurrency)),
        (tr("calc.row.max_context"), format_count(m.max_context)),
        (tr("calc.row.ttft"), _ttft(p)),
        (tr("calc.row.decode"), f"{format_tokens_per_s(p.decode_tokens_per_s.value)} / {tr('calc.user')}, "
         f"{format_tokens_per_s(p.decode_tokens_per_s_total.value)} {tr('calc.total')}, {tr('calc.bound.' + p.decode_bound)} "
         f"({tr('calc.decode_only', n=q.concurrency)})"),
    ]
    if p.steady_tpot_ms is not None and p.steady_tokens_per_s_total is not None:
        rows.append((tr("calc.row.steady"), tr("calc.steady", tpot=format_ms(p.steady_tpot_ms.value),
                                               total=format_tokens_per_s(p.steady_tokens_per_s_total.value))))
    width = max(_width(k) for k, _ in rows)
    lines = [f"{k}{' ' * (width - _width(k))}  {v}" for k, v in rows]
    lines.append(tr("calc.assumptions", prompt=f"{p.prompt_tokens:,}", output=f"{p.output_tokens:,}", context=f"{q.context:,}",
                    n=q.concurrency))
    if q.factors.engine_version:
        lines.append(tr("sizing.engine_version_note", engine=tr(f"sizing.engine_profile.{p.engine_profile}"), version=q.factors.engine_version))
    if r.gpu_memory_note:
        lines.append(r.gpu_memory_note)
    if r.shared_prefix_note:
        lines.append(r.shared_prefix_note)
    if r.engine_switch:
        lines.append(r.engine_switch)
    if r.kv_pool_note:
        lines.append(r.kv_pool_note)
    lines += _likely_lines(likely)
    if likely and likely.get("likely") and (note := speculative_basis_note(q.speculative, simulated=False)):
        lines.append(note)  # the likely line's curve is the one without speculative decoding
    if sentence := accuracy_sentence(p.accuracy, engine=p.engine_profile, gpu=q.gpu, load=load_of(q.concurrency)):
        lines.append(sentence)
    lines.append("")
    for a in r.advice:
        lines.append(f"• {a.text}" + (f"\n    {a.flags}" if a.flags else ""))
    for cmd in (r.vllm_command, r.sglang_command, r.llama_cpp_command):
        if cmd:
            lines.append(f"\n$ {cmd}")
    return "\n".join(lines)
