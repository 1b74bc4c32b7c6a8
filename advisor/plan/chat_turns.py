"""A chat counted by the day is priced as single requests: say that basis, and what several turns with their history
resent would make of the month (the eleventh blind review, q16: "the cost treats 2,000 conversations/day as 2,000
single requests of 600/200 tokens. Multi-turn chats resend history, so real volume is likely 5–10x").

The answers count requests a day; a team describing a chatbot often counts conversations there. A chat API is
stateless: each turn sends the whole conversation so far. With ``N`` turns of ``p`` prompt and ``o`` answer tokens,
turn ``k`` sends ``k·p + (k−1)·o`` tokens and receives ``o``, so a conversation costs

    input  = p·N(N+1)/2 + o·N(N−1)/2        output = N·o

against ``p`` and ``o`` for one request (no prompt caching priced: no sourced cached-input rate). The finding states
the plan's basis (single requests) and the hosted API's month at ``TURNS`` turns a conversation (an illustration,
grade U: no source here gives a chatbot's turns), whether it stays within the budget, and how to answer so the plan
counts it. Only for a chatbot offered to the public (a staff tool's requests are taken as counted), and only where
the cost is the hosted API's, per token; a GPU plan's cost follows its peak.
"""

from __future__ import annotations

from advisor.plan import cost as costmod
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _range, finding, rule

# turns a conversation, for the illustration (grade U, a planning figure: a support chat's few exchanges)
TURNS = (3, 5)


def factors(prompt: int, output: int, turns: int) -> tuple[float, float]:
    """(input, output) tokens of one conversation of ``turns`` turns over one request's, history resent."""
    p, o, n = max(prompt, 1), max(output, 1), turns
    return (p * n * (n + 1) / 2 + o * n * (n - 1) / 2) / p, float(n)


def _count(rpd: tuple[int, int] | None) -> str:
    lo, hi = rpd or (0, 0)
    return f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}"


def at_turns(f: Facts) -> list[tuple[int, float, float, float, float]]:
    """(turns, input factor, output factor, month low, month high in the answers' currency) at each of ``TURNS``."""
    c, costs = f.ctx, f.cost.costs
    out_m, in_m, conv = costs.output_tokens_per_month, costs.input_tokens_per_month or 0.0, f.cost.conv
    months = []
    for n in TURNS:
        fi, fo = factors(c.prompt_avg, c.output_avg, n)
        lo, hi = costmod.hosted_api_monthly(c, out_m * fo, in_m * fi)
        months.append((n, fi, fo, lo * conv, hi * conv))
    return months


def applies(f: Facts) -> bool:
    """A public chat counted in requests a day, priced on a hosted API per token (``chat_turns``'s condition)."""
    c = f.ctx
    if c.is_batch or c.answers.use_case != "interactive" or c.audience != "public" or c.requests_per_day is None \
            or f.form != "hosted_api" or f.cost is None or f.hosted_monthly is None:
        return False
    return bool(f.cost.costs.output_tokens_per_month) and f.cost.costs.input_tokens_per_month is not None


def monthly_as_chats(f: Facts, single: str) -> dict[str, object] | str:
    """The hosted API's month led by its figure as chats of a few turns, the single-request figure ``single`` after
    it (blind review 18, q16: "since the situation says 'chats', the headline should lead with the multi-turn figure,
    not the single-request ¥34–73"); ``single`` alone where the month is not a public chat's."""
    if not applies(f):
        return single
    months = at_turns(f)
    return {"tr": "memo29.hosted.monthly_chats", "chats": _range(months[0][3], months[-1][4], f),
            "n1": months[0][0], "n2": months[-1][0], "single": single}


@rule("cost.chat_turns", "cost")
def chat_turns(f: Facts) -> Finding | None:
    """An interactive chat whose volume is requests a day, on a hosted API: the month's basis (single requests) and
    its price at a few turns a conversation with the history resent."""
    c = f.ctx
    # a chatbot for the public (a shop's or a service's website) is a conversation; a staff tool's requests a day
    # (q15's writing helper, "about 200 requests a day") are taken as the team counted them
    if not applies(f):
        return None
    assert f.cost is not None and f.hosted_monthly is not None  # ``applies`` holds them
    conv = f.cost.conv
    months = at_turns(f)
    budget = c.budget_amount
    top = months[-1][4]
    verdict = "" if not budget else {"tr": "batch21.turns.within" if top <= budget else "batch21.turns.over",
                                     "budget": _range(budget, budget, f)}
    lo, hi = f.hosted_monthly
    (n1, i1, o1, lo1, hi1), (n2, i2, o2, lo2, hi2) = months
    return finding("cost.chat_turns", prompt=c.prompt_avg, output=c.output_avg,
                   requests=_count(c.requests_per_day), monthly=_range(lo * conv, hi * conv, f),
                   n1=n1, in1=round(i1), out1=round(o1), cost1=_range(lo1, hi1, f),
                   n2=n2, in2=round(i2), out2=round(o2), cost2=_range(lo2, hi2, f), verdict=verdict,
                   chats=_range(lo1, hi2, f))  # fmt: skip  # ``chats``: page 1's figure (memo_api_only.cost_text)
