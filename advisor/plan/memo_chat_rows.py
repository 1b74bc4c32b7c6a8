"""Section 4's rows of a public chat priced as chats (issue #25, blind review 23, q16: "the cost table in section 4
still leads with the per-request figure ¥34–73 and labels the volume '2,000 requests a day'").

Where ``cost.chat_turns`` prices the answers' requests a day as chats of a few turns (page 1 leads with that month),
the hosted-API row leads with the same month and keeps the single-request month in one parenthesis, the one place
it is said; the tokens row, which counts each request once, says what the chats multiply it by. Elsewhere the rows
are as they were.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import chat_turns
from advisor.plan.money_text import about, round_money
from advisor.plan.result import render


def _turns(result: Any) -> dict[str, Any] | None:
    f = result.finding("cost.chat_turns")
    return f.params if f is not None and "chats" in f.params else None


def hosted_row(result: Any, lang: str, single: str, input_rate: str, output_rate: str) -> str:
    """The hosted-API row as chats (``single``: the month at one request each, formatted); "" where not a chat's."""
    p = _turns(result)
    if p is None:
        return ""
    return render(lang, "steps34.cost.hosted_chats", {"chats": p["chats"], "n1": p["n1"], "n2": p["n2"],
                                                      "single": single, "input": input_rate, "output": output_rate})


def tokens_value(result: Any, lang: str) -> str:
    """The tokens row of a public chat priced as chats: the month as chats of 3–5 turns first (the volume page 1 and
    the hosted-API row price), the answers' count a day named as chats, and the month at one request each in the
    closing bracket (s34-volume36, blind review 25, q16: "Fix the token row labelled '按每天约 2,000 次请求': the
    situation says 2,000 conversations", and a newcomer read the single-request 36,480,000 as the real month); ""
    where not a chat's. The factors are ``chat_turns.factors`` of the answers' prompt and answer."""
    p = _turns(result)
    c = result.costs
    if p is None or c is None or not c.output_tokens_per_month or c.input_tokens_per_month is None:
        return ""
    tin, tout = float(c.input_tokens_per_month), float(c.output_tokens_per_month)
    lo_in, lo_out = chat_turns.factors(p["prompt"], p["output"], p["n1"])
    hi_in, hi_out = chat_turns.factors(p["prompt"], p["output"], p["n2"])
    return render(lang, "volume36.tokens.chats", {
        "in_lo": about(tin * lo_in), "in_hi": about(tin * hi_in), "out_lo": about(tout * lo_out),
        "out_hi": about(tout * hi_out), "requests": p["requests"], "n1": p["n1"], "n2": p["n2"],
        "single_in": round_money(tin), "single_out": round_money(tout)})


__all__ = ["hosted_row", "tokens_value"]
