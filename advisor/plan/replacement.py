"""A plan whose GPUs cannot be had where it runs (H100 on a mainland node: export rules) is sized on the part that
can: the fix "allow other GPUs", re-planned alone, becomes the body of the memo — its setup, start command, latency
table, costs and next steps — while the plan stays infeasible as asked and keeps the blocker that says why (blind
review q19: "the L20 fix is not sized in detail (no command or latency table) … next steps test a server that
cannot exist"). The setup as asked is kept beside it (``as_asked_hardware``), for comparison only.
"""

from __future__ import annotations

from advisor.plan.result import PlanResult

UNAVAILABLE = ("gpu.not_in_region", "gpu.not_offered_offshore")  # the GPUs asked for are not had there
# assumptions said with the setup's own figures (the served context's limit and what the KV cache holds there:
# ``served_context38.restate``): the body's setup is the re-plan's, so these are its sayings (blind review 36, q19:
# "served up to 8,192 … holds 36 requests" from the H100 asked, beside an L20 command with --max-model-len 5120)
SETUP_ASSUMPTIONS = ("max_context_tokens",)


def blocked_on_asked_gpus(result: PlanResult) -> bool:
    """The plan's own setup is on a GPU the answers asked for that cannot be had where it runs."""
    if result.feasible or not any(f.id in UNAVAILABLE and f.severity == "blocker" for f in result.findings):
        return False
    asked = (result.answers or {}).get("gpu_constraint") or []
    return bool(result.hardware.gpu) and (not asked or result.hardware.gpu in asked)


def adopt_replacement(result: PlanResult, replanned: PlanResult | None) -> PlanResult:
    """``result`` with the re-planned fix's setup as its body, when the asked GPUs are what blocks it and the fix
    alone is feasible; otherwise ``result`` unchanged. Feasibility and the blocker stay those of the plan as asked."""
    if replanned is None or not replanned.feasible or not replanned.hardware.gpu or not blocked_on_asked_gpus(result):
        return result
    blockers = [f for f in result.findings if f.id in UNAVAILABLE and f.severity == "blocker"]
    kept = {f.id for f in blockers}
    setup_said = {a.field: a for a in replanned.assumptions if a.field in SETUP_ASSUMPTIONS}
    assumptions = [setup_said.get(a.field, a) if a.field in SETUP_ASSUMPTIONS else a for a in result.assumptions]
    return result.model_copy(update={
        "as_asked_hardware": result.hardware,
        "hardware": replanned.hardware, "capacity": replanned.capacity, "costs": replanned.costs,
        "cost_series": replanned.cost_series, "latency_curve": replanned.latency_curve,
        "timeline": replanned.timeline, "binding_constraint": replanned.binding_constraint,
        "gpu_choice": replanned.gpu_choice, "line_cost": replanned.line_cost, "nodes": replanned.nodes,
        "next_steps": replanned.next_steps, "deployment_form": replanned.deployment_form, "line": replanned.line,
        # the layouts tried were the asked GPUs' ("TP1 on H100 is the one chosen" beside an L20 plan: q19 review)
        "layouts_tried": replanned.layouts_tried,
        "start_with": replanned.start_with,  # the fix's costs: the hosted API weighed against them (s20-hosted20)
        "findings": [*blockers, *(f for f in replanned.findings if f.id not in kept)],
        "assumptions": assumptions,
    })  # fmt: skip


__all__ = ["UNAVAILABLE", "adopt_replacement", "blocked_on_asked_gpus"]
