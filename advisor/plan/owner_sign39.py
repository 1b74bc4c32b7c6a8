"""Page 1's owner decision under a hosted-API lead on another model, or served from another place than the node
(s37-owner, issue 25; blind review 28).

Reviewers of q12, q13, q22 and q24 (both languages): the lead "quietly switches the model" (Qwen3-14B for the
Qwen2.5-14B-Instruct asked for, Qwen3-32B on Cerebras for Qwen2.5-32B) and, in q12/q22, sends the prompts on to
Singapore from a Hong Kong node. "That is a product decision for the owner, not a pricing footnote: put it first and
say what happens if Qwen3-14B fails the test, which is the ¥12,743–¥21,586 fallback"; "the boss must explicitly
approve both, and customers will want to know prompts go to Singapore". The lead's "Model change" bullet said the
test but not whose decision it is, nor what the fallback costs; it came third.

So where the lead has a model change (``model37``) or the API serves from another place than the node
(``plan.apikept25.runs.near``), its first bullet is the owner's decision: what changes, that it is theirs to sign off
(after the quality test on their own prompts; the prompts' second place told to the customers, named in the consent
and contract where they hold personal information), and what happens if the model fails (or the owner declines): the
self-hosted fallback, serving the model asked for where the node is, at its whole month (the line included where
priced: ``Costs.monthly_with_line``, the figure page 1's cost row prints). The model-change details (the deprecation,
the list it is priced on, thinking off) follow in the same bullet, said once; "if it fails that test" leaves the
"When to self-host" bullet, which the decision now says.

s38-swap (blind review 29, q12/q13/q22/q24 both languages): the bold line still read as THE decision ("present it
as the choice it is, next to the self-hosted fallback, in the headline": "API if Qwen3-14B passes your quality test
and customers accept Singapore; otherwise self-host Qwen2.5-14B in HK at ¥12,743–¥21,586"). So where the decision
bullet applies, the bold line itself is that choice (``head``): the API on the other model if it passes the test
(thinking off where the model thinks by default) and, where the prompts go on to another place, the customers
accept it; otherwise the model asked for, self-hosted at the node, at the fallback's whole month. The bullet keeps
the sign-off and what a second place adds to the customers' paperwork; the fallback's month is said once, there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import api_thinking
from advisor.plan.money_text import symbol_range

Render = Callable[[str, str, "dict[str, Any] | None"], str]

K = "owner39_lead"
NEAR = "plan.apikept25.runs.near"  # the API served from another place than the node, outside the mainland
# the model-change clauses said shorter in the decision bullet: the test and the fallback are its own words there
SHORT = {"plan.apisg23.switch": f"{K}.switch", "apinext32.switch": f"{K}.next", "permil33.switch": f"{K}.next"}
HEAD = "swap40_lead"  # s38-swap: the bold line as the owner's choice
LIVE = ("plan.apilead21.", "plan.apisg23.", "apinext32.lead.")  # ``lead_line.LIVE_LEADS`` (no import cycle)


def attach(start: Any, costs: Any) -> Any:
    """``start`` with the self-hosted fallback's whole month (``fallback39``: the line in it where priced) for the
    decision bullet; unchanged where the lead is not a live service's API lead or the plan has no month."""
    if start is None or start.form != "hosted_api" or not str(start.key).startswith(LIVE) or costs is None:
        return start
    month = costs.monthly_with_line or costs.recommended_monthly
    if month is None:
        return start
    fallback = {"month": symbol_range(month.low, month.high, costs.currency),
                "line": costs.monthly_with_line is not None}
    return start.model_copy(update={"params": {**start.params, "fallback39": fallback}})


def near(parts: list[Any]) -> dict[str, Any] | None:
    """The data path's clause where the API serves from another place than the node (its ``where`` and ``region``)."""
    return next((p for p in parts if isinstance(p, dict) and p.get("tr") == NEAR), None)


def shorter(part: Any) -> Any:
    """A model-change clause without its own test and fallback words (the decision says them)."""
    if isinstance(part, dict) and part.get("tr") in SHORT:
        ref = part.get("ref") or ""  # the lead's list, cited by its number where the memo numbers it
        return {**part, "tr": SHORT[str(part["tr"])], "ref": f"\u00a0{ref}" if ref else ""}
    return part


def head(params: dict[str, Any], runs: dict[str, Any] | None, variant: str, lang: str, render: Render) -> str:
    """The bold line as the owner's choice ("" where the decision bullet does not apply): the API if the other model
    passes the test (and the customers accept the second place), otherwise the model asked for self-hosted."""
    change, fallback = params.get("model37"), params.get("fallback39")
    if not isinstance(fallback, dict) or not (isinstance(change, dict) or runs is not None):
        return ""
    values: dict[str, Any] = {"start": params.get("start", ""), "fallback": fallback["month"],
                              "line": {"tr": f"{K}.line"} if fallback["line"] else "",
                              "region": {"tr": f"{K}.in", "region": runs.get("region", "")} if runs is not None else "",
                              "accept": ""}
    if runs is not None:
        values["where"] = runs.get("where", "")
    if not isinstance(change, dict):
        choice = render(lang, f"{HEAD}.choice.place", values)
    else:
        if runs is not None:
            values["accept"] = {"tr": f"{HEAD}.accept", "where": runs.get("where", "")}
        think = bool(api_thinking.thinkers(str(change.get("other", ""))))
        values.update(other=change["other"], asked=change["asked"], think={"tr": f"{HEAD}.think"} if think else "")
        choice = render(lang, f"{HEAD}.choice.model", values)
    return render(lang, f"{HEAD}.head.{variant}", {**params, "choice": choice})


def bullet(params: dict[str, Any], runs: dict[str, Any] | None, changes: str, lang: str, render: Render) -> str:
    """The decision bullet ("" where neither the model nor the place changes, or the fallback has no month)."""
    change, fallback = params.get("model37"), params.get("fallback39")
    if not isinstance(fallback, dict) or not (isinstance(change, dict) or runs is not None):
        return ""
    values: dict[str, Any] = {"fallback": fallback["month"], "line": {"tr": f"{K}.line"} if fallback["line"] else "",
                              "changes": changes}
    where: Any = ""
    if runs is not None:
        values.update(where=runs.get("where", ""), region=runs.get("region", ""))
        # the data path already names the onward transfer in the consent and contract (its ``law`` clause, q12):
        # the decision says the place and the customers, not the contract again (q12 en: a sixth page otherwise)
        where = {"tr": f"{K}.where{'_told' if runs.get('law') else ''}", "where": runs.get("where", "")}
    if not isinstance(change, dict):
        return render(lang, f"{K}.place", values)
    values.update(other=change["other"], asked=change["asked"], where=where,
                  region={"tr": f"{K}.in", "region": runs.get("region", "")} if runs is not None else "")
    return render(lang, f"{K}.model", values)


__all__ = ["attach", "bullet", "head", "near", "shorter"]
