"""Page 1 says what an assumed TPOT target gives a consumer chat's users (s35-chatspeed, blind review 26: q05, q20, q37).

With no TPOT target the plan assumes P99 ≤ 100 ms a token (``context``: about 10 tokens a second) and sizes to it.
For a public chat service that is loose: q37's L4 TP2 runs at a P50 of 58.2 ms (about 17 tokens/s each) at the
peak, q05's Singapore node on 3 × L4 at a P99 of 71.0 ms (about 14 tokens/s), and the reviewers read both as
sluggish for chat. The decision stays (it meets the target it was sized to); page 1 says, in one sentence, that the
target was assumed, what the users will see, and, where the plan already priced a faster setup with its predicted
TPOT (``node_quicker`` on the overseas node), that setup with its monthly cost difference. Where the peak is within the
line but the replicas left with one down are not (q20: 50 users on the one L4 left, 71.7 ms at P99), it says that
load's figures, from the latency table's column at it.

The line is the plan's own rule of thumb, ``fp8_gain.TPOT_FLOOR_MS`` (50 ms, 20 tokens a second: below it the
stream runs ahead of a reader; grade U, no source sets it: the public write-ups found put comfortable chat reading
at about 10-20 tokens/s, informal and no firmer), said in the sentence as the plan's own rule of thumb."""

from __future__ import annotations

from typing import Any

from advisor.plan import chat_rule38, sure_fallback
from advisor.plan.fp8_gain import TPOT_CUT, TPOT_FLOOR_MS
from advisor.plan.money_text import number_text
from advisor.plan.result import render

FIELD = "latency_slo.tpot_p99_ms"
# the slow tail said where it misses the line by a material step (``fp8_gain.TPOT_CUT``: 66.7 ms, 15 tokens/s at
# P99); a P99 just over 50 ms beside a median near 30 tokens/s is no complaint of a reader (q07, q32: 51.8-54.8 ms)
TAIL_MS = TPOT_FLOOR_MS / (1 - TPOT_CUT)


def slow(p50: float | None, p99: float | None) -> bool:
    """The typical stream under the line (P50 over 50 ms: under 20 tokens/s), or its slow tail well past it."""
    return (p50 is not None and p50 > TPOT_FLOOR_MS) or (p99 is not None and p99 > TAIL_MS)


QUICK = ("gpuchoice24.node_quicker", "gpuchoice24.node_quicker_stand_in", "np43.node_quicker",
         "np43.node_quicker_stand_in")  # the last two: the same card named as the part to quote first (node_quote43)


def applies(result: Any) -> bool:
    """An interactive service for the public (as answered) whose TPOT target the plan assumed, unless rules, not the
    part, block it for months (q07: the filing; its page 1 is the blockers', its speed for later)."""
    a = result.answers or {}
    return (not sure_fallback.blocked_off_hardware(result) and a.get("use_case") == "interactive" and a.get("audience") == "public"
            and any(x.field == FIELD for x in result.assumptions))


def _assumed_ms(result: Any) -> float | None:
    got = next((x.value for x in result.assumptions if x.field == FIELD), None)
    return float(got) if isinstance(got, (int, float)) else None


def sentence(result: Any, lang: str) -> str:
    """The one sentence, or "" (a target given, not a public chat, or every stream at 20 tokens/s or faster)."""
    if not applies(result):
        return ""
    target = _assumed_ms(result)
    if target is None:
        return ""
    node = _node(result)
    if node is not None:  # the overseas node, slower than the main one: its users see the slower stream
        cost = chat_rule38.cost_of_rule(result)  # the rule's plan over the budget: what it costs, after the node's
        tail = {"tr": "chat5038_page1.node_cost", "cost": cost} if cost is not None else ""
        return render(lang, "chatspeed37_page1.node", {**node, "target": number_text(target), "tail": tail})
    cap = result.capacity
    p50, p99 = (getattr(cap, "tpot_p50_ms", None), getattr(cap, "tpot_p99_ms", None)) if cap is not None else (None, None)
    if p50 is None or p99 is None:
        return ""
    user = getattr(cap, "output_tokens_per_s_per_user", None) or 1000.0 / p50
    params = {"target": number_text(target), "tpot": f"{p50:,.1f}", "p99": f"{p99:,.1f}",
              "speed": number_text(user, 1), "floor": number_text(TPOT_FLOOR_MS),
              "floor_speed": number_text(1000.0 / TPOT_FLOOR_MS), "tail": _tail(result)}
    if slow(p50, p99):
        return render(lang, "chatspeed37_page1.main", params)
    down = _one_down(result)  # q20: within the line at the peak, 50 users on the one L4 left with the other down
    if down is None:
        return ""
    return render(lang, "chatspeed37_page1.down", {**params, **down})


def _tail(result: Any) -> dict[str, Any]:
    """"Give a TPOT target", or, where the plan kept the looser target because the rule's setup is over the budget
    or none meets it (``chat_rule38.kept``), what meeting it costs."""
    cost = chat_rule38.cost_of_rule(result)
    return {"tr": "chat5038_page1.cost", "cost": cost} if cost is not None else {"tr": "chat5038_page1.give"}


def _one_down(result: Any) -> dict[str, Any] | None:
    """The TPOT each serving replica runs at with one unit down (the latency table's column at the plan's own load
    per serving replica, ``Capacity.load_per_serving_replica``), where its P99 is over the line; None otherwise."""
    cap, curve = result.capacity, result.latency_curve
    down = getattr(cap, "load_per_serving_replica", None)
    if not down or curve is None:
        return None
    pt = next((p for p in curve.points if p.concurrency == down), None)
    if pt is None or pt.tpot_p50_ms is None or pt.tpot_p99_ms is None or not slow(pt.tpot_p50_ms, pt.tpot_p99_ms):
        return None
    one = getattr(cap, "serving_replicas", None) == 1  # "the one replica left runs all 50", not "each … 50"
    return {"left": {"tr": "chatspeed37_page1.left_one" if one else "chatspeed37_page1.left_each",
                     "down": number_text(down)}, "down_tpot": f"{pt.tpot_p50_ms:,.1f}", "down_p99": f"{pt.tpot_p99_ms:,.1f}",
            "down_speed": number_text(1000.0 / pt.tpot_p50_ms, 1)}


def _node(result: Any) -> dict[str, Any] | None:
    """The overseas node's P99 TPOT and the faster setup priced there (``region.split``'s ``node_quicker`` part),
    where the node's slow tail is well past the line and the faster one within it."""
    f = next((x for x in result.findings if x.id == "region.split"), None)
    if f is None:
        return None
    quick = f.params.get("faster")
    if not isinstance(quick, dict) or quick.get("tr") not in QUICK or not quick.get("more"):
        return None
    tpot, other = quick.get("tpot_ms"), quick.get("other_tpot_ms")
    if not isinstance(tpot, (int, float)) or not isinstance(other, (int, float)):
        return None
    if not slow(None, tpot) or other > TPOT_FLOOR_MS:  # the node's P99 alone is known (``node_quicker``)
        return None
    return {"overseas": f.params.get("overseas"), "tpot": f"{tpot:,.1f}", "speed": number_text(1000.0 / tpot),
            "n": quick["n"], "gpu": quick["gpu"], "other_tpot": f"{other:,.1f}", "more": quick["more"],
            "floor": number_text(TPOT_FLOOR_MS)}


__all__ = ["applies", "sentence"]
