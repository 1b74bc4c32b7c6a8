"""Page 1's reasons under a hosted-API lead: the API's own first, the fallback's labelled as the fallback's
(s35-apihead, issue 25; blind review 26: q12, q13, q16, q27, q36).

Under an API lead page 1 started on the API, then listed "What decides it:" with the findings that decide the
self-hosted plan (the ICP filing, BGP, "4 replicas × L20 meet the target at the peak"): the hosted-API finding is
the lead itself (``memo_lead_once.reasons_past_paragraph``), so every reason left was the fallback's. Reviewers of
q12 and q13 (en) and q36 (zh) read the list as the recommendation ("a boss will not know which one was
recommended"). So the API's reasons come first, each from a figure or answer the plan already holds:

- the API runs another model than the one asked for (the lead's ``model37``): the owner's decision, said first,
  taken only if it passes the team's quality test (thinking off where it thinks by default; s35-apicond, review 27);
- a bursty load (``load_pattern``): the API is taken only with a written rate limit at the peak's concurrency (q36
  zh: "the real risk"), said first as the condition it is;
- the volume against the break-even: the lead's own figures (``StartWith.params["be"]``), never recomputed;
- the budget: the lead's own verdict on the API's month with the line (``lead_line._with_budget``), only where it
  gave one (a total another helper may extend is judged there, not here);
- no GPUs to run for a team with no or basic operations staff (``ops_capability``);
- the data may go to the API: the lead's verdict in short (nothing rules it out / a contract meets what is raised /
  allowed under the contract).

The fallback's reasons follow under their own heading (the template's). Nothing of the engine's decision changes.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import api_thinking, memo_self_host_rows
from advisor.plan.result import render

K = "apihead37_why"
NEVER_KEY = "hostline39_be.never"  # ``hosted_lead.NEVER_KEY`` (not imported: that module imports much of the plan)
DECIDE = "apicond37_why.decision"  # s35-apicond (blind review 27): another model's API, the owner's to sign off
OPS_LIGHT = ("none", "basic")  # the answers' operations capability that a provider's GPUs spare


def applies(result: Any, lead: str) -> bool:
    """Page 1 prints a hosted-API lead (``lead``: its text, "" where none) and names this plan as the fallback."""
    return bool(lead) and memo_self_host_rows.api_leads(result)


def _variant(key: str) -> str:
    """How the lead weighs the API: lead (nothing rules it out), lead_terms (a contract meets it), lead_dpa."""
    tail = key.rsplit(".", 1)[-1]
    return tail if tail in ("lead_terms", "lead_dpa") else "lead"


def reasons(result: Any, lang: str) -> list[dict[str, Any]]:
    """The API's reasons in page 1's list shape (``title``, ``verify``, ``id``), condition first."""
    start = result.start_with
    params: dict[str, Any] = dict(start.params or {})
    answers = result.answers or {}
    out: list[str] = []
    # s35-apicond: the owner's call on another model, before all else; said once where the lead's own decision bullet
    # says it with the fallback's month (``owner_sign39``: page 1 named the swap three times, q12/q13 en at 6 pages)
    decision = "" if isinstance(params.get("fallback39"), dict) else model_decision(params, lang)
    if decision:
        out.append(decision)
    peak = params.get("peak") or answers.get("peak_concurrency")
    if answers.get("load_pattern") == "bursty" and peak:
        out.append(render(lang, f"{K}.burst_quota", {"peak": peak}))
    be = params.get("be")
    if isinstance(be, dict) and be.get("tr") == NEVER_KEY:  # s37-hostline: the lead's one conclusion, said alike
        out.append(render(lang, "hostline39_why.never", {}))
    elif isinstance(be, dict) and be.get("tokens") and be.get("volume") and be.get("times"):
        shape = "high" if str(be.get("tr", "")).endswith(".high") else "flat"  # a range's high end, as the lead says
        out.append(render(lang, f"{K}.volume.{shape}", {"volume": be["volume"], "tokens": be["tokens"],
                                                        "times": be["times"]}))
    budget = within_budget(params)
    # s39-swap (blind review 31): under the owner's sign-off on another model the price bullet right under it says the
    # path's month within the budget (the lead's ``whole``): not said again here, page 1 no longer than it was
    if budget is not None and not (isinstance(params.get("fallback39"), dict) and isinstance(params.get("model37"), dict)):
        # s39-swap (blind review 31, q24 en): "the host and the line included" on a path with no line bought apart
        cost = params.get("cost37")
        host_only = isinstance(cost, dict) and not cost.get("line")
        out.append(render(lang, "swap41.why.budget_host" if host_only else f"{K}.budget", budget))
    if answers.get("ops_capability") in OPS_LIGHT:
        out.append(render(lang, f"{K}.ops.{answers['ops_capability']}", {}))
    variant = _variant(start.key)
    if variant != "lead_dpa":  # its head already says "allowed under the contract below": not said twice
        out.append(render(lang, f"{K}.data.{variant}", {}))
    return [{"id": f"{K}.{i}", "title": t, "verify": False} for i, t in enumerate(out)]



def model_decision(params: dict[str, Any], lang: str) -> str:
    """The owner's decision where the API runs another model than the one asked for (the lead's ``model37``: a
    deprecated model's next generation, another model's list), "" elsewhere. Blind review 27 (q12, q13, q22, q24):
    "both headlines quietly change the model the team asked for … put to the team as an explicit decision", "API if
    the quality test passes … thinking turned off as gating items". Thinking off only where the lead's model-change
    bullet says the model thinks by default (``api_thinking``: the same test on the same name)."""
    change = params.get("model37")
    if not isinstance(change, dict) or not change.get("other"):
        return ""
    think = "_think" if api_thinking.thinkers(str(change["other"])) else ""
    return render(lang, f"{DECIDE}{think}", {"other": change["other"], "asked": change.get("asked", "")})


def within_budget(params: dict[str, Any]) -> dict[str, str] | None:
    """The path's whole month and the budget where the lead judged that month within it (``lead_line.with_line``:
    tokens + host + line, s35-apicost), else None: never "within" where a part has no price or the top is over."""
    cost = params.get("cost37")
    if not isinstance(cost, dict):
        return None
    whole = cost.get("whole")
    if not (isinstance(whole, dict) and whole.get("tr") == "apicost37_lead.whole.all"):
        return None
    verdict = whole.get("verdict")
    said = verdict.get("verdict") if isinstance(verdict, dict) else None
    if not (isinstance(said, dict) and str(said.get("tr", "")).endswith(".within")):
        return None
    return {"total": str(cost.get("total", "")), "budget": str(said.get("budget", ""))}


__all__ = ["applies", "model_decision", "reasons", "within_budget"]
