"""Where a replica's KV cache at the full context falls materially short of what it carries, page 1 says it as a
condition of the plan, with the fix, not as a side note (issue 25, blind review 30: q35 en "fixing it … should be a
precondition, not a footnote", zh "the second node does not guarantee the target at full context"; q42 zh "getting
the H20 quote should be a step before renting, not a side option").

Material is ``quote_first39.MATERIAL_SHORTFALL``: the share of the carried requests the cache does not hold at the
full context, the same line that puts the quote step before serving. The fix is what the plan already knows: where
the quote step is in the plan, that step (its figures say what the other part holds); otherwise the remedies section
2 names (``kv_limit._remedy_phrase``: FP8, data-parallel attention, a listed card, a --max-model-len cap), to be
shown holding the carried load at the full context in a pressure test before committing. Nothing here changes the
plan; below the line the memory note stays the risk kv_page_one37 says.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import kv_replicas42
from advisor.plan.quote_first39 import STEP_ID
from advisor.plan.result import KvFit, PlanResult, render

material = kv_replicas42.material  # the cache at the full context materially short of the load (one rule, one place)


def case(result: PlanResult) -> tuple[KvFit, int, bool] | None:
    """(the fit, the load a replica carries, whether that load is the one-replica-down one) where page 1 states a
    replica's KV cache at the full context short of its load (``kv_page_one37.line``'s test: a feasible self-hosted
    plan whose load the cache holds at the average length but not at the full context); None elsewhere."""
    if not result.feasible or result.deployment_form == "hosted_api" or result.capacity is None:
        return None
    fit = result.capacity.kv_fit
    if fit is None or not fit.load_over_full:
        return None
    down = bool(fit.failover_per_replica and fit.failover_per_replica > fit.peak_per_replica)
    load = fit.failover_per_replica if down and fit.failover_per_replica else fit.peak_per_replica
    return None if load > fit.at_typical else (fit, load, down)


def head(fit: KvFit, load: int, down: bool, lang: str) -> str:
    """The memory sentence labelled a condition of the plan (the same figures as kv_page_one37's risk line)."""
    return translate(lang, "kvfail40_kv.down" if down else "kvfail40_kv.peak", full_fit=f"{fit.at_full:,}",
                     context=f"{fit.context:,}", load=f"{load:,}", gib=f"{fit.kv_gib_per_gpu:g}", dtype=fit.kv_dtype)


def quote_step(result: PlanResult) -> int | None:
    """The quote step's number where the plan has it (quote_first39), the fix then."""
    return next((i + 1 for i, s in enumerate(result.next_steps) if s.id == STEP_ID), None)


def fix(result: PlanResult, load: int, items: list[dict[str, Any]], lang: str) -> str:
    """"Settle it before committing: …": the quote step where there is one, else the remedies to be shown holding
    ``load`` full-context requests on one replica in a pressure test."""
    n = quote_step(result)
    more = kv_replicas42.fix_clause(result, lang, quoted=n is not None)  # the replicas that hold it, or the gate
    if n is not None:
        g = result.gpu_choice
        gpu = g.quote_switch["gpu"] if g is not None and g.quote_switch else ""
        return translate(lang, "kvfail40_fix.quote", n=n, gpu=gpu) + more
    if more:
        return more
    return render(lang, "kvfail40_fix.test", {"load": f"{load:,}", "items": items}) if items else ""


__all__ = ["case", "fix", "head", "material", "quote_step"]
