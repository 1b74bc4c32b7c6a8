"""The hosted-API lead as a short sentence and a few bullets (s34-apilead34, issue 25; blind review 23).

Reviewers of q11, q12, q13, q16, q21, q22 and q24 (both languages): page 1's lead was one 200–350-word paragraph
mixing the API's price, where it runs and who sees the prompts, a change of model, self-hosting's cost and the
break-even ("a boss will not get through it; split it into bullets"). The lead's parts are already separate clauses
in ``StartWith.params`` (``hosted_lead.start_with`` chains them into one sentence run); here they are laid out:

    **Start … on a hosted API (pay per token):** one sentence: cheaper, and whether the answers rule it out.
    - **Price:** the API's month (and the line, the budget) against the self-hosted plan's; the quote to beat.
    - **Where it runs:** the path each prompt takes (user → your service's host → the API's region), whose
      contract, which terms to get in writing.
    - **Model change:** a deprecated model's next generation, another model's list, thinking off, long prompts:
      each with the quality test the API is taken on (only where there is one).
    - **When to self-host:** the break-even volume and the conditions that send the team to the self-hosted plan.

The same words as before, each said once; only the layout and the bullets' labels are new. Used for the live
service's leads (``lead_line.LIVE_LEADS``); a batch job's lead and a kept plan's paragraph are short already.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.plan import api_cost_brief42, api_thinking, owner_sign39
from advisor.plan.money_text import symbol_range
from advisor.plan.owner_sign39 import parts

Render = Callable[[str, str, "dict[str, Any] | None"], str]  # result.render: (lang, key, params) -> text

# the figure a quote must beat (its resale clause for a token seller): the price bullet's, not the model's
QUOTE_KEYS = ("plan.apilead21.quote", "plan.apikept25.quote.volume", "apipage35.router",  # router: s35
              "apicost37_lead.router_aside")  # s35-apicost
# the API served elsewhere than the node: said as the path each prompt takes (q12: "in Hong Kong" of an API in SG)
PATHS = {"plan.apikept25.runs.near": "apilead34.runs.near", "plan.apikept25.runs.mainland": "apilead34.runs.mainland"}
TERMS = "plan.apivol25.terms.lead"  # ``hosted_kept.terms_clause``: no training on the inputs, retention, deletion
LIVE = ("plan.apilead21.", "plan.apisg23.", "apinext32.lead.")  # ``lead_line.LIVE_LEADS`` (no import cycle)
K = "apilead34"
COST = "apicost37_lead"  # s35-apicost
PRICE = "cst44.price"  # cst44: the recommended path's month alone (apicost37's keys less the fallback and load cases)


def applies(key: str, form: str) -> bool:
    """A live service's API lead (not a batch job's, not a kept plan's reason)."""
    return form == "hosted_api" and key.startswith(LIVE) and not key.endswith(".batch")


def _variant(key: str) -> tuple[str, str]:
    """(how the API is weighed: lead / lead_terms / lead_dpa, whose model it prices: same / switch / next)."""
    variant = key.rsplit(".", 1)[-1]
    model = "next" if key.startswith("apinext32.") else "switch" if ".switch_lead." in key else "same"
    return variant, model


def text(key: str, params: dict[str, Any], lang: str, render: Render) -> str:
    """The lead in its short form: a sentence, then a bullet for each part that has words (Markdown: "- **…:**").
    ``render`` is ``result.render``, handed in by the result that calls this (no import cycle)."""
    variant, model = _variant(key)
    near = params.get("near") if isinstance(params.get("near"), dict) else {}
    assert isinstance(near, dict)
    quote: list[Any] = []
    changes: list[Any] = [params["switch"]] if model == "next" and params.get("switch") else []
    for part in parts(near.get("quote")):
        (quote if isinstance(part, dict) and part.get("tr") in QUOTE_KEYS else changes).append(part)
    where: list[Any] = [{"tr": f"{K}.dpa", "law": params.get("law", "")}] if variant == "lead_dpa" else []
    said_where = parts(near.get("runs")) + parts(near.get("near"))
    # the terms to get in writing said in the path's own "get in writing" sentence, not in a second one after it
    terms = any(isinstance(p, dict) and p.get("tr") == TERMS for p in said_where) and \
        any(isinstance(p, dict) and p.get("tr") in PATHS for p in said_where)
    for part in said_where:
        if isinstance(part, dict) and part.get("tr") == TERMS and terms:
            continue
        if isinstance(part, dict) and part.get("tr") in PATHS:
            part = {**part, "tr": PATHS[str(part["tr"])], "terms": {"tr": f"{K}.terms"} if terms else ""}
            if isinstance(params.get("fallback39"), dict) and owner_sign39.law_named(part):
                part["law"] = ""  # s40-swap: the onward recipient named in a sign-off condition (q12), not here too
        where.append(part)
    sep = "" if lang == "zh_CN" else " "

    def said(items: list[Any]) -> str:
        return sep.join(t for i in items if (t := _said(lang, i, render)))

    # s35-apicost (blind review 26, q22/q24): the bold line names the model the API is taken on where it is another
    # than the one asked for (``_start``); s35-apihead (q12): it says the self-hosted plan is the fallback (it read as a
    # second recommendation)
    # s38-swap (blind review 29): where the owner decides (another model, or a second place), the bold line is that
    # choice with the self-hosted fallback beside it, not the API as the decision (``owner_sign39.head``)
    choice = owner_sign39.head(params, owner_sign39.near(said_where), variant, lang, render)
    runs = owner_sign39.near(said_where)
    if choice and runs is not None and runs.get("region") and runs.get("providers"):  # the bold line says the path
        where = [api_cost_brief42.route_said(p) for p in where]  # s40-pages: not the data path's route again
    head = choice or render(lang, f"{K}.head.{variant}", {**params, "start": _start(params)}) \
        + render(lang, "apihead37_lead.fallback_said", None)
    quoted = said(quote)
    # s39-swap (blind review 31): under the owner's sign-off the model-change clauses (the deprecation, the list the
    # API is priced on, thinking off) say how the price is set: the price bullet's, the test being a condition above
    # the thinking switch said once, in the test's condition (``owner_sign39.bullets``), not in the price again
    thinks = next((p for p in changes if isinstance(p, dict) and p.get("tr") == api_thinking.KEY), None)
    conds = owner_sign39.bullets(params, owner_sign39.near(said_where), lang, render, thinks)
    if conds:  # s40-pages: its condition asks for the retention terms in writing: not the data path's sentence too
        where = [api_cost_brief42.terms_signed(p) for p in where]
    if conds and changes:
        rest = [owner_sign39.shorter(p) for p in changes if p is not thinks]
        quoted = sep.join(t for t in (quoted, said(rest)) if t)
    cost = params.get("cost37")  # s35-apicost: the path's whole month first, its parts after (``lead_line``)
    if isinstance(cost, dict):
        cost = api_cost_brief42.stand_in_short(cost)  # s40-pages: the stand-in in full in section 7's line finding
        # the owner's choice says the self-hosted fallback's month (with the same line) already: not said again
        # s41-swap: B's whole month is said in its own line (``owner_sign39.choices``): the price bullet its parts
        key = f"{owner_sign39.K43}.price.{model}" if choice else f"{PRICE}.{model}"
        # cst44 (blind review 35, q12/q21): the recommended path's month alone, not the self-hosted fallback's beside
        # it nor the tokens' three load cases (section 4 and the tokens row keep both)
        brief = {**params, **cost, "top": brief_top(params.get("top")), "quote": sep + quoted if quoted else ""}
        price = moved_price(cost, brief, lang, render) if not choice else ""
        price = price or render(lang, key, brief)
    else:
        price = render(lang, f"{K}.price.{model}", {**params, "quote": sep + quoted if quoted else ""})
    # s37-owner (blind review 28, q12/q13/q22/q24): a change of model, or prompts sent on to a second place, is the
    # owner's decision; s39-swap (review 31): its conditions as one short list, then what to do otherwise, first
    # s41-swap (blind review 34): A) the model asked for, self-hosted, and B) the API path, each with its month,
    # first: the owner's choice, then B's conditions
    ways = owner_sign39.choices(params, runs, variant, lang, render)
    bullets = [*ways, *conds, price]
    if where:
        bullets.append(render(lang, f"{K}.where", {"text": said(where)}))
    if changes and not conds:
        bullets.append(render(lang, f"{K}.model", {"text": said(changes)}))
    # s39-swap: under the sign-off's conditions (the retention and the rate limit in writing) the move says "a
    # condition above", not the data terms and the peak's rate limit again (q12/q13 en went to a sixth page)
    # s40-pages: the break-even without "never pays on cost alone", the reason "Why the API first" lists
    move = render(lang, "swap41.move" if conds else f"{K}.move{'.next' if model == 'next' else ''}",
                  {**params, "be": api_cost_brief42.move_break_even(params.get("be"))})
    bullets.append(move)
    # one block (a list may interrupt a paragraph in CommonMark/md4c, which the PDF renders): the lead stays one
    # page-1 paragraph for whatever reads the memo by its blank lines
    return head + "\n" + "\n".join(f"- {b.strip()}" for b in bullets)


def brief_top(top: Any) -> Any:
    """The tokens' bracket with its basis and no amounts: the low end's requests a day and the high end's peak, the
    three load cases' figures left to the tokens row (cst44, blind review 35, q21: "splitting '¥68–¥743' into three
    load cases in the summary is too much detail"); "" where the bracket is not the floor's range."""
    if isinstance(top, dict) and top.get("tr") in ("tokens41_lead.range", "vol42.lead.range"):
        return {"tr": "cst44.top.brief", "basis": top.get("basis"), "peak": top.get("peak")}
    return ""


def moved_price(cost: dict[str, Any], params: dict[str, Any], lang: str, render: Render) -> str:
    """The price bullet as two, the API path's month until the move to the mainland and after it, with the first
    year's total (cst44, blind review 35, q21: one ~150-word sentence mixed the Hong Kong line, the VM, the post-move
    line and self-hosting); "" where the path does not move (its parts carry no ``split44``)."""
    parts = cost.get("parts")
    after = parts.get("after") if isinstance(parts, dict) else None
    split = after.get("split44") if isinstance(after, dict) else None
    if not isinstance(split, dict) or not isinstance(parts, dict) or split.get("move_low") is None:
        return ""
    lo, hi, months = int(cost["lo"]), int(cost["hi"]), int(split["months"])  # whole units, as the bullet prints
    first_lo, first_hi = min(int(split["first_lo"]), months), min(int(split["first_hi"]), months)
    year_lo = first_lo * lo + (months - first_lo) * int(split["then_lo"])
    year_hi = first_hi * hi + (months - first_hi) * int(split["then_hi"])
    currency = "CNY" if str(cost.get("total", "")).startswith("¥") else "USD"
    until = render(lang, f"{PRICE}.until", {**params, "parts": {**parts, "after": ""}})
    after_text = render(lang, f"{PRICE}.after", {**split, "year": symbol_range(year_lo, year_hi, currency),
                                                 "quote": params.get("quote", "")})
    return until + "\n- " + after_text


def _start(params: dict[str, Any]) -> Any:
    """The lead's opening words, with the model the API is priced on where it is not the one asked for (s35-apicost,
    blind review 26, q22/q24: "the headline swaps the model … a product change to put first, not a bullet")."""
    change = params.get("model37")
    if not isinstance(change, dict):
        return params.get("start", "")
    return {"tr": f"{COST}.start.{change['kind']}", "start": params.get("start", ""), "other": change["other"],
            "asked": change["asked"]}


def _said(lang: str, part: Any, render: Render) -> str:
    """One clause's text, without the leading space the chained sentence gave it."""
    if isinstance(part, dict) and "tr" in part:
        return render(lang, str(part["tr"]), {k: v for k, v in part.items() if k not in ("tr", "clause")}).strip()
    if isinstance(part, dict) and "by_lang" in part:
        return str(part["by_lang"].get(lang, part["by_lang"]["en"])).strip()
    return str(part).strip()


__all__ = ["applies", "parts", "text"]
