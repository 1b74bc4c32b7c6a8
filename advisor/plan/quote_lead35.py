"""Page 1 leads with the quote that decides a purchase on stand-in prices (blind review 24, issue #25).

- ``own_gate``: where owning pays like for like only on stand-in prices and renting is no surer cover for a failed
  server (``owncover33.spare.parts``), the memo itself calls owning against renting a tie within those prices (q26:
  "the headline should lead with the quote threshold, not 'Own'"). The recommendation says "buy N servers only if
  the quote is at or under X a server; above that, rent", the payback at the middle after it.
- ``straddle_clause``: where the purchase range straddles a one-off budget (``capex_condition.straddles``), the rule
  that the quote step already gives ("above it, buy the smaller setup instead") leads the recommendation (q17,
  reviews 23 and 24: "buy 4 × L20 if the quote is ≤ ¥400,000 all-in; otherwise 2 × L20").
- ``cover_decision``: with the servers sized without a spare server, one failed server leaves part of the peak
  (``repair_parts``: "72 of the peak's 100"); keeping today's capacity contracted as the failover, or else one more
  server, is a condition of buying settled before ordering, said in the quotes step on page 1 (reviews 22–24, q26;
  blind review 32: "a firm requirement, not a choice left open").
"""

from __future__ import annotations

from typing import Any

from advisor.plan import capex_condition, price_basis43, quiet_peak41
from advisor.plan.money_text import round_money
from advisor.plan.result import render

LIKE_OWN_TITLE = "own28.rule.cost.buy.like_own.title"
PARTS_SPARE = "owncover33.spare.parts"  # renting no surer a cover: the quote and the vendor's parts cover decide
REPAIR_PARTS_TITLE = "plan.rule.sizing.redundancy.repair_parts.title"
GATE_FORMS = {"bare_metal": "quote35.form.gate_colo", "on_premises": "quote35.form.gate_room"}


def own_gate(result: Any, lang: str) -> str:
    """The whole recommendation where owning rests on a quote gate over stand-in prices, else ""."""
    f = next((x for x in result.findings if x.id == "cost.buy" and x.title_key == LIKE_OWN_TITLE), None)
    key = GATE_FORMS.get(result.deployment_form)
    if f is None or key is None or (f.params.get("spare") or {}).get("tr") != PARTS_SPARE:
        return ""
    p = f.params
    params = {"servers": p["servers"], "gpus": p["gpus"], "gpu": p["gpu"], "weights": p["weights"],
              "per_server": p["spare"]["per_server"], "payback": p["payback"], "months": p["months"]}
    red = _repair_parts(result.findings)
    if red is not None:
        # blind review 28 (q26 en: "three nested conditionals ... a boss cannot act on. Lead with 'buy if quotes ≤
        # ¥1.58M/server'"; zh: "put the threshold rule and the 72 % failover exposure first"): the one rule, then
        # what a failed server leaves and what covering it costs; the payback at the middle is reason 1's
        q = red.params
        # blind review 29 (q26: "make the team choose explicitly between keeping today's capacity as failover and a
        # third server"; zh: "the server-level gap is repeated about five times. State it once, with the two
        # options"): the two covers on page 1's line, where the quotes step said them a second time
        # blind review 34 (q26: "lead with 'Buy if the quote is ≤ ¥1,580,000 a server and failover capacity is
        # contracted; otherwise rent'"): the one buy/rent threshold a server, with the cover that flips it, first;
        # the purchase and what a failed server leaves after it (``threshold_first``)
        return threshold_first(result, lang, {**params, "carried": q["carried"], "peak": q["peak"]}, q)
    return render(lang, key, params) + cover_flips(result.findings, lang)


# blind review 34 (q26, q31): where a purchase hinges on a quote, the threshold line is the memo's first sentence
FIRST_FORMS = {"bare_metal": "ld43.gate.colo", "on_premises": "ld43.gate.room"}
FIRST_CHOOSE = {True: "ld43.gate.choose_failover", False: "ld43.gate.choose_accept"}
FIRST_COND = {True: "ld43.gate.cond_failover", False: "ld43.gate.cond_accept"}


def threshold_first(result: Any, lang: str, params: dict[str, Any], q: dict[str, Any]) -> str:
    """"Buy if the quote is at or under about ¥1,580,000 a server (…) and the failover capacity is contracted;
    otherwise rent." then the purchase and what one failed server leaves: the cover is part of the threshold line
    only where going without it turns owning dearer than renting (the redundancy finding's ``dearer``)."""
    failover = bool(q.get("failover"))
    dearer = bool(q.get("dearer"))
    first = render(lang, "ld43.gate.first", {"per_server": params["per_server"],
                                             "cond": {"tr": FIRST_COND[failover]} if dearer else ""})
    flips = render(lang, FIRST_CHOOSE[failover], {
        "next": q["servers"] + 1, "other": q["other"],
        "dearer": {"tr": "ld43.gate.dearer", "month": q["month_more"], "rent": q["rent"], "servers": q["servers"]}
        if dearer else ""})
    return render(lang, FIRST_FORMS[result.deployment_form], {**params, "first": first, "flips": flips})


SHORTER_COVER = {"quote35.next.cover_failover": "layout40_next.cover_said",
                 "quote35.next.cover_accept": "layout40_next.cover_said"}


def page_one_step(step: Any, result: Any, lang: str) -> Any:
    """``step`` on page 1 with its cover clause less what one failed server leaves, where the headline says it
    (``own_gate`` with the redundancy finding's figures): said once (blind review 28, q26 zh: "put the threshold rule
    and the 72% failover exposure first and cut the repetition"). The app and ``--json`` keep the full step."""
    cond = step.params.get("condition")
    if not isinstance(cond, dict) or cond.get("tr") != "quote35.next.with_cover":
        return step
    cover = cond.get("cover")
    if not isinstance(cover, dict) or cover.get("tr") not in SHORTER_COVER or _repair_parts(result.findings) is None \
            or not own_gate(result, lang):
        return step
    short = {**cond, "cover": {**cover, "tr": SHORTER_COVER[cover["tr"]]}}
    return step.model_copy(update={"params": {**step.params, "condition": short}})


def exposed(result: Any) -> bool:
    """Whether a redundancy finding says what one failed server leaves (page 1's gate then says it too)."""
    return _repair_parts(result.findings) is not None


def _repair_parts(findings: list[Any]) -> Any:
    """The redundancy finding that says what one failed server leaves (``repair_parts``), or None."""
    return next((x for x in findings if x.id == "sizing.redundancy" and x.title_key == REPAIR_PARTS_TITLE), None)


def cover_flips(findings: list[Any], lang: str) -> str:
    """". With a spare server for server-level cover (3 in all), owning costs about ¥151,000 a month against ¥123,000
    renting: if the service needs that cover, rent" where a spare server turns the verdict to renting (the
    redundancy finding's ``dearer``), else "" (blind review 26, q26: "the decision flips with server-level
    redundancy. That belongs in the headline, not only in §七"). What one failed server leaves (72 of the peak's 100)
    is said once, in the quotes step (``cover_decision``)."""
    f = next((x for x in findings if x.id == "sizing.redundancy" and x.title_key == REPAIR_PARTS_TITLE), None)
    if f is None or not f.params.get("dearer"):
        return ""
    p = f.params
    return render(lang, "supplyrisk37_cover.flips", {"next": p["servers"] + 1, "month": p["month_more"],
                                                     "rent": p["rent"]})


def straddle_clause(result: Any, lang: str) -> str:
    """": 4 × L20 if the quote comes in at or under the one-off budget of ¥400,000 (all-in); above it, 2 × L20
    (¥170,000–230,000, within the budget …)" where the purchase straddles the one-off budget, else ""."""
    if not capex_condition.straddles(result):
        return ""
    o, hw = result.costs.owned, result.hardware
    cur = result.costs.currency
    gpu = hw.gpu_name or hw.gpu or ""
    params: dict[str, Any] = {"gpus": hw.total_gpus, "gpu": gpu, "budget": round_money(o.capex_budget),
                              "currency": cur}
    s = capex_condition.smaller(result)
    if s is None:
        return render(lang, "quote35.form.straddle_none", params)
    if s["holds"] < s["peak"]:
        # blind review 27 (q17): a smaller setup that carries less than the stated peak is a degraded option the
        # owner signs off, not an equal alternative; the estimate on a larger server's share is likely low
        # blind review 34 (q17): said as what the estimate is built on, a quote higher or lower (price_basis43)
        # blind review 34 (q26, q31 and so q17): the threshold line first, "otherwise" the smaller setup right after
        # it, the estimate's basis last (``ld43.straddle.*``)
        bias = price_basis43.clause(result, "ld43.straddle.basis", s["share_row_gpus"], int(
            (result.costs.bare_metal_server_size or {}).get("unit_gpus") or hw.total_gpus)) \
            if s.get("share_row_gpus") else ""
        busy = quiet_peak41.busy(result)
        if busy is not None:  # review 31 (q17): a nearly idle service's peak is a rare moment, no degraded option
            return render(lang, "ld43.straddle.quiet",
                          {**params, "small": s["gpus"], "low": round_money(s["low"]), "high": round_money(s["high"]),
                           "busy": busy, "peak": s["peak"], "holds": s["holds"], "bias": bias})
        return render(lang, "ld43.straddle.degraded",
                      {**params, "small": s["gpus"], "low": round_money(s["low"]), "high": round_money(s["high"]),
                       "holds": s["holds"], "peak": s["peak"], "bias": bias})
    short = ""
    key = "price36.form.straddle" if s.get("share_row_gpus") else "quote35.form.straddle"  # see capex_condition
    return render(lang, key, {**params, "small": s["gpus"], "low": round_money(s["low"]),
                              "high": round_money(s["high"]), "short": short, "row_gpus": s.get("share_row_gpus", 0)})


def cover_decision(findings: list[Any]) -> dict[str, Any] | None:
    """The server-level cover to decide before ordering, as a ``{"tr": …}`` clause with the redundancy finding's own
    figures (requests one failed server leaves, a third server's month); None where no such finding is."""
    f = next((x for x in findings if x.id == "sizing.redundancy" and x.title_key == REPAIR_PARTS_TITLE), None)
    if f is None:
        return None
    p = f.params
    key = "quote35.next.cover_failover" if p.get("failover") else "quote35.next.cover_accept"
    return {"tr": key, "carried": p["carried"], "peak": p["peak"], "other": p["other"], "next": p["servers"] + 1}


__all__ = ["cover_decision", "cover_flips", "exposed", "own_gate", "page_one_step", "straddle_clause"]
