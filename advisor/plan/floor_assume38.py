"""The volume assumption's one clause where the costs do not use it (s36-rowtrim, issue 25, blind review 27).

The tokens row states one month, the one the costs use, and its range (q21: "the token volume is stated three ways
… pick one and footnote the others"; q30, q34). Where that month was read from the peak (``volume_peak.floor``)
the estimate from the people or the public's requests is no longer printed in the row; the assumptions list still
states it ("the month's tokens assume each of the 400,000 people …"), so that item says, without a figure, that
the costs read the month from the peak instead: one footnote, not a second volume.

s38-usage (blind review 29, q30: "the monthly tokens are read from the peak (about 215k requests a month), while the
stated assumption (30,000 people × 36 requests a year) gives about 90k requests a year ... no usable basis"; q34:
"the token row reads the month from the peak (290M input), while the stated assumption is about 300 people × 20
requests a day (about 132M). Pick one basis"): the footnote still left the estimate's own figures in the list, a
second basis beside the one costed. Where the month was read from the peak, the item now says that month alone in
requests a day, what it asks of each person counted (where the answers count people), and asks for requests a day:
the answers' peak is the one basis, the conflict with the people said as a question, never as a second month.
Where the month was held to the most the people send (``cap``), the people are the basis and the item stands.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.money_text import about
from advisor.plan.result import render
from advisor.plan.volume_low_end import FLOOR

# the requests-a-day assumptions that state a month counted by people (staff or the public)
ESTIMATE_KEYS = frozenset({"plan.volume19.assume.users", "plan.volume19.assume.people", "fleet20.public.assume",
                          "usage39.public.assume"})
PUBLIC_KEYS = frozenset({"fleet20.public.assume", "usage39.public.assume"})  # the people counted are the public's


def text(costs: Any, assumption: Any, lang: str) -> str:
    """The assumptions list's item for ``assumption``: read from the peak where the costs read the month from it
    (``peak_text``), else its own text with ``clause``."""
    return peak_text(costs, assumption, lang) or assumption.text_in(lang) + clause(costs, assumption.key, lang)


def peak_text(costs: Any, assumption: Any, lang: str) -> str:
    """The month read from the peak, said as the one basis: the requests a day the costs use, each counted person's
    share of them, the ask; "" where the month was not read from the peak (or was held to the people's most)."""
    raised = ((getattr(costs, "volume_basis", None) or {}) if costs is not None else {}).get(FLOOR)
    key = assumption.key
    if key not in ESTIMATE_KEYS or not raised or not raised.get("line") or raised.get("cap"):
        return ""
    line, p = raised["line"], assumption.params
    a_day = float(line["mean"]) * float(line["per_hour"]) * float(line["hours"])  # the row's product for one day
    params: dict[str, Any] = {"peak": raised["peak"], "rpd": about(a_day), "subjects": p.get("subjects") or ""}
    counted = _count(p.get("users") or (p.get("people") if key in PUBLIC_KEYS else None))
    if not counted:
        return render(lang, "usage40_assume.peak.staff", params)
    if key in PUBLIC_KEYS and key != "usage39.public.assume":  # conversations a year: said a year, as the estimate
        # would be read (each of the peak's running days, every day for a public service)
        return render(lang, "usage40_assume.peak.year", {
            **params, "people": f"{counted:,}", "each": about(a_day * line["days"] * 12 / counted)})
    return render(lang, "usage40_assume.peak.day", {**params, "people": f"{counted:,}", "each": _per(a_day / counted)})


def _count(text: Any) -> int:
    """A head count as the assumption printed it ("30,000"), 0 where none."""
    try:
        return int(str(text).replace(",", "")) if text else 0
    except ValueError:
        return 0


def _per(x: float) -> str:
    """Requests a person a day to the figures a reader uses: 0.24, 3.5, 41."""
    return f"{x:.2g}" if x < 10 else f"{x:,.0f}"


def clause(costs: Any, key: str, lang: str) -> str:
    """" The costs use the most these people send instead …" after an estimate's assumption the costs raised to the
    most its people send; "" for any other assumption or month (one read from the peak: ``peak_text``)."""
    raised = ((getattr(costs, "volume_basis", None) or {}) if costs is not None else {}).get(FLOOR)
    if key not in ESTIMATE_KEYS or not raised or not raised.get("line"):
        return ""
    # read from the peak: ``peak_text`` says the item whole (s38-usage); held to the people's most: this clause
    return translate(lang, "rowtrim38.assume.cap") if raised.get("cap") else ""


__all__ = ["ESTIMATE_KEYS", "PUBLIC_KEYS", "clause", "peak_text", "text"]
