"""Page 1 says the first-token target the plan was sized for where ``ttft_free_cards`` raised an assumed one
(s34-q04said, blind review 26, q04: "the memo quietly plans against a 10 s P99 TTFT … That trade-off belongs in
the headline, not only in the open-questions box").

The figures are the assumption's own (``ttft_free_cards.relax``): the raised target, the usual one, the layout the
usual one needs and the free cards; the busy cards that layout takes are its cards less the free ones. A target the
team gave is never raised, so nothing is said then.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render
from advisor.plan.ttft_free_cards import KEY


def _seconds(ms: Any) -> str:
    """10000 → "10", 9500 → "9.5": the target in seconds, as a reader says it."""
    return f"{float(ms) / 1000:g}"


def key_clause(result: Any, lang: str) -> str:
    """"; planned at a first-token target of 10 s (assumed: none was given) so that it fits your 11 free cards; the
    usual 6 s needs 12 × … in TP4, taking 1 busy card — give your target", or "" where no target was raised."""
    a = next((a for a in result.assumptions if a.key == KEY), None)
    if a is None:
        return ""
    p = a.params
    busy = int(p["n"]) - int(p["free"])
    if busy <= 0:  # the usual target's layout fits the free cards: relax never raises it then
        return ""
    return render(lang, "q04said_.key.ttft_free" if busy != 1 else "q04said_.key.ttft_free_one", {
        "value": _seconds(p["value"]), "default": _seconds(p["default"]), "free": p["free"], "n": p["n"],
        "gpu": p["gpu"], "tp": p["tp"], "busy": busy})


def form_clause(result: Any, lang: str) -> str:
    """The same choice on the recommendation line, put to the owner (s36-fleet38, blind review 27, q04: "the
    headline must say that the usual 6 s needs 12 H20 (TP4) and ask the owner to decide"; en: "put it at the top,
    next to the 6 s option"): " — at a first-token target of 10 s (assumed …), which fits your 11 free cards; the
    usual 6 s needs 12 × … in TP4, taking 1 busy card: your decision"; "" where no target was raised."""
    a = next((a for a in result.assumptions if a.key == KEY), None)
    if a is None:
        return ""
    p = a.params
    busy = int(p["n"]) - int(p["free"])
    if busy <= 0:
        return ""
    return render(lang, "fleet38_form.ttft_free", {
        "value": _seconds(p["value"]), "default": _seconds(p["default"]), "free": p["free"], "n": p["n"],
        "gpu": p["gpu"], "tp": p["tp"], "busy": busy})


def decision_first(result: Any, lang: str, form: str) -> str:
    """The recommendation line with the assumed target put first as the owner's decision, where ``form`` ends in
    ``form_clause`` (blind review 28, q04: "choosing an SLO so the plan fits the idle hardware needs explicit business
    sign-off, so put it first as a decision … not an assumption"; "give one number and one optional upgrade"): "For
    the business owner to decide first: sign off the 10 s first-token target … or the usual 6 s, which needs 12 × …
    in TP4 instead of this plan's 10 … Run it on …". One card count (the plan's) and one upgrade (the usual target's
    layout), no free-card figure beside them; ``form`` unchanged elsewhere. Since review 31 (q04: "the 10 s TTFT
    target is not explained"; "state which target you recommend and why") the line recommends the raised target and
    says the usual one with its rule, why the plan does not keep it and the busy cards keeping it takes
    (``ttft_rule41.decide``)."""
    head = form_clause(result, lang)
    if not head or not form.endswith(head):
        return form
    a = next(a for a in result.assumptions if a.key == KEY)
    # s39-ttft (blind review 31, q04: "the 10 s TTFT target is not explained"; "state which target you recommend and
    # why"): the usual target with its rule, why the plan does not keep it, and the raised one recommended
    from advisor.plan.ttft_rule41 import decide

    return decide(result, a.params, lang, form[: -len(head)])


__all__ = ["KEY", "decision_first", "form_clause", "key_clause"]
