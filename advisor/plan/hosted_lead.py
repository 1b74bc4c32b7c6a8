"""Start on the hosted API, or say why not: the break-even volume and the Decision's lead (s20-hosted20, issue 25).

Ninth blind review (q24, q34–q36, q42, q43; q26, q31 for a purchase): a memo priced a hosted API of the same model at
a fraction of the plan (q24: $19–$98 a month against $3,322–$9,308), said nothing in the answers rules it out, and
still headed the Decision with "Rent cloud GPU servers". A deployment engineer either acts on it or says why not.
Here, from the figures the memo's cost table prints (``Costs.recommended_monthly``, ``hosted_api_monthly`` and the
tokens a month they are worked out on):

- the break-even volume: the tokens a month (input + output, at the plan's prompt/answer mix) at which the API's
  list price equals this plan's month. The API's price is linear in the tokens, so each end is the costed volume ×
  the plan's month ÷ the API's month: the plan's cheapest month against the API's dearest rate gives the low end,
  the dearest against the cheapest the high end. How far that is above the assumed volume's high end is said as a
  multiple ("self-hosting pays from about 7.1 billion tokens a month, 7.2× your estimated high end");
- the lead: where the API costs at most half the plan's cheapest month even at its dearest rate on the volume's
  high end (``LEAD_MARGIN``) and nothing in the answers rules it out (``hosted_weigh.reasons_to_self_host``: a
  fine-tune no provider serves, highly sensitive data, sensitive personal information, a one-off hardware budget;
  ordinary personal information and a private network only where the API is a tenth of the cost or less, as
  ``hosted_weigh`` already leads with it there), the Decision starts on the API and names this plan as what to move
  to. The plan's form, region and line are unchanged: they describe the self-hosted setup to move to;
- otherwise the one reason this plan is kept: the cards are already owned (an API would leave them idle);
  the API is cheaper by less than the lead margin, which the quotes can close; the two ranges overlap, so the quotes
  decide; or the answers rule it out (the finding ``cost.hosted_weighed`` says which, its title on page 1).
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import (
    api_marginal,
    api_thinking,
    asked_gpus43,
    fair35_lead,
    gpus_alone40,
    hosted_assumed,
    hosted_kept,
    hosted_next,
    hosted_prices,
    hosted_router,
    hosted_unserved,
    hosted_weigh,
    self_host_asked,
    tokens41,
    volume_low_end,
    volume_peak,
)
from advisor.plan.capacity_per_million import capacity_tokens
from advisor.plan.context import DAYS_PER_MONTH
from advisor.plan.hosted_bars import quote_clause, resell_clause, runs_clause, start_words
from advisor.plan.hosted_processor import ARRANGEMENTS, short_law
from advisor.plan.hosted_switch import model_shown, switch_clause
from advisor.plan.hosted_tie import lead_clause, outlived
from advisor.plan.hosted_weigh import (
    LEAD_MARGIN,
    cheaper_pair,
    choice,
    high_end_factor,
    keep_reason,
    reasons_to_self_host,
    sells_tokens,
    ways_round,
)
from advisor.plan.latency_place import latency_placed
from advisor.plan.money_text import about
from advisor.plan.result import HostedBreakEven, StartWith
from advisor.plan.rule_base import Facts, _range, _region
from advisor.plan.volume_low_end import FLOOR

KEY = "plan.hostedlead20"
# the live leads that have a wording without "for the same model", for an API priced on another model (s23-apisg23)
SWITCH_LEADS = ("lead", "lead_terms", "lead_dpa")


def break_even(costs: Any, ctx: Any = None) -> HostedBreakEven | None:
    """The tokens a month at which the API's list price equals the plan's month, from the costs' own figures (the
    API's rates at the plan's prompt/answer mix); None for a job (priced whole, not by the month) or without both
    costs and a token volume."""
    hosted, plan = costs.hosted_api_monthly, costs.recommended_monthly
    volume = float(costs.input_tokens_per_month or 0) + float(costs.output_tokens_per_month or 0)
    if costs.per_job or hosted is None or plan is None or volume <= 0 or hosted.low <= 0 or plan.low <= 0:
        return None
    volume_high = volume * high_end_factor(costs)
    # the tokens row's low end, so the comparison quotes the row's range (s28-volume28, q20: "your estimated
    # 2.9–3.5 billion" beside a row of 1.44–3.46 billion)
    low = volume_low_end.tokens(getattr(costs, "volume_basis", None))
    volume_low = low if low is not None and low < volume else None
    # per million tokens at the plan's own mix, from the rates the memo prints beside the API's month (a month on
    # a range of burst days prices its low end on fewer tokens than the volume shown: q23); else the month itself
    i, o = costs.hosted_api_input_per_million, costs.hosted_api_output_per_million
    if i is not None and o is not None:
        tin, tout = float(costs.input_tokens_per_month or 0), float(costs.output_tokens_per_month or 0)
        dear, cheap = (tin * i.high + tout * o.high) / volume, (tin * i.low + tout * o.low) / volume
    else:
        dear, cheap = hosted.high / volume * 1e6, hosted.low / volume * 1e6
    if cheap <= 0:
        return None
    low_be, high = plan.low / dear * 1e6, plan.high / cheap * 1e6
    return HostedBreakEven(tokens_low=low_be, tokens_high=high, volume=volume, volume_high=volume_high, volume_low=volume_low,
                           times_high_end=low_be / volume_high, plan_monthly=plan, hosted_monthly=hosted,
                           currency=costs.currency, price_source=_source_text(ctx), capacity_tokens=_ceiling(costs))


def _ceiling(costs: Any) -> float | None:
    """The most tokens a month (input + output) this setup serves: what the GPU-use row's share is of
    (``per_million_basis.full_output_tokens``, every replica fully busy around the clock), input at the same mix, so
    the month's tokens over it are the usage the memo prints (s26-usage26b: it was the sizing table's throughput at
    the peak, q24's 23 billion beside a 0.5 % use of 42 billion); the cost-per-million row's throughput every hour of
    the month where the basis states no such figure; None where it states neither."""
    basis = getattr(costs, "per_million_basis", None)
    if not basis or not basis.get("output_tokens_per_s") or not basis.get("output_tokens"):
        return None
    mix = float(basis["input_tokens"]) / float(basis["output_tokens"])
    full = basis.get("full_output_tokens")
    if full:
        return float(full) * (1 + mix)
    out, inp = capacity_tokens(float(basis["output_tokens_per_s"]), 1.0, mix)
    return out + inp


def _source_text(ctx: Any) -> str:
    tier = hosted_prices.hosted_rates(ctx).tier if ctx is not None else None
    if tier is None:
        return "placeholder (grade U)"
    return f"{hosted_prices.priced_on(tier)}: {tier['source']} ({tier['date']}, grade {tier['grade']})"


def _source(ctx: Any) -> dict[str, Any]:
    """The API's rates' list, in words (the model(s) priced, the list's date and grade)."""
    tier = hosted_prices.hosted_rates(ctx).tier
    if tier is None:
        return {"tr": f"{KEY}.src.placeholder"}
    return {"tr": f"{KEY}.src.list", "priced_on": hosted_prices.priced_on(tier), "date": str(tier["date"]),
            "grade": str(tier["grade"])}


# the units a token count is said in, largest first: billions and millions in English, 亿 and 万 in Chinese
SCALES = {"en": (1e9, 1e6), "zh_CN": (1e8, 1e4)}


def _words(lo: float, hi: float, lang: str) -> str:
    """"7.1–100 billion" / "71–1,000 亿" (two significant figures); each end in its own unit where they differ."""
    big, small = SCALES[lang]

    def unit(v: float) -> tuple[float, str]:
        return (big, "big") if v >= big else (small, "small")

    (s_lo, k_lo), (s_hi, k_hi) = unit(lo), unit(hi)
    a, b = about(lo / s_lo), about(hi / s_hi)
    if k_lo == k_hi:
        if a == b:
            return translate(lang, f"{KEY}.tokens.{k_lo}", n=a)
        return translate(lang, f"{KEY}.tokens.range.{k_lo}", a=a, b=b)
    return translate(lang, f"{KEY}.tokens.range", lo=translate(lang, f"{KEY}.tokens.{k_lo}", n=a),
                     hi=translate(lang, f"{KEY}.tokens.{k_hi}", n=b))


def tokens_words(lo: float, hi: float | None = None) -> dict[str, Any]:
    """A token count or range as people say it, in each language (``render`` picks the reader's)."""
    return {"by_lang": {lang: _words(lo, lo if hi is None else hi, lang) for lang in SCALES}}


def break_even_clause(be: HostedBreakEven | None, ctx: Any) -> dict[str, Any] | str:
    """"Self-hosting becomes cheaper than the API only above about 7.1–100 billion tokens a month (…), 7.2× the high
    end of your estimated …"."""
    if be is None:
        return ""
    flat = be.volume_high <= be.volume * 1.0001
    below = ".below" if be.times_high_end < 1 else ""  # the volume already passes it at the best prices (q23, q26)
    if not below and about(be.times_high_end) == "1":  # "1× the high end" said nothing (round 10, q11): "about"
        below = ".near"
    # s35-sentences (blind review 26, q13/q22/q24/q36: "8.6× the high end … at the high end of that range
    # self-hosting never beats the API" read as a contradiction): where the setup serves the break-even's low end
    # but not its high end, the sentence names the low end only, at which prices it holds, and that at the other
    # prices it never does within the setup's ceiling; one range beside one ceiling said one thing twice
    low_only = not below and _straddles(be)
    # s37-hostline (blind review 28, q12: "should simply say self-hosting never pays at this scale"): a break-even
    # past what the setup serves is said as that one conclusion first, its figure after as the reason
    if not below and be.capacity_tokens is not None and be.tokens_low > be.capacity_tokens:
        return {"tr": NEVER_KEY, "tokens": said_tokens(be), "source": _source(ctx), "times": about(be.times_high_end),
                "volume": tokens_words(be.volume_low or be.volume, be.volume if flat else be.volume_high),
                "cap": tokens_words(be.capacity_tokens)}
    # s37-hostline (blind review 28, q13: "one sentence with the break-even in requests a day would do"): the low
    # end the setup serves, in requests a day beside its tokens, and the prices it holds at (``PART_LOW``)
    requests = _per_day(be.tokens_low, ctx) if low_only else None
    key = f"{KEY}.be.{'flat' if flat else 'high'}{below}" if requests is None else \
        f"{PART_LOW_KEY}.{'flat' if flat else 'high'}"
    return {"tr": key, "requests": requests or "",
            "tokens": said_tokens(be),
            "times": about(be.times_high_end), "source": _source(ctx),
            # the range the tokens row gives, its low end included (s28-volume28, q20)
            "volume": tokens_words(be.volume_low or be.volume, be.volume if flat else be.volume_high),
            "cap": ceiling_clause(be, low_only)}


PART_LOW = "sentences37_cap.part_low"
NEVER_KEY = "hostline39_be.never"  # s37-hostline: "at this size self-hosting never pays", its break-even the reason
PART_LOW_KEY = "hostline39_be.part_low"  # s37-hostline: the straddling break-even's low end in requests a day


def _per_day(tokens_a_month: float, ctx: Any) -> str | None:
    """"200,000": a month's tokens (input + output) in requests a day at the plan's average request, as page 1's
    request-count question counts them (``volume_flip.per_day``); None without the plan's request size."""
    size = (getattr(ctx, "prompt_avg", 0) or 0) + (getattr(ctx, "output_avg", 0) or 0)
    if ctx is None or size <= 0:
        return None
    return about(tokens_a_month / DAYS_PER_MONTH / size)


def said_tokens(be: HostedBreakEven) -> dict[str, Any]:
    """The break-even volume as page 1's sentence names it: its low end alone where the setup serves that but not
    the high end (``_straddles``; the high end is past what the setup serves, so "never" at those prices), else the
    range. The next steps' trigger says the same words (s36-rowtrim, blind review 27, q36 zh: "约 170 亿 token" on
    page 1 beside "170–660 亿" in the next steps and a ceiling of "约 630 亿")."""
    if be.times_high_end >= 1 and _straddles(be):
        return tokens_words(be.tokens_low)
    return tokens_words(be.tokens_low, be.tokens_high)


def _straddles(be: HostedBreakEven) -> bool:
    """The setup serves the break-even's low end but not its high end (``ceiling_clause``'s "part")."""
    return be.capacity_tokens is not None and be.tokens_low <= be.capacity_tokens < be.tokens_high


def ceiling_clause(be: HostedBreakEven, low_only: bool = False) -> dict[str, Any] | str:
    """Whether this setup could carry the break-even volume (s20-hosted20b): the most it serves a month, and where
    even the break-even's low end is above that, that at this size self-hosting never pays on cost alone; where only
    its high end is, that at that end of the price range it never beats the API at a volume this setup serves."""
    if be.capacity_tokens is None:
        return ""
    never = be.tokens_low > be.capacity_tokens
    # s31-util32 (blind review 20b, q24: "12–71 billion … serves up to about 24 billion": at the high end it never
    # pays): a break-even range whose high end only is above the ceiling says so, not a move at a volume it cannot serve
    part = not never and be.tokens_high > be.capacity_tokens
    key = "plan.hostedlead20b.cap.never" if never else "util32.cap.part" if part else "plan.hostedlead20b.cap.carries"
    if part and low_only:  # the sentence names the low end only: at which prices, then never at the others
        key = PART_LOW
    return {"tr": key, "cap": tokens_words(be.capacity_tokens)}


def start_with(f: Facts) -> StartWith | None:
    """Where a hosted API of the same model costs less than this plan (``hosted_weigh``'s test): what to start on,
    the one reason, the break-even. None where the API costs no less (or the plan is the API itself). The choice
    and the reason's words are ``hosted_weigh``'s, which the finding ``cost.hosted_weighed`` says too."""
    pair, reason = cheaper_pair(f), choice(f)
    if pair is None or reason is None:
        return None
    hosted, plan, _clear = pair
    c, costs = f.ctx, f.cost.costs
    factor = high_end_factor(costs)
    top = hosted.high * factor
    be = break_even(costs, c)
    # s32-apinext32: a deprecated model's next generation leading (``hosted_next.leads``): its month, its break-even
    nxt = hosted_next.leads(c, costs) if reason in ("lead", "lead_terms") and outlived(c) else None
    if nxt is not None:
        hosted = hosted.model_copy(update={"low": hosted.low * nxt[0], "high": hosted.high * nxt[1]})
        top, be = top * nxt[1], _next_break_even(be, nxt, hosted)
    params: dict[str, Any] = {
        "hosted": hosted_prices.figure(c, _range(hosted.low, hosted.high, f)), "be": break_even_clause(be, c),
        # review 29 (q10): the GPUs alone named so where page 1's month adds a line (``gpus_alone40``)
        "plan": gpus_alone40.plan_figure(costs, plan, _range(plan.low, plan.high, f), lambda a, b: _range(a, b, f)),
        "top": {"tr": "plan.hostedlead20b.top", "amount": _range(top, top, f)} if factor > 1 else "",
        "per": {"tr": "plan.hosted16.per.job" if c.is_batch else "plan.hosted16.per.month"},
        "peak": c.peak}
    if reason == "other_model":  # the reason names whose list the figure is: the figure said bare (q10, q24)
        params["hosted"] = _range(hosted.low, hosted.high, f)
    if nxt is not None:  # the switch clause names whose list the figure is: said bare, as for another model (q24)
        params["hosted"] = _range(hosted.low, hosted.high, f)
        if isinstance(params["be"], dict):
            params["be"] = {**params["be"], "source": hosted_next.price_source(c)}
    # s39-tokens41 (blind review 31, q12/q21/q24: "state the range up to the high end first"): a month that is the
    # busiest hour's floor is priced from it up to the volume's high end, wherever page 1 says the API's month (the
    # lead's price below, the decision's "that API"), as section 7 does (``hosted_weigh``)
    floor_high = bool(params["top"]) and bool((getattr(costs, "volume_basis", None) or {}).get(FLOOR))
    if floor_high:
        params["hosted"] = tokens41.with_amount(params["hosted"], _range(hosted.low, top, f))
        params["top"] = ""
    if reason == "answers":  # a reason the answers give: the finding's own title says it (", but …")
        return StartWith(form="this_plan", reason="answers", break_even=be)
    if reason == "unserved":  # s22-apilead22: no priced provider serves the region: a quote first, no priced lead
        return StartWith(form="this_plan", reason="unserved", key=f"{hosted_unserved.KEY}.unserved",
                         params=hosted_unserved.lead_params(f, params["hosted"], params["plan"], params["per"]),
                         break_even=be)
    if reason == "asked":  # s34-apilead34: the setup asked for heads page 1, the API the option to check beside it
        asked_params = {**params, "reason": keep_reason(f, reason), **_asked_params(f)}
        if self_host_asked.asked(f) == "gpus":  # the cost said as a multiple, the team's own reason asked (api43)
            asked_params.update(asked_gpus43.params(f, plan.low, plan.high, hosted.low,
                                                          top if floor_high else hosted.high))
        return StartWith(form="this_plan", reason="asked", key=kept_asked_key(f), params=asked_params,
                         break_even=be)
    form = "hosted_api" if reason in ("lead", "lead_terms") else "this_plan"
    # a live service's API lead is ``plan.apilead21``'s (below); this key is a batch job's lead or the kept plan's
    # reason ("owned", "close"): the bare "lead"/"lead_terms" and "thin" keys no longer ran and were removed (s22-cleanup22b)
    key = f"{KEY}.{reason}" + (".batch" if c.is_batch and form == "hosted_api" else "")
    if reason == "deprecated":  # s31-publicsaas31: the deprecated model's price, a labelled yardstick (q12, q13)
        # s35-fairreason (blind review 24, q34: "a 30–40× gap set aside only because the model is deprecated"): the
        # gap in one plain sentence and the one condition that takes the API instead
        key = fair35_lead.KEY
    # "lead_terms" is chosen only where each reason has a way round (``hosted_weigh.choice``): a clause to chain
    extra: dict[str, Any] = {"ways": ways_round(f, reasons_to_self_host(f))} if reason == "lead_terms" else {}
    if reason == "deprecated":
        extra["times"] = fair35_lead.times(hosted.low, hosted.high, plan.low, plan.high)
    why = keep_reason(f, reason)
    if why is not None:
        extra["reason"] = why
        if why.get("tr") == hosted_next.KEY:  # s31-util32: the yardstick's month first, then its next generation's
            key = hosted_next.LEAD_KEY
    if key == f"{KEY}.owned" and f.form == "hybrid":  # the bursts' overflow on the API (burst_path): not "why not
        # an API" while page 1 sends the bursts to one (blind review 24, q39: "pick one primary path")
        from advisor.plan import burst_bill_rules  # a rules module: loaded where used

        # s36-hybrid: the API no longer leads the bursts but is weighed beside the rented GPUs on page 1: the
        # owned cards' reason is still for the base load only
        if burst_bill_rules.api_lead(f) is not None or burst_bill_rules.api_weighed(f):
            key = "q39h35.lead.owned_base"
    if reason == "owned":  # review 25 (q39): the plan's month labelled as its running cost, nothing bought
        key = api_marginal.lead_key(key)
    if reason == "other_model":  # taken all the same, its endpoint must take the longest requests (q10, s24-api24)
        extra["context"] = hosted_assumed.context_clause(f)
    if form == "hosted_api" and not c.is_batch:  # s21-apilead21: the opening words name where to start (q21)
        key, extra["start"] = f"plan.apilead21.{reason}", start_words(f)
        if reason == "lead" and any(w["tr"] in ARRANGEMENTS for w in reasons_to_self_host(f)):
            # s23-apisg23: personal information on rented GPUs, an arrangement both meet: said with its agreement,
            # not "nothing in your answers rules it out" (re-check 12b, q13)
            key, extra["law"] = "plan.apisg23.lead_dpa", short_law(f)
    if form == "hosted_api":  # the plan's region chosen for a tight first-token target holds for the API too (q43)
        # s21-apilead21: the figure a quote must beat where the gap is small, then where the API and the service
        # in front of it run (q21, q22, q34), in the one slot after the costs
        near = near_users(f)  # the latency clause in words that leave the API's region to ``runs_clause``
        if isinstance(near, dict):
            near = {**near, "tr": str(near["tr"]).replace("plan.hostedlead20b.", "plan.apilead21.")}
        # a priced provider serves from the lead's region here (``hosted_weigh.unserved_or``: else no API lead), so
        # the figure is a price there, said bare, and no quote from elsewhere is asked for (s22-cleanup22b)
        # s25-apikept25: an API served in the node's jurisdiction class or where the users are: said where it runs
        runs = hosted_kept.runs_reach(f) or runs_clause(f)
        if str(runs.get("tr", "")).startswith("plan.apikept25.runs."):  # s34-apilead34: served elsewhere than the
            # node (q12: "start in Hong Kong" of an API in Singapore): the opening words name both places
            served = "mainland" if runs["tr"].endswith(".mainland") else "other"
            # with no mainland entity no later move to the mainland can follow: "deploy in", not "start in" (先在…:
            # blind review 27, q22 zh)
            start = "apilead34.start" if c.entity else "filedwait38_start"
            extra["start"] = {"tr": f"{start}.via.{served}",
                              "region": runs["region"], "where": runs["where"]}
        # where this setup cannot carry even the break-even's low end ("never pays on cost alone"), the move is not
        # offered "past that volume" (q21, q35: a lead that contradicted its own ceiling)
        never = be is not None and be.capacity_tokens is not None and be.tokens_low > be.capacity_tokens
        extra["past"] = "" if never else {"tr": "plan.lead30.past"}
        extra["near"] = {"tr": "plan.apilead21.after", "near": near, "runs": runs,
                         "quote": quote_clause(top, plan.low, _range(top, top, f), margin=hosted_weigh.LEAD_MARGIN,
                                               sells=sells_tokens(f), licence=needs_operating_licence(f),
                                               registers=resale_registers(f))}
        after = extra["near"]
        if isinstance(after["quote"], dict) and top >= plan.low:  # s25-apikept25 (q11, q19): cheaper at every price
            # on the volume costed, not on its high end: "costs more at every price here" said only of what holds
            after["quote"] = {**after["quote"], "tr": "plan.apikept25.quote.volume"}
        # s23-apisg23: a list that marks the model deprecated, said up front (q13); where its next generation leads,
        # the lead's own sentence says it with the quality test (s32-apinext32)
        deprecated = lead_clause(c) if nxt is None else ""
        if deprecated:
            after["quote"] = {"tr": "plan.apisg23.after_switch", "switch": deprecated, "rest": after["quote"]}
        switch = switch_clause(c)  # s23-apisg23: another model's list: the switch and its quality test said (q10, q24)
        # s33-apiterms: the model priced thinks by default: its price holds with thinking off (review 22, q24),
        # said after the switch (the next generation's is in the lead's own sentence, just before this slot)
        think = api_thinking.clause(hosted_next.model_name(c) if nxt is not None else
                                    (switch.get("priced_on", "") if isinstance(switch, dict) else ""))
        if think:
            after["quote"] = {"tr": "plan.apisg23.after_switch", "switch": think, "rest": after["quote"]}
        if switch:  # the lead's "for the same model" dropped: the switch clause says whose figure it is
            # before the quote to beat, inside the one slot after the costs (its "runs" kept)
            after["quote"] = {"tr": "plan.apisg23.after_switch", "switch": switch, "rest": after["quote"]}
        if switch:
            if key.rsplit(".", 1)[-1] in SWITCH_LEADS:
                key = f"plan.apisg23.switch_lead.{key.rsplit('.', 1)[-1]}"
        router = hosted_router.clause(c)  # s35-apipage (review 24, q24): a router's low end said, a direct list beside
        if router:
            after["quote"] = {"tr": "plan.apisg23.after_switch", "switch": router, "rest": after["quote"]}
        context = hosted_assumed.context_clause(f)  # s24-api24: long prompts the endpoint must accept (q10)
        if context:
            after["quote"] = {"tr": "plan.apisg23.after_switch", "switch": context, "rest": after["quote"]}
        terms = hosted_kept.terms_clause(f)  # s25-apivol25: confidential prompts' terms (q10 n3), after
        if terms:  # the clause that names the company keeping them
            after["runs"] = {"tr": "plan.apisg23.after_switch", "switch": after["runs"], "rest": terms}
    if nxt is not None and key.rsplit(".", 1)[-1] in SWITCH_LEADS:
        # s32-apinext32: the next generation's lead: its month on its name, the deprecation and the quality test it
        # takes (q24's condition for another model's API), the failed test first of what sends the team to self-host
        key = f"{hosted_next.LEAD_PREFIX}.{key.rsplit('.', 1)[-1]}"
        extra.update(next=hosted_next.model_name(c), switch=hosted_next.switch_clause(c))
    if form == "hosted_api" and not c.is_batch:
        # s35-apicost (blind review 26, q12, q22): the API's month as printed, for the lead's total with the host
        # and the line (``lead_line``); the model it is priced on where not the one asked for, said in the lead's
        # own sentence (``lead_bullets``): "a product change to put first, not a bullet"
        extra["month37"] = [hosted.low, hosted.high]
        if (getattr(costs, "volume_basis", None) or {}).get(FLOOR):
            # s38-swap (blind review 29, q24: "the token volume comes from 'the busiest hour of each day alone' and
            # is a floor: say so next to the API price"): the month the API is priced on named as the floor it is
            # s39-tokens41 (blind review 31, q12/q21/q24: "the floor alone is an odd basis for a budget line: state the
            # range up to the high end first"): the month the floor is priced on said in requests a day, and where
            # the volume has a high end, the API's price is the range up to it, in the total too (``lead_line``)
            mid = volume_peak.central(costs)  # the day/night rule's month (s40-volume, review 32 q21)
            scale = mid / costs.output_tokens_per_month if mid and costs.output_tokens_per_month else 0.0
            extra["top"] = tokens41.floor_clause(costs, _range(hosted.low, hosted.high, f),
                                                 _range(top, top, f) if floor_high else "",
                                                 _range(hosted.low * scale, hosted.high * scale, f) if scale else "")
            if floor_high:
                extra["month37"] = [hosted.low, top]
        proxy = switch_clause(c)  # another model's list (q24): the model the API is priced on
        other = hosted_next.model_name(c) if nxt is not None else \
            str(proxy.get("priced_on", "")) if isinstance(proxy, dict) else ""
        if other:
            extra["model37"] = {"kind": "next" if nxt is not None else "switch", "other": other,
                                "asked": model_shown(c)}
    return StartWith(form=form, reason=reason, key=key, params={**params, **extra}, break_even=be)


def kept_asked_key(f: Facts) -> str:
    """The kept headline's key where the answers fix the self-hosted setup (``self_host_asked``)."""
    kind = self_host_asked.asked(f)
    return asked_gpus43.KEY if kind == "gpus" else f"{self_host_asked.KEPT_KEY}.{kind}"


def _asked_params(f: Facts) -> dict[str, Any]:
    """A token seller's headline: reselling's conditions (the provider's terms, the margin, the B25 licence, the
    registration in place of the filing: ``hosted_bars.quote_clause``'s own clause); named GPUs': where the API runs
    and whose terms to get in writing (``hosted_bars.runs_clause``)."""
    if self_host_asked.asked(f) == "sells":
        return {"resell": resell_clause(True, needs_operating_licence(f), resale_registers(f))}
    check = "owner" if hosted_kept.confidential(f.ctx) else "limits"  # whose say the prompts need, if anyone's
    return {"runs": hosted_kept.runs_reach(f) or runs_clause(f), "check": {"tr": f"apilead34.check.{check}"}}


def _next_break_even(be: HostedBreakEven | None, k: tuple[float, float], hosted: Any) -> HostedBreakEven | None:
    """The break-even at the next generation's rates: the API's month × k (``hosted_next.month_factor``; its low end
    against the dearest rate, k[1], its high end against the cheapest, k[0]), so each token volume ÷ k."""
    if be is None:
        return None
    return be.model_copy(update={"tokens_low": be.tokens_low / k[1], "tokens_high": be.tokens_high / k[0],
                                 "times_high_end": be.times_high_end / k[1], "hosted_monthly": hosted})


def needs_operating_licence(f: Facts) -> bool:
    """The paid service needs the B25 operating licence (the finding ``icp.licence_b25``): reselling an API is still
    a paid service, so the lead that suggests it says the licence comes first (q11)."""
    from advisor.plan.rules import icp_licence  # the rule itself, so the lead and the finding never disagree

    return icp_licence(f) is not None


def resale_registers(f: Facts) -> tuple[int, int] | None:
    """The registration's days (登记: calling an already-filed model's API unchanged) where the plan as asked needs
    the generative-AI filing or likely does (``genai.filing``, ``genai.business_only``) and reselling a hosted API
    would be that path instead; None for a fine-tune (no API serves it unchanged) or where no filing is planned."""
    from advisor.plan.data import duration
    from advisor.plan.duties16_rules import genai_business_only
    from advisor.plan.rules import genai_filing

    c = f.ctx
    if c.fine_tuned or c.genai_covered or (genai_filing(f) is None and genai_business_only(f) is None):
        return None
    return duration("genai_registration")


def near_users(f: Facts) -> dict[str, Any] | str:
    """Where a tight TTFT target the answers set placed this plan's node near its users (``latency_place.latency_placed``):
    an API served from there (or, for mainland users, from the mainland) to meet it too; "" elsewhere."""
    placed = latency_placed(f)
    if placed is None or f.ctx.answers.latency_slo is None:
        return ""
    slo = f.ctx.answers.latency_slo.ttft_p99_ms
    return {"tr": f"plan.hostedlead20b.near.{placed}", "slo": round(slo or 0), "region": _region(f.region)}


__all__ = ["LEAD_MARGIN", "break_even", "break_even_clause", "ceiling_clause", "near_users", "said_tokens", "start_with",
           "tokens_words"]
