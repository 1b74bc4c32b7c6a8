"""Page 1's hardware and cost rows under an API lead: the hosted API first, the self-hosted plan as the fallback
(s35-apipage, blind review 24: q12, q13, q21, q22).

s27-apilead27 headed the summary table's value column "If you self-host (the plan to move to)" and left every row the
self-hosted plan's. Reviewers of q12, q13, q21 and q22 (both languages) still read page 1 as describing the wrong
plan: "the recommendation is a Singapore-served API behind a Hong Kong host, but the table describes the fallback
L40S plan"; "a reader cannot tell what is actually being bought". So the column is "Value" again, and the two rows
that differ between the paths say the led one first:

    Hardware: none to run: a hosted API served from <where> (or: (<its provider>)); if you self-host: <the
              self-hosted GPUs and weights; the full text where a clause follows it>
    Cost:     about <the API's month> on the API, plus <the line's month> for the line (its size and source); the
              host server … is not priced here: quote it. If you self-host: <as before, the line's total said short>

q12 en sits at the five-page edge: the rows say where the API serves from rather than its provider where the lead's
first words name the place (its data-path bullet names the provider), and the self-hosted GPUs without their layout
(section 2's). Every figure is one the lead's price bullet (``StartWith.params``) or the self-hosted row already
states: nothing new is computed. s35-apicost (blind review 26): the host the API path needs in front of it is priced where ``front_host37`` has a row,
and the row opens on the path's whole month (tokens + host + line); where the host or the line has no sourced price
(the mainland's host, q13's line), the row says so: unknown stays unknown. Launch, budget and feasibility hold for either path.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import burstbill37, line_total, memo_self_host_rows, phased_cost
from advisor.plan.money_text import money_range
from advisor.plan.result import render

K = "apipage35.key"
# the lead's "top" clauses that carry the network line's price beside the API's high end (``hosted_lead``)
MAINLAND = "plan.apiregion21.where.mainland"
COST = "apicost37_key"  # s35-apicost: the API path's whole month (the lead's ``cost37``: tokens, host, line)


def applies(result: Any) -> bool:
    """The Decision opens on a hosted API, this plan what to move to (``memo_self_host_rows.api_leads``)."""
    return memo_self_host_rows.api_leads(result)


def _found(value: Any, name: str) -> Any:
    """The first ``name`` parameter anywhere in the lead's nested clauses (the provider list, where it serves from)."""
    if isinstance(value, dict):
        if value.get(name):
            return value[name]
        for v in value.values():
            if (hit := _found(v, name)) is not None:
                return hit
    return None


def hardware(result: Any, lang: str, self_hosted: str) -> str:
    """"none to run: a hosted API (Alibaba Cloud Model Studio (International), served from Singapore) (the
    self-hosted fallback's GPUs: above)"."""
    params = result.start_with.params
    providers, where = _found(params, "providers"), _found(params, "where")
    start = params.get("start")
    if where and isinstance(start, dict) and start.get("where"):  # the lead's first words name where it serves from
        providers = None  # and its data-path bullet the provider: the row says where alone (q12 en: five pages)
    if isinstance(where, dict) and where.get("tr") == MAINLAND:  # "served from mainland China", not "from mainland"
        where = {"tr": "plan.region.mainland"}
    api = render(lang, f"{K}.api.{'named' if providers else 'plain'}{'.where' if where else ''}",
                 {"providers": providers or "", "where": where or ""})
    # the API alone: the fallback's GPUs are said in its own line above (s36-apiplace, review 27 q16: "a newcomer
    # will read it as part of the plan"); ``self_hosted`` kept in the signature for the row table's call
    del self_hosted
    return render(lang, "apiplace38_key.hardware", {"api": api})


def cost(result: Any, lang: str, self_hosted: str) -> str:
    """The API's month as the lead prices it, the line and the unpriced host said, then the self-hosted row's text."""
    params = result.start_with.params
    cost37 = params.get("cost37") if isinstance(params.get("cost37"), dict) else {}
    assert isinstance(cost37, dict)
    c = result.costs
    if c.phased is not None:  # the fallback's months before and after the move and its first-year total: section 4's
        # (cst44, blind review 35, q21: "a boss will read it as the cost of the recommendation")
        self_hosted = self_hosted.replace(phased_cost.key_text(c.phased, c.currency, lang), "")
    line = bool(cost37.get("line"))
    values: dict[str, Any] = {"hosted": params.get("hosted", ""), "per": params.get("per", ""),
              "self": self_hosted}  # its high end is the lead's, two lines up (q12 en: a sixth page otherwise)
    if cost37.get("host"):  # s35-apicost: the path's whole month, its host priced (``lead_line``, ``front_host37``)
        values.update(total=cost37["total"], host=cost37["host"], region=cost37.get("region") or "",
                      grade=cost37.get("grade", ""), cost=cost37.get("line", ""), source="")
        if line:
            values["self"] = _line_said(result, lang, self_hosted, values)
            # a host read from a list other than AWS's (the mainland's): the line's size and terms kept beside the
            # total, as the row said them before the host was priced (s42-api, q36: "ask for pay-by-traffic")
            key = "api44.key.cost.all" if cost37.get("vendor") not in (None, "", "aws") and values["source"] else \
                f"{COST}.cost.all"
            return render(lang, key, values)
        return render(lang, f"{COST}.cost.{'host_open' if cost37.get('no_line') else 'host'}", values)
    if line:  # the line priced, the host's server not (the mainland: no sourced VM row)
        values.update(cost=cost37["line"], region=cost37.get("region") or "", source="")
        values["self"] = _line_said(result, lang, self_hosted, values)
        return render(lang, f"{K}.cost.line", values)
    if result.line_cost is not None and result.line_cost.monthly is None:  # neither the host nor its line (q13)
        return render(lang, f"{K}.cost.unpriced", values)
    return render(lang, f"{K}.cost.plain", values)


def _line_said(result: Any, lang: str, self_hosted: str, values: dict[str, Any]) -> str:
    """The self-hosted row's text with the line's long clause said short, its size and source moved to the line's
    first figure (``values["source"]``, set here): q12 en stays on five pages."""
    long, lc, c = line_total.key_clause(result, lang), result.line_cost, result.costs
    if not (long and long in self_hosted and lc is not None and c.monthly_with_line is not None):
        return self_hosted
    src = lc.source
    values["source"] = render(lang, f"{K}.line_source", {
        "mbps": f"{lc.mbps:,.0f}", "date": src.date if src else "", "grade": src.grade if src else "U",
        "traffic": burstbill37.line_clause(result, lang)})  # a fixed line for event days: per GB asked (s35, q36)
    said = render(lang, f"{K}.with_line", {"total": money_range(c.monthly_with_line, c.currency)})
    if lc.stand_in_from:  # the line at another region's rate, said beside the total it is in (review 36, q13)
        said += render(lang, "prc44.line.stand_in_total", {"from": {"tr": f"plan.region.{lc.stand_in_from}"}})
    return self_hosted.replace(long, said)


__all__ = ["applies", "cost", "hardware"]
