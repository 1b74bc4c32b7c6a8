"""The layout weighed for the same busy cards is the plan, where the first-token target was raised to fit the free
cards (s41-q04, blind review 34, q04).

en: "the headline and hardware table say '10 of your 16 × NVIDIA H20 96GB: 5 replicas', while the same paragraph
ends 'Recommended: TP2 × 6' (12 cards, after moving one busy card's work). A boss cannot tell whether 10 or 12 cards
are being asked for"; zh: "pick one and put it in the table".

``ttft_free_cards`` raises an assumed target to the step the free cards meet; ``ttft_choice42`` then weighed the
usual target's layout (TP4 × 3 on 12 cards) against one more replica of the plan's (TP2 × 6 on the same 12) and
recommended the one a whole server down leaves more of. Where that one is the plan's own layout with one replica
more, it is no longer an upgrade beside a plan of the free cards: both ways the same busy cards' work moves, so
the plan takes that replica on them, with the other work's owners' sign-off, as ``fleet.signoff_spares`` takes a
spare (hardware, commands, cost and power, the N+1 and placement findings and the steps all read that layout).
Not where no target was raised (the free cards' plan evicts nobody: blind review 25), nor where the usual target's
layout takes fewer cards or rides out a server as well (then ``ttft_choice42`` recommends it and the plan stays).

Withdrawn in s42-hyb (blind review 35, q04: "stop at 5 replicas on the idle cards and not touch other teams' jobs
... TP4 x 3 meets 6 s on the same 12 cards, so present that trade-off as the main decision"): a spare never moves
other work where the free cards hold the load and its spare (``fleet.signoff_spares``), and page 1 puts the plan on
the free cards against the usual target's layout (``ttft_rule41.decide``). ``choice`` stays for a sign-off spare
the load itself leads to; ``spares_not_a_server`` for any layout whose spares are not one server's replicas.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.fleet_spread import machine_left, server_left

# ``reachable.FREE_KEY`` (``ttft_free_cards.KEY``), named here as ``fleet`` reaches this module
FREE_KEY = "fleet36.assume.ttft_free"


def raised(c: Any) -> dict[str, Any] | None:
    """The params of the assumed target raised to fit the free cards (``ttft_free_cards.relax``), where the usual
    target's layout takes more cards than are free; None otherwise."""
    a = next((a for a in getattr(c, "assumptions", None) or [] if getattr(a, "key", None) == FREE_KEY), None)
    if a is None or not a.params or int(a.params.get("n") or 0) <= int(a.params.get("free") or 0):
        return None
    return a.params


SIGNOFF_TITLE = "plan.rule.sizing.redundancy.idle_signoff.title"  # ``fleet_signoff.SIGNOFF_TITLE``


def choice(result: Any) -> dict[str, Any] | None:
    """The figures page 1 weighs where the plan took one replica more on busy cards for the raised target
    (``fleet.signoff_spares``): the plan's layout and what a server down leaves of it
    (the N+1 finding's own figures), the usual target's layout for the same cards and what a server down leaves of
    that, the busy cards whose work moves, and the cards of the fleet that stay free after this service; None
    where the plan took no such replica (then ``ttft_choice42`` weighs the two as before)."""
    a = next((a for a in result.assumptions or [] if getattr(a, "key", None) == FREE_KEY), None)
    f = next((x for x in result.findings if x.title_key == SIGNOFF_TITLE), None)
    hw = result.hardware
    lay = hw.layout
    if a is None or f is None or lay is None or not hw.total_gpus or not hw.gpus_per_replica:
        return None
    p, q = a.params, f.params
    if int(p["n"]) <= int(p["free"]) or int(hw.total_gpus) > int(p["n"]) or int(hw.gpus_per_replica) == int(p["tp"]):
        return None
    said = q.get("server_said") if isinstance(q.get("server_said"), dict) else None
    count = int(q.get("count") or lay.fleet_count or 0)
    whole = lay.form_factor in ("sxm", "oam")
    uleft = machine_left(int(p["replicas"]), int(p["tp"]), count, whole)
    if said is None or uleft is None or not count:
        return None
    total, free, moved = int(hw.total_gpus), int(p["free"]), int(q.get("moved") or q.get("cards") or 0)
    moved = max(moved, total - free)
    busy_left = count - free - moved  # the busy cards that keep their other work
    stay = max(0, count - total - busy_left)
    peak = said.get("peak") or said.get("carried")
    carry = {"tr": "tc43.carry.all", "peak": peak} if said.get("carried") is not None and peak is not None \
        and int(said["carried"]) >= int(peak) else {"tr": "tc43.carry.some", "carried": said.get("carried"), "peak": peak}
    wait = (p.get("peak") or {}).get("ttft") if isinstance(p.get("peak"), dict) else None
    rest = {"tr": "tc43.rest.none", "n": busy_left, "count": count} if stay == 0 else \
        {"tr": "tc43.rest.some", "stay": stay, "count": count}
    return {"total": total, "count": count, "free": free, "moved": moved, "where": q.get("where", ""),
            "rest": rest, "ptp": hw.gpus_per_replica, "replicas": hw.replicas, "left": said.get("left"),
            "carry": carry, "tp": p["tp"], "ureplicas": p["replicas"], "uleft": uleft,
            "wait": {"tr": "tc43.wait", "s": f"{round(float(wait) / 1000):g}"} if wait else ""}


def spares_not_a_server(hw: Any, serving: int) -> int | None:
    """The spare replicas of a layout on the team's own 8-GPU servers where they are not one server's replicas (a
    server down leaves another count than ``serving``): q04's 6 × TP2 over 2 servers keeps 2 spares but a server
    down takes 3, so "10 each on the 4 left with one server down" would misstate both; the load with the spares
    down is said as that many replicas down, the server's loss by the placement finding. None otherwise."""
    lay = getattr(hw, "layout", None)
    spares = int(hw.replicas or 0) - int(serving or 0)
    if lay is None or getattr(lay, "basis", None) != "fleet" or lay.form_factor not in ("sxm", "oam") or spares < 2 \
            or not lay.fleet_count or not hw.gpus_per_replica:
        return None
    left = server_left(int(hw.replicas), int(hw.gpus_per_replica), int(lay.fleet_count))
    return spares if left is not None and left != serving else None


__all__ = ["FREE_KEY", "SIGNOFF_TITLE", "choice", "raised", "spares_not_a_server"]
