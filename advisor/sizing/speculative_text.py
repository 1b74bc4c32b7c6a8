"""Speculative decoding in words: the method and its draft named, and what it holds on a GPU, as the calc table and
the Sizing page say it (advisor/sizing/speculative.py sizes it)."""

from __future__ import annotations

from advisor.domain.sizing import SizingResult, SpeculativeSettings
from advisor.i18n import tr
from advisor.units import format_bytes


def speculative_label(spec: SpeculativeSettings) -> str:
    """The method in the UI language, with its draft model or EAGLE head where it has one."""
    method = tr(f"speculative25_spec28.method.{spec.method}")
    return f"{method} {spec.draft_model.name}" if spec.draft_model is not None else method


def speculative_summary(result: SizingResult, key: str, ngram_key: str) -> str:
    """What the result's speculative decoding holds on one GPU (``key`` takes what, weights, kv and k); n-gram holds
    nothing (``ngram_key``). Empty without speculative decoding."""
    spec = result.request.speculative
    if spec is None:
        return ""
    if spec.method == "ngram":
        return tr(ngram_key)
    m = result.memory
    return tr(key, what=speculative_label(spec), weights=format_bytes(m.draft_weights_bytes, 2),
              kv=format_bytes(m.draft_kv_bytes_per_token, 1), k=m.speculative_lookahead_tokens)  # fmt: skip


__all__ = ["speculative_label", "speculative_summary"]
