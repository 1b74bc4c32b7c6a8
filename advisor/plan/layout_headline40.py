"""Page 1 recommends the layout that rides out a whole machine down, where the owner's other cards allow it (issue
#25, blind review 29: q33 "the 4-replica, 2-per-machine layout is only recommended inside a finding. Make it the
headline"; q08 "move the server-failure gap into the headline … recommend all 16 cards once the owner confirms the
20 % load can move").

The plan's figures stay those of the cards known free (``fleet.free_gpus``): whether the busy ones can be freed is
their owners' word. But where the placement finding recommends one more replica on the fleet's remaining cards and
with it one machine down still leaves the whole peak carried (``placement_rules``: ``consist25.spare_pair.recommend``
on PCIe machines, ``gpu28.placement.one_more_server`` on 8-GPU boards), that layout is the recommendation, its
condition (the other work moved off those cards) and what that frees said with it, and the plan's own layout is
what runs until then, with what one machine down leaves of the peak: said once, here; the hardware row points up.
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fleet_one_count, headline25
from advisor.plan.result import render

# blind review 36 (q08: page 1 said "Follow-up: add 1 more" while section 7 called it "an optional upgrade, not part
# of this plan"; "should be a recommendation with an owner"): one stance, the recommended next step with its owner,
# on page 1, in the hardware row and in the placement finding, which points up rather than re-telling it
HEAD = "own44.layout.head"
ROW = "own44.layout.row"
SERVER_MORE = "gpu28.placement.one_more_server"
NEXT_STEP = "own44.placement.next_step"
# the fleet's cost title with the cards used alone, as ``fleet_one_count.TITLE`` says it, but its own key: where the
# layout is page 1's, the fleet finding's free share ("about 7 cards' worth idle") stays folded too (``fleet_said_once``)
FLEET_TITLE = "layout40_fleet.title"


def _more(result: Any) -> dict[str, Any] | None:
    """The placement finding's one-more-replica layout where it carries the whole peak with a machine down (and the
    headline does not already open on the owner's first-token choice, ``fleet_one_count``); None otherwise."""
    if result.deployment_form == "hosted_api" or fleet_one_count.decided_first(result.assumptions):
        return None
    f = next((x for x in result.findings if x.id == headline25.PLACEMENT), None)
    more = headline25._more(f.params) if f is not None else None
    if more is None or not more.get("peak") or "carried_now" not in more or "carried_after" not in more:
        return None
    if more["carried_after"] < more["peak"] or more["carried_now"] >= more["peak"]:
        return None  # the larger layout is no machine-proof one, or today's already is: the row weighs both
    return more


def _params(result: Any, more: dict[str, Any]) -> dict[str, Any]:
    hw = result.hardware
    nxt = int(more.get("next") or (hw.replicas or 0) + 1)
    count = int(more.get("count") or 0)
    total = int(more.get("total") or nxt * (hw.gpus_per_replica or 0))
    on = {"tr": "fleet38_cards.all", "count": count} if total >= count else \
        {"tr": "fleet38_cards.some", "total": total, "count": count}
    return {"next": nxt, "on": on, "free": hw.total_gpus, "count": count, "most": nxt - int(more["left_after"]),
            "left_after": more["left_after"],
            "peak": more["peak"], "busy": more.get("busy", 0), "busy_cards": more.get("busy_cards", "0"),
            "other": total - (hw.total_gpus or 0), "replicas": hw.replicas, "left_now": more["left_now"],
            "carried_now": more["carried_now"], "add": nxt - int(hw.replicas or 0)}


def applies(result: Any) -> bool:
    """Whether page 1 recommends the machine-proof layout on the owner's other cards."""
    return _more(result) is not None


def one_count(result: Any) -> list[Any]:
    """The findings with the fleet's cost title saying the cards used alone where page 1 recommends the larger layout:
    the other work is said once there, as cards' worth to move, not again as the free share idle (review 30, q33 zh:
    "'约合 7 张卡的算力空闲' vs '约 0.8 张卡的量' is confusing. State once that about 0.8 of a card's worth of other
    work has to be moved off 2 specific cards")."""
    if not applies(result):
        return list(result.findings)
    return [f.model_copy(update={"title_key": FLEET_TITLE}) if f.title_key == fleet_one_count.COST_TITLE
            else _next_step(f) if f.id == headline25.PLACEMENT else f for f in result.findings]


def _next_step(f: Any) -> Any:
    """The placement finding's one-more-replica clause said as page 1's recommended next step, not as an optional
    upgrade outside the plan (review 36, q08), its figures left to page 1."""
    cover = f.params.get("cover")
    if not isinstance(cover, dict) or cover.get("tr") != SERVER_MORE:
        return f
    return f.model_copy(update={"params": {**f.params, "cover": {**cover, "tr": NEXT_STEP}}})


def head_clause(result: Any, lang: str) -> str:
    """The recommendation sentence's layout: the machine-proof one, its condition, and the plan until it holds."""
    more = _more(result)
    return "" if more is None else render(lang, HEAD, _params(result, more))


def row_clause(result: Any, lang: str) -> str:
    """The hardware row's pointer to it, in place of weighing both layouts again (said once, on the line above)."""
    more = _more(result)
    return "" if more is None else render(lang, ROW, _params(result, more))


__all__ = ["FLEET_TITLE", "HEAD", "NEXT_STEP", "ROW", "applies", "head_clause", "one_count", "row_clause"]
