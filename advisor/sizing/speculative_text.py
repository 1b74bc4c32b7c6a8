"""Speculative decoding in words: the method and its draft named, and what it holds on a GPU, as the calc table and
the Sizing page say it (advisor/sizing/speculative.py sizes it)."""

from __future__ import annotations

from advisor.domain.sizing import Range, SizingResult, SpeculativeSettings, SpeculativeSpeed
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


def _span(r: Range, digits: int = 1) -> str:
    return f"{r.low:.{digits}f}–{r.high:.{digits}f}"


def speculative_speed_text(result: SizingResult) -> str:
    """Speculation's decode speed at the request's concurrency (perf.speculative): a likely range with and without
    it and where it stops paying, where acceptance is published; else the cost and what acceptance would pay."""
    s = result.perf.speculative
    if s is None:
        return ""
    n, here = result.request.concurrency, s.at_concurrency
    method = tr(f"speculative25_spec28.method.{s.method}")
    base = tr("speculative26_spec28.base", base=_span(s.base_tpot_ms), base_tps=_span(s.base_tokens_per_s, 0))
    if s.acceptance is None or s.tpot_ms is None or s.tokens_per_s is None or here.speedup is None:
        if here.break_even_tokens_per_step is None:
            return " ".join((tr("speculative26_spec28.never", method=method, n=n, k1=s.k + 1), base))
        return " ".join((unknown_sentence(result.request.speculative, result.request.model.name, s.other_drafters, n,
                                          here.break_even_tokens_per_step), base))  # fmt: skip
    with_spec = tr("speculative26_spec28.with", method=method, tpot=_span(s.tpot_ms), tps=_span(s.tokens_per_s, 0), base=_span(s.base_tpot_ms),
                   n=n, speedup=_span(here.speedup, 2))  # fmt: skip
    sources = [tr("speculative26_spec28.source", drafter=m.drafter, tau=f"{m.tau_low:.2f}–{m.tau_high:.2f}", km=m.k,
                  data=m.data, source=m.source) for m in s.acceptance.measurements]  # fmt: skip
    return " ".join((with_spec, _regime(s), *sources, tr("speculative26_spec28.yours")))


def unknown_sentence(spec: SpeculativeSettings | None, model: str, drafters: list[str], n: int, need: float) -> str:
    """No speed-up stated, and what a step would have to yield at concurrency ``n`` to pay: because nobody published
    acceptance for the method on this model, or (``drafters``) only for other heads than the user's
    (speculative_acceptance.is_drafter)."""
    assert spec is not None
    method, k1 = tr(f"speculative25_spec28.method.{spec.method}"), spec.num_speculative_tokens + 1
    if not drafters:
        return tr("speculative26_spec28.unknown", method=method, model=model, n=n, need=f"{need:.2f}", k1=k1)
    mine = (spec.draft_model.hf_repo or spec.draft_model.id) if spec.draft_model is not None else ""
    return tr("speculative27_predict28.unknown_head", method=method, model=model, measured=", ".join(drafters), head=mine,
              n=n, need=f"{need:.2f}", k1=k1)  # fmt: skip


def _regime(s: SpeculativeSpeed) -> str:
    """Where along the load speculation pays: up to how many streams its whole range is above 1, and from how many
    its whole range is at or below 1."""
    parts = [tr(f"speculative26_spec28.regime.{s.regime}", n=s.at_concurrency.streams)]
    if s.helps_up_to is not None:  # at the last load checked, the gain is not known to stop there
        key = "helps_all" if s.helps_up_to == s.by_streams[-1].streams else "helps_up_to"
        parts.append(tr(f"speculative26_spec28.{key}", n=s.helps_up_to))
    if s.no_gain_from is not None:
        parts.append(tr("speculative26_spec28.no_gain_from", n=s.no_gain_from))
    return " ".join(parts)


__all__ = ["speculative_label", "speculative_speed_text", "speculative_summary", "unknown_sentence"]
