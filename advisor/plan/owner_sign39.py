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

s39-swap (blind review 31, q12/q13/q22/q24 both languages: "present it as an option, not as the decision", "split it
into the decision, the sign-offs needed and the costs", "lift the filing risk into the headline"): one shape for
every such memo. The bold line names the default and that it is the owner's to sign off (``head``); one bullet lists
the sign-off's conditions, numbered: the quality test (thinking off, its model card: said once, here), the customers
accepting the second place, the provider's retention and rate-limit terms at the peak in writing, and the filing a
company with no mainland entity cannot make where ``genai.signup_no_entity`` stands (its article and ways out; the
sign-up question then points here: ``question_said``); then "Otherwise": the model asked for, self-hosted at the
node, at the fallback's whole month (``bullets``). Page 1 is no longer than before (memo_pages).

s40-swap (blind review 32, q12/q22/q24 both languages): the filing a company with no mainland entity cannot make
"can block both paths: raise it from a sign-off condition to a blocker to clear with counsel first": its own line
above the conditions (``swap42.blocker``), the sign-up question pointing there. Where the API serves from another
place than the node, the bold line says the path plainly ("a front-end host in Hong Kong calling the API of
<provider> in Singapore": q12 en), and where a cross-border regime names each recipient (PIPL, from a Hong Kong node
with mainland users: ``LAW_NAMED``) the condition says the notice, the separate consent, the standard contract and
the impact assessment must name the provider there (q12 en/zh; its name in the bold line), not the data path in
passing. A service sold to businesses adds the provider as its customers' new subprocessor: their contracts'
subprocessor clauses (notice, DPA review) are part of the terms-in-writing condition, with the provider's DPA (q24
zh; q24 en: "a paid B2B feature needs the provider's DPA … in writing"); en says it short (q12/q13 en at five pages,
a few millimetres to spare). The fallback on the model asked for is named as the other choice ("Or keep Qwen2.5-14B-Instruct", q22: "offer it as an
option beside the model the customer asked for"), the recommendation kept in the bold line.

s41-swap (blind review 34, q12/q13/q22/q24 both languages): the API lead still read as THE decision with the asked
model's self-host a footnote ("present both as the owner's choice, the self-host of the asked model as prominent as
the API, its month beside the API's"). So the bold line says there are two ways and whose choice it is (``head``),
then A) the model asked for, self-hosted at the node, at the fallback's whole month, and B) the API path on its
model at its whole month, with what B changes said in one clause: a model change (its quality test) and a second
data recipient (named in the standard contract and consent where the regime names each recipient) (``choices``).
The conditions are B's sign-off; the thinking switch (`enable_thinking: false`) moves to the API's next step, where
the test is run (``api_lead_steps``: q12/q24 zh "move it out of the headline"). The filing a company with no mainland
entity cannot make is said as what it is for a service sold to contracted business customers (the only case
``genai.signup_no_entity`` stands): a question to confirm with counsel, a blocker only if sign-up is open to the
public (q13/q22: "either it gates launch or it doesn't"); the lead's "allowed under the contract below" names the
contract (q12 en: it "points to no contract").
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
K41 = "swap41"  # s39-swap: the default, the sign-off's conditions, then what to do otherwise
QUESTION_KEY = "apilead34.assume.open_signup_no_entity"  # ``genai_no_entity_rules.QUESTION_KEY``
FILING = "genai.signup_no_entity"  # ``genai_no_entity_rules.RULE_ID`` (a public service's filing it cannot make)
CHAIN = "plan.apisg23.after_switch"  # a chained clause: the model switch, then the rest (``parts``)
LIVE = ("plan.apilead21.", "plan.apisg23.", "apinext32.lead.")  # ``lead_line.LIVE_LEADS`` (no import cycle)
K43 = "sw43"  # s41-swap: two ways, the owner's choice; the filing question said as conditional
K42 = "swap42"  # s40-swap: the blocker first, the path said plainly, the onward recipient and the subprocessor named
# the onward transfers whose regime names each recipient in the notice, consent and transfer instrument
# (``hosted_where.transfer_law``): said as a condition, not in the data path's clause (q12: PIPL from Hong Kong)
LAW_NAMED = {"plan.apiregion21.law.hong_kong_mainland": f"{K42}.cond.place_pipl"}


def attach(start: Any, costs: Any, findings: Any = (), business: bool = False, line: Any = None) -> Any:
    """``start`` with the self-hosted fallback's whole month (``fallback39``: the line in it where priced) for the
    decision bullet, whether a public service's filing the company cannot make stands (``findings``: s39-swap), and
    whether the service is sold to businesses (their contracts' subprocessor clauses: s40-swap); unchanged where the
    lead is not a live service's API lead or the plan has no month."""
    if start is None or start.form != "hosted_api" or not str(start.key).startswith(LIVE) or costs is None:
        return start
    month = costs.monthly_with_line or costs.recommended_monthly
    if month is None:
        return start
    fallback = {"month": symbol_range(month.low, month.high, costs.currency),
                "line": costs.monthly_with_line is not None,
                # the line priced at another region's rate: said where its figure is (blind review 36, q13)
                "line_from": getattr(line, "stand_in_from", None) if costs.monthly_with_line is not None else None,
                "filing": any(getattr(f, "id", "") == FILING for f in findings), "business": business}
    return start.model_copy(update={"params": {**start.params, "fallback39": fallback}})


def says_filing(start: Any) -> bool:
    """Page 1's lead lists the filing a company with no mainland entity cannot make among the sign-off's conditions
    (``bullets``): a live service's API lead on another model, or served from another place, with the risk flagged."""
    if start is None or start.form != "hosted_api" or str(start.key).endswith(".batch"):
        return False
    params = start.params or {}
    fallback = params.get("fallback39")
    if not isinstance(fallback, dict) or not fallback.get("filing"):
        return False
    said = params.get("near") if isinstance(params.get("near"), dict) else {}
    assert isinstance(said, dict)
    return isinstance(params.get("model37"), dict) or near(parts(said.get("runs")) + parts(said.get("near"))) is not None


def question_said(questions: list[Any], start: Any) -> list[Any]:
    """The sign-up question's assumption in short where the lead's conditions say the filing risk (s39-swap: page 1
    said it twice, and q12/q13 en went to a sixth page): the ways out stay in the question's own words."""
    if not says_filing(start):
        return questions
    return [q.model_copy(update={"assumption_key": f"{K43}.assume.open_signup_said"})
            if q.assumption_key == QUESTION_KEY else q for q in questions]


def parts(value: Any) -> list[Any]:
    """A chained clause's parts in reading order ("" parts dropped); here, not in ``lead_bullets``, which imports
    this module (an import back from there would be a cycle)."""
    if isinstance(value, dict) and value.get("tr") == CHAIN:
        return parts(value.get("switch")) + parts(value.get("rest"))
    return [value] if value else []


def near(parts: list[Any]) -> dict[str, Any] | None:
    """The data path's clause where the API serves from another place than the node (its ``where`` and ``region``)."""
    return next((p for p in parts if isinstance(p, dict) and p.get("tr") == NEAR), None)


def law_named(runs: Any) -> str:
    """The condition's key where the data path's transfer law names each recipient (``LAW_NAMED``), else ""."""
    law = runs.get("law") if isinstance(runs, dict) else None
    inner = law.get("law") if isinstance(law, dict) else None
    return LAW_NAMED.get(str(inner.get("tr", "")), "") if isinstance(inner, dict) else ""


def shorter(part: Any) -> Any:
    """A model-change clause without its own test and fallback words (the decision says them)."""
    if isinstance(part, dict) and part.get("tr") in SHORT:
        ref = part.get("ref") or ""  # the lead's list, cited by its number where the memo numbers it
        return {**part, "tr": SHORT[str(part["tr"])], "ref": f"\u00a0{ref}" if ref else ""}
    return part


def head(params: dict[str, Any], runs: dict[str, Any] | None, variant: str, lang: str, render: Render) -> str:
    """The bold line: two ways, the owner's to choose ("" where the decision does not apply). s41-swap (blind review
    34): the ways themselves follow it as A) and B) (``choices``)."""
    change, fallback = params.get("model37"), params.get("fallback39")
    if not isinstance(fallback, dict) or not (isinstance(change, dict) or runs is not None):
        return ""
    return render(lang, f"{K43}.head", None)


def _path(params: dict[str, Any], runs: dict[str, Any] | None) -> Any:
    """The API path's opening words: where the API serves from another place than the node, the path said plainly
    (s40-swap, q12 en: "say 'an HK front-end host calling Alibaba's Singapore API'"), else the lead's own start."""
    start = params.get("start", "")
    if runs is not None and runs.get("region") and runs.get("providers"):
        # its verb kept: "start" where a later move to the mainland can follow, else "deploy" (``filedwait38``)
        verb = "deploy" if isinstance(start, dict) and str(start.get("tr", "")).startswith("filedwait38") else "start"
        start = {"tr": f"{K42}.start.path.{verb}", "region": runs["region"], "where": runs.get("where", ""),
                 "providers": runs["providers"]}
    return start


def choices(params: dict[str, Any], runs: dict[str, Any] | None, variant: str, lang: str,
            render: Render) -> list[str]:
    """A) the model asked for, self-hosted at the node, at the fallback's whole month; B) the API path on its model
    at its whole month, and what it changes: a model change (its quality test), a second data recipient (named in
    the standard contract and consent where the regime names each recipient) ([] where the decision does not apply).
    s41-swap (blind review 34, q12/q13/q22/q24): "both presented as the owner's choice, the self-host option given
    equal prominence on page 1, its month beside the API's"."""
    change, fallback = params.get("model37"), params.get("fallback39")
    if not isinstance(fallback, dict) or not (isinstance(change, dict) or runs is not None):
        return []
    region = _region(params, runs)
    line: Any = {"tr": f"{K}.line"} if fallback["line"] else ""
    if fallback.get("line_from"):  # the line at another region's rate (blind review 36, q13)
        line = {"tr": "prc44.line.stand_in", "from": {"tr": f"plan.region.{fallback['line_from']}"}}
    values: dict[str, Any] = {"fallback": fallback["month"], "line": line,
                              "region": {"tr": f"{K}.in", "region": region} if region else ""}
    a = render(lang, f"{K43}.a.model", {**values, "asked": change["asked"]}) if isinstance(change, dict) \
        else render(lang, f"{K43}.a.place", values)
    start = _path(params, runs)
    said = render(lang, f"{K43}.b.on", {"start": start, "other": change["other"]}) if isinstance(change, dict) \
        else (render(lang, str(start["tr"]), {k: v for k, v in start.items() if k not in ("tr", "clause")})
              if isinstance(start, dict) and "tr" in start else str(start))
    said = said[:1].upper() + said[1:] if lang == "en" else said
    changes: list[str] = []
    if isinstance(change, dict):
        changes.append(render(lang, f"{K43}.b.model", None))
    if runs is not None:
        kind = "place_named" if law_named(runs) else "place"
        changes.append(render(lang, f"{K43}.b.{kind}", {"where": runs.get("where", "")}))
    what = changes[0] if len(changes) == 1 else render(lang, f"{K43}.b.and", {"a": changes[0], "b": changes[1]})
    cost = params.get("cost37")
    money = render(lang, f"{K43}.b.cost", {"total": cost["total"], "whole": cost["whole"]}) \
        if isinstance(cost, dict) and cost.get("total") else ""
    # the API's contract as your processor is the Data path bullet's (q12 en: "allowed under the contract below"
    # pointed to no contract): said there only; the terms an API's contract meets (``lead_terms``) said here
    after = render(lang, f"{K43}.after.{variant}", params) if variant == "lead_terms" else ""
    return [a, render(lang, f"{K43}.b", {"choice": said, "cost": money, "changes": what, "after": after})]


def _region(params: dict[str, Any], runs: dict[str, Any] | None) -> Any:
    """Where the fallback self-hosts: the node (the data path's region, else the host's the lead priced)."""
    if runs is not None and runs.get("region"):
        return runs["region"]
    cost = params.get("cost37")
    return cost.get("region", "") if isinstance(cost, dict) else ""


def bullets(params: dict[str, Any], runs: dict[str, Any] | None, lang: str, render: Render,
            thinks: Any = None) -> list[str]:
    """The conditions of the sign-off as one short numbered list, then what to do otherwise ([] where neither the
    model nor the place changes, or the fallback has no month).

    s39-swap (blind review 31, q12/q13/q22/q24 both languages): "split it into the decision, the sign-offs needed and
    the costs"; "the real risks of the API path are data retention and rate limits at the peak: get both in writing";
    the generative-AI filing a company with no mainland entity cannot make, where the engine flags it
    (``genai.signup_no_entity``), "lift it into the headline"."""
    change, fallback = params.get("model37"), params.get("fallback39")
    if not isinstance(fallback, dict) or not (isinstance(change, dict) or runs is not None):
        return []
    items: list[str] = []
    if isinstance(change, dict):
        # s41-swap (q12/q24 zh: "move `enable_thinking: false` out of the headline"): thinking off said in short
        # here, the switch itself in the API's next step, where the test is run (``api_lead_steps``)
        think: Any = {"tr": f"{K43}.cond.think"} if isinstance(thinks, dict) or api_thinking.thinkers(
            str(change.get("other", ""))) else ""
        items.append(render(lang, f"{K41}.cond.test", {"other": change["other"], "think": think}))
    if runs is not None:
        named = law_named(runs)
        if named:  # s40-swap (q12): the regime names each recipient: the notice, consent, contract and PIA name it
            items.append(render(lang, named, {"where": runs.get("where", ""), "providers": runs.get("providers", "")}))
        else:
            # the data path already names the onward transfer under its own law (its ``law`` clause)
            told: Any = "" if runs.get("law") else {"tr": f"{K41}.cond.told_pi"}
            items.append(render(lang, f"{K41}.cond.place", {"where": runs.get("where", ""), "told": told}))
    peak = params.get("peak")
    # s40-swap (q24): a service sold to businesses makes the provider its customers' new subprocessor
    writing = f"{K42}.cond.writing_b2b" if fallback.get("business") else f"{K41}.cond.writing"
    items.append(render(lang, writing if peak else f"{writing}_nopeak", {"peak": peak}))
    # s41-swap (q13/q22: "either it gates launch or it doesn't"): for contracted business customers a question to
    # confirm with counsel, a blocker only if sign-up is open to the public; A needs it as much as B
    blocker = [render(lang, f"{K43}.blocker", None)] if fallback.get("filing") else []
    listed = ("；" if lang == "zh_CN" else "; ").join(
        render(lang, f"{K41}.item", {"n": i, "text": t.strip()}) for i, t in enumerate(items, 1))
    # s41-swap: the self-hosted way is A) above (``choices``), not an "Otherwise" after the conditions
    return [*blocker, render(lang, f"{K41}.cond.label", {"items": listed})]


__all__ = ["attach", "bullets", "choices", "head", "law_named", "near", "question_said", "says_filing", "shorter"]
