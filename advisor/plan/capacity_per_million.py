"""The cost per million tokens at the setup's planned capacity (issue 25, s20-costtoken20).

Ninth blind review (q02, q24, q42, q43): the memos printed "$61–171 per million output tokens" or "¥233–789",
the plan's monthly cost divided by a guessed volume (a staff tool's head count × 20 requests), next to hosted APIs
at about ¥1 / $0.2 a million. A setup's cost per token is a property of the setup: what it costs a month over the
tokens it can serve in a month at its stated throughput (the sizing table's output tokens/s with every replica at
its planned load; input at the plan's prompt:output mix) and a stated average utilisation (the cost table's, the
one the break-even uses). That is the figure here, with its basis written beside it (``Costs.per_million_basis``)
so the memo says what it is; at full use it is that figure × the utilisation (the lowest this setup can reach).

Beside it, the figure at the month's own volume (``per_million_basis["own_volume"]``): the monthly cost ÷ the tokens
row, answered or estimated, with the share of the capacity that volume fills (s21-costbasis21, round 10: q24's
"$1.2–3.39 a million output" at 40 % busy beside a volume that keeps the setup about 2 % busy; the memo says the
own-volume figure first and the capacity's as what a token would cost if the setup were kept that busy). The paid-API margin finding (``cost.token_margin``) reads the capacity figure through
``token_cost_split.per_million_split`` as the memo does: one basis.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import Costs, MoneyRange
from advisor.plan.token_cost_split import basis_tokens, per_million_split, volume_split

HOURS_PER_MONTH = 730.0  # as advisor.plan.cost bills a month
# how a month's volume was counted from the user's own answers (advisor.plan.burst.volume): the only volumes a
# cost per million tokens "at your volume" may be quoted on
ANSWERED_VOLUMES = frozenset({"plan.burst15.volume.rpd", "plan.burst15.volume.rpd_bursty",
                              "plan.burst15.volume.batch"})


def _per_m(monthly: MoneyRange, tokens: float) -> MoneyRange:
    # four decimals: in US dollars a million tokens can cost a tenth of a dollar (s15-batchcost)
    return MoneyRange(low=round(monthly.low * 1e6 / tokens, 4), high=round(monthly.high * 1e6 / tokens, 4))


def set_monthly(costs: Costs, low: float, high: float) -> None:
    """The monthly cost (answers' currency) the per-million figures divide, with the figures at the month's volume
    (the one place that division is written: the cloud, owned, two-node and bought forms each call it). ``apply``
    then rebases them on the setup's capacity once the capacity is known."""
    costs.per_million_monthly = MoneyRange(low=round(low, 2), high=round(high, 2))
    out_tokens, in_tokens = costs.output_tokens_per_month or 0, costs.input_tokens_per_month or 0
    costs.cost_per_million_output_tokens = costs.cost_per_million_tokens = None
    if out_tokens > 0:
        costs.cost_per_million_output_tokens = _per_m(costs.per_million_monthly, out_tokens)
        costs.cost_per_million_tokens = _per_m(costs.per_million_monthly, out_tokens + in_tokens)


def answered_volume(costs: Costs) -> bool:
    """The month's tokens were counted from the user's own answers, not assumed."""
    return bool(costs.volume_basis) and str((costs.volume_basis or {}).get("tr")) in ANSWERED_VOLUMES


def capacity_tokens(output_tokens_per_s: float, utilisation: float, input_per_output: float) -> tuple[float, float]:
    """(output, input) tokens a month the setup serves at ``output_tokens_per_s`` busy ``utilisation`` of the hours,
    input at the plan's prompt:output mix."""
    out = output_tokens_per_s * 3600 * HOURS_PER_MONTH * utilisation
    return out, out * input_per_output


def billed_gpus(costs: Costs) -> float | None:
    """GPUs billed on average where the monthly cost the figures divide is the rented bill and it bills fewer GPUs
    than the setup holds (replicas beyond the always-on ones started only for part of the month, s20-consist20: q36
    counted every replica busy 20 % of the month while the two burst ones were billed for the bursts only); None
    elsewhere. The middle of an assumed range (``cloud_billed_gpus``): the tokens one figure, the cost its range."""
    monthly, gpus, billed = costs.per_million_monthly, costs.gpus, costs.cloud_billed_gpus
    rented = [m for m in (costs.cloud_monthly, costs.cloud_on_demand_monthly) if m is not None]
    if monthly is None or gpus <= 0 or billed is None or \
            not any((m.low, m.high) == (monthly.low, monthly.high) for m in rented):
        return None
    return billed if 0 < billed < gpus else None


def apply(costs: Costs, output_tokens_per_s: float | None, input_per_output: float, nodes: int = 1) -> None:
    """The cost per million tokens rebased on the setup's capacity × the cost table's utilisation; the month's
    volume figures kept apart (``own_volume``, answered or estimated). A no-op for a batch (one job's
    cost over its own, counted tokens: already the job's figure) or where no throughput or monthly cost is known.
    ``nodes``: the nodes whose throughput ``output_tokens_per_s`` adds up (a mainland + overseas plan: 2).

    The capacity counts the replica-hours the cost pays for: where replicas are billed only part of the month
    (``billed_gpus``), the throughput of every replica is taken over the GPUs billed on average."""
    monthly = costs.per_million_monthly
    if costs.per_job or monthly is None or not output_tokens_per_s or output_tokens_per_s <= 0:
        return
    util = costs.utilisation
    if util <= 0:
        return
    # the month's own volume kept beside the capacity's figure, answered or estimated (s21-costbasis21)
    costs.cost_per_million_output_tokens_volume = costs.cost_per_million_output_tokens
    costs.cost_per_million_tokens_volume = costs.cost_per_million_tokens
    billed = billed_gpus(costs) if nodes == 1 else None
    share = billed / costs.gpus if billed is not None else 1.0
    tokens = costs.output_tokens_per_month or 0
    # the output tokens the usage is a share of (``utilisation`` = ``output_tokens`` ÷ ``full_output_tokens``): the
    # capacity's over the GPU-hours billed, or below, what the setup serves with every replica fully busy
    full_out = capacity_tokens(output_tokens_per_s * share, 1.0, input_per_output)[0]
    if costs.usage_from_tokens and tokens > 0:
        # issue 25: the figure at the month's own tokens, so no per-token cost at another share is stated. Their
        # share is the cost table's one usage (``costs.utilisation``: the tokens over what the setup serves with
        # every replica busy around the clock, usage_share), never a second reading of another capacity
        # (s26-usage26: q11's basis said 40 % beside the row's 24 %, q24's 0.9 % beside 0.5 %)
        out, inp = float(tokens), float(tokens) * input_per_output
        full_out = tokens / util  # usage_share.full_tokens: the denominator of the GPU-use row's share
    else:
        out, inp = capacity_tokens(output_tokens_per_s * share, util, input_per_output)
    costs.cost_per_million_output_tokens = _per_m(monthly, out)
    costs.cost_per_million_tokens = _per_m(monthly, out + inp)
    costs.per_million_basis = {"basis": "capacity", "output_tokens_per_s": round(output_tokens_per_s, 1),
                               "utilisation": util, "output_tokens": round(out), "input_tokens": round(inp),
                               "full_output_tokens": round(full_out), "nodes": nodes}
    if billed is not None:
        costs.per_million_basis |= {"billed_gpus": billed, "gpus": costs.gpus}
    cap = per_million_split(costs)
    if cap is not None:  # input and output apart as the memo splits them (by GPU time), for a reader of the JSON
        costs.per_million_basis |= {"input": _pair(cap[0]), "output": _pair(cap[1])}
    own = own_volume(costs, full_out)
    if own is not None:
        costs.per_million_basis["own_volume"] = own


def own_volume(costs: Costs, full_output_tokens: float) -> dict[str, Any] | None:
    """The figures at the month's own volume (s21-costbasis21, round 10: q24's "$1.2–3.39 a million output at 40 %
    busy" beside a volume that keeps the setup about 2 % busy): the tokens, the share of the setup's capacity they
    fill (``busy``: output tokens ÷ what the setup serves fully busy), whether the user's answers gave that volume,
    and the monthly cost ÷ those tokens, input and output apart where the plan splits its GPU time."""
    tin, tout = costs.input_tokens_per_month or 0, costs.output_tokens_per_month or 0
    out_v = costs.cost_per_million_output_tokens_volume
    if tout <= 0 or full_output_tokens <= 0 or out_v is None:
        return None
    got: dict[str, Any] = {"input_tokens": round(tin), "output_tokens": round(tout),
                           "busy": round(tout / full_output_tokens, 4), "answered": answered_volume(costs)}
    split = volume_split(costs)
    if split is not None:
        got |= {"input": _pair(split[0]), "output": _pair(split[1])}
    return got


def _pair(lo_hi: tuple[float, float]) -> dict[str, float]:
    return {"low": round(lo_hi[0], 4), "high": round(lo_hi[1], 4)}


def input_per_output(costs: Costs, prompt_avg: float, output_avg: float) -> float:
    """The plan's prompt:output mix: the month's own token counts where known (two nodes' sum), else the answers'."""
    tin, tout = costs.input_tokens_per_month, costs.output_tokens_per_month
    if tin and tout:
        return float(tin) / float(tout)
    return prompt_avg / max(output_avg, 1.0)


__all__ = ["ANSWERED_VOLUMES", "HOURS_PER_MONTH", "answered_volume", "apply", "basis_tokens", "billed_gpus",
           "capacity_tokens", "own_volume",
           "input_per_output", "set_monthly"]
