"""Page 1 on the team's own cards where an assumed first-token target was raised to fit the free cards
(s40-q04, blind review 32, q04).

en: "the headline decision is a relaxed TTFT target, not the deployment. The reason it rejects the usual 6 s does not
hold within the memo: TP4 'takes 12 × H20 …, more than your free cards hold', yet section 7 recommends 'One more
replica on the other 2 cards (12 of your 16)' … Both options use the same 12 cards. Present them as the real choice";
zh: "lead with 'use 10 existing H20, no purchase' and put the SLO sign-off second".

Two rules, both general:

* ``lead``: the recommendation opens on the deployment, the cards used of the team's own and that nothing is bought
  (the form's own words with the count put in), the target's sign-off after it.
* ``same_cards``: where the placement finding recommends one more replica on busy cards (``placement_rules``) and
  that layout takes as many cards as the usual target's layout or more, "more than your free cards hold" is no
  reason to prefer one: both need the same busy cards freed. The two are weighed on what each gives for those
  cards: the usual target met, or the replicas a whole server down leaves (``fleet_spread.machine_left``, the same
  spread the placement finding uses). The one that rides out a server better is recommended; on a tie the one that
  also meets the usual target. The target was only assumed (``ttft_free_cards`` raises no target the team gave), so
  a known server-down gap outweighs it; the plan's own figures stay those of the free cards.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import placement_more
from advisor.plan.fleet_spread import machine_left
from advisor.plan.result import render

# the owned-fleet forms said on page 1, and the same words with the cards counted (nothing bought: ``lead``)
FORMS = {"memo.fleet13.form.on_premises": "tpc42.form.on_premises",
         "memo.fleet13.form.bare_metal": "tpc42.form.bare_metal",
         "memo.text15.fleet.on_premises.lan": "tpc42.form.lan"}
NEEDED = ("total", "next", "left_after", "carried_after", "left_now", "carried_now", "peak")


def lead(result: Any, lang: str, form: str) -> str:
    """``form`` with its first words "Run it on the GPUs your team already owns" said as the cards used of the fleet
    and nothing to buy, where the plan buys none; ``form`` unchanged otherwise."""
    hw = result.hardware
    lay = hw.layout
    if lay is None or not lay.fleet_count or (lay.fleet_used or 0) < (hw.total_gpus or 0):
        return form
    for key, mine in FORMS.items():
        said = translate(lang, key)
        if form.startswith(said):
            return render(lang, mine, {"used": hw.total_gpus, "count": lay.fleet_count, "gpu": hw.gpu_name}) \
                + form[len(said):]
    return form


def same_cards(result: Any, p: dict[str, Any]) -> dict[str, Any] | None:
    """The one-more-replica layout the placement finding recommends where it takes at least the usual target's
    cards (``p``: ``ttft_free_cards.relax``'s params), with what a machine down leaves of each and which one is
    recommended; None where it takes fewer cards or is not recommended."""
    f = next((x for x in result.findings if x.id == placement_more.PLACEMENT), None)
    more = placement_more.more(f.params) if f is not None else None
    if more is None or any(more.get(k) is None for k in NEEDED) or int(more["total"]) < int(p["n"]):
        return None
    hw = result.hardware
    lay = hw.layout
    count = int(more.get("count") or (lay.fleet_count if lay is not None else 0) or 0)
    whole = lay is not None and lay.form_factor in ("sxm", "oam")
    left = machine_left(int(p["replicas"]), int(p["tp"]), count, whole)
    if left is None:
        return None
    nxt, reps = int(more["next"]), int(p["replicas"])
    # the share of replicas one machine down leaves: the usual target's layout only where it keeps as large a share
    target_first = left * nxt >= int(more["left_after"]) * reps
    return {"total": int(more["total"]), "moved": int(more["total"]) - int(p["free"]), "replicas": reps, "tp_left": left, "ptp": hw.gpus_per_replica, "next": nxt,
            "left_after": more["left_after"], "carried_after": more["carried_after"], "peak": more["peak"],
            "left_now": more["left_now"], "carried_now": more["carried_now"], "replicas_now": hw.replicas,
            "pick": "target" if target_first else "server"}


def weighed(result: Any) -> bool:
    """Whether the recommendation line weighs the two layouts for the same cards (``same_cards``): what a server
    down leaves today is said there, not again in the hardware row."""
    from advisor.plan.reachable import FREE_KEY

    a = next((a for a in result.assumptions or [] if getattr(a, "key", None) == FREE_KEY), None)
    return a is not None and int(a.params["n"]) > int(a.params["free"]) and same_cards(result, a.params) is not None


__all__ = ["FORMS", "lead", "same_cards", "weighed"]
