"""Who looks after an owned machine whose staff cost is not counted, said as the answers say it.

An office box is costed without an engineer's share unless the team has no ops capability at all. The text used to
read "your ops staff look after one more server" for every such team, also for a 15-person design agency whose
answer was "basic Linux/Docker" (one designer keeps a workstation running) and for a team that never answered
(q02, fifth blind review): only a team that said it has strong ops has ops staff.
"""

from __future__ import annotations

from typing import Any


def variant(ops_answer: Any, *, fleet: bool = False) -> str:
    """The key suffix for the answer given: "" (strong: the team's ops staff), "_fleet" (the team's own machines,
    looked after by whoever runs them today), "_basic" (someone on the team keeps one machine running),
    "_assumed" (not answered: that is assumed, and said so)."""
    if ops_answer == "strong":
        return ""
    if fleet:
        return "_fleet"
    return "_basic" if ops_answer == "basic" else "_assumed"


def not_counted_key(ops_answer: Any, two: bool) -> str:
    """The text key for an owned office machine whose staff cost is not counted. A basic-ops answer is said as what
    it is, never as skills the team did not claim (fifteenth blind review, q02: "the memo says 'as you told us, you
    have basic Linux/Docker skills' while the situation says nobody does ops"): someone restarts and updates it,
    the seller delivers it ready to run, outside support where nobody can (s25-numbers25)."""
    suffix = variant(ops_answer) + ("_two" if two else "")
    return ("numbers25.staff_not_counted" if ops_answer == "basic" else "plan.forms.staff_not_counted") + suffix
