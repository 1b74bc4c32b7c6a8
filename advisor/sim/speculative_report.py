"""What `advisor predict --speculative` says about the speculation it simulated (issue #28): the tokens a step
yielded and whose acceptance that is, or that none is published and the curve claims no speed-up; and, at each
level's concurrency, the step model's speed-up range or the tokens a step would have to yield to pay
(``SpeculativeStep.at_load``, the same figures `advisor calc` states)."""

from __future__ import annotations

from typing import Any

from advisor.domain.sim import LevelPrediction
from advisor.i18n import tr
from advisor.sim.costs import SimSetup
from advisor.sizing.speculative_acceptance import other_drafters, tokens_per_step
from advisor.sizing.speculative_text import unknown_sentence


def _alphas(setup: SimSetup) -> tuple[float, float, float] | None:
    a = setup.speculative_acceptance
    return None if a is None else (a.alpha_low, (a.alpha_low + a.alpha_high) / 2, a.alpha_high)


def speculative_json(setup: SimSetup, levels: list[LevelPrediction], context: float) -> dict[str, Any] | None:
    """The ``speculative`` block of `advisor predict --json`; None without speculative decoding. ``context``: the
    workload's mean tokens a decoding sequence holds (prompt + half the answer)."""
    spec, step = setup.sizing.request.speculative, setup.speculative_step
    if spec is None or step is None:
        return None
    acc, alphas, k = setup.speculative_acceptance, _alphas(setup), spec.num_speculative_tokens
    at = step.at_context(context)
    mem = setup.sizing.memory
    return {
        "method": spec.method,
        "num_speculative_tokens": k,
        "draft_model": spec.draft_model.id if spec.draft_model is not None else None,
        # "published": the curve's decode steps yield tokens_per_step; "unknown": no speed-up simulated
        "acceptance_basis": "published" if acc is not None else "unknown",
        "acceptance": acc.model_dump(mode="json") if acc is not None else None,
        # heads measured for this method on this model that are not the user's: named, their acceptance not used
        "other_drafters": list(other_drafters(spec, setup.model)) if acc is None else [],
        "tokens_per_step": setup.speculative_tokens_per_step,
        "tokens_per_step_range": ({"low": tokens_per_step(acc.alpha_low, k), "high": tokens_per_step(acc.alpha_high, k)}
                                  if acc is not None else None),  # fmt: skip
        "draft_weights_bytes": mem.draft_weights_bytes,
        "draft_kv_bytes_per_token": mem.draft_kv_bytes_per_token,
        "lookahead_tokens": mem.speculative_lookahead_tokens,
        "itl_is_mean_per_token": acc is not None,  # a real step streams its accepted tokens together
        "levels": [at.at_load(lv.concurrency, alphas).model_dump(mode="json") for lv in levels if lv.concurrency],
        "formula": "decode step = (k × proposer forward + target verification of k + 1 positions a sequence) / E, "
        "E = (1 − α^(k+1)) / (1 − α) at the middle of the published α range (advisor/sizing/speculative_speed.py)",
    }


def speculative_lines(setup: SimSetup, levels: list[LevelPrediction], context: float) -> list[str]:
    """The text `advisor predict` prints under the table about the speculation simulated; empty without it."""
    spec, step = setup.sizing.request.speculative, setup.speculative_step
    if spec is None or step is None:
        return []
    method = tr(f"speculative25_spec28.method.{spec.method}")
    acc, k = setup.speculative_acceptance, spec.num_speculative_tokens
    if acc is not None and setup.speculative_tokens_per_step is not None:
        head = tr("speculative27_predict28.simulated", method=method, e=f"{setup.speculative_tokens_per_step:.2f}", k=k,
                  alpha=f"{acc.alpha_low:.2f}–{acc.alpha_high:.2f}")  # fmt: skip
        sources = [tr("speculative26_spec28.source", drafter=m.drafter, tau=f"{m.tau_low:.2f}–{m.tau_high:.2f}", km=m.k,
                      data=m.data, source=m.source) for m in acc.measurements]  # fmt: skip
        return [" ".join((head, *sources))]
    first = next((lv.concurrency for lv in levels if lv.concurrency), 1)
    here = step.at_context(context).at_load(first, None)
    if here.break_even_tokens_per_step is None:
        pays = tr("speculative26_spec28.never", method=method, n=first, k1=k + 1)
    else:
        pays = unknown_sentence(spec, setup.model.name, list(other_drafters(spec, setup.model)), first,
                                here.break_even_tokens_per_step)
    return [" ".join((pays, tr("speculative27_predict28.no_speedup")))]


__all__ = ["speculative_json", "speculative_lines"]
