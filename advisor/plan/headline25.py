"""Page 1 says what the memo's own numbers say (issue #25, blind review 15: "a decision that contradicts its own
numbers is a bug").

- ``form_condition``: q26/q31 were headed "Own bare-metal servers" while their own cost row said renting what the
  load needs is cheaper at the middle of the stand-in prices and to buy only if the quotes bring the purchase under
  about X (``rent_cheaper_tie``). The form stays owning (the measured load and the team's ops are why), but the
  headline carries the condition the cost finding sets, and that today's stand-in prices favour renting.
- ``more_replica_clause``: q08/q33's hardware row listed 3 replicas while the placement finding recommends a 4th on
  the fleet's remaining cards (``fleet_next_replica``, ``consist25.spare_pair.recommend``): the row puts both
  layouts to the owner with what one machine down leaves of the peak in each (review 27), and the condition of the
  larger (the other work moved off those cards), so page 1 and the finding tell one story. It is not counted in
  the plan's GPUs: whether those cards are free is not known until their owners say so, and the plan's figures are
  for the cards known free.
- ``measure_first``/``measured_clause``: q39's headline and hardware row rented 11 H20 on nvidia-smi's 85 % while a
  reason said the plan's curve rents none (``fleet_disagree``): both say that step 1's count decides, and both
  outcomes.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import (
    burst_order40,
    burst_path,
    burst_steps41,
    fleet_one_count,
    hybrid_path43,
    memo_ttft_free,
    placement_more,
    quote_lead35,
    rent_cheaper_tie,
)
from advisor.plan.result import render

PLACEMENT = placement_more.PLACEMENT
DISAGREE_TITLE = "burst24.fleet.costed.title"  # ``fleet_disagree``: the curve rents nothing
# the same finding where the hosted API takes the bursts' overflow (s37-burst39, ``fleet_disagree.API_TITLE``)
DISAGREE_TITLES = (DISAGREE_TITLE, "burst39_fleet.api.title", "hb43.fleet.title")  # the path taken's (review 34)
MORE_KEYS = placement_more.MORE_KEYS


def form_condition(result: Any, lang: str) -> str:
    """The headline's condition where ``cost.buy`` found renting cheaper at the middle: " — if the quotes bring the
    purchase under about ¥X; on today's stand-in prices renting costs less"; "" elsewhere."""
    f = next((x for x in result.findings
              if x.id == "cost.buy" and x.title_key == rent_cheaper_tie.TIE_RENT_TITLE), None)  # fmt: skip
    if f is None:
        return ""
    threshold = f.params.get("threshold") or {}
    # one purchase branch on page 1 (s27-ownrent27b, review 17: a spare-less "buy 2" headline beside a 3-server
    # table read as "buy 2, buy 3 or rent"): the spare-less variant stays the finding's figure
    if "max_purchase" in threshold:
        return render(lang, "headline25.form.if_purchase", {"max_purchase": threshold["max_purchase"]})
    return render(lang, "headline25.form.if_below_rent", {})


_more = placement_more.more  # the clause, read here and by modules headline25 reaches (no import cycle)


def more_replica_clause(result: Any, lang: str) -> str:
    """The owner's decision where the placement finding names one more replica on busy cards: today's replicas on
    the free cards and what one machine down leaves of the peak, beside the layout with one more and what it leaves
    (s36-fleet38, blind review 27: q08/q33 "make the symmetric layout the plan rather than an aside", q04 "put the
    6th-replica option in the hardware row as a decision for the owner"); "" elsewhere. The plan's figures stay
    those of the free cards: whether the busy ones can be freed is their owners' word, not the plan's."""
    f = next((x for x in result.findings if x.id == PLACEMENT), None)
    more = _more(f.params) if f is not None else None
    if more is None:
        return ""
    hw = result.hardware
    nxt = more.get("next") or (hw.replicas or 0) + 1
    count = more.get("count") or 0
    total = more.get("total") or nxt * (hw.gpus_per_replica or 0)
    other = total - (hw.total_gpus or 0)  # the cards the one more takes beyond today's (q04: 12 - 10)
    on = {"tr": "fleet38_cards.all", "count": count} if total >= count else \
        {"tr": "fleet38_cards.some", "total": total, "count": count}
    peak = more.get("peak")
    if "carried_now" not in more or not peak:  # the plan short with one replica down (``consist25.placement.one_more``)
        return render(lang, "fleet38_decide.replica", {"replicas": hw.replicas, "next": nxt, "on": on, "other": other,
                                                      "peak": more.get("peak"), "server": more.get("server", "")})
    if fleet_one_count.decided_first(result.assumptions):  # the headline's upgrade is page 1's one (review 28, q04)
        from advisor.plan import ttft_choice42

        if ttft_choice42.weighed(result):  # both 12-card layouts weighed on the line above: said once (review 32)
            return ""
        return render(lang, fleet_one_count.DOWN, {"replicas": hw.replicas, "peak": peak, "left_now": more["left_now"],
                                                   "carried_now": more["carried_now"]})
    after = {"tr": "gpu28.placement.all", "peak": peak} if more["carried_after"] >= peak else \
        {"tr": "gpu28.placement.part", "carried": more["carried_after"], "peak": peak}
    return render(lang, "fleet38_decide.down", {"replicas": hw.replicas, "next": nxt, "on": on, "other": other,
                                               "peak": peak, "left_now": more["left_now"],
                                               "carried_now": more["carried_now"], "left_after": more["left_after"],
                                               "after": after})


def _disagree(result: Any) -> Any:
    """The finding that the fleet's measured load and the plan's curve disagree, where the curve rents nothing."""
    return next((x for x in result.findings if x.title_key in DISAGREE_TITLES), None)


def measure_first(result: Any, lang: str) -> str:
    """The headline's clause where the bursts' rented GPUs rest on nvidia-smi's utilisation and the plan's curve
    rents none (q39): how many, if any, waits on step 1's count; "" elsewhere."""
    f = _disagree(result)
    # s33-numbers1 (review 23, q39): where the overflow on a hosted API fits the budget and the rented burst does not,
    # the API leads and the rented part is the alternative, with the same count of step 1 deciding whether either is
    api = burst_path.headline_clause(result, lang, f.params if f is not None else None)
    if api:
        return api
    if f is None:
        return ""
    p = f.params
    if p.get("carry") is None:  # a finding from before the threshold was carried (an older saved plan)
        return render(lang, "headline25.form.measure_first", {"util": p.get("util"), "rented": p.get("rented")})
    # s33-burst39 (blind review 21, q39: "'11 or none' is a procedure, not a decision"): the size the plan prices, how
    # it is sold, and the count of step 1 under which nothing is rented
    # s36-hybrid (blind review 27, q39): the count comes first in the sentence, what it decides after it, and the
    # hosted API for the overflow is the option weighed beside the rented GPUs, not the path
    # s38-burst40 (blind review 29, q39: "the headline is a three-way conditional the boss cannot act on; state it
    # plainly: no spend until step 1"): the owned GPUs kept and nothing spent until the count, then the two outcomes
    # of the count; the rented part named with how it is billed (by the hour for the burst's days, its bill a burst,
    # where ``burst_gpu.hourly_first`` rented such a part), and the hosted API as the owner's cheaper option
    hourly = _hourly(result) if not p.get("by_month") else ""
    if hourly and burst_steps41.applies(result):
        # s39-burst3 (blind review 31, q39: "rewrite page 1 as three steps"): count, the API by default with its rate
        # limits in writing, the rented part only if the API falls short
        return hybrid_path43.headline(result, lang, p, hourly)  # the path taken, its count explained (review 34)
    if hourly and burst_order40.api_first(result):
        # s38-burstc (blind review 30, q39, both languages: "lead with the hosted-API overflow"; "API overflow the
        # default burst path with H800 as the fallback"): the two cloud paths in one sentence, ordered by the budget
        f = next(x for x in result.findings if x.id == "cost.burst_month")
        over = "burstc40_form.over_stock" if burst_order40.stock_only(result) else "burstc40_form.over"
        return render(lang, "burstc40_form.decide", {
            "rented": p.get("rented"), "count": p.get("count"), "carry": p.get("carry"), "basis": hourly,
            "burst": f.params["api"]["burst"], "over": {"tr": over}})
    return render(lang, "burst40_form.decide", {
        "util": p.get("util"), "rented": p.get("rented"), "count": p.get("count"), "carry": p.get("carry"),
        "api": _api_option(result), "basis": {"tr": "burst39.form.basis.month"} if p.get("by_month") else hourly})


def _hourly(result: Any) -> dict[str, Any] | str:
    """", by the hour for its 21 days only (¥… a GPU-hour with storage and support: ¥… a burst, no month booked)",
    the burst-month finding's own figures (the reason and the budget row say the same); "" without one or where
    the part is sold by the month (its formula then books months)."""
    f = next((x for x in result.findings if x.id == "cost.burst_month"), None)
    p = f.params if f is not None else {}
    formula = p.get("formula")
    if not isinstance(formula, dict) or formula.get("tr") != "burst39.bill.hourly" or not p.get("per_burst"):
        return ""
    return {"tr": "burst40_form.basis.hour", "days": p.get("days"), "rate": p.get("rate"), "per_burst": p["per_burst"]}


def _api_option(result: Any) -> dict[str, Any] | str:
    """The hosted API's bill a burst and burst month beside the rented bursts (the burst-month finding's own figures),
    "" where none is weighed (a fine-tune, data that may not go, no budget to judge the month on)."""
    f = next((x for x in result.findings if x.id == "cost.burst_month"), None)
    api = f.params.get("api") if f is not None else None
    if not isinstance(api, dict) or not api.get("month"):
        return ""
    if api.get("burst"):  # the cheaper option named as one, with its bill a burst (s38-burst40, review 29)
        return {"tr": "burst40_form.api", "month": api["month"], "burst": api["burst"]}
    return {"tr": "hybrid38_form.api", "month": api["month"]}


def measured_clause(result: Any, lang: str) -> str:
    """The hardware row's clause on the same disagreement: on the curve none is rented, step 1's count decides."""
    f = _disagree(result)
    if f is None:
        return ""
    return render(lang, "headline25.hardware.measured", {"util": f.params.get("util"), "count": f.params.get("count")})


def like_own_clause(result: Any, lang: str) -> str:
    """Where owning pays like for like (s28-own28, ``own_like``): what is bought, its payback against the horizon at
    the middle and how a failed server is covered, said with the form (blind review 17b, q26: the headline must say
    why owning, in months); "" elsewhere."""
    f = next((x for x in result.findings if x.id == "cost.buy" and x.title_key == "own28.rule.cost.buy.like_own.title"),
             None)  # fmt: skip
    if f is None:
        return ""
    p = f.params
    cover = render(lang, "own28.form.cover", {"unit_gpus": p["spare"]["unit_gpus"]}) \
        if p["spare"]["tr"] == "own28.spare.repair_rent" else ""
    if p["spare"]["tr"] == "redundancy31.spare.repair_unsure":  # the rent is no sure cover (blind review 20, q26)
        cover = _unsure_cover(result, lang)
    if p["spare"]["tr"] == "owncover33.spare.parts":  # renting no surer: the quote and the parts cover (review 22, q26)
        cover = render(lang, "owncover33.form.parts", {"per_server": p["spare"]["per_server"]})
    return render(lang, "own28.form.like_own", {"servers": p["servers"], "gpus": p["gpus"], "gpu": p["gpu"],
                                                "weights": p["weights"], "payback": p["payback"],
                                                "months": p["months"], "cover": cover})


def unsure_cover(result: Any, lang: str) -> str:
    """``_unsure_cover`` where owning pays like for like and renting a failed server's cards is no sure cover
    (``redundancy31.spare.repair_unsure``), else "": a headline that leaves out ``like_own_clause`` still says it."""
    f = next((x for x in result.findings if x.id == "cost.buy" and x.title_key == "own28.rule.cost.buy.like_own.title"),
             None)  # fmt: skip
    if f is None or (f.params.get("spare") or {}).get("tr") != "redundancy31.spare.repair_unsure":
        return ""
    return _unsure_cover(result, lang)


def _unsure_cover(result: Any, lang: str) -> str:
    """Page 1's word on a failed server where renting its cards is no sure cover (``repair_cover``): the covers
    left, and where a third server makes owning the dearer month, that owning pays only on degraded service."""
    red = next((x for x in result.findings if x.id == "sizing.redundancy"
                and x.title_key.endswith(".repair_unsure.title")), None)  # fmt: skip
    dearer = bool(red is not None and red.params.get("dearer"))
    return render(lang, "redundancy31.form.dearer" if dearer else "redundancy31.form.cover", {})


OWN_EDGE_TITLES = ("gpuwhy30.rule.cost.buy.own_edge.title", "gpuwhy30.rule.cost.buy.own_edge.title_purchase")


def own_edge_finding(result: Any) -> Any:
    """``cost.buy`` where owning is cheaper at the middle of stand-in prices that tie (``own_edge``), else None."""
    return next((x for x in result.findings if x.id == "cost.buy" and x.title_key in OWN_EDGE_TITLES), None)


def own_edge_clause(result: Any, lang: str) -> str:
    """Where owning is cheaper at the middle of stand-in prices (``own_edge``): the servers, the measured load it
    rests on and the purchase under which it holds, said with the form (blind review 19, q31: "owning wins while 3
    servers cost under ¥X; get a quote", where page 1 said owning and renting tie); "" elsewhere."""
    f = own_edge_finding(result)
    if f is None:
        return ""
    p = f.params
    key = "gpuwhy30.form.own_edge" if p.get("servers") else "gpuwhy30.form.own_edge_purchase"
    return render(lang, key, {"servers": p.get("servers"), "util": p.get("util"), "max_purchase": p["max_purchase"]})


def headline_clause(result: Any, lang: str) -> str:
    """Everything page 1's recommendation sentence adds to the form: the purchase's condition or the count first."""
    # s34-quotelead (review 24, q17): a purchase straddling the one-off budget leads with the quote rule and the
    # smaller setup within it
    # s36-fleet38 (review 27, q04): an assumed first-token target raised to fit the free cards is the owner's call
    return form_condition(result, lang) or like_own_clause(result, lang) or own_edge_clause(result, lang) \
        or measure_first(result, lang) or quote_lead35.straddle_clause(result, lang) \
        or memo_ttft_free.form_clause(result, lang)


__all__ = ["form_condition", "headline_clause", "like_own_clause", "measure_first", "measured_clause", "more_replica_clause",
           "own_edge_clause", "own_edge_finding",
           "unsure_cover"]
