"""The memo's rows for the owning forms (on-premises, hybrid): the one-off purchase beside the monthly running
costs, never one folded silently into the other; the power in kWh with its PUE; what the one-off budget says."""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import (
    capex_unknown,
    fleet_idle41,
    fleet_one_count,
    layout_headline40,
    memo_text15,
    owned_capital37,
    payer_sp43,
    running_central44,
    server_size_price,
    staff_words,
    vm_payback_words,
    volume_busy,
)
from advisor.plan.burst_gpu import rented_of
from advisor.plan.context import SCALED_HOURS
from advisor.plan.memo_per_million import busy_text, usage_text
from advisor.plan.money_text import money_range as _money
from advisor.plan.money_text import number_text
from advisor.plan.money_text import round_money as _round_money
from advisor.plan.result import MoneyRange, OwnedFormCost, PlanResult
from advisor.plan.volume_range import HOURS_PER_MONTH, OFFICE_HOURS

OWNING = ("on_premises", "hybrid")


def chosen_owned(result: PlanResult) -> OwnedFormCost | None:
    c = result.costs
    if result.deployment_form == "on_premises":
        return c.owned
    if result.deployment_form == "hybrid":
        return c.hybrid
    if result.deployment_form == "bare_metal" and c.owned is not None and c.owned.fleet_gpus:
        return c.owned  # the team's colocated fleet (advisor.plan.fleet)
    return None


def no_hardware_key(result: PlanResult, default: str) -> str:
    """The hardware line of a plan with no GPUs: none needed (a hosted API) is ``default``; an infeasible plan that
    sized none says that none meets the answers (q29's memo and card read "none of your own" / "不需要自有 GPU" under
    "cannot be done")."""
    return default if result.feasible or result.deployment_form == "hosted_api" else "plan.inputs17.no_setup"


def form_key(result: PlanResult) -> str:
    """The text key of the recommended form: on the team's own fleet, that (and whether GPUs are bought besides),
    not "buy your own server" for GPUs already owned."""
    o = chosen_owned(result)
    if o is None or not o.fleet_gpus:
        return f"memo.form.{result.deployment_form}"
    return f"memo.fleet13.form.{result.deployment_form}" + (".buys" if o.gpus_bought else "")


def _capex_verdict(result: PlanResult, o: OwnedFormCost, lang: str, currency: str) -> str:
    """The one-off budget's verdict, the budget in the plan's currency (converted at the plan's rate if given in
    the other one)."""
    if o.capex_within_budget is None:  # judged on the monthly budget, or not at all (advisor.plan.capex_unknown)
        return capex_unknown.capex_note(result, o, lang)
    key = "memo.forms.capex_within" if o.capex_within_budget else "memo.forms.capex_stand_in" \
        if o.capex_stand_in_straddle else "memo.forms.capex_over"  # the quote decides (gpu26: quote_fallback)
    return translate(lang, key, budget=_round_money(o.capex_budget or 0), currency=currency)


def _capex_verdict_once(result: PlanResult, o: OwnedFormCost, lang: str, currency: str) -> str:
    """The one-off budget's verdict for the cost table: where no one-off budget was given and page 1's purchase row
    already weighs buying against the rent (``capex_unknown.capex_note``, a paragraph), a pointer to it, not the
    paragraph a second time (s33-tokens33, review 21, q02 zh: "the whole 一次性采购 cell is pasted twice")."""
    c = result.costs
    rent = c.cloud_monthly or c.cloud_on_demand_monthly
    if o.capex_within_budget is None and rent is not None and not o.fleet_gpus and \
            capex_unknown.capex_note(result, o, lang) != translate(lang, "memo.forms.capex_no_budget"):
        # the office-LAN box whose rent-versus-buy is the payback row's, not page 1's cell (blind review 31, q02)
        answers = getattr(result, "answers", None) or {}
        if vm_payback_words.lan_over_budget(c, str(answers.get("reach"))):
            return translate(lang, "box41.capex_said_in_payback")
        return translate(lang, "tokens33.capex.said_above")
    return _capex_verdict(result, o, lang, currency)


def short_of_free(result: PlanResult, o: OwnedFormCost) -> int:
    """GPUs the plan needs beyond the fleet's free ones when that is fewer than the purchase buys (q04: 12 H20
    needed, 11 free, a whole 8-GPU server bought): an engineer frees those few from current work first (the
    ``cost.fleet`` finding says how); 0 otherwise."""
    short = result.hardware.total_gpus - (o.fleet_free or 0)
    return short if o.fleet_gpus and o.gpus_bought and 0 < short < o.gpus_bought else 0


def key_rows(result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """Page 1: the one-off purchase (and the one-off budget's verdict) and the monthly cost, both named."""
    o = chosen_owned(result)
    if o is None:
        return []
    cur = result.costs.currency
    capex = _money(o.capex, cur) + _capex_verdict(result, o, lang, cur)
    if o.fleet_gpus and not o.gpus_bought:  # on the team's own fleet: nothing is bought
        capex = translate(lang, "memo.fleet13.no_purchase")
    elif short_of_free(result, o):  # a server bought for fewer missing: freeing them from current work comes first
        capex = translate(lang, "memo.fleetq.capex_free_first", short=short_of_free(result, o),
                          gpu=result.hardware.gpu_name, capex=capex)
    return [
        (translate(lang, "memo.forms.key.capex"), capex),
        (translate(lang, "memo.key.cost"), fleet_cost_value(result, o, lang)
         if o.fleet_gpus and not o.gpus_bought else  # nothing bought: no purchase to spread
         translate(lang, "ownpower37.key.cost_value_one_off" if one_off_only(result) else "memo.forms.key.cost_value",
                   running=_running(o, cur, lang), monthly=_money(o.monthly, cur),
                   months=result.costs.horizon_months, amortised=_money(o.amortised_monthly, cur),
                   payer=translate(lang, payer_sp43.from_answers(result.answers)))),
    ]


def _running(o: OwnedFormCost, cur: str, lang: str) -> str:
    """The running month, a wide range said as its central figure with the range beside it (cst44, q01)."""
    mid = running_central44.central(o.running_monthly)
    if mid is None:
        return _money(o.running_monthly, cur)
    return translate(lang, "cst44.running.central", mid=_money(MoneyRange(low=mid, high=mid), cur),
                     range=_money(o.running_monthly, cur))


def fleet_cost_value(result: PlanResult, o: OwnedFormCost, lang: str) -> str:
    """The cost row on the team's own cards: the running month (nothing bought); ``capital_clause`` is said after
    the row's other clauses (the network line's total)."""
    # a rules module: loaded where used (``engine._quotes_key``)
    from advisor.plan.rules_fleet import powered_new

    cur = result.costs.currency
    new = powered_new(o)
    if new is not None:  # the cards stand powered today: the draw above idle leads, the full draw beside it (review
        # 36, q08 zh: "the headline running cost is misleading ... lead with the incremental figure")
        return translate(lang, "own44.cost.powered", new=_money(MoneyRange(low=new[0], high=new[1]), cur),
                         running=_money(o.running_monthly, cur))
    return translate(lang, "memo.fleet13.key.cost_value", running=_money(o.running_monthly, cur))


def capital_clause(result: PlanResult, lang: str, month: MoneyRange | None = None) -> str:
    """"; the 14 owned cards' purchase spread over 36 months adds 14,583–19,444 USD a month ⚠, 15,668–23,109 USD
    in all (money already spent, not a new bill, but the service's full cost)" on the team's own cards where a
    purchase row prices them (``owned_capital37.capital``), else "". ``month``: the row's own total it adds to (with
    the network line), else the running month (blind review 28, q18 zh: the running month alone, "~$2k/month", read
    as the cost of the service while the memo prices a paid API on the amortised cost). Only where the memo prices
    a paid API on them (``owned_capital37.figures``): for a service nobody pays for, the running month is what the
    service adds, the cards being paid for whatever runs on them."""
    o = chosen_owned(result)
    cap = owned_capital37.figures(result)
    if o is None or cap is None or not o.fleet_gpus or o.gpus_bought:
        return ""
    cur = result.costs.currency
    lo, hi = cap["monthly"]
    base = month or o.running_monthly
    # the sunk purchase is no monthly cost beside a cost table whose purchase row is 0: it is the floor a paid API's
    # price must cover (blind review 36, q18: "Pick one: running cost $1,085-$3,664, with the sunk-cost figure shown
    # only for API pricing")
    return translate(lang, "own44.fleet.capital_floor", gpus=number_text(cap["gpus"]), months=cap["months"],
                     capital=_money(MoneyRange(low=lo, high=hi), cur),
                     total=_money(MoneyRange(low=base.low + lo, high=base.high + hi), cur),
                     mark=" ⚠" if cap["grade"] in ("C", "U") else "")


def one_off_only(result: PlanResult) -> bool:
    """The team pays for the hardware once and has no monthly budget (``critical_steps.no_running_budget``): the
    purchase spread over the months is accounting amortisation, not a bill, and the running costs (power) need a
    payer the one-off budget is not (s35-ownpower37, blind review 26: q01 zh "label it as accounting amortisation
    only ... so nobody reads it as a bill"; q17 en "the memo never says who pays the ¥406–¥1,386 monthly
    electricity when the grant cannot pay monthly bills (usually the university's facilities budget)")."""
    # the next steps' own test of it, imported here: no import cycle
    from advisor.plan.critical_steps import no_running_budget

    return no_running_budget(result.answers or {})


def cost_rows(result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """The costs section: every part of the owning form's cost, with the figures it rests on."""
    o = chosen_owned(result)
    if o is None:
        return []
    cur = result.costs.currency

    def t(key: str, **params: Any) -> str:
        return translate(lang, key, **params)

    rows = [
        (t("memo.forms.cost.site"), t(memo_text15.site_key(result, o.site))),
        *_fleet_rows(result, o, t),
        *_gpus_row(result, o, t),
        # on the team's own cards nothing is bought: said as page 1 says it, not "0 CNY (no one-off budget given:
        # not checked)" (s42-zhx, review 35, q08)
        (t("memo.forms.key.capex"), t("memo.fleet13.no_purchase") if o.fleet_gpus and not o.gpus_bought else
         _money(o.capex, cur) + _capex_verdict_once(result, o, lang, cur)
         + (server_size_price.text(result.costs, lang) if o.capex.high > 0 else "")),  # nothing bought: unsaid
        (t("ownpower37.cost.amortised" if one_off_only(result) else "memo.forms.cost.amortised",
           months=result.costs.horizon_months), _money(o.amortised_monthly, cur)),
        (t("memo.forms.cost.power"), t("memo.forms.cost.power_value", cost=_money(o.power_monthly, cur),
                                       kwh=f"{o.energy_kwh_monthly.low:,.0f}–{o.energy_kwh_monthly.high:,.0f}",
                                       kw=f"{o.it_kw.low:g}–{o.it_kw.high:g}",
                                       pue=f"{o.pue.low:g}–{o.pue.high:g}" if o.pue else t("memo.forms.cost.pue_colo"))
         + _duty(result, o, t, lang) + volume_busy.power_clause(result.costs, o.power_monthly, o.idle_draw, lang)
         + volume_busy.power_range_clause(result.costs, o.power_monthly, o.idle_draw, lang)),
    ]  # fmt: skip
    colo = [t("memo.forms.cost.monthly_value", cost=_money(o.colo_monthly, cur))] if o.colo_monthly is not None else []
    if o.colo_already_paid is not None:  # the fleet's racks, kept for its other work: paid already (round 10, q18)
        colo.append(t("costbasis21.fleet.colo_paid", cost=_money(o.colo_already_paid, cur), n=o.fleet_gpus))
    if colo:
        rows.append((t("memo.forms.cost.colo"), t("memo.list_sep").join(colo)))
    rows.append((t("memo.forms.cost.staff"), t("memo.forms.cost.monthly_value", cost=_money(o.staff_monthly, cur))
                 if o.staff_counted
                 else t("memo.forms.cost.staff_none" + staff_words.variant(result.answers.get("ops_capability"),
                                                                           fleet=bool(o.fleet_gpus)))))
    if o.burst_monthly is not None:
        months = burst_months_booked(o, result)
        rows.append((t("memo.forms.cost.burst"), t("memo.forms.cost.burst_value", cost=_money(o.burst_monthly, cur),
                                                   share=round((o.burst_hours_share or 0) * 100)) if months is None
                     else t("burst39.cost.burst_month_value", cost=_money(o.burst_monthly, cur), months=months)))
    rows.append((t("memo.forms.cost.running"), _money(o.running_monthly, cur) + api_led_running(result, o, lang)))
    # on the team's own cards the horizon's total is the running cost alone: said so, beside page 1's month that
    # adds the cards' spread purchase as the service's full cost (blind review 30, q18 zh)
    total = "contra40_cost.total_running" if o.fleet_gpus and not o.gpus_bought else "memo.forms.cost.total"
    rows.append((t(total, months=result.costs.horizon_months), _money(o.horizon_total, cur)))
    return rows


def api_led_running(result: Any, o: Any, lang: str) -> str:
    """After the cost table's running month, where the hosted API leads the bursts: that month is the rented
    fallback's, page 1's the API's (s37-fleet39, blind review 28, q39: page 1 and this table gave two months
    unlabelled); "" elsewhere."""
    from advisor.plan import burst_bill, burst_path

    lead = burst_path.lead_finding(result)
    api = lead.params.get("api_burst_range") if lead is not None else None
    b = burst_bill.bill(result.costs, result.answers, str(result.deployment_form or ""), result.hardware.gpu)
    if api is None or b is None or o.running_monthly is None:
        return ""
    led = burst_bill.api_swapped(b, api, (o.running_monthly.low, o.running_monthly.high))
    return translate(lang, "flt39_cost.table_running", api=_money(led, result.costs.currency))


def burst_months_booked(o: Any, result: Any) -> int | None:
    """Months a year the bursts book where the part they rent is sold only by the month through the cloud's sales
    (s33-burst39: the H20 is never an hourly rent), 12 without a burst schedule; None where it is rented by the
    hour (the row then says its share of the hours)."""
    from advisor.plan.burst_gpu import booked_months
    from advisor.plan.sales_only import listed_on_request

    gpu = getattr(o, "burst_gpu", None) or getattr(result.hardware, "gpu", None)
    if not gpu or not listed_on_request(str(gpu)):
        return None
    return booked_months(result.answers) or 12


def _this_service(result: PlanResult) -> bool:
    """The team said its fleet's load is this service's own (s14-fleetload): its GPUs carry today's load."""
    fl = (result.answers or {}).get("current_fleet") or {}
    return bool(fl.get("load_is_this_service")) and fl.get("gpu") == result.hardware.gpu


def _duty(result: PlanResult, o: Any, t: Any, lang: str) -> str:
    """The average draw the kWh count, said (ninth blind review: the kWh a month should show the box's duty)."""
    if o.average_draw is None or o.average_draw_high is None or o.idle_draw is None:
        return ""  # a result saved before the idle share was kept (pages20): the kWh are not explained, not guessed
    if result.costs.usage_busy is not None:  # at the tokens row's share (s22-owncost22): said as that share
        return t("owncost22.power_duty", draw=_pct(o.average_draw, o.average_draw_high),
                 idle=_pct(o.idle_draw.low, o.idle_draw.high),
                 busy=busy_text(result.costs.usage_busy, lang))
    if result.costs.usage_from_tokens:  # the hours the month's tokens take, as a range (issue 25, s26-usage26)
        low, high = busy_hours(o)
        if round(high * 100) > round(low * 100):  # full batches … requests arriving at random
            # a share in flight is never said as 0 %: under half a percent reads "1", as the GPU-use row rounds it
            # (campus32: q02 at its 15 people read "a request in flight 0–4 % of the hours")
            low = max(low, 0.01) if low > 0 and round(high * 100) > 1 else low
            if office_steady(result):  # random arrivals within the office hours (``Ctx.office_steady``, s40-volume)
                return t("vol42.power_duty_office", draw=_pct(o.average_draw, o.average_draw_high),
                         idle=_pct(o.idle_draw.low, o.idle_draw.high), low=_pct(low, low), high=_pct(high, high),
                         day=round(OFFICE_HOURS / HOURS_PER_MONTH * 100))
            if load_pattern(result) == "diurnal":  # random arrivals within the day's hours (``usage_share.day_hours``)
                return t("numbers2_34.power_duty_day", draw=_pct(o.average_draw, o.average_draw_high),
                         idle=_pct(o.idle_draw.low, o.idle_draw.high), low=_pct(low, low), high=_pct(high, high),
                         day=round(SCALED_HOURS["diurnal"] * 100))
            return t("util28.power_duty", draw=_pct(o.average_draw, o.average_draw_high),
                     idle=_pct(o.idle_draw.low, o.idle_draw.high), low=_pct(low, low), high=_pct(high, high))
        return t("owncost22.power_duty", draw=_pct(o.average_draw, o.average_draw_high),
                 idle=_pct(o.idle_draw.low, o.idle_draw.high), busy=usage_text(result.costs, lang))
    return t("memo.office19.power_duty", draw=_pct(o.average_draw, o.average_draw_high),
             idle=_pct(o.idle_draw.low, o.idle_draw.high), util=round(result.costs.utilisation * 100))


def office_steady(result: PlanResult) -> bool:
    """A steady load on a tool only staff reach, counted through office hours (``Ctx.office_steady``)."""
    a = result.answers or {}
    return load_pattern(result) == "stable" and (a.get("audience") == "internal"
                                                 or a.get("reach") in ("lan", "private_network"))


def load_pattern(result: PlanResult) -> str | None:
    """The load pattern the plan ran on: the answers', else the one assumed."""
    given = (result.answers or {}).get("load_pattern")
    if given:
        return str(given)
    return next((str(a.value) for a in result.assumptions if a.field == "load_pattern"), None)


def busy_hours(o: Any) -> tuple[float, float]:
    """(low, high) share of the hours the kWh have the GPUs busy, read back from the form's average draw and idle
    share (draw = idle + (1 − idle) × busy): the figures the power was computed at, never a second estimate."""
    lo = (o.average_draw - o.idle_draw.low) / max(1e-9, 1 - o.idle_draw.low)
    hi = (o.average_draw_high - o.idle_draw.high) / max(1e-9, 1 - o.idle_draw.high)
    return max(0.0, lo), max(0.0, hi)


def _pct(low: float, high: float) -> str:
    """Shares as whole percents, one figure where both ends round alike ("46–55", "50")."""
    lo, hi = round(low * 100), round(high * 100)
    return str(lo) if lo == hi else f"{lo}–{hi}"


def _gpus_row(result: PlanResult, o: OwnedFormCost, t) -> list[tuple[str, str]]:
    """The GPUs the owning form counts. On the team's own fleet with nothing rented for bursts the fleet row already
    says how many of the fleet's GPUs the plan uses, of how many owned, and what is bought besides: a second row
    reading "GPUs owned: 12" beside "12 of your 16" contradicted it (blind review 16, q08)."""
    rented = rented_of(result.costs, result.deployment_form)
    if o.fleet_gpus and rented is None and not o.gpus_burst:
        return []
    value = (t("burst24.forms.gpus_value", owned=o.gpus_owned, rented=t("burst24.rented", n=rented["n"], gpu=rented["gpu"]))
             if rented is not None
             else t("memo.forms.cost.gpus_value", owned=o.gpus_owned, burst=o.gpus_burst)
             if o.gpus_burst else str(o.gpus_owned))
    return [(t("memo.forms.cost.gpus"),
             value + (t("memo.forms.cost.whole_servers", n=o.purchase_unit) if o.purchase_unit > 1 else ""))]


def _fleet_rows(result: PlanResult, o: OwnedFormCost, t) -> list[tuple[str, str]]:
    """The team's current fleet: how many of its GPUs the form runs, how many were free, what is bought besides."""
    if not o.fleet_gpus:
        return []
    key = "memo.fleetload14.fleet_value" if _this_service(result) else "memo.fleet13.cost.fleet_value"
    if key == "memo.fleet13.cost.fleet_value" and o.fleet_moved:  # "12 of 16 (11 free)" said with the 1 freed
        key = "gpuwhy27.fleet_value_moved"  # by moving its work (blind review 17, q04)
    if key == "memo.fleet13.cost.fleet_value" and (fleet_one_count.decided_first(result.assumptions)
                                                   or layout_headline40.applies(result)):  # (review 30, q33 zh)
        key = fleet_one_count.VALUE  # the cards used alone: one count on page 1 and here (review 28, q04)
    if o.fleet_gpus == o.fleet_count and key != "memo.fleetload14.fleet_value":  # all of them (s33-fleet33)
        key = {"gpuwhy27.fleet_value_moved": "fleet33.fleet_value_moved_all"}.get(key, "fleet33.fleet_value_all")
        if key == "fleet33.fleet_value_all" and fleet_idle41.nearly_idle(o.fleet_count or 0,
                                                                       o.fleet_utilisation or 0):
            key = "lead41.fleet_value_all"  # a nearly idle fleet said so (review 31, q33)
    value = t(key, used=o.fleet_gpus, count=o.fleet_count, gpu=result.hardware.gpu_name,
              free=o.fleet_free, util=round((o.fleet_utilisation or 0) * 100), moved=o.fleet_moved or 0)
    hw = result.hardware
    missing = max(0, hw.total_gpus - (hw.layout.fleet_used or 0)) if hw.layout is not None else 0
    if o.gpus_bought and o.purchase_unit > 1 and o.gpus_bought > missing > 0:  # a whole server for fewer missing
        value += t("memo.fleet14.bought_whole", n=o.gpus_bought, missing=missing, unit=o.purchase_unit)
    elif o.gpus_bought:
        value += t("memo.fleet13.cost.fleet_bought", n=o.gpus_bought)
    else:
        value += t("memo.fleet14.no_purchase")
    return [(t("memo.fleet13.cost.fleet"), value)]


__all__ = ["OWNING", "chosen_owned", "cost_rows", "form_key", "key_rows", "short_of_free"]
