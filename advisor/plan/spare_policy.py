"""How much redundancy a plan carries beyond what its load needs, decided here (issue #25, round 13 of the blind
review: "no redundancy: one node for a paid API, one replica per region" was a finding an expert sends back).

The rule, in the order the engine applies it:

1. A spare unit (N+1) for a service with a reason for it: paid, public, business-facing or a bank's customers
   (``gpu_choice.redundancy_reason``). Laid out by ``gpu_choice.apply_layout``.
2. An internal tool on ONE unit with no spare (``second_unit.single_point``): a second unit joins the plan where
   every budget given covers it and ``second_unit_reason`` has a reason: classified protection at level 3 (hot
   redundancy, GB/T 22239-2019 8.1.4.9 c), or a team with basic operations on a rented unit. A basic-ops team cannot
   restore a node itself: a failed VM waits for the provider (for 8 × H20 or an L40S, for capacity to free up), so
   the tool stops for as long as that takes (round 13, q35: DeepSeek-V3 on one 8 × H20 node with a ¥300k budget;
   q38: 15 HR users on one L40S with a $4k budget). A second bought server stays the team's call: it is capital
   spent once and not got back (round 13, q02: "the budget would cover a second server" read as filler for an
   office's one-card tool); the finding prices it and asks for the downtime to be accepted in writing.
3. One more serving unit for a service with a spare where, with one unit down, the survivors' P99 comes within
   ``ONE_DOWN_MARGIN`` of the target (the first token with the slowest round trip where the answers set a TTFT
   target), and the budget covers it (``one_down_tight``; round 13, q43: 146 ms of 150 with one of two L40S
   down, the third offered only as "measure or add"). Where the budget does not cover it, the latency finding
   states the risk with its figures (``failover_budget.tight_clause``).
4. On the team's own idle cards (they cost only their power), a layout that keeps carrying the peak with one
   replica down is preferred to one on fewer cards that does not (``survives_one_down``; round 13, q08: one TP8
   replica with no failover while 12 cards were free, where three TP4 replicas carry the peak with one down).
   "Carry" is within the target AND within what a replica takes (``claimed_capacity``, the serve command's
   --max-num-seqs): above it the engine queues the rest, so a level simulated past the cap is no failover (round
   14, q08: "15 each on the other 2: P99 TTFT 2.5 s" beside --max-num-seqs 12 and a 26 s TTFT at 20). Where no
   layout on the free cards rides it out, the one that keeps the most of the peak with one down goes first
   (``one_down_carried``), and the memo says plainly what is left short.
5. On the team's own fleet, where the replicas on the free cards leave the peak short with one down and the
   fleet's remaining cards hold one more replica that would carry it, the placement finding recommends that
   replica with its condition: the other work the measured utilisation counts moved off those cards
   (``fleet_next_replica``; round 14, q08 and q33). The free count is an estimate from a fleet average, so the
   plan is costed on it and the replica is recommended, not silently taken.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.plan import failover_budget, sizing
from advisor.plan.capacity import claimed_capacity, one_down_load
from advisor.plan.fleet_next_replica import carried_by

# Within 5 % of the target with one unit down is no margin: a reconnect's handshake, a slower route or a burst
# a little above the peak takes it over (the latency budget's own margin, ``failover_budget.MARGIN``). A wider
# margin would add a unit to plans whose failover sits comfortably within the target: at 20 %, seven of the 29
# plans with a spare in the advice scenarios would gain one (their one-down P99 at 80–94 % of the target), and at
# 10 % q03's bought hospital servers (94 %), whose reviewers already found eight L20 heavy. A service past the
# knee with one down but clear of the target (q37: 79 %) is not given one: the knee is where the curve's levels
# put it, often at the one-down load itself, which would add a unit to most plans with a single serving unit.
ONE_DOWN_MARGIN = failover_budget.MARGIN

NOTE_MORE = "one_down_more"  # a candidate's note: one serving unit more for the failover margin (rule 3)
NOTE_FLEET = "fleet_failover"  # a candidate's note: kept on the fleet over "<weights>:<tp>" for failover (rule 4)


def second_unit_reason(c: Any, *, mlps_level: int | None, rented: bool) -> str | None:
    """Why an internal tool's single unit gets a second one in the plan when every budget covers it (rule 2):
    ``"mlps3"`` (hot redundancy at level 3), ``"basic_ops"`` (a rented unit run by a team with basic operations);
    None: the second unit is the team's call, priced beside the plan."""
    if mlps_level == 3:
        return "mlps3"
    if rented and c.ops == "basic":
        return "basic_ops"
    return None


def one_down_tight(c: Any, ch: Any, rtt_ms: int) -> dict[str, Any] | None:
    """Rule 3's test on a plan with a spare: with one unit down, the figures that come within ``ONE_DOWN_MARGIN``
    of the target ({"what": "ttft"|"tpot", "value", "slo", "rtt", "load"}), the first token counted with the slowest
    round trip ``rtt_ms`` where the answers set a TTFT target; None where both keep their margin (or no figure)."""
    lay = getattr(ch, "layout", None)
    if ch is None or lay is None or not lay.spare_units or c.is_batch or not getattr(ch, "checked", None):
        return None
    n = one_down_load(c, ch)
    if not n:
        return None
    lv = sizing.levels_at(c, ch, [n])[0]
    given = getattr(getattr(c.answers, "latency_slo", None), "ttft_p99_ms", None)
    cases = []
    if c.ttft_slo_ms and lv.ttft_ms.p99 is not None:
        rtt = rtt_ms if given else 0
        cases.append(("ttft", float(lv.ttft_ms.p99) + rtt, float(c.ttft_slo_ms), rtt))
    if c.tpot_slo_ms and lv.tpot_ms.p99 is not None:
        cases.append(("tpot", float(lv.tpot_ms.p99), float(c.tpot_slo_ms), 0))
    tight = [x for x in cases if x[1] >= (1 - ONE_DOWN_MARGIN) * x[2]]
    if not tight:
        return None
    what, value, slo, rtt = max(tight, key=lambda x: x[1] / x[2])
    return {"what": what, "value": round(value), "slo": round(slo), "rtt": rtt, "load": n,
            "pct": round(100 * value / slo)}


def note_more(ch: Any, tight: dict[str, Any], monthly: tuple[float, float]) -> None:
    """Mark the setup as carrying one serving unit more for the failover margin, with the figures it answers."""
    ch.notes.append(f"{NOTE_MORE}:{tight['what']}:{tight['value']}:{tight['slo']}:{tight['rtt']}:{tight['load']}:"
                    f"{tight['pct']}:{monthly[0]:.2f}:{monthly[1]:.2f}")


def more_note(ch: Any) -> dict[str, Any] | None:
    """The figures ``note_more`` kept on the setup; None without them."""
    found = next((n for n in getattr(ch, "notes", []) if n.startswith(NOTE_MORE + ":")), None)
    if found is None:
        return None
    what, value, slo, rtt, load, pct, lo, hi = found.split(":")[1:]
    return {"what": what, "value": int(value), "slo": int(slo), "rtt": int(rtt), "load": int(load), "pct": int(pct),
            "monthly": (float(lo), float(hi))}


def one_down_carried(c: Any, ch: Any) -> tuple[int, int, int]:
    """Rule 4's figures with one replica of ``ch`` down: (the share of the peak each of the others would take, the
    most one takes within the target and within the serve command's cap, the requests of the peak they carry
    together within both, ``fleet_next_replica.carried_by``). A share above the cap is not carried: the engine runs
    no more than the cap at once and the rest wait for a seat (q08: 15 a replica against --max-num-seqs 12)."""
    if ch.replicas < 2 or not c.peak:
        return 0, 0, 0
    share = math.ceil(c.peak / (ch.replicas - 1) - 1e-9)
    return share, claimed_capacity(c, ch), carried_by(c, ch, ch.replicas - 1)


def survives_one_down(c: Any, ch: Any) -> bool:
    """Rule 4's test: with one replica of ``ch`` down, each of the others takes its share of the peak within the
    target on the setup's predicted curve and within what one replica is capped at (``one_down_carried``)."""
    if not c.peak:
        return True
    return ch.replicas >= 2 and one_down_carried(c, ch)[2] >= c.peak


def spare_room(free: int, tp: int) -> int:
    """Rule 4 on the team's fleet (``fleet.idle_spares``): the replicas of ``tp`` cards its spares may sit on
    beside the replicas that carry the load: the idle cards alone. Busy cards whose work idle cards of another type
    could take (``fleet.movable``) are not taken for a spare, even where the load itself already needs such a move: a spare that
    displaces other work is the owners' call, not the plan's (blind review 16, q04: 16 of 16 H20 taken where the
    peak needs 12 and 11 are free, "moving 5 cards of existing work onto the L20s, whose own load is unknown, and
    it leaves zero H20 headroom"). Rule 5 (``fleet_next_replica``) recommends that replica instead, with its
    condition: the other work moved off those cards (round 13, q04's four replicas 2 + 2, offered, not taken)."""
    return free // max(1, tp)


def fleet_over(ch: Any) -> tuple[str, int] | None:
    """(weights, tp) of the layout on fewer cards that rule 4 passed over for ``ch``; None where it passed none."""
    found = next((n for n in getattr(ch, "notes", []) if n.startswith(NOTE_FLEET + ":")), None)
    if found is None:
        return None
    weights, tp = found.split(":")[1:]
    return weights, int(tp)


def fleet_key(c: Any, ch: Any) -> tuple[int, int, int]:
    """Rule 4's order among layouts that fit the team's free cards: the one that rides out a replica down first,
    then the one that keeps the most of the peak with one down (three TP4 replicas keeping 24 of 30 before one TP8
    replica keeping none), then the fewest cards."""
    carried = one_down_carried(c, ch)[2] if c.peak else 0
    return (0 if survives_one_down(c, ch) else 1, -carried, ch.replicas * ch.tp)


__all__ = ["NOTE_FLEET", "NOTE_MORE", "ONE_DOWN_MARGIN", "fleet_key", "fleet_over", "spare_room", "more_note", "note_more", "one_down_carried",
           "one_down_tight",
           "second_unit_reason", "survives_one_down"]
