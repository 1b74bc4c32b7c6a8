"""A service that sells tokens dearer to make than the market sells them: the unit economics said first on page 1
(issue 25, blind review 25).

q11 (en): "the memo's own first finding says each token costs 1.6–3.0× (input) and 3.2–5.2× (output) a hosted API's
list price … The headline still says 'Rent cloud GPU servers' with 'Feasible … yes'. The boss needs a go/no-go on
unit economics first"; (zh): "should lead, with the 'rent H20' plan framed as conditional on pricing or
differentiation". The decision is unchanged (the answers sell a self-hosted API: ``self_host_asked``), but the
margin finding (``cost.token_margin``) now opens the Decision as its own line, with the condition the plan below
rests on: a price the customers pay above that cost, or something they cannot buy from that API. It is then not
repeated among the deciding reasons. Where the memo starts on a hosted API (an API-led headline) there is no
self-hosted cost per token to sell at, and nothing is said here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan.result import Finding, clause_case, render

RULE = "cost.token_margin"
KEY = "apiweigh36.unit.first"


def margin(findings: Sequence[Finding]) -> Finding | None:
    """The paid API's margin finding (``hosted_weigh.cost_token_margin``), None where tokens are not sold below cost."""
    return next((f for f in findings if f.id == RULE), None)


def text(result: Any, findings: Sequence[Finding], lang: str) -> str:
    """The Decision's first line: the cost per token against the market's, and what the plan below is conditional on;
    "" for an infeasible plan, an API-led one, or one that sells no tokens below their cost."""
    f = margin(findings)
    start = getattr(result, "start_with", None)
    if f is None or not result.feasible or (start is not None and start.form == "hosted_api"):
        return ""
    # the ⚠ its reason carried in the list (the cost per token rests on an unconfirmed price), kept on its own line
    verify = f.verify or any(s.needs_verify for s in f.sources)
    mark = " " + translate(lang, "memo.verify_mark") if verify else ""
    go = go_line(f, lang, mark)
    return go or translate(lang, KEY, margin=f.title_in(lang) + mark)


GO = "ld43.unit.first"
GO_PARAMS = ("own_in", "own_out", "api_in", "api_out")


def _top(span: str) -> str:
    """The high end of a money range as the finding prints it ("¥2.05–¥5.97" → "¥5.97")."""
    return str(span).split("–")[-1].strip()


def go_line(f: Finding, lang: str, mark: str) -> str:
    """"**Margin, go or no-go:** self-hosting costs 1.6–5.2× a hosted API's price per token: … Go only if your price
    list covers at least ¥5.97 per million input and ¥19.1 per million output tokens …; otherwise no-go." where
    every end of both ratios is above 1× and the finding has its four prices, else "" (blind review 34, q11: "a clear
    go/no-go on margin … go only if your price list covers ¥X/¥Y per million input/output tokens"; zh: "the
    recommendation ends without a decision"). The bar is the top of the plan's own cost a million tokens: the price
    list that covers it covers every price the plan was costed at."""
    span = span_times(f)
    if span is None or any(not f.params.get(k) for k in GO_PARAMS):
        return ""
    p = f.params
    basis = "ld43.unit.basis_placeholder" if placeholder(f) else "ld43.unit.basis_firm"
    return render(lang, GO, {"times": span, "own_in": p["own_in"], "own_out": p["own_out"], "api_in": p["api_in"],
                             "api_out": p["api_out"], "top_in": _top(p["own_in"]), "top_out": _top(p["own_out"]),
                             "mark": mark, "basis": {"tr": basis}})


def span_times(f: Finding) -> str | None:
    """"1.6–5.2": the lower end of either ratio to the higher, each as the finding prints it; None where a ratio does
    not parse or any end is at or below 1× (not a loss on each token at every price quoted)."""
    ends = [_ends(f.params.get(k, "")) for k in ("in_times", "out_times")]
    if any(e is None for e in ends):
        return None
    lo = min(e[0] for e in ends if e is not None)
    hi = max(e[1] for e in ends if e is not None)
    if lo <= 1:
        return None
    a, b = f"{lo:g}", f"{hi:g}"
    return a if a == b else f"{a}–{b}"


def _ends(span: str) -> tuple[float, float] | None:
    """(low, high) of a ratio range as the finding prints it ("1.6–3.0", "5"); None where it does not parse."""
    try:
        got = [float(x) for x in str(span).split("–")]
    except ValueError:
        return None
    return (got[0], got[-1]) if got else None


def verdict(result: Any, findings: Sequence[Finding], lang: str, said: str, form: str) -> str:
    """The recommendation's form with the margin's verdict before it, where the first line (``text``) says the margin
    and every end of both ratios is above 1× (a loss on each token at every price quoted, not "can cost more"):
    review 27 (q11, en and zh): "the memo's own numbers show each token costs 1.6–5× more to make than a hosted API
    charges. That should be the headline, not a preface to 'rent cloud GPU servers'". The span runs from the lower
    end of either ratio to the higher, each as the finding prints it. ``form`` as it is where nothing is said."""
    f = margin(findings)
    if not said or f is None:
        return form
    if span_times(f) is not None and go_line(f, lang, "") and said.startswith(_go_label(lang)):
        # the first line says the go/no-go with its bar (review 34, q11): the recommendation is its "go" branch
        return translate(lang, "ld43.unit.rec", form=clause_case(form, lang))
    times = span_times(f)
    if times is None:
        return form
    key = RISK if placeholder(f) else VERDICT
    return translate(lang, key, times=times) + clause_case(form, lang)


def _go_label(lang: str) -> str:
    """The go/no-go line's bold label ("**Margin, go or no-go:**"), which tells it from the older first line."""
    text = translate(lang, GO)
    return text[:text.index("**", 2) + 2]


def placeholder(f: Finding | None) -> bool:
    """The margin rests on an unconfirmed price (its ⚠: a placeholder GPU price, grade U): a margin risk to settle
    with a real quote and the seller's own price list, not a verdict (issue #25, review 29, q11 en+zh: the loss
    headline "rests on a grade-U H20 placeholder and an assumed utilisation: rephrase it as a margin risk")."""
    return f is not None and (bool(f.verify) or any(s.needs_verify for s in f.sources))


VERDICT = "fixrows37_unit.verdict"
RISK = "basis40_unit.risk"
FEASIBLE_RISK = "basis40_unit.feasible_risk"


def past(why: list[dict[str, Any]], said: str) -> list[dict[str, Any]]:
    """Page 1's deciding reasons less the margin where the first line says it (``text``)."""
    return [w for w in why if w["id"] != RULE] if said else why


__all__ = ["FEASIBLE_RISK", "KEY", "RISK", "RULE", "VERDICT", "margin", "past", "placeholder", "text", "verdict"]
