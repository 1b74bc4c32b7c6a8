"""The reason a cheaper hosted API is set aside, said as the trade it is where that reason is the team's running of
the service today (issue 25, blind review 25).

q31 (zh): "The API option (¥12,158–27,425) is rejected only because 'you already run it'; the boss needs one clear
sentence on why that outweighs a 3× cost gap"; (en) "The dismissal ('not a saving this plan can book') is a product
argument the boss should see stated plainly, not buried". Running the service today is no reason by itself (what was
spent is spent); what an API would change is who sets the service's rate limits, data terms and model versions. So
where the API costs less at every price (``hosted_weigh``'s ``clear``), page 1's set-aside line says that trade with
the month it costs (the plan's month less the API's, end for end: the least and the most that control costs), and
that the API is the cheaper move if the control is not worth it; where the two months meet, that they cost about the
same and the control comes at no clear extra cost. Other reasons (sensitive data, a filing that names the deployed
model, a fine-tune no provider serves) are bars that say themselves, and keep the line as it was.

Review 26 (q26): page 1 said "the two cost about the same" beside the finding's "a hosted API is likely cheaper ...
at their middles, ¥71,686 against ¥101,696": this line judged the two months by its own test. It now takes the
finding's own verdict on the same ranges (``hosted_verdict.api_verdict``'s kind, as ``cost.hosted_weighed`` chose its
variant by): "clear" the gap with what the control costs, "tie" about the same, "volume"/"ends"/"far" likely cheaper,
"overlap" the prices decide, so page 1 and the finding can never disagree on the same figures.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import steady_busy39
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, _range

RUNNING = "plan.hostedrun21.why.running"
KEY = "apiweigh36.set_aside.running"
# the finding's verdicts that say "a hosted API is likely cheaper" (its titles ``…weighed.{kind}.title``)
LIKELY = frozenset({"volume", "ends", "far"})
LIKELY_KEY = "q26agree_set_aside.running.likely"
OVERLAP_KEY = "q26agree_set_aside.running.overlap"
BUSY_KEY = "own39_set_aside.likely_busy"
# ac43 (blind review 35, q26): the finding's own title and detail where page 1 reads the month at the measured load
# (``busy_clause``): "no cheaper at that load", the estimated volume's month beside it and which one decides, never
# "a hosted API is likely cheaper" under page 1's "no less than this plan's"
BUSY = "busy"
BUSY_TITLE = "plan.rule.cost.hosted_weighed.busy.ac43.title"
BUSY_DETAIL = "plan.rule.cost.hosted_weighed.busy.ac43.detail"


def clause_key(kind: str) -> str:
    """The plain clause's key for the finding's verdict ``kind`` on the two months (one judgement for both)."""
    if kind == "clear":
        return f"{KEY}.gap"
    if kind == BUSY:  # the finding said on the measured load (``on_busy``): page 1's clause on the same basis
        return BUSY_KEY
    if kind in LIKELY:
        return LIKELY_KEY
    if kind == "overlap":
        return OVERLAP_KEY
    return f"{KEY}.same"  # "tie": about the same (a yardstick never reaches here: ``hosted_weigh`` says it apart)


def running(f: Facts, first: dict[str, Any], plan: Any, hosted: Any, top: float,
            kind: str) -> dict[str, Any] | str:
    """The set-aside line's plain clause where the first reason is the team's running of the service (``RUNNING``),
    in the words of the finding's verdict ``kind`` (``clause_key``): "gap" with what the control costs a month where
    the API costs less at every price; "" for any other reason."""
    if first.get("tr") != RUNNING:
        return ""
    key = clause_key(kind)
    if key == f"{KEY}.gap":
        return {"tr": key, "diff": _range(plan.low - top, plan.high - hosted.low, f)}
    if key == LIKELY_KEY:
        return busy_clause(f, plan, hosted) or {"tr": key}
    return {"tr": key}


def busy_clause(f: Facts, plan: Any, hosted: Any) -> dict[str, Any] | None:
    """"likely cheaper at the estimated volume; read at your measured 80 % utilisation it would cost about X, no less
    than running it yourselves" where a busy steady load measured for years (``steady_busy39.reading``) puts the
    API's month at that reading (its month × ``busy_factor``) at or above the plan's at the middle; else None
    (blind review 28, q26: the measured load was set aside and "a hosted API is likely the cheaper" stood alone)."""
    busy = steady_busy39.reading(f.ctx.answers)
    factor = steady_busy39.busy_factor(f.cost.costs) if busy is not None and f.cost is not None else None
    if busy is None or factor is None:
        return None
    low, high = hosted.low * factor, hosted.high * factor
    if (low + high) / 2 < (plan.low + plan.high) / 2:
        return None
    return {"tr": BUSY_KEY, "measured": busy["measured"], "busy": _range(low, high, f)}


def on_busy(got: Finding) -> Finding:
    """``got`` (the finding weighing the API) said on page 1's basis where its plain clause is the measured load's
    (``BUSY_KEY``): the title and detail give the API's month at that reading as the verdict (no cheaper), the
    estimated volume's month beside it and why the measured one decides; ``got`` unchanged elsewhere."""
    plain = got.params.get("plain")
    if not (isinstance(plain, dict) and plain.get("tr") == BUSY_KEY):
        return got
    return got.model_copy(update={"title_key": BUSY_TITLE, "detail_key": BUSY_DETAIL,
                                  "params": {**got.params, "measured": plain["measured"], "busy": plain["busy"]}})


__all__ = ["BUSY", "BUSY_DETAIL", "BUSY_KEY", "BUSY_TITLE", "KEY", "LIKELY", "LIKELY_KEY", "OVERLAP_KEY", "RUNNING",
           "busy_clause", "clause_key", "on_busy", "running"]
