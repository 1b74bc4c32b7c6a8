"""The hosted API weighed against the self-hosted plan, as a deployment engineer weighs it (s16-hosted, issue 25).

Every memo prices the same model on a hosted API at the plan's own token volume (input + output). When that costs
less than the plan chosen, the reader asks "then why run GPUs?", and a memo that lists the cheaper figure without
a word against it reads as if nobody looked (fifth blind review: q24, q26, q31, q35, q36, q40). Two rules:

- ``cost.hosted_weighed``: the hosted API costs less than the plan (middle of each range); "would cost less" only
  where it does at every price and at the assumed volume's high end, else the ranges overlap and it says so
  (s18-volume, the ``overlap`` variants). Either the answers give
  a reason a hosted API is ruled out or second best — a fine-tune no provider serves, highly sensitive data,
  personal information a provider would process, a service kept on the team's own network, a one-off hardware
  budget and no monthly one — and the finding says which (the general text); or none of them holds, and the finding says
  plainly that the hosted API is cheaper and is the recommended alternative, with the checks that would make it
  the answer (``alternative``). The engine's form is not changed here: it is decided by the ops capability and the
  owning rules (``engine._decide_form``), and the scenarios' expected forms were written from those rules.
- ``cost.token_margin``: a service that sells tokens (users pay, an API) whose own cost per million input or output
  tokens is above the hosted API's price for the same model: priced at the market, each token sold loses money
  (q11: 8.9–23.6 CNY per million input tokens against 0.77–2.03).

Both quote the figures the memo's cost table shows (``Costs.recommended_monthly``, ``hosted_api_monthly``, the
per-million split of ``memo_text15.per_million_split``) and cite the hosted price list's grade (U: placeholder).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import (
    api_marginal,
    api_note42,
    api_plain,
    api_residency,
    asked_gpus43,
    fleet,
    gpus_alone40,
    hosted_assumed,
    hosted_at,
    hosted_bars,
    hosted_batch_api,
    hosted_next,
    hosted_prices,
    hosted_rented,
    hosted_switch,
    hosted_tie,
    hosted_unserved,
    hosted_where,
    self_host_asked,
    token_cost_split,
    token_margin,
    usage_share,
)
from advisor.plan.answers import OWN_NETWORK_REACH
from advisor.plan.batch_policy import SENSITIVE_SECTORS, sensitive_data
from advisor.plan.cost import sized_hosted_sources
from advisor.plan.hosted_data_reason import data_reason, law_sources, processor_law
from advisor.plan.hosted_prices import hosted_rates
from advisor.plan.hosted_processor import ARRANGEMENTS, high_reason, pi_reason, with_dpa, with_registration
from advisor.plan.hosted_tie import noted_basis, tie_params
from advisor.plan.hosted_verdict import ApiVerdict, api_verdict, close_reason
from advisor.plan.latency_place import latency_placed
from advisor.plan.money_text import round_money
from advisor.plan.result import Finding, MoneyRange
from advisor.plan.rule_base import Facts, _range, _region, finding, rule
from advisor.plan.volume_low_end import FLOOR

PRIVATE_REACH = OWN_NETWORK_REACH


def _mid(r: MoneyRange) -> float:
    return (r.low + r.high) / 2


def high_end_factor(costs: Any) -> float:
    """An assumed volume's high end ÷ the volume costed (1 where the volume is counted or has no higher figure):
    the hosted API's cost is linear in the tokens, so its price at the high end is this × its price."""
    out, high = costs.output_tokens_per_month, costs.output_tokens_per_month_high
    return high / out if out and high and high > out else 1.0


def _cheaper(f: Facts) -> tuple[MoneyRange, MoneyRange, bool] | None:
    """(hosted, plan, clear) in the answers' currency when the plan runs GPUs of its own and the hosted API at the
    same volume costs less in the middle of each range (both are ranges of the same prices' spread). ``clear``: it
    costs less at every price, even at its dearest rate on the assumed volume's high end, than the plan's low end
    (s18-volume: "would cost less, ¥1,085 against ¥946–¥1,856" claimed a figure inside the plan's range, q02)."""
    if f.form == "hosted_api" or f.chosen is None or f.cost is None or runs_on_owned_cards_only(f):
        return None
    costs = f.cost.costs
    hosted, plan = costs.hosted_api_monthly, costs.recommended_monthly
    if f.form == "hybrid":  # the API leads the bursts: the plan's month is that path's, as page 1's cost row says
        # (s37-fleet39, blind review 28, q39); a rules module: loaded where used
        from advisor.plan import burst_bill_rules

        plan = burst_bill_rules.api_led_running(f) or plan
    # s24-api24 (round 13, q28: "costs about the same and is not weighed"): an API at about the plan's cost (its
    # middle at most TIE above the plan's) is weighed too; its verdict is then an overlap, never "cheaper"
    if hosted is None or plan is None or plan.high <= 0 or not hosted_batch_api.about_the_same(hosted, plan):
        return None
    return hosted, plan, hosted.high * high_end_factor(costs) < plan.low


def runs_on_owned_cards_only(f: Facts) -> bool:
    """The plan runs on the team's own cards with nothing bought or rented: they are paid for, so a hosted API is
    not weighed against their power bill (ninth review and re-check 9b: "the hosted-API rows are filler for cards
    already owned", q33; once s20-fleet20 counted the service's own volume, an API at ¥110–¥206 a month beside
    ¥570 of power read as a reason to leave the cards idle, q08, q33). A hybrid rents its bursts: still weighed."""
    own = fleet.chosen_owned(f.ctx, f.cost, f.form) if f.cost is not None else None
    return own is not None and f.form != "hybrid" and own.capex[1] <= 0


def cheaper_pair(f: Facts) -> tuple[MoneyRange, MoneyRange, bool] | None:
    """(hosted, plan, clear) where the hosted API costs less than the plan (``_cheaper``), else None."""
    return _cheaper(f)


def cheaper_than_plan(f: Facts) -> bool:
    """The whole service on a hosted API costs less than the plan (``cost.hosted_weighed`` weighs it)."""
    return _cheaper(f) is not None


# s18-apiweigh (seventh blind review, q35/q38/q41): a hosted API at a tenth of the plan's cost or less is not set
# aside for a reason an expert calls ordinary. Ordinary personal information is processed by a provider under a
# data-processing agreement every day, and a service reached only on the team's network can call an in-region
# private endpoint: these two are arrangements, not bars. The others are bars: a fine-tune no provider serves,
# highly sensitive data, sensitive personal information (financial or health records), no monthly budget to pay from.
GAP = 10.0  # the API this many times cheaper, at its dearest rate on the volume's high end, than the plan's low end
SOFT_REASONS = frozenset({"plan.hosted16.why.pi", "plan.apiweigh18.why.private", *hosted_rented.PRIVATE_KEYS,
                          *hosted_bars.SOFT_KEYS, *ARRANGEMENTS})


def reasons_to_self_host(f: Facts) -> list[dict[str, Any]]:
    """Why the answers keep the service off a hosted API, strongest first (phrase keys, each a clause)."""
    c = f.ctx
    out: list[dict[str, Any]] = []
    if c.fine_tuned:
        out.append({"tr": "plan.hosted16.why.fine_tune"})
    context = hosted_assumed.context_reason(f)  # s24-api24: the endpoint's stated limit is below the prompts (q10)
    if context is not None:
        out.append(context)
    filed = hosted_bars.filed_reason(f)  # the filing names the deployed model: the reason an expert gives (q32)
    if filed is not None:
        out.append(filed)
    if c.level == "high":  # on rented GPUs in the words of control: their provider holds the prompts too (s23-apisg23)
        out.append(high_reason(f))
    # personal information in a bank's, an insurer's or a hospital's prompts, or counted as sensitive: the sensitive
    # class, or a regulated sector's data, not the ordinary one a processing agreement covers; said in the words of
    # the law and the sector that apply (``hosted_data_reason``: PDPO in Hong Kong, PDPA in Singapore, s19-apireason)
    sensitive_pi = c.personal_info and sensitive_data(c) and (c.level != "high" or (c.sensitive_subjects or 0) > 0
                                                              or any(s in c.sector for s in SENSITIVE_SECTORS))
    if sensitive_pi:  # in the words of the law and the sector that apply (s19-apireason); on rented GPUs with what
        out.append(hosted_rented.data_reason(f, data_reason(f), said=c.level == "high"))  # differs from an API (review 24, q06)
    lan = hosted_bars.lan_reason(f)  # the office LAN: every prompt would leave the office (a bar, q01, q02)
    if lan is not None:
        out.append(lan)
    if c.answers.capex_budget is not None and c.budget_amount is None:
        out.append({"tr": "plan.hosted16.why.capex"})
    running = running_reason(f)  # a service the team runs now at a measured load, for years, with its own ops
    if running is not None:
        out.append(running)
    # s21-apilead21: the ordinary reasons after the bars, a tight first-token target first: personal information is
    # an arrangement a processor contract meets, so it never leads where a truer reason exists (q09, q32)
    latency = hosted_bars.latency_reason(f)
    if latency is not None:
        out.append(latency)
    if c.personal_info and not sensitive_pi:  # an arrangement, not a reason, where the plan rents too (s23-apisg23)
        out.append(pi_reason(f))
    # on rented GPUs in the words of control, not "outside your network" (q06); not for a batch job that has a reason
    # already: it serves nobody, so "the service is to be reached only on your own network" is a live service's
    # words there (review 27, q06: "does not belong in a batch job"; batch_words)
    if c.reach == "private_network" and not (c.is_batch and out):
        out.append(hosted_rented.private_reason(f, said=sensitive_pi or c.level == "high"))
    return out


def running_reason(f: Facts) -> dict[str, Any] | None:
    """The service runs today on the team's own setup at a measured load this plan keeps busy for two years or more,
    with a strong ops team and no other fleet (q26, q31: the engine's bare-metal condition): an expert weighs a
    hosted API there as a change to the product (its rate limits, data terms, model versions), not as the plan's
    lead (eleventh blind review: "start on a hosted API" told a company running its API at 80 % around the clock
    to move, against the memo's own finding that owning pays)."""
    c = f.ctx
    costs = f.cost.costs if f.cost is not None else None
    # the usage the cost table prints (the measured duty here), the figure the engine's own-vs-rent gate reads
    if not (c.duty_measured and c.ops == "strong" and c.duration_months >= 24 and c.answers.current_fleet is None
            and usage_share.printed_high(costs, c) >= fleet.OWN_MIN_UTILISATION):
        return None
    return {"tr": "plan.hostedrun21.why.running", "util": usage_share.printed_pct(costs, c),
            "years": f"{c.duration_months / 12:g}"}


# the plan's cheapest month is at least this many times the API at its dearest rate on the volume's high end: a
# margin a better quote for the GPUs is not expected to close (a policy, not a sourced figure; s20-hosted20)
LEAD_MARGIN = 2.0
# s20-hosted20b: the one reason a plan keeps its own GPUs beside a cheaper API where the answers give none, said in
# the same words by the Decision's headline (``hosted_lead``) and by this finding's detail (q31: "nothing in your
# answers rules it out" under a headline that said why the plan keeps its GPUs)
KEEP_REASONS = {"owned": "plan.hostedlead20b.why.owned", "close": "plan.hostedlead20b.why.close",
                "other_model": "memo29.hosted.why.other_model", "deprecated": hosted_tie.KEPT_REASON}


def choice(f: Facts) -> str | None:
    """What the memo starts on where a hosted API of the same model costs less (None where it does not): "lead"
    (cheaper at every price, nothing against it but a tight TTFT target the lead meets by where the API runs),
    "lead_terms" (a tenth of the cost or less, only reasons an API's contract meets), or the one reason this plan is
    kept: "answers" (a reason in the answers; ``reasons_to_self_host``), "owned" (cards already owned), "close" (the
    cost ranges overlap). "thin" (cheaper by less than ``LEAD_MARGIN``) is no longer a reason to keep the plan
    (s21-apilead21): the lead then names the month a quote must beat (``hosted_bars.quote_clause``)."""
    pair = _cheaper(f)
    if pair is None:
        return None
    hosted, plan, clear = pair
    top = hosted.high * high_end_factor(f.cost.costs)
    why = reasons_to_self_host(f)
    soft = all(w["tr"] in SOFT_REASONS for w in why)
    # s23-apisg23: personal information on rented GPUs is held by their provider too: an arrangement the API's
    # contract meets alike, never the reason the plan is kept (re-check 12b: q12, q13)
    keeping = [w for w in why if w["tr"] not in ARRANGEMENTS]
    if why and not soft:
        return "answers"
    if fleet.chosen_owned(f.ctx, f.cost, f.form) is not None:  # bought whatever the API costs (q39's base)
        return "owned"
    # a tight first-token target does not keep out an API cheaper at every price: the lead names an API served
    # from where the node sits (q43); it is the reason said where the figures keep the plan (q09, q23)
    terms = [w for w in keeping if w["tr"] not in hosted_bars.SOFT_KEYS]
    # s21-apilead21: cheaper at every price, even at its dearest rate on the volume's high end, and nothing in the
    # answers against it: the memo starts on the API, however small the gap ("a gap the quotes can close" kept plans
    # 1.4–3× dearer with no reason, q11, q26, q31); the lead says the figure a quote must beat
    if clear and not terms:
        return _asked_or(f, _same_model_lead(f, "lead"))
    # "lead_terms" says how an API's contract meets each reason (``ways_round``): only where every one has a way
    # round, else the lead would chain nothing (s34-rem36: the gap alternative had this guard, this path had not)
    if clear and top * LEAD_MARGIN <= plan.low and top * GAP <= plan.low and all(_way(w) for w in terms):
        return _asked_or(f, _same_model_lead(f, "lead_terms"))
    if keeping:
        return "answers"
    v = verdict(f)
    if v is not None and v.kind == "volume":
        # s25-apikept25 (review 15, q11, q19): cheaper at every list price on the volume costed, reaching the plan's
        # cheapest month only at its dearest rate on the volume's high end: no reason to keep the plan 1.6–5× dearer;
        # the lead names that dearest month as the figure a quote must beat
        return _asked_or(f, _same_model_lead(f, "lead"))
    return unserved_or(f, "close")


def _asked_or(f: Facts, got: str) -> str:
    """s34-apilead34 (blind review 23, q11, q35, q42): a lead ("lead"/"lead_terms") where the answers fix the
    self-hosted setup (a paid token API, named GPUs: ``self_host_asked``) keeps the plan, reason "asked"."""
    return "asked" if got in ("lead", "lead_terms") and self_host_asked.asked(f) is not None else got


def _same_model_lead(f: Facts, reason: str) -> str:
    """``lead_or_unserved``'s, where the API's figure is this model's own list (or a larger one's, an upper bound on
    its price), or where the prompts carry nothing confidential (the lead then says the model switch and its quality
    test, ``hosted_switch``); "other_model" where only another model of its size is priced and the prompts carry
    personal or highly sensitive data (blind review 18, q10: a Qwen2.5-72B API leading a Llama-3.3-70B plan for
    confidential client contracts): trying another model means sending those prompts to it, a choice for the data's
    owner to make, so it is the labelled alternative beside the plan asked for, never the headline."""
    got = lead_or_unserved(f, reason)
    p = hosted_prices.proxy(f.ctx)
    confidential = f.ctx.personal_info or f.ctx.level == "high"
    if got == reason and p is not None and p[0] == "other" and confidential:
        return "other_model"
    # s31-publicsaas31 (blind review 20, q12/q13/q22): a model its provider marks deprecated never leads a plan that
    # runs longer than a few months; its price stays beside the plan as a labelled yardstick (``hosted_tie``)
    # s32-apinext32 (blind review 21, q12/q13/q22): unless its next generation on the same list costs no more, which
    # then leads as another model's API does (``hosted_next.leads``; the lead names it and its quality test)
    if got == reason and hosted_tie.outlived(f.ctx):
        return got if f.cost is not None and hosted_next.leads(f.ctx, f.cost.costs) else "deprecated"
    return got


def lead_or_unserved(f: Facts, reason: str) -> str:
    """``reason`` (an API lead) where a provider of the price row serves the node's region or a place the prompts may
    go (``hosted_assumed.reachable``: q12, q21, q22, s25-apikept25), whether the volume is the user's or the plan's
    estimate (s25-apivol25, round 14: "an estimate is no reason to keep a plan 20–300× dearer"; the volume that
    would flip it is asked first, ``volume_flip``); else ``unserved_or``'s. s27-pages27: the "assumed" answer (a
    plan kept beside an API cheaper on the estimate for where that API is served) is gone, as no API the prompts may
    reach crosses a jurisdiction its users are not in (``hosted_kept``)."""
    if hosted_assumed.reachable(f) is not None:
        return reason
    return unserved_or(f, reason)


def unserved_or(f: Facts, reason: str) -> str:
    """``reason`` (an API to lead with, or a close call the figures decide), or "unserved" where no provider of the
    price row serves from the API's region: its figure is a yardstick, no price to lead with or to weigh (s22-apilead22,
    re-check 11b: q12, q13, q21, q22, q34, q38, q43)."""
    return "unserved" if hosted_unserved.unserved(f) else reason


def _near_users(f: Facts) -> dict[str, Any] | None:
    """Mainland users whose tight TTFT target placed this plan's node near them (``latency_place.latency_placed``): the
    region and the target, for a provider that serves from there; None elsewhere."""
    slo = f.ctx.answers.latency_slo
    if latency_placed(f) != "mainland" or slo is None or slo.ttft_p99_ms is None:
        return None
    return {"region": _region(f.region), "slo": round(slo.ttft_p99_ms)}


def verdict(f: Facts) -> ApiVerdict | None:
    """How the API's month compares with the plan's (``hosted_verdict.api_verdict``), None where it is not cheaper."""
    pair = _cheaper(f)
    if pair is None:
        return None
    hosted, plan, _clear = pair
    return api_verdict((hosted.low, hosted.high), (plan.low, plan.high), hosted.high * high_end_factor(f.cost.costs),
                       yardstick=hosted_unserved.unserved(f))


def keep_reason(f: Facts, reason: str | None) -> dict[str, Any] | None:
    """The clause that says why this plan is kept (``KEEP_REASONS``), the same for the headline and the finding;
    "close" in the words of the verdict on the two ranges (s21-apiprice21: never "the ranges overlap" of an API
    whose cheapest month is many times below the plan's)."""
    if reason == "close" and (v := verdict(f)) is not None:
        # s23-apisg23: about the same cost: the other factors that decide, and a deprecated model said (q20)
        return {**close_reason(v), **tie_params(f.ctx, v)} if v.kind == "tie" else close_reason(v)
    if reason == "deprecated":  # the model, its provider and the plan's horizon named (``hosted_tie``)
        why = {"tr": KEEP_REASONS[reason], "more": "", **(hosted_tie.deprecated_params(f.ctx) or {})}
        # s31-util32 (q13): the next generation on the same list priced where the row names one
        nxt = hosted_next.reason(f.ctx, f.cost.costs, lambda lo, hi: _range(lo, hi, f)) if f.cost else None
        return {**why, **nxt} if nxt else why
    if reason == "other_model":  # the two models named: the one asked for and the one the price list is of
        p = hosted_prices.proxy(f.ctx)
        return {"tr": KEEP_REASONS[reason], "more": "", "model": hosted_switch.model_shown(f.ctx),
                "priced_on": p[1] if p is not None else ""}
    if reason == "asked":  # s34-apilead34: the self-hosted setup the answers ask for
        return self_host_asked.reason(f)
    if reason == "owned" and (pair := _cheaper(f)) is not None:  # review 25 (q39): the cards' running cost against
        # the API's month, never "bought whatever an API costs" (a sunk cost decides nothing)
        return api_marginal.reason(pair[0], pair[1])
    return {"tr": KEEP_REASONS[reason], "more": ""} if reason in KEEP_REASONS else None


def _short(why: dict[str, Any]) -> dict[str, Any]:
    """A reason's short clause for a title ("…why.pi" → "…short.pi"), with its parameters (what the data is)."""
    return {**{k: v for k, v in why.items() if k != "more"}, "tr": str(why["tr"]).replace(".why.", ".short.")}


def _way(w: dict[str, Any]) -> str | None:
    """Which way round an ordinary reason has: "pi" (a processor contract), "private" (a private endpoint), or None."""
    if w["tr"] == "plan.hosted16.why.pi" or w["tr"] in ARRANGEMENTS:
        return "pi"
    if w["tr"] == "plan.apiweigh18.why.private" or w["tr"] in hosted_rented.PRIVATE_KEYS:
        return "private"
    return None


def ways_round(f: Facts, why: list[dict[str, Any]]) -> dict[str, Any]:
    """How an API is taken all the same, one clause for each ordinary reason (``SOFT_REASONS``)."""
    ways: list[dict[str, Any]] = []
    for w in why:
        if _way(w) == "pi":
            # "a provider in your users' region" was undefined for mainland users on a Hong Kong node (q21): where
            # the API runs is the lead's own sentence (``hosted_bars.runs_clause``)
            ways.append({"tr": "plan.apilead21.way.pi", "law": {"tr": processor_law(f)}})
        elif _way(w) == "private":
            ways.append({"tr": "plan.apiweigh18.way.private"})
    return _chain(ways)


def _has_way(why: list[dict[str, Any]]) -> bool:
    """Some reason in ``why`` has a way round it (``ways_round`` has a clause to chain)."""
    return any(_way(w) is not None for w in why)


def _chain(why: list[dict[str, Any]]) -> dict[str, Any]:
    """The reasons as one clause after another ("…; …" / "…；…"): each phrase ends in ``{more}``."""
    out: dict[str, Any] | str = ""
    for w in reversed(why):
        out = {**w, "more": {"tr": "plan.hosted16.why.and", "next": out} if out else ""}
    assert isinstance(out, dict)
    return out


def _per_m(lo: float, hi: float, f: Facts) -> str:
    """A price per million tokens as the memo's cost table prints it (three significant figures: ¥0.77–¥2.03)."""
    sym = "¥" if f.ctx.currency == "CNY" else "$"
    a, b = round_money(lo), round_money(hi)
    return f"{sym}{a}" if a == b else f"{sym}{a}–{sym}{b}"


def _rates(f: Facts) -> dict[str, Any]:
    costs = f.cost.costs
    i, o = costs.hosted_api_input_per_million, costs.hosted_api_output_per_million
    basis = price_basis(f.ctx)
    nearest = {**basis, "tr": SHORT[basis["tr"]]} if basis["tr"] in SHORT else ""
    return {"api_in": _per_m(i.low, i.high, f) if i else "—", "api_out": _per_m(o.low, o.high, f) if o else "—",
            "nearest": nearest}


# the details that print the API's month beside their own price basis: where the figure names another model's list
# (``hosted_prices.figure``, for the title and the Decision's headline), they print it bare, the basis saying it once
PROXIED_DETAILS = frozenset(f"plan.rule.cost.hosted_weighed.{v}detail" for v in ("alternative.", "alternative.kept.",
                                                                                  "gap.alternative."))


def _said_once(got: Finding) -> Finding:
    """``got`` with the detail that names the list in its basis printing the bare figure (``PROXIED_DETAILS``)."""
    hosted = got.params.get("hosted")
    if not isinstance(hosted, dict) or got.detail_key not in PROXIED_DETAILS:
        return got
    return got.model_copy(update={"detail_key": got.detail_key.replace(".detail", ".proxied.detail"),
                                  "params": {**got.params, "hosted_amount": hosted["amount"]}})


def _cite_law(got: Finding, f: Facts, why: list[dict[str, Any]]) -> Finding:
    """``got`` citing the data-protection law its personal-information reason names (s19-apireason)."""
    titles = {x.title for x in got.sources}
    extra = [x for x in law_sources(f, why) if x.title not in titles]
    if not extra:
        return got
    return got.model_copy(update={"sources": [*got.sources, *extra],
                                  "verify": got.verify or any(x.needs_verify for x in extra)})


@rule("cost.hosted_weighed", "cost")
def cost_hosted_weighed(f: Facts) -> Finding | None:
    """A self-hosted plan dearer than a hosted API of the same model at the same volume: why it is still chosen
    (the answers' reason), or the hosted API named as the cheaper, recommended alternative; where the API is weighed
    for a public generative-AI service in the mainland, the shorter registration it opens (s23-apisg23)."""
    got = _weighed(f)
    if got is None or got.detail_key.endswith(".ruled_out.detail"):
        return got
    # s24-api24: a batch job's finding names the batch API a source prices in its market (q28)
    return hosted_batch_api.with_batch_api(with_registration(f, got), f.ctx, f.cost.conv if f.cost is not None else None)


def _plan_text(f: Facts, plan: MoneyRange) -> Any:
    """The plan's month as the comparison prints it: the GPUs alone named so where page 1 adds a line (review 29)."""
    return gpus_alone40.plan_figure(f.cost.costs, plan, _range(plan.low, plan.high, f), lambda a, b: _range(a, b, f))


def _weighed(f: Facts) -> Finding | None:
    """The finding ``cost.hosted_weighed`` without the registration clause (``cost_hosted_weighed``)."""
    pair = _cheaper(f)
    if pair is None:
        return None
    hosted, plan, clear = pair
    c = f.ctx
    barred = hosted_bars.ruled_out(f)
    if barred is not None:  # s21-apilead21: ruled out by the answers, said in one line, no prices (q01, q02, q17)
        got = finding("cost.hosted_weighed", variant="ruled_out", severity="info", what=barred)
        update: dict[str, Any] = {"sources": [], "verify": False}
        if barred == hosted_bars.FINE_TUNE_BAR:  # a platform may host a fine-tune, as other capacity (``FINE_TUNE_DETAIL``)
            update["detail_key"] = hosted_bars.FINE_TUNE_DETAIL
        return got.model_copy(update=update)
    factor = high_end_factor(f.cost.costs)
    top = hosted.high * factor
    per = {"tr": "plan.hosted16.per.job" if c.is_batch else "plan.hosted16.per.month"}
    common: dict[str, Any] = {"hosted": hosted_prices.figure(c, _range(hosted.low, hosted.high, f)),
                              "plan": _plan_text(f, plan),
                              "per": per, **_rates(f)}
    if clear:  # said only where it holds at the high end; with it in words when the volume is an assumption
        common["top"] = {"tr": "plan.volume18.top", "amount": _range(top, top, f)} if factor > 1 else ""
    if factor > 1 and (getattr(f.cost.costs, "volume_basis", None) or {}).get(FLOOR):
        # s39-tokens41 (blind review 31, q24: "state the range up to $1,198 first"): a month that is the busiest
        # hour's floor is priced as page 1 prices it (``hosted_lead``), from the floor up to the volume's high end
        common["hosted"] = hosted_prices.figure(c, _range(hosted.low, top, f))
        common["top"] = ""
    # s19-volume19b: cheaper at every price on the volume costed, dearer only on the volume's high end (the peak
    # read as requests in flight): the volume decides, not the prices ("the ranges overlap" said of ¥32–¥59 against
    # ¥218–¥692, q01)
    v = api_verdict((hosted.low, hosted.high), (plan.low, plan.high), top, yardstick=hosted_unserved.unserved(f))
    by_volume, ends, far = v.kind in ("volume", "tie"), v.kind == "ends", v.kind == "far"
    tie = v.kind == "tie"  # s23-apisg23: about the same cost, said so (q20: $1,009 against $1,010)
    if by_volume:  # the high end said against the plan's low end where it passes it: the ranges overlap there (q19:
        # "'cheaper at every price' but its own high end ¥12,508 exceeds the plan's low end ¥11,759", reviews 21, 22)
        common["top_amount"] = _range(top, top, f) if top <= plan.low else {
            "tr": "arith33.hosted.top_above", "amount": _range(top, top, f), "plan_low": _range(plan.low, plan.low, f)}
    if far:  # s21-apiprice21: the low ends many times apart are said as a ratio, not as an overlap (q23)
        common["low_times"] = v.times_text
    if ends:  # s18-apiweigh: ranges that meet only at their far ends are not "cheaper or dearer" alike
        common.update(overlap=_range(plan.low, min(plan.high, top), f),
                      hosted_mid=_range(_mid(hosted), _mid(hosted), f), plan_mid=_range(_mid(plan), _mid(plan), f))
    why = reasons_to_self_host(f)
    kept = choice(f)
    # s23-apisg23: an arrangement (personal information on rented GPUs) is said in the checks, never as a reason
    why = [w for w in why if w["tr"] not in ARRANGEMENTS]
    if kept == "unserved":  # s22-apilead22: a yardstick, no verdict: none priced in the region, a quote asked for
        return sized_hosted_sources(finding(
            "cost.hosted_weighed", variant="unserved", checks=checks_words(f),
            **hosted_unserved.finding_params(f, common["hosted"], common["plan"], per), **_rates(f)), c)
    # a tight target does not keep the API out: the lead says where it runs (q43); a deprecated model's price would
    # have led but for its deprecation (s31-publicsaas31), which is the one reason then said
    if kept in ("lead", "lead_terms", "deprecated"):
        why = [w for w in why if w["tr"] not in hosted_bars.SOFT_KEYS]
    if kept == "owned" and why:  # the headline's reason first (the cards are owned), then the answers'
        why = [keep_reason(f, "owned") or {"tr": KEEP_REASONS["owned"]}, *why]
    checks = checks_words(f)
    gap = clear and top * GAP <= plan.low
    # every soft reason has its way round, or the alternative is not said as one (a reason only hosted_bars names has
    # none: the property test's answers found ``ways_round`` with nothing to chain)
    if why and gap and all(w["tr"] in SOFT_REASONS for w in why) and _has_way(why):
        # a tenth of the cost or less, set aside only for reasons an API under a contract meets: led with the API,
        # its conditions said (the headline's cheaper alternative, as where nothing rules it out)
        got = finding("cost.hosted_weighed", variant="gap.alternative", why=_chain(why), ways=ways_round(f, why),
                      checks=checks, basis=noted_basis(c, price_basis(c)), **common)
        got = _said_once(got)
        if kept == "asked":  # the GPUs asked for are the reason, as page 1 says (api43, blind review 34, q35)
            got = got.model_copy(update={"detail_key": asked_gpus43.detail_key(got.detail_key,
                                                                              self_host_asked.asked(f))})
        return _cite_law(sized_hosted_sources(got, c), f, why)
    if why and hosted_unserved.unserved(f):  # s22-apilead22: the answers' reason, the figure a yardstick clause
        kind = api_residency.miss(f)  # review 25 (q25): the data would leave the place it must stay, said first
        first = api_residency.short(f, kind) if kind == "regulated" else _short(why[0])
        got = finding("cost.hosted_weighed", variant="unserved_kept", first=first, why=_chain(why),
                      **hosted_unserved.finding_params(f, common["hosted"], common["plan"], per))
        return _cite_law(sized_hosted_sources(got, c), f, why)
    if why:
        variant = None if clear else "tie" if tie else "volume" if by_volume else "ends" if ends else "far" if far \
            else "overlap"
        # review 25 (q31): the team's running of the service said as the trade it is, with what it costs a month
        plain = api_plain.running(f, why[0], plan, hosted, top, v.kind)
        got = finding("cost.hosted_weighed", variant=variant, first=_short(why[0]), why=_chain(why), plain=plain,
                      api_note=api_note42.note(f), **common)  # page 1's box: the data's way, the filing path (q14)
        got = api_plain.on_busy(got)  # page 1 reads the measured load: the finding says that verdict too (ac43, q26)
        if variant is None and factor > 1:  # s21-apiregion21b: the title's month and the text's "at most" each
            # with its basis (q03: "¥161–326 a month in the headline, 'at most ¥2,129' in the text", q14)
            got = got.model_copy(update={"title_key": "plan.apiregion21.weighed.top.title",
                                         "params": {**got.params, "top_amount": _range(top, top, f)}})
        return _cite_law(sized_hosted_sources(got, c), f, why)
    variant = "alternative" if clear else "alternative_tie" if tie else "alternative_volume" if by_volume \
        else "alternative_ends" if ends else "alternative_far" if far else "alternative_overlap"
    reason = keep_reason(f, kept)
    if reason:
        common["reason"] = reason
    # the deprecation said once: in the keep clause where the costs tie (it is what decides there), else in the basis
    # (in the lead where the memo starts on the API: ``hosted_tie.lead_clause``)
    basis = price_basis(c) if (tie and reason) or kept in ("lead", "lead_terms", "deprecated") \
        else noted_basis(c, price_basis(c))
    if kept in ("lead", "lead_terms") and hosted_tie.outlived(c):  # s32-apinext32: the next generation leads page 1
        # the deprecation and the next generation's month in the full text; the memo's short text says them alone
        # (``memo_lead_once.point_to_lead``), page 1 giving the quality test, rate limits and speed it takes
        plain, basis = basis, hosted_next.noted_basis(c, basis, f.cost.costs, lambda lo, hi: _range(lo, hi, f))
        if isinstance(basis, dict) and basis.get("tr") == hosted_next.BASIS_KEY:
            common.update(page1_basis=plain, next_lead=basis)
    got = finding("cost.hosted_weighed", variant=variant, checks=checks, basis=basis, **common)
    if reason:  # kept for the headline's reason: said here too, never "nothing in your answers rules it out"
        got = got.model_copy(update={"detail_key": got.detail_key.replace(".detail", ".kept.detail")})
    return sized_hosted_sources(_said_once(got), c)


def checks_words(f: Facts) -> dict[str, Any]:
    """What makes the API the answer: a provider (a mainland-filed one for mainland users, one near users whose
    first-token target placed the node, q43; under a data-processing agreement where the prompts' personal
    information is an arrangement, s23-apisg23), its rate limits at the peak, its speed on the team's own prompts."""
    c = f.ctx
    mainland = f.region in ("mainland", "mainland_plus_overseas")
    provider: dict[str, Any] = {"tr": "plan.hosted16.provider.mainland" if mainland else "plan.hosted16.provider.any"}
    near = _near_users(f)
    if near is not None and not mainland:  # the node's region was chosen for the TTFT target: the API's too (q43)
        provider = {"tr": "plan.hostedlead20b.provider.near", **near}
    if f.region == "mainland_plus_overseas" and hosted_prices.split_rows(c) is not None:  # each group's own (q34)
        provider = {"tr": "plan.apisg23.provider.split", }
    if choice(f) != "lead":  # the lead that starts on the API says the agreement itself (``plan.apisg23.lead_dpa``)
        provider = with_dpa(f, reasons_to_self_host(f), provider)
    return {"tr": "plan.hosted16.checks.batch" if c.is_batch else "plan.hosted16.checks.live", "peak": c.peak,
            "provider": provider}


# a basis on another model's lists, as a clause after the rates where the text gives no basis of its own
SHORT = {"plan.prices19.basis.other": "plan.prices19.short.other",
         "plan.prices19.basis.nearest": "plan.prices19.short.nearest", **hosted_at.SHORT}


def price_basis(c: Any) -> dict[str, Any]:
    """What the API figures rest on, in words: the model's own list prices, another model's (named: "the same model
    may cost more or less", s19-prices), or the placeholder; with the list's date and grade."""
    tier = hosted_rates(c).tier
    if tier is None:
        return {"tr": "plan.prices17.basis.placeholder"}
    dated = {"date": str(tier["date"]), "grade": str(tier["grade"]), "priced_on": hosted_prices.priced_on(tier)}
    if "parts" in tier:  # s23-apisg23: a split plan's users each on their own region's list (q34)
        home, away = tier["parts"]
        return {"tr": "plan.apisg23.basis.split", **dated, "pct": round(float(tier["share"]) * 100),
                "home": hosted_where.names(home), "away": hosted_where.names(away),
                "where": {"tr": f"plan.apisg22c.served.{away['region']}"}}
    if hosted_prices.same_model(tier):
        return hosted_at.basis_at({"tr": "plan.prices19.basis.model", **dated}, tier)
    low, high = tier["listed_params_b"]
    size = hosted_prices.model_size_b(c)
    if size < hosted_prices.NEAREST_BELOW * float(low):  # a 14B on the lists of 30-32B models: said, not passed off as its own price
        listed = f"{low}B" if low == high else f"{low}–{high}B"
        return hosted_at.basis_at({"tr": "plan.prices19.basis.nearest", "listed": listed, "size": f"{size:.3g}B",
                                   **dated}, tier)
    return hosted_at.basis_at({"tr": "plan.prices19.basis.other", **dated}, tier)


def _own_split(f: Facts) -> tuple[tuple[float, float], tuple[float, float]] | None:
    from advisor.plan.memo_text15 import per_million_split

    return per_million_split(f.cost.costs) if f.cost is not None else None


def sells_tokens(f: Facts) -> bool:
    """Users pay for an API: the product is sold by the token, so its cost per token is its margin."""
    return bool(f.ctx.charges) and f.ctx.use_case == "api"


@rule("cost.token_margin", "cost")
def cost_token_margin(f: Facts) -> Finding | None:
    """A paid API whose own cost per million input or output tokens is above a hosted API's price for the same
    model: tokens sold at the market price are sold at a loss unless utilisation rises."""
    if not sells_tokens(f) or f.form == "hosted_api" or f.chosen is None or f.cost is None:
        return None
    costs = f.cost.costs
    # at the month's own tokens where the cost table's use is theirs (issue 25): the figures the table gives first
    volume = costs.usage_from_tokens and token_cost_split.volume_split(costs) is not None
    split = token_cost_split.volume_split(costs) if volume else _own_split(f)
    i, o = costs.hosted_api_input_per_million, costs.hosted_api_output_per_million
    if split is None or i is None or o is None:
        return None
    (in_lo, in_hi), (o_lo, o_hi) = split
    if (in_lo + in_hi) / 2 <= _mid(i) and (o_lo + o_hi) / 2 <= _mid(o):
        return None
    times = max((in_lo + in_hi) / max(i.low + i.high, 1e-9), (o_lo + o_hi) / max(o.low + o.high, 1e-9))
    # each ratio from the ranges' ends, input and output apart, and the price it rests on named (s19-cost19, q11);
    # on the cost table's basis, the setup's capacity × utilisation, said with its throughput (s20-costtoken20)
    basis = costs.per_million_basis
    at = {"variant": "volume", "busy": {"tr": "usage25.busy.range", "low": f"{max(costs.utilisation * 100, 1):.0f}",
                                        "high": f"{min(costs.usage_high or costs.utilisation, 1.0) * 100:.0f}"}} \
        if volume else \
        {"variant": "capacity", "tok_s": {"tr": "memo.unit.tok_s", "n": f"{basis['output_tokens_per_s']:,.0f}"}} if basis else \
        {"variant": "ranges"}
    found = finding(
        "cost.token_margin", **at, own_in=_per_m(in_lo, in_hi, f), own_out=_per_m(o_lo, o_hi, f),
        times=f"{times:.0f}" if times >= 2 else f"{times:.1f}", util=usage_share.printed_pct(costs, f.ctx),
        in_times=token_margin.ratio_range((in_lo, in_hi), i), out_times=token_margin.ratio_range((o_lo, o_hi), o),
        lead=token_margin.margin_lead((in_lo, in_hi), i, (o_lo, o_hi), o),
        hardware=token_margin.hardware_question(f.chosen, costs.prices, _owned_form(f)), **_rates(f))
    # s33-apiterms (blind review 22, q11): reselling a hosted API is no way out of the margin at list prices, nor
    # always allowed: the detail asks what the service adds instead of offering resale as a fix
    found = found.model_copy(update={"detail_key": f"{MARGIN_DETAIL}.{at['variant']}.detail"})
    return sized_hosted_sources(found, f.ctx)


MARGIN_DETAIL = "apiterms33.token_margin"


def _owned_form(f: Facts) -> Any:
    """The chosen owning form's figures (None where the plan rents)."""
    costs = f.cost.costs if f.cost is not None else None
    if costs is None:
        return None
    return costs.hybrid if f.form == "hybrid" else costs.owned if f.form in ("on_premises", "bare_metal") else None


def apply_hosted_only(costs: Any, c: Any, hosted_usd: tuple[float, float], input_tokens: float,
                      output_tokens: float) -> None:
    """A plan with no setup to cost (a batch no GPU finishes in time): the hosted API's price of the same tokens
    written into ``costs`` (the memo's cost table then has that row, not the exchange rate alone)."""
    from advisor.plan import cost as costmod

    conv = costs.fx_rate if c.currency == "CNY" else 1.0  # USD → the answers' currency, as cost.py converts
    costs.hosted_api_monthly = MoneyRange(low=round(hosted_usd[0] * conv, 2), high=round(hosted_usd[1] * conv, 2))
    costs.hosted_api_input_per_million, costs.hosted_api_output_per_million = costmod.hosted_api_rates(conv, c)
    costs.hosted_api_priced_on = hosted_prices.other_model(c)
    costs.hosted_api_served_from = hosted_where.served_from(hosted_prices.hosted_rates(c).tier)
    costs.input_tokens_per_month, costs.output_tokens_per_month = input_tokens, output_tokens
    costs.per_job = bool(c.is_batch)


__all__ = ["KEEP_REASONS", "LEAD_MARGIN", "apply_hosted_only", "cheaper_pair", "choice", "cost_hosted_weighed",
           "cost_token_margin", "keep_reason", "lead_or_unserved", "reasons_to_self_host", "runs_on_owned_cards_only",
           "sells_tokens", "verdict", "ways_round"]
