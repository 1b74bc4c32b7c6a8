"""The serve command's ``--max-model-len`` where the KV cache holds far more than the planned context needs (blind
review 27, q02: "'--max-model-len 4096' is needlessly tight for drafting briefs and translating when the card holds
'102,944 tokens of KV cache'; set 16k–32k").

The plan sizes for a context it assumes when none is given (p95 prompt + p95 answer, at least 4,096 tokens:
``context.py``). That length is what the sizing needs, not what the server must refuse beyond: where the replica's
KV cache still holds every request the command admits at once (``--max-num-seqs``, the peak's and the failover's
load) at a longer context, the command allows the longest such power of two, capped by the model's own maximum.
Where the KV cache is the limit (it does not hold them at the planned context), the planned context stays.

Only a context whose memory estimate keeps the same KV tokens is taken (``advisor.sizing.memory``: a longer context
can raise the engine's batched-token budget and with it the activation memory), so every KV figure the memo quotes,
and the latency table simulated on them, stay the sized ones; only the count of requests at the full context is
re-read at the longer length (``at_full``)."""

from __future__ import annotations

import dataclasses

from advisor.i18n import translate
from advisor.plan import sizing
from advisor.plan.capacity import engine_cap, one_down_load
from advisor.plan.context import Ctx
from advisor.plan.result import Assumption

# the command's limit this many times the sized context or more reads as another plan beside it (q40: 4,096 and
# 32768): the reason is said at the command too, not only in section 8's assumptions
FAR = 4
FIELD = "max_context_tokens"  # the assumption the plan states for a context it was not given (context.py)
# each of context.py's two sayings of the assumed context, with the longer limit the command sets
RAISED_KEY = {"plan.assume.max_context_tokens": "dsv3cmd38_assume.context_raised",
              "plan.assume.max_context_tokens_floor": "dsv3cmd38_assume.context_raised_floor"}


def _assumed(ctx: Ctx) -> bool:
    return any(a.field == FIELD for a in ctx.assumptions)


def _pow2_floor(n: int) -> int:
    return 1 << (n.bit_length() - 1) if n > 0 else 0


def admitted(ctx: Ctx, ch: sizing.Candidate) -> int:
    """The most requests a replica runs at once: the serve command's cap, the peak's and the failover's load."""
    return max(engine_cap(ctx, ch), ch.per_replica, one_down_load(ctx, ch) or 0, 1)


def served(ctx: Ctx, ch: sizing.Candidate | None) -> tuple[int, int]:
    """(the serve command's --max-model-len, its requests at the full context a replica). The planned context and
    ``ch.memory``'s count unless the context was assumed, the job is a service, and a longer one holds them all."""
    if ch is None or ctx.is_batch or not _assumed(ctx) or ch.memory.kv_tokens <= 0:
        return ctx.max_context, ch.memory.max_concurrency_kv if ch is not None else 0
    m = ch.memory
    most = admitted(ctx, ch)
    if m.max_concurrency_kv < most:  # the KV cache is the limit: the context stays as tight as planned
        return ctx.max_context, m.max_concurrency_kv
    n = min(_pow2_floor(m.kv_tokens // most), int(ctx.model.max_context))
    engine = sizing._engine(ctx, ch.gpu)
    while n > ctx.max_context:
        fit = sizing._memory(dataclasses.replace(ctx, max_context=n), ch.gpu, ch.weights, ch.kv_dtype, ch.tp, engine)
        if fit.kv_tokens == m.kv_tokens and fit.max_concurrency_kv >= most:
            return n, fit.max_concurrency_kv
        n = _pow2_floor(n - 1)
    return ctx.max_context, m.max_concurrency_kv


def restate(assumptions: list[Assumption], planned: int, allowed: int | None, seqs: int,
            held: int | None = None) -> list[Assumption]:
    """The assumed context said with the longer limit the serve command sets (the server refuses only past it), and
    ``held``, the requests a replica's KV cache holds there: the sizing table's "at the full …" count, so the two
    agree (blind review 35, q03: "22 at the full 8,192" beside "the KV cache holds the 12 run at once there")."""
    if not allowed or allowed <= planned:
        return assumptions
    return [a.model_copy(update={"key": RAISED_KEY[a.key], "params": {**a.params, "served": f"{allowed:,}",
                                                                      "seqs": seqs, "held": f"{held or seqs:,}"}})
            if a.field == FIELD and a.key in RAISED_KEY else a for a in assumptions]


def command_note(assumptions: list[Assumption], lang: str) -> str:
    """Beside the serve command, why its --max-model-len is longer than the context the plan is sized for (blind
    review 29, q40: "the serve command sets --max-model-len 32768 while the plan is sized for 4,096"); section 8's
    assumption says the same with how the sized context was found. Empty where the command keeps the sized one or
    raises it less than ``FAR`` times."""
    raised = next((a for a in assumptions if a.field == FIELD and a.key in RAISED_KEY.values()), None)
    if raised is None:
        return ""
    p = raised.params
    value = raised.value if isinstance(raised.value, int) else p.get("value")
    served = int(str(p["served"]).replace(",", ""))
    if not isinstance(value, int) or served < FAR * value:  # a step up (7,168 → 8,192): section 8's line says it
        return ""
    return translate(lang, "misc40_context.command_note", flag=str(served), served=p["served"], value=f"{value:,}",
                     seqs=p["seqs"])


__all__ = ["RAISED_KEY", "admitted", "command_note", "restate", "served"]
