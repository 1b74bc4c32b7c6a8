"""The path a hybrid's page 1 takes where its bursts' overflow goes to a hosted API and rented GPUs are only the
fallback (s41-q39, blind review 34, hb43).

Review 34 on q39 (zh "no", en "edits"): the decision sent the peaks' overflow to a hosted API first and rented GPUs
only as the fallback, yet page 1's hardware and cost rows priced the rented fallback ("16 × L20 + 8 × H800 rented",
"running 33,783–78,926 CNY"); five monthly figures competed; the plan's basis was said both ways ("on the plan's
curve, none" beside "the work of about 34 more"); the own-cards case needed 36 requests a replica while the serve
command capped 12; and the headline's count ("160 or fewer") said neither where it came from nor that it was read on
today's load. Where ``burst_steps41.applies`` holds (the hosted API's burst month alone fits the budget and step 1's
count gates the bursts), the rules here, for any hybrid of that form:

- the headline: count the requests in flight at today's busiest hour; the owned replicas at the serve command's
  --max-num-seqs, with the plan's headroom, carry a stated number at the peak, so a count today at or under that ÷
  the peak multiple adds nothing; above it the overflow goes to the API (its burst and burst month, within the
  budget); rented GPUs only if the API falls short. One basis (the fleet's measured reading, the cautious one) and the
  curve as the case the ramp decides, with the cap raised to the ramp's figure;
- page 1's hardware, cost, budget and feasibility rows describe that path, one figure per path, labelled, and the
  rented GPUs as the fallback;
- the findings that page 1's reasons repeat are worded for that path (``reword``, a post-plan step).
Pure: reads the findings and the bill the plan already has.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import api_marginal, burst_bill, burst_order40, burst_steps41
from advisor.plan.money_text import money_range, symbol_range
from advisor.plan.result import MoneyRange, render
from advisor.plan.sizing import HEADROOM

DISAGREE = "sizing.fleet_load_disagrees"
BURST = "cost.burst_month"
FLEET_COST = "cost.fleet"

FLEET_TITLE = "hb43.fleet.title"
RENTED_TITLE = "burst24.fleet.costed.title"  # ``fleet_disagree.COSTED_TITLE``: what the bursts rent, both months
BURST_TITLE = "hb43.burst.title"
FLEET_MORE = "hb43.fleet.more_api"
STEP = "hb43.next.fleet_load"  # step 1: the count, with the threshold it is read against
STEP_KEYS = ("replica21.next.fleet_load_budget", "replica21.next.fleet_load")
# s41-h39 (blind review 35, q39): the sizing finding, the owned fleet's month and the API weighed against the path
SIZING_TITLES = ("plan.rule.sizing.plan.room.title", "plan.rule.sizing.plan.title")
SIZING_TITLE = "hs43.sizing.title"
HOSTED = "cost.hosted_weighed"
PATH_PLAN = "hs43.plan.path"  # the path's month beside the API's (``gpus_alone40``'s place): GPUs and the overflow
FLEET_DETAIL = "hs43.fleet.detail"
ENDS = "plan.rule.cost.hosted_weighed.alternative_ends"
OVERLAP = "plan.rule.cost.hosted_weighed.alternative_overlap"


def _finding(result: Any, fid: str) -> Any:
    return next((x for x in getattr(result, "findings", []) or [] if x.id == fid), None)


def applies(result: Any) -> bool:
    """The hosted API takes the bursts' overflow and rented GPUs are the fallback (``burst_steps41.applies``)."""
    return burst_steps41.applies(result)


def carried(result: Any) -> dict[str, int] | None:
    """What the owned replicas carry at the peak at the serve command's cap with the plan's headroom (``own``), and the
    count at today's busiest hour that, × the peak multiple, stays within it (``today``); the curve's own figure a
    replica (``per``) and what the owned replicas carry on it (``own_curve``). None without the count's finding."""
    d = _finding(result, DISAGREE)
    if d is None:
        return None
    p = d.params
    tp = max(1, int(getattr(result.hardware, "tp", 0) or 1))
    replicas = int(p.get("count") or 0) // tp
    cap = int(p.get("cap") or p.get("per") or 0)
    per = int(p.get("per") or cap)
    multiple = float(p.get("multiple") or 1)
    if not replicas or not cap:
        return None
    own = int(replicas * cap / (1 + HEADROOM) + 1e-9)
    return {"replicas": replicas, "cap": cap, "per": per, "own": own, "today": int(own / multiple + 1e-9),
            "own_curve": int(replicas * per / (1 + HEADROOM) + 1e-9), "headroom": round(HEADROOM * 100),
            "peak": int(p.get("peak") or 0)}


def shares(params: dict[str, Any]) -> dict[str, int]:
    """The peaks' load as shares, on the measured basis: what goes past the owned cards (``api_pct``: the GPUs' work
    the reading adds over the owned plus those) and what the owned cards keep (``own_pct``); said as a share of the
    load, never as a count of GPUs the plan does not have (blind review 35, q39 zh: "另外 34 张的工作量", en: "50 ×
    (1 × L20) meets the target at the peak of 300" beside a plan of 16 owned cards and a hosted API)."""
    count, more = int(params.get("count") or 0), int(params.get("more") or 0)
    share = round(100 * more / (count + more)) if count + more else 0
    return {"api_pct": share, "own_pct": 100 - share}


def headline(result: Any, lang: str, disagree: dict[str, Any], basis: Any) -> str:
    """The recommendation as the path it takes: the count (and where its threshold comes from), the API overflow by
    default, the rented GPUs only if the API falls short; the plan's basis said once, the curve as the case step 3's
    ramp decides with the cap it would set."""
    c = carried(result)
    f = _finding(result, BURST)
    if c is None or f is None:
        return burst_steps41.headline(result, lang, disagree, basis)
    over = "burst41_steps.over" if burst_order40.rented_over_both(result) else "burst41_steps.over_high"
    # short sentences, one fact each (blind review 35, q39: "Section 1 is one unreadable paragraph")
    curve = "hyb44.steps.curve_all" if c["own_curve"] >= c["peak"] else "hyb44.steps.curve_some"
    gpu = getattr(result.hardware, "gpu_name", None) or ""
    return render(lang, "hyb44.steps.decide", {
        "count": disagree.get("count"), "util": disagree.get("util"), "multiple": disagree.get("multiple"),
        "cap": c["cap"], "own": c["own"], "today": c["today"], "headroom": c["headroom"],
        "burst": f.params["api"]["burst"], "api_month": f.params["api"]["month"],
        "curve": {"tr": curve, "per": c["per"], "count": disagree.get("count"), "own": c["own_curve"]},
        "rented": disagree.get("rented"), "basis": basis, "over": {"tr": over},
        "placeholder": {"tr": "hyb44.steps.placeholder", "gpu": gpu} if burst_steps41.rent_placeholder(result) else "",
        "stock": {"tr": "burst41_steps.stock"} if burst_order40.stock_only(result) else ""})


def _months(result: Any) -> dict[str, str] | None:
    """The path's month without a burst and its burst month (the API's overflow in it), and the fallback's burst month
    (rented GPUs), each with the network line where it is priced, as page 1's rows print money."""
    b = burst_bill.bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
                        getattr(result.hardware, "gpu", None))
    f = _finding(result, BURST)
    if b is None or f is None or not isinstance(f.params.get("api"), dict):
        return None
    cur = result.costs.currency
    quiet = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    lo, hi = f.params["api"]["range"]
    return {"quiet": money_range(MoneyRange(low=quiet[0], high=quiet[1]), cur), "quiet_sign": symbol_range(*quiet, cur),
            "api": money_range(MoneyRange(low=lo, high=hi), cur),
            "rented": money_range(MoneyRange(low=b.burst_month[0], high=b.burst_month[1]), cur),
            "budget": money_range(MoneyRange(low=b.budget, high=b.budget), cur) if b.budget is not None else "—"}


def rows(result: Any, lang: str, rows_in: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Page 1's hardware, cost, budget and feasibility rows as the path the decision takes (the owned GPUs and the
    API's overflow), the rented GPUs as the fallback in each; ``rows_in`` where the form does not apply."""
    if not applies(result):
        return rows_in
    m, c, d = _months(result), carried(result), _finding(result, DISAGREE)
    if m is None or c is None or d is None:
        return rows_in
    hw = result.hardware
    over = "burst41_steps.over" if burst_order40.rented_over_both(result) else "burst41_steps.over_high"
    rented = d.params.get("rented")
    words = {
        "memo.key.hardware": render(lang, "hb43.key.hardware", {
            "count": d.params.get("count"), "gpu": hw.gpu_name, "replicas": c["replicas"], "tp": max(1, hw.tp or 1),
            "cap": c["cap"], "own": c["own"], "rented": rented, "more": d.params.get("more"),
            "weights": hw.weights or "—"}),
        "memo.key.cost": render(lang, "hb43.key.cost", {"quiet": m["quiet"], "api": m["api"], "rented": m["rented"]}),
        "memo.key.budget": render(lang, "hb43.key.budget", {"budget": m["budget"], "over": {"tr": over}}),
        "memo.key.feasible": render(lang, "hb43.key.feasible", {}),
    }
    labels = {render(lang, k): v for k, v in words.items()}
    return [(k, labels.get(k, v)) for k, v in rows_in]


def path_running(result: Any) -> tuple[float, float] | None:
    """The path's running month before the network line (the owned GPUs and the API's overflow averaged over the
    year: section 4's "on the path taken"), and the line's month; None where the form does not apply."""
    b = burst_bill.bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
                        getattr(result.hardware, "gpu", None))
    f = _finding(result, BURST)
    hyb = getattr(result.costs, "hybrid", None)
    if b is None or f is None or hyb is None or hyb.running_monthly is None or not isinstance(f.params.get("api"),
                                                                                              dict):
        return None
    quiet = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    spread = [(a - q) * b.per_year / 12 for a, q in zip(f.params["api"]["range"], quiet, strict=True)]
    return hyb.running_monthly.low - b.averaged[0] + spread[0], hyb.running_monthly.high - b.averaged[1] + spread[1]


def gpus_row(result: Any, lang: str) -> str | None:
    """Section 2's GPUs cell as the path taken: the owned GPUs carry the base, the peaks' overflow (the work of the
    GPUs the measured reading adds) on the API, the rented GPUs the fallback; None where the form does not apply
    (review 35, q39: "50 × NVIDIA L20 48GB: 50 replicas" though the team owns 16 and the rest goes to the API)."""
    if not applies(result):
        return None
    c, d = carried(result), _finding(result, DISAGREE)
    if c is None or d is None or not d.params.get("more"):
        return None
    hw = result.hardware
    return render(lang, "hs43.hw.gpus", {"count": d.params.get("count"), "gpu": hw.gpu_name or hw.gpu,
                                         "replicas": c["replicas"], "per": max(1, hw.gpus_per_replica or 1),
                                         "tp": max(1, hw.tp or 1), "more": d.params.get("more"),
                                         "rented": d.params.get("rented"), **shares(d.params)})


def peak_row(result: Any, t: Any) -> str | None:
    """Section 2's peak row as the path taken: what the owned replicas carry at the serve command's cap, the rest
    on the hosted API; None where the form does not apply (blind review 35, q39: "6 per replica with all 50 up"
    laid out 50 replicas the plan does not have)."""
    c = carried(result) if applies(result) else None
    if c is None or c["own"] >= c["peak"]:
        return None
    return str(t("hyb44.cap.peak_owned_api", peak=f"{c['peak']:,}", replicas=c["replicas"], own=f"{c['own']:,}",
                 cap=c["cap"], headroom=c["headroom"]))


def _path_words(result: Any) -> None:
    """The sizing finding, the owned fleet's month and the API weighed against the plan, as the path taken: the owned
    GPUs carry the base (not the measured reading's whole fleet), their month without a burst, and the API against
    the path's month (the GPUs and the overflow), never the rented fallback's spread over the year (review 35)."""
    d, months, path = _finding(result, DISAGREE), _months(result), path_running(result)
    if d is None or months is None or path is None:
        return
    cur = result.costs.currency
    with_line, own = getattr(result.costs, "monthly_with_line", None), getattr(result.costs, "recommended_monthly",
                                                                               None)
    line = (with_line.low - own.low, with_line.high - own.high) if with_line is not None and own is not None else None
    sw = getattr(result, "start_with", None)
    be = getattr(sw, "break_even", None)
    hosted = getattr(be, "hosted_monthly", None)
    plan = MoneyRange(low=path[0], high=path[1])
    figure: Any = symbol_range(*path, cur)
    if line is not None and line[1] > 0:
        figure = {"tr": PATH_PLAN, "amount": figure, "line": symbol_range(*line, cur)}
    out = []
    for f in result.findings:
        if f.id == "sizing.plan" and f.title_key in SIZING_TITLES and d.params.get("more"):
            f = f.model_copy(update={"title_key": SIZING_TITLE, "params": {
                **f.params, "owned": d.params.get("count"), "more": d.params.get("more"),
                "rented": d.params.get("rented"), **shares(d.params)}})
        elif f.id == FLEET_COST and f.detail_key == "plan.rule.cost.fleet.this_service.detail":
            f = f.model_copy(update={"detail_key": FLEET_DETAIL, "params": {**f.params, "quiet": months["quiet_sign"]}})
        elif f.id == HOSTED and hosted is not None and "plan" in f.params:
            params = {**f.params, "plan": figure, "reason": api_marginal.reason(hosted, plan),
                      "plan_mid": symbol_range((path[0] + path[1]) / 2, (path[0] + path[1]) / 2, cur)}
            upd: dict[str, Any] = {"params": params}
            if f.title_key.startswith(ENDS) and not (hosted.low < plan.low <= hosted.high < plan.high):
                # the API's range no longer meets the path's only at its top: the prices quoted decide
                upd["title_key"] = f"{OVERLAP}.title"
                upd["detail_key"] = f.detail_key.replace(ENDS, OVERLAP)
            elif f.title_key.startswith(ENDS):
                params["overlap"] = symbol_range(plan.low, hosted.high, cur)
            f = f.model_copy(update=upd)
        out.append(f)
    result.findings = out
    if sw is not None and hosted is not None and sw.reason == "owned" and "plan" in sw.params:
        result.start_with = sw.model_copy(update={"params": {
            **sw.params, "plan": figure, "reason": api_marginal.reason(hosted, plan)}})


def cost_rows(result: Any, lang: str, rows_in: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The cost section's rows of the owned form as the path taken: the GPUs owned with the API overflow and the
    rented fallback named, the API's overflow averaged over the year as its own row before the rented one (labelled
    the fallback), and the running months on both paths, the path's first; ``rows_in`` where the form does not
    apply (review 34: "the tables must show the path the decision takes")."""
    if not applies(result):
        return rows_in
    b = burst_bill.bill(result.costs, result.answers, str(getattr(result, "deployment_form", "") or ""),
                        getattr(result.hardware, "gpu", None))
    f, d = _finding(result, BURST), _finding(result, DISAGREE)
    hyb = getattr(result.costs, "hybrid", None)
    if b is None or f is None or d is None or hyb is None or not isinstance(f.params.get("api"), dict):
        return rows_in
    cur = result.costs.currency
    quiet = (b.average_month[0] - b.averaged[0], b.average_month[1] - b.averaged[1])
    api_burst = [a - q for a, q in zip(f.params["api"]["range"], quiet, strict=True)]
    spread = [x * b.per_year / 12 for x in api_burst]
    months = result.costs.horizon_months or 0

    def money(lo: float, hi: float) -> str:
        return money_range(MoneyRange(low=lo, high=hi), cur)

    def t(key: str, params: dict[str, Any] | None = None) -> str:
        return render(lang, key, params)

    gpus, burst, running = t("memo.forms.cost.gpus"), t("memo.forms.cost.burst"), t("memo.forms.cost.running")
    total = t("contra40_cost.total_running", {"months": months})
    out: list[tuple[str, str]] = []
    for k, v in rows_in:
        if k == gpus:
            v = t("hb43.cost.gpus_value", {"owned": hyb.gpus_owned, "rented": d.params.get("rented")})
        elif k == burst:
            out.append((t("hb43.cost.api"), t("hb43.cost.api_value", {
                "cost": money(*spread), "burst": f.params["api"].get("burst"), "n": b.per_year})))
            k = t("hb43.cost.burst")
        elif k == running and hyb.running_monthly is not None:
            lo = hyb.running_monthly.low - b.averaged[0] + spread[0]
            hi = hyb.running_monthly.high - b.averaged[1] + spread[1]
            v = t("hb43.cost.both", {"path": money(lo, hi), "rented": v})
        elif k == total and hyb.running_monthly is not None and months:
            lo = (hyb.running_monthly.low - b.averaged[0] + spread[0]) * months
            hi = (hyb.running_monthly.high - b.averaged[1] + spread[1]) * months
            v = t("hb43.cost.both", {"path": money(lo, hi), "rented": v})
        out.append((k, v))
    return out


def reword(result: Any) -> None:
    """The findings page 1's reasons repeat, worded for the path taken (a post-plan step, in place): the fleet's peak
    need sent to the API with the rented part as its fallback; the basis said once (the measured reading, the curve
    the case the count and the ramp decide); the burst month led by the path's own, the rented one the fallback's."""
    if not applies(result):
        return
    out = []
    for f in result.findings:
        if f.id == DISAGREE and f.title_key == RENTED_TITLE:  # (one already worded for the API keeps its words)
            f = f.model_copy(update={"title_key": FLEET_TITLE})
        elif f.id == BURST and isinstance(f.params.get("api"), dict) and not f.params.get("api_lead"):
            # (a finding already led by the API, ``burst_path``, keeps its own words)
            over = "burst41_steps.over" if burst_order40.rented_over_both(result) else "burst41_steps.over_high"
            f = f.model_copy(update={"title_key": BURST_TITLE, "params": {**f.params, "over": {"tr": over},
                                                                          "api_m": f.params["api"].get("month")}})
        elif f.id == FLEET_COST and isinstance(f.params.get("more"), dict) and \
                f.params["more"].get("tr") == "burst24.fleetload.more.rent":
            f = f.model_copy(update={"params": {**f.params, "more": {**f.params["more"], "tr": FLEET_MORE}}})
        if f.id == FLEET_COST and isinstance(f.params.get("more"), dict) and f.params["more"].get("tr") == FLEET_MORE:
            f = f.model_copy(update={"params": {**f.params, "more": {**f.params["more"], **shares(
                {"count": f.params.get("count"), "more": f.params["more"].get("plan")})}}})
        if f.id == DISAGREE and f.title_key == FLEET_TITLE:
            f = f.model_copy(update={"params": {**f.params, **shares(f.params)}})
        out.append(f)
    result.findings = out
    d = _finding(result, DISAGREE)
    g = getattr(result, "gpu_choice", None)
    if d is not None and g is not None and g.burst_split:  # section 2's opening as the path taken (``gpu_lead``)
        result.gpu_choice = g.model_copy(update={"burst_split": {**g.burst_split, **shares(d.params)}})
    _path_words(result)
    c = carried(result)
    d = _finding(result, DISAGREE)
    if c is None or d is None:
        return
    extra = {"multiple": d.params.get("multiple"), "cap": c["cap"], "own": c["own"], "today": c["today"]}
    result.next_steps = [s.model_copy(update={"key": STEP, "params": {**s.params, **extra}})
                         if s.id == "fleet_load" and s.key in STEP_KEYS else s for s in result.next_steps]


def gpus_word(n: int) -> dict[str, Any]:
    """A bare count of rented GPUs as a sentence names it ("8" / "8 张"), where the part is not named."""
    return {"tr": "hb43.gpus_n", "n": n}


__all__ = ["applies", "carried", "cost_rows", "gpus_row", "gpus_word", "headline", "path_running", "peak_row", "reword",
           "rows", "shares"]

