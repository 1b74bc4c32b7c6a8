"""Section 4's rows of a public chat priced as chats (issue #25, blind review 23, q16: "the cost table in section 4
still leads with the per-request figure ¥34–73 and labels the volume '2,000 requests a day'").

Where ``cost.chat_turns`` prices the answers' requests a day as chats of a few turns (page 1 leads with that month),
the hosted-API row leads with the same month and keeps the single-request month in one parenthesis, the one place
it is said; the tokens row, which counts each request once, says what the chats multiply it by. Elsewhere the rows
are as they were.
"""

from __future__ import annotations

from typing import Any

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


def tokens_clause(result: Any, lang: str) -> str:
    """" — as chats of 3–5 turns, history resent: about 7–18 × the input and 3–5 × the output" after the tokens row;
    "" where not a chat's."""
    p = _turns(result)
    if p is None:
        return ""
    return render(lang, "steps34.cost.tokens_chats", {k: p[k] for k in ("n1", "n2", "in1", "in2", "out1", "out2")})


__all__ = ["hosted_row", "tokens_clause"]
