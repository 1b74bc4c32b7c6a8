"""Rules of the owning forms (``advisor.plan.forms``): what the on-premises and hybrid plans cost, a purchase over
the one-off budget, and a rented plan over the monthly budget that an owned box would fit; and of the model served
by name: a base (pre-trained) model planned for a chat product whose publisher ships a chat release.

Registered in ``advisor.plan.rules``' registry on import (that module imports this one at its end).
"""

from __future__ import annotations

from typing import Any

from advisor.domain.model import ModelSpec
from advisor.plan import (
    office_purchase,
    payer_sp43,
    power_tariff,
    running_central44,
    signoff_months41,
    site_words,
    staff_words,
    volume_busy,
)
from advisor.plan.result import MoneyRange
from advisor.plan.rule_base import Facts, _money, finding, rule

OWNING = ("on_premises", "hybrid")


def _r(m: MoneyRange | None, f: Facts) -> str:
    if m is None:
        return "—"
    return _money(m.low, f) if round(m.low) == round(m.high) else f"{_money(m.low, f)}–{_money(m.high, f)}"


def _costs(f: Facts):
    return None if f.cost is None else f.cost.costs


def _servers(f: Facts) -> int:
    """The servers the owned GPUs are bought as (their draw is all of theirs together, q03)."""
    lay = getattr(f.chosen, "layout", None) if f.chosen is not None else None
    return int(getattr(lay, "units", 1) or 1)


@rule("cost.on_premises", "cost")
def cost_on_premises(f: Facts):
    """One server bought for the office or server room: the one-off purchase, power at a stated PUE, no
    colocation, staff only when the team has no ops staff."""
    costs = _costs(f)
    if f.form != "on_premises" or costs is None or costs.owned is None or costs.owned.fleet_gpus:
        return None  # (on the team's own fleet: cost.fleet)
    o = costs.owned
    two = getattr(f.second_unit, "added", False)  # the second server the budget covers, bought too (s17-prices)
    staff: dict[str, Any] = {"tr": "plan.forms.staff_counted", "cost": _r(o.staff_monthly, f)} if o.staff_counted \
        else {"tr": staff_words.not_counted_key(f.ctx.answers.ops_capability, two)}
    # an office tool reached on the office LAN stands in the office, not "office or server room" (s15-text); one
    # reached over a private network in a server room, as the memo's headline and site row say (site_words)
    site = site_words.owned_site(site_words.answered_reach(f.ctx), fleet=False)
    variant = {site_words.OFFICE: "lan", site_words.SERVER_ROOM: "server_room"}.get(site)
    if two:
        variant = f"{variant}_two" if variant else "two"
    # another region's power price stands in for the team's tariff: said, and asked for (review 20b, q17)
    sym = "¥" if f.ctx.currency == "CNY" else "$"
    tariff = power_tariff.stand_in(f.book, f.chosen.gpu.id if f.chosen is not None else "*", f.region,
                                   f.cost.conv, lambda v: f"{sym}{v:,.2f}",
                                   kw=o.it_kw.high if site == site_words.SERVER_ROOM else None,
                                   servers=_servers(f))
    if tariff is not None:
        staff = {"tr": "campus32.power.then", "tariff": tariff, "staff": staff}
    # a one-off budget and no monthly one (``critical_steps.no_running_budget``): the power needs another payer, and
    # the purchase spread over the months is accounting amortisation, not a bill (s35-ownpower37, review 26 q01/q17)
    a = f.ctx.answers
    if a.capex_budget is not None and a.monthly_budget is None and o.running_monthly.high > 0:
        staff = {"tr": "ownpower37.payer.then", "staff": staff,
                 "payer": {"tr": payer_sp43.payer_key(f.ctx.sector, f.ctx.audience, a.reach,
                                                      f.ctx.peak if f.ctx.peak_known else None)}}  # (s41-spot)
    out = finding("cost.on_premises", variant=variant, gpus=o.gpus_owned, capex=_r(o.capex, f),
                  running=running_central44.phrase(o.running_monthly, lambda r: _r(r, f)),  # (cst44, q01)
                  amortised=_r(o.amortised_monthly, f), months=f.ctx.duration_months,
                  kwh=f"{o.energy_kwh_monthly.low:,.0f}–{o.energy_kwh_monthly.high:,.0f}",
                  pue=f"{o.pue.low:g}–{o.pue.high:g}" if o.pue else "—", power=_r(o.power_monthly, f),
                  kw=f"{o.it_kw.low:g}–{o.it_kw.high:g}", staff=staff,
                  total=_r(o.horizon_total, f), basis=volume_busy.power_basis(costs))  # fmt: skip
    # paid once under a monthly budget: the title says it in months of that budget, on the owner's sign-off (review 31)
    answers = a.model_dump(mode="json", exclude_none=True)
    out = signoff_months41.titled(out, costs, answers, variant, _money(costs.budget_monthly, f))
    if variant == "lan" and office_purchase.is_workstation(f.form, o.gpus_owned):
        # one or two cards in the office: a workstation, as the timeline's purchase says (review 34, q01/q02: the
        # headline bought "a server", the timeline "the workstation"); its noise, heat and power cut said once
        keys = {"plan.rule.cost.on_premises.lan.title": "plan.rule.cost.on_premises.of43.title",
                "box41.on_premises.lan.title": "box41.on_premises.of43.title"}
        out = out.model_copy(update={"title_key": keys.get(out.title_key, out.title_key),
                                     "detail_key": "plan.rule.cost.on_premises.of43.detail"})
    return out


@rule("cost.hybrid", "cost")
def cost_hybrid(f: Facts):
    """A bursty or daily-peaked public service: own the steady base, rent cloud GPUs for the peak above it."""
    costs = _costs(f)
    if f.form != "hybrid" or costs is None or costs.hybrid is None or costs.hybrid.fleet_gpus:
        return None  # (the base on the team's own fleet: cost.fleet)
    h = costs.hybrid
    cloud = f.cost.cloud_usd
    conv = f.cost.conv
    rent = "—" if None in cloud else f"{_money(cloud[0] * conv, f)}–{_money(cloud[1] * conv, f)}"
    return finding("cost.hybrid", owned=h.gpus_owned, burst=h.gpus_burst, capex=_r(h.capex, f),
                   share=round((h.burst_hours_share or 0) * 100), burst_cost=_r(h.burst_monthly, f),
                   running=_r(h.running_monthly, f), monthly=_r(h.monthly, f), months=f.ctx.duration_months,
                   rent=rent)  # fmt: skip


@rule("cost.capex_over", "cost")
def cost_capex_over(f: Facts):
    """An internal service one server would carry, but the purchase is above the one-off budget."""
    costs = _costs(f)
    if costs is None or f.form in OWNING or not f.ctx.internal_only:
        return None
    o = costs.owned
    if o is None or o.form != "on_premises" or o.capex_within_budget is not False:
        return None
    return finding("cost.capex_over", capex=_r(o.capex, f), budget=_money(o.capex_budget, f))


@rule("cost.owned_fits_capex", "cost")
def cost_owned_fits_capex(f: Facts):
    """Renting misses the monthly budget, but buying the same setup fits the one-off budget and its running costs
    fit the monthly one: say so."""
    costs = _costs(f)
    if costs is None or f.form in OWNING or f.within_budget is not False or f.ctx.budget_amount is None:
        return None
    o = costs.owned
    if o is None or not o.capex_within_budget or o.running_monthly.high > f.ctx.budget_amount:
        return None
    return finding("cost.owned_fits_capex", capex=_r(o.capex, f), budget=_money(o.capex_budget, f),
                   running=_r(o.running_monthly, f), monthly_budget=_money(f.ctx.budget_amount, f),
                   site={"tr": _site_phrase(f, o.site)})  # fmt: skip


def _site_phrase(f: Facts, site: str) -> str:
    """"in your office", "in your own server room" or "in your office or server room" for the team's own site, as
    the answers say (site_words); colocation as it is."""
    if site != "office":
        return f"plan.forms.site.{site}"
    return site_words.SITE_PHRASE[site_words.owned_site(site_words.answered_reach(f.ctx), fleet=False)]


def _chat_release(model: ModelSpec) -> ModelSpec | None:
    """The preset of the publisher's chat release of this base model (``<repo>-Instruct``), when there is one."""
    from advisor.catalog import load_models

    if not model.hf_repo:
        return None
    return next((m for m in load_models() if m.hf_repo == f"{model.hf_repo}-Instruct"), None)


@rule("model.base_for_chat", "sizing")
def model_base_for_chat(f: Facts):
    """A chat or API product planned on a base (pre-trained) model whose publisher ships an Instruct release: the
    publisher does not recommend base models for conversations; serve the Instruct release (or your fine-tune)."""
    c = f.ctx
    if c.is_batch or c.fine_tuned:
        return None
    chat = _chat_release(c.model)
    if chat is None:
        return None
    return finding("model.base_for_chat", model=c.model.name, chat=chat.name, repo=chat.hf_repo, preset=chat.id)


@rule("ops.hybrid_needs_ops", "cost")
def ops_hybrid_needs_ops(f: Facts):
    """An owned base with a cloud burst would cost less than renting everything (or owning everything), but the
    team's ops is not strong: the plan does not choose it (rule 15: owning only with ops staff) and says why, with
    the figures, instead of dropping it silently."""
    from advisor.plan import forms as forms_mod

    c = f.ctx
    out = f.cost
    if out is None or c.ops == "strong" or f.form in ("hybrid", "on_premises", "bare_metal"):
        return None
    fo = getattr(out, "forms", None)
    conv = out.conv
    rent = out.cloud_usd
    floor = out.costs.cloud_peak_floor
    if floor is not None and conv:  # every GPU reserved for the peak's stock (peak_reserved39): the hybrid's burst
        # runs on demand, so it is weighed against renting with the peak-hour replicas on demand too (review 29)
        rent = (floor["low"] / conv, floor["high"] / conv)
    if fo is None or fo.hybrid is None or not forms_mod.hybrid_pays(c, rent, fo):
        return None
    h = fo.hybrid.cost
    # "it would cost less" only where its whole range is below renting's; ranges that overlap: "less or more" with
    # both (blind review 34, q19: "¥18,206–¥51,084" said to cost less than "¥32,184–¥38,688")
    overlap = h.monthly is not None and h.monthly.high >= rent[0] * conv
    return finding("ops.hybrid_needs_ops", variant="np43" if overlap else None, owned=h.gpus_owned, burst=h.gpus_burst, capex=_r(h.capex, f),
                   monthly=_r(h.monthly, f), months=c.duration_months,
                   rent=f"{_money(rent[0] * conv, f)}–{_money(rent[1] * conv, f)}",
                   ops={"tr": f"memo.value.ops_capability.{c.ops}"}, form={"tr": f"plan.form.{f.form}"})  # fmt: skip
