"""The cost per million tokens left out where it decides nothing (s21-costbasis21, issue 25; round 10).

Reviewers read the cost per million tokens and the tokens-a-month rows as padding for a 4-user LAN tool (q02) and
for a hosted-API plan (q15): the office box costs what it costs however many tokens a handful of staff send, and a
plan that pays a hosted API per token pays the API's rate, not a self-hosted one. So:

- an internal tool on the office LAN, or one a handful of staff use at once (``HANDFUL`` at the peak): the box is
  bought or rented whole, and what a token costs on it changes nothing the memo decides; the tokens row stays, one
  line, as what the hosted API's row is priced on;
- a plan on a hosted API: the "if you served it yourself" per-million row is dropped (the hosted API's own rates
  stand in its row);
- a plan not feasible as asked (a launch blocked by a filing, a budget or a part that cannot be had): what a token
  would cost on a setup that cannot launch decides nothing until the blocker goes (the fix ladder costs each way
  out); q07, the longest memo, went to a sixth page on it (session 21).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate

HANDFUL = 10  # at most this many requests at once: a handful of staff

_PER_MILLION = ("memo4.cost.per_million", "memo.text15.cost.per_million", "memo.text15.cost.per_million_self",
                "memo.cost.per_million_tokens", "memo.cost.per_million_all")


def small_office(result: Any) -> bool:
    """An internal tool on the office LAN, or one a handful of staff use at once."""
    a = result.answers or {}
    if a.get("audience") != "internal" or result.deployment_form == "hosted_api":
        return False
    peak = a.get("peak_concurrency")
    return a.get("reach") == "lan" or (peak is not None and peak <= HANDFUL)


def drops_per_million(result: Any) -> bool:
    """The memo leaves the per-million rows out (a hosted-API plan, a small office tool, a plan not feasible)."""
    return result.deployment_form == "hosted_api" or small_office(result) or not result.feasible


def fold(rows: list[tuple[str, str]], result: Any, lang: str) -> list[tuple[str, str]]:
    """``rows`` less the per-million rows on a hosted-API plan or a small office tool; the tokens row stays (the
    hosted API's monthly cost prices it)."""
    if not drops_per_million(result):
        return rows
    per_million = {translate(lang, k) for k in _PER_MILLION}
    return [(label, value) for label, value in rows if label not in per_million]


__all__ = ["HANDFUL", "drops_per_million", "fold", "small_office"]
