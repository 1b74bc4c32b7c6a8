"""What the spare replicas on a fleet's idle GPUs buy, for the N+1 finding (``gpu_rules.redundancy``, variant
``idle``): GPUs a team already owns and leaves idle cost only their power, so ``fleet.idle_spares`` lays spare
replicas on them (ninth blind review: q33 left 4 of 8 idle 4090Ds unused, and with one of its 2 replicas down the
other queued 12 requests to a 15 s first token; q18 kept 5 of 17 free H100s idle while a whole server down left 80 %
of the peak). The finding says how many spares the idle GPUs carry, whether they ride out a whole server, and the
predicted latency with one replica down (the plan's own curve, at the load each replica then takes)."""

from __future__ import annotations

from typing import Any

from advisor.plan import capacity, fleet, gpu_choice
from advisor.plan.capacity import claimed_capacity
from advisor.plan.fleet_spread import machine_left, server_spread

MACHINE_TITLE = "lead41.idle.machine_title"


def spares_from_idle(f: Any) -> int:
    """Spare replicas of a fleet layout beyond the one N+1 needs (0 when not laid out on the fleet)."""
    ch = f.chosen
    lay = getattr(ch, "layout", None)
    if lay is None or lay.basis != "fleet":
        return 0
    return max(0, int(lay.spare_units) - (1 if gpu_choice.redundancy_reason(f.ctx) else 0))


def moved_cards(f: Any) -> int:
    """Busy cards whose current work moves to the fleet's idle cards of another type for the spare replicas: the
    spares' cards beyond the free ones the load leaves (0 when the spares sit on idle cards alone). Round 14, q04:
    "a spare on GPUs that would stand idle" where the spare's four H20s carried work moving onto the L20s."""
    ch = f.chosen
    lay = getattr(ch, "layout", None)
    if lay is None:
        return 0
    fl = gpu_choice.fleet(f.ctx, ch.gpu.id)
    if fl is None or lay.basis != "fleet" or not f.ctx.utilisation:
        return 0
    free = fleet.free_gpus(fl[1], f.ctx.utilisation)
    spare_cards = int(lay.spare_units) * lay.tp
    return max(0, min(spare_cards, lay.total_gpus - free))


def signoff_cards(c: Any, ch: Any) -> int:
    """Cards of the fleet layout's spare replica taken from busy cards on the owners' sign-off
    (``fleet.signoff_spares``): the spare's cards, 0 where the plan has no such spare."""
    lay = getattr(ch, "layout", None)
    if lay is None or lay.basis != "fleet" or not lay.spare_units:
        return 0
    fl = gpu_choice.fleet(c, ch.gpu.id)
    if fl is None or lay.total_gpus <= fleet.free_gpus(fl[1], c.utilisation):
        return 0  # every card the plan takes is free (q18: 14 of 17 free H100s): no other work moves for it
    load = int(lay.replicas) - int(lay.spare_units)
    return lay.tp if fleet.signoff_spares(c, ch, load, int(lay.spare_units) - 1) else 0


def signoff_params(f: Any) -> dict[str, Any] | None:
    """The sign-off spare's figures for the N+1 finding and the hardware row: {"cards", "without", "without_gpus",
    "busy", "busy_cards", "count", "left_without", "server_said", "where"}; None without such a spare (blind review 21, q04: "the
    plan to move 30 % of the load onto the L20s is plausible but needs the owners' sign-off")."""
    c, ch = f.ctx, f.chosen
    cards = signoff_cards(c, ch) if ch is not None else 0
    fl = gpu_choice.fleet(c, ch.gpu.id) if cards else None
    if not cards or fl is None:
        return None
    from advisor.plan.failover_limit import at_limit
    from advisor.plan.fleet_next_replica import cards_text, carried_by
    from advisor.plan.fleet_spread import machine_left
    from advisor.plan.placement_rules import server_loss

    without = int(ch.layout.replicas) - 1
    whole = ch.layout.form_factor in ("sxm", "oam")  # else a PCIe fleet's two machines (``machine_left``, q33)
    left = machine_left(without, ch.layout.tp, fl[1], whole)
    left_with = machine_left(int(ch.layout.replicas), ch.layout.tp, fl[1], whole)
    # what one server down leaves with the spare, said here where the sizing reason does not say it already
    # (``placement_rules.server_loss`` names a server loss that leaves the peak short; q08 zh: "losing one server
    # leaves 1 of 3 replicas (15 of 30 users)")
    server: dict[str, Any] | str = "" if left_with is None or server_loss(f) is not None else {
        "tr": "fleet33.signoff.server_all" if carried_by(f.sized_ctx, ch, left_with) >= (c.peak or 0) else
        "fleet33.signoff.server", "left": left_with, "all": int(ch.layout.replicas),
        "carried": carried_by(f.sized_ctx, ch, left_with), "peak": int(c.peak or 0)}
    limit = at_limit(f.sized_ctx, ch, left_with) if isinstance(server, dict) and left_with is not None else None
    if isinstance(server, dict) and limit is not None:  # all of the peak, but at the limit (blind review 22, q08)
        server = {**server, **limit, "tr": "fleetword33.signoff.server_limit"}
    # the plan without the spare on the free cards alone, or, where even its replicas take busy cards (q04: 12
    # cards with 11 free), the sign-off needed either way (blind review 22, q04: "the fallback ... also needs one
    # busy card's work moved, so the sign-off is needed even without the spare")
    free = fleet.free_gpus(fl[1], c.utilisation)
    short = max(0, without * ch.layout.tp - free)
    either = {"tr": "fleetword33.signoff.either", "short": short, "free": free,
              "without_gpus": without * ch.layout.tp} if short else ""
    # the spares beside the sign-off's own on the free cards (q33: 2 carry the peak, 1 spare on free cards, 1 on the
    # last 2 cards), said apart so that the title's count is the sign-off's one replica
    free_spares = int(ch.layout.spare_units) - 1
    # the spare's cards counted busy as the fleet finding counts them, whole cards (review 23, q33: "the spare's 2
    # cards are busy today" where 10 % of 8 leaves 7 free and 6 hold the other replicas: 1 of the 2 is busy)
    busy_in = max(0, min(cards, ch.layout.total_gpus - free))
    movable = fleet.movable(c, fl[0], fl[1])
    # where the fleet finding already works the measured share into busy cards (its work moving onto another type,
    # q04), the share is not worked out here again in other words (review 23, q04: "4.8 cards' worth" beside
    # "11 free, 5 busy" read as a contradiction)
    work: dict[str, Any] | str = "" if movable else {
        "tr": "numbers2_34.spare.work", "busy": round(100 * c.utilisation), "of": busy_of(c),
        "busy_cards": cards_text(fl[1] * c.utilisation), "count": fl[1], "n": fl[1] - free}
    machine = {"tr": "fleetword33.machine." + ("server" if whole else "machine")}
    if isinstance(server, dict):
        server = {**server, "machine": machine}
    return {"signed": {"tr": "plan.burst15.more.replica", "n": 1}, "machine": machine,
            "free_spare": {"tr": "fleetword33.free_spare", "n": free_spares} if free_spares > 0 else "",
            "cards": cards, "without": without, "without_gpus": without * ch.layout.tp, "either": either,
            "either_hw": {"tr": "fleetword33.hardware.either", "short": short} if short else "",
            "busy": round(100 * c.utilisation), "of": busy_of(c), "busy_cards": cards_text(fl[1] * c.utilisation), "count": fl[1],
            "left_without": without if left is None else left, "server_said": server,
            # where the work goes: onto the idle cards of another type where the fleet has them (q04's L20s)
            "where": {"tr": "fleet33.signoff.onto_other"} if movable else "",
            "spare_busy": {"tr": "numbers2_34.spare.busy_all", "cards": cards} if busy_in >= cards else
            {"tr": "numbers2_34.spare.busy_some", "n": busy_in, "cards": cards}, "work": work}


def busy_of(c: Any) -> dict[str, Any] | str:
    """Which cards the measured utilisation is of, said where the fleet has more than one type (blind review 22,
    q04: "unclear whether the 30 % utilisation refers to the H20s alone or to all 32 cards"): the answers give one
    figure for the whole fleet, and the plan reads it as the same share of each type (``fleet.free_gpus``)."""
    fleets = gpu_choice.fleets(c)
    if len(fleets) < 2:
        return ""
    return {"tr": "fleetword33.busy.of_fleet", "all": sum(n for _, n in fleets)}


def server_part(f: Any) -> tuple[dict[str, Any] | str, dict[str, Any] | str]:
    """(title clause, detail clause) when the replicas ride out a whole server of 8 GPUs, else ("", "")."""
    ch = f.chosen
    lay = ch.layout
    fleet = gpu_choice.fleet(f.ctx, ch.gpu.id)
    if fleet is None:
        return "", ""
    if lay.form_factor not in ("sxm", "oam"):
        # PCIe cards in the team's machines, taken as two halves (``machine_left``): the title says a whole machine
        # is ridden out where it is (review 31, q33: "4 × TP2 on the 8 cards, 2 per machine, which also survives a
        # whole machine down"); the placement finding says the spread, so no detail clause
        left = machine_left(lay.replicas, lay.tp, fleet[1], False)
        if left is not None and left >= capacity.serving_replicas(ch) and lay.spare_units >= 2:
            return {"tr": MACHINE_TITLE}, ""
        return "", ""
    spread = server_spread(lay.replicas, lay.tp, fleet[1])
    serving = capacity.serving_replicas(ch)
    if spread is None or lay.replicas - spread[1] < serving:
        return "", ""
    return ({"tr": "plan.owned20.redundancy.server_title"},
            {"tr": "plan.owned20.redundancy.server", "most": spread[1], "servers": spread[0],
             "left": lay.replicas - spread[1], "serving": serving})  # fmt: skip


def one_down(f: Any, server: bool, machine: bool = False) -> dict[str, Any] | str:
    """The predicted latency with the spare replicas' worth down (one replica; the fullest server's replicas where
    the spares ride out a server), at the load each of the others then takes ("" when the curve has no such
    level)."""
    c, ch = f.sized_ctx, f.chosen
    n = capacity.one_down_load(c, ch)
    if not n:
        return ""
    k = int(ch.layout.spare_units)
    what: dict[str, Any] = {"tr": "plan.burst15.one.replica"} if k == 1 else \
        {"tr": "plan.owned20.redundancy.server_down" if server else "lead41.idle.machine_down" if machine
         else "plan.burst15.all.replica", "n": k}
    levels, _ = capacity.served_curve(c, ch)
    lv = next((x for x in levels if x.concurrency == n), None)
    if lv is None or lv.ttft_ms.p99 is None or lv.tpot_ms.p99 is None:
        return ""
    ttft, tpot = round(float(lv.ttft_ms.p99), 1), round(float(lv.tpot_ms.p99), 1)  # as the memo's table
    within = (c.ttft_slo_ms is None or ttft <= c.ttft_slo_ms) and (c.tpot_slo_ms is None or tpot <= c.tpot_slo_ms)
    # above what a replica takes (the serve command's --max-num-seqs) the rest wait for a seat: not "within the
    # target" whatever the uncapped level reads (round 14, q08; ``spare_policy`` rule 4)
    cap = claimed_capacity(c, ch)
    if n > cap:
        return {"tr": "consist25.one_down_over_cap", "what": what, "n": n, "cap": cap}
    return {"tr": "plan.owned20.redundancy.one_down" if within else "plan.owned20.redundancy.one_down_miss",
            "what": what, "n": n, "ttft": ttft, "tpot": tpot, "ttft_slo": float(c.ttft_slo_ms or 0),
            "tpot_slo": float(c.tpot_slo_ms or 0)}  # fmt: skip


__all__ = ["busy_of", "moved_cards", "one_down", "server_part", "signoff_cards", "signoff_params", "spares_from_idle"]
