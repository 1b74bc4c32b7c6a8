"""A public chat service with no TPOT target is sized to the plan's chat rule of thumb (s36-chat50, blind review 27:
q05, q20, q37, q14).

The plan assumed P99 ≤ 100 ms a token for every interactive service without a TPOT target, and page 1 then judged the
public chat's stream against 50 ms a token (20 tokens/s), "this plan's rule of thumb for chat": it sized to one
figure and judged by another (q37: L4 TP2 at P50 58.2 ms; q20: 71.7 ms at P99 with one replica down). One figure now
serves both: for an interactive service whose users are the public (as answered) and whose TPOT target (and
per-user speed) was not given, the assumed target is ``RULE_MS`` itself, so every setup sized to it, N+1 included,
streams within it with one replica down. Where no setup sized to it is feasible within the budget, the plan sized
to the looser ``LOOSE_MS`` is kept, and page 1 says it is under the rule and what meeting it costs
(``chat_speed37``), from the rule-sized plan's own setup and month (``kept``). A staff tool and a batch job keep
``LOOSE_MS`` (their users are not the public's readers: q14's reviewer reads 62.9 ms as acceptable for a reminder
service, said as such).

``RULE_MS``: policy (U), 50 ms a token, 20 tokens a second: below it the stream runs ahead of a reader; no source
sets it (the public write-ups found put comfortable chat reading at about 10-20 tokens/s, informal and no firmer).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

RULE_MS = 50.0  # policy (U): the chat rule of thumb (20 tokens a second), the assumed target and the page-1 line
LOOSE_MS = 100.0  # policy (U): the TPOT assumed where no target was given and the rule does not apply (10 tokens/s)
FIELD = "latency_slo.tpot_p99_ms"
KEY = "chat5038_assume.tpot_rule"  # the assumption as sized to the rule
KEY_KEPT = "chat5038_assume.tpot_kept"  # the looser assumption kept: the rule not met within the budget

# set False around the re-plan at ``LOOSE_MS`` (its fixes and open questions re-resolve the answers inside it)
SIZE_TO_RULE: ContextVar[bool] = ContextVar("chat5038_size_to_rule", default=True)


def applies(answers: Any, use_case: str | None = None) -> bool:
    """A public interactive service (as answered) with neither a TPOT target nor a per-user speed given."""
    slo = getattr(answers, "latency_slo", None)
    given = slo is not None and (slo.tpot_p99_ms is not None or slo.min_output_tok_s_per_user)
    return (use_case or getattr(answers, "use_case", None) or "interactive") == "interactive" \
        and getattr(answers, "audience", None) == "public" and not given


def assumed_ms(answers: Any, use_case: str) -> tuple[float, str | None]:
    """The TPOT target to assume and its assumption's key (None: the plain one at ``LOOSE_MS``)."""
    if applies(answers, use_case) and SIZE_TO_RULE.get():
        return RULE_MS, KEY
    return LOOSE_MS, None


def good_enough(result: Any) -> bool:
    """The rule-sized plan stands: feasible, not over the budget (unknown where no budget was given), and not left
    without its spare to fit it (a public service's N+1: one failure would stop the rule's setup outright)."""
    return bool(result.feasible) and result.costs.within_budget is not False and not _no_spare(result)


def _no_spare(result: Any) -> bool:
    """One unit and no spare in the plan (``sizing.single_point``, not its "added" case: the spare then is in)."""
    return any(f.id == "sizing.single_point" and "added" not in f.title_key for f in result.findings)


def _blockers(result: Any) -> set[str]:
    return {f.id for f in result.findings if f.severity == "blocker"}


def no_worse(ruled: Any, loose: Any) -> bool:
    """The rule-sized plan blocked by nothing the looser one is not (q20: a China-market part asked for offshore
    blocks both), and not over the budget: the rule's plan stands, its fixes sized to the rule too."""
    return ruled.costs.within_budget is not False and _blockers(ruled) <= _blockers(loose) \
        and (not _no_spare(ruled) or _no_spare(loose))


# Blockers a looser TPOT target cannot lift: the law's findings, whichever hardware serves (the target moves the GPUs,
# their count and the month — ``cost.``, ``sizing.``, ``gpu.``, … — never a filing, a licence or a data duty).
TARGET_FREE = ("pi.", "icp.", "genai.", "fin.", "eu.", "edu.", "mlps.", "med.", "minors.", "labour.", "confidentiality.")


def blocked_alike(ruled: Any) -> bool:
    """``no_worse`` holds whatever the looser plan holds, so it need not be made (planning speed, issue 27: q07 made
    four full plans, its fixes re-planned in each): the rule-sized plan is within the budget, has its spare, and is
    blocked only by findings the target cannot lift (q07: 双减 and the filing's wait)."""
    blockers = _blockers(ruled)
    return bool(blockers) and all(b.startswith(TARGET_FREE) for b in blockers) \
        and ruled.costs.within_budget is not False and not _no_spare(ruled)


def kept(loose: Any, ruled: Any) -> None:
    """The plan at ``LOOSE_MS`` kept: its TPOT assumption says the rule is not met and what meeting it costs (the
    rule-sized plan's setup and month where it is feasible, over the budget; else that no setup reaches it)."""
    from advisor.plan.money_text import money_range, number_text
    from advisor.plan.result import MoneyRange

    i = next((n for n, x in enumerate(loose.assumptions) if x.field == FIELD), None)
    if i is None:
        return
    hw, costs = ruled.hardware, ruled.costs
    month = costs.recommended_monthly
    if hw.gpu and month is not None and costs.within_budget is not False and _no_spare(ruled):
        cost: dict[str, Any] = {"tr": "chat5038_cost.no_spare", "n": hw.total_gpus, "gpu": hw.gpu_name or hw.gpu,
                                "month": money_range(month, costs.currency)}
    elif hw.gpu and month is not None and not _blockers(ruled) - _blockers(loose) - {"cost.budget_short"} \
            and costs.budget_monthly:
        # a two-node plan's GPUs are of two parts (``hardware`` is the mainland node's): their count in all
        budget = MoneyRange(low=costs.budget_monthly, high=costs.budget_monthly)
        cost = {"tr": "chat5038_cost.over_nodes" if ruled.nodes else "chat5038_cost.over", "n": hw.total_gpus,
                "gpu": hw.gpu_name or hw.gpu, "month": money_range(month, costs.currency),
                "budget": money_range(budget, costs.currency)}
    else:
        cost = {"tr": "chat5038_cost.none"}
    got = loose.assumptions[i]
    loose.assumptions[i] = got.model_copy(update={"key": KEY_KEPT, "params": {
        **got.params, "rule": number_text(RULE_MS), "rule_speed": number_text(1000.0 / RULE_MS), "cost": cost}})


def cost_of_rule(result: Any) -> dict[str, Any] | None:
    """What meeting the rule costs, where the plan kept the looser target (``kept``); None otherwise."""
    got = next((x for x in result.assumptions if x.field == FIELD and x.key == KEY_KEPT), None)
    return got.params.get("cost") if got is not None else None


__all__ = ["LOOSE_MS", "RULE_MS", "SIZE_TO_RULE", "applies", "blocked_alike", "assumed_ms", "cost_of_rule", "good_enough", "kept", "no_worse"]
