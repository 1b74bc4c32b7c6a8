"""Which GPUs "Why this GPU" weighs against the chosen setup at all (issue 25, blind review 32: q23 en "The
B200/MI300X comparison is noise for a 7B model"; q17 zh "the GPU-comparison paragraph (4090D licensing, A10 8 cards)
is far too long for a lab memo").

One rule, read by the opening sentence (``gpu_lead.figures``) and the detail after it (``GpuChoice.text_in``): a GPU
is out of scale beside the chosen setup, and not named, where

- one replica on it holds ``MEMORY_X`` times the memory of the chosen replica (which already holds the model and
  its cache) AND a card of it costs ``PRICE_X`` times the chosen card by the hour: a reader sizing a 7B model on
  48 GB cards does not weigh a 180 GB B200 at four times the card-hour (the GPU the choice's reason set aside for
  its standing, on its memory alone: a 192 GB MI300X named only to be dismissed); or
- its layout takes ``CARDS_X`` times the chosen cards both a replica and in all, at a higher price or on none to
  plan on (``_no_dearer``): an 8-card A10 plan in 4-card replicas beside 4 L20 cards in pairs.

A GPU another rule of the choice rests on is never out of scale: the split or one-card setup weighed for the
premium (``single_card``, ``single_card_declined``), the setups passed over for bandwidth or failover latency
(``decode_pick``, ``latency_pick``), the cheaper card whose KV cache fails (``kv_pick``), the card to quote
(``headroom_quote``, ``unsourced_cheaper``, ``placeholder_pick``, ``quote_switch``), the sales-only part
(``all_month``), the part a hybrid rents and the compute-light GPUs set aside for long prompts. Unknown memory,
price or layout keeps a GPU in (it is never dropped on a guess).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from advisor.catalog import CatalogError, get_gpu

if TYPE_CHECKING:  # result.py imports this module through gpu_lead
    from advisor.plan.result import GpuChoice, GpuOption

MEMORY_X = 3.0  # a replica holding three times the memory the chosen one has: room no load of this plan uses
PRICE_X = 2.0  # at twice the chosen card-hour or more: a card of another price class, not a contender
CARDS_X = 2  # twice the cards a replica and in all: a layout no one would pick beside the chosen one


def _memory(gpu: str) -> float | None:
    try:
        return float(get_gpu(gpu).memory_bytes)
    except (CatalogError, AttributeError):
        return None


def _name(o: Any) -> str:
    if o is None:
        return ""
    return str(o.get("gpu_name", "") if isinstance(o, dict) else getattr(o, "gpu_name", ""))


def relied_on(choice: GpuChoice) -> set[str]:
    """The GPUs another rule of the choice names with its own figures: never dropped."""
    names = {_name(p.get("other")) for p in (choice.single_card, choice.single_card_declined, choice.decode_pick,
                                             choice.latency_pick, choice.placeholder_pick) if p}
    names |= {str(d.get("gpu_name", "")) for d in (choice.kv_pick, choice.headroom_quote, choice.all_month) if d}
    names |= {_name(choice.unsourced_cheaper), choice.burst_rented or ""}
    if choice.quote_switch:
        names.add(str(choice.quote_switch.get("gpu", "")))
    names |= {str(g.get("name", "")) for g in (choice.set_aside or {}).get("gpus", [])}
    return names - {""}


def _tp(choice: GpuChoice, name: str) -> int | None:
    """Cards a replica of ``name``'s setup takes, from the weighing or the dearer sizing; None where unsaid."""
    for c in (choice.weighing.cards if choice.weighing else []):
        if c.gpu_name == name:
            return c.tp
    for d in choice.dearer:
        if d.gpu_name == name and d.tp:
            return d.tp
        if name == choice.chosen.gpu_name and d.chosen_tp:
            return int(d.chosen_tp)
    return None


def _mid(r: list[float]) -> float:
    return (r[0] + r[1]) / 2


def dearer_to_own(choice: GpuChoice, a: GpuOption) -> bool:
    """``a`` costs less to buy than the chosen setup but more over the term, on more servers (round 14, q26's
    variant: 88 × A10 in 11 servers against 3 H20 servers): what decided against it is the term, said with both
    (``gpu_lead`` names it; here it keeps the card in scale)."""
    ch = choice.chosen
    if None in (a.purchase, ch.purchase, a.term, ch.term, a.units, ch.units):
        return False
    return (_mid(a.purchase) < _mid(ch.purchase) and _mid(a.term) > _mid(ch.term)  # type: ignore[arg-type]
            and a.units > ch.units)  # type: ignore[operator]


def _no_dearer(choice: GpuChoice, name: str) -> bool:
    """The setup on ``name`` costs no more than the chosen one on a price the plan can rest on (a purchase with a
    source or stand-in, a sourced rent), or it is the cheaper buy the term weighs (``gpu_lead.dearer_to_own``): a
    reader weighs it however many cards it takes (q24's 6 × L40S at the same 7.50 USD/h as 2 × H100). q17's 8 × A10
    rests on a placeholder purchase with no source: no purchase to plan on, so not weighed."""
    a = next((o for o in choice.alternatives if o.gpu_name == name), None)
    if a is None:
        return False
    if dearer_to_own(choice, a):
        return True
    ch = choice.chosen
    if a.purchase is not None and ch.purchase is not None:
        placeholder = (a.purchase_basis or {}).get("basis") == "none"
        return not placeholder and sum(a.purchase) <= sum(ch.purchase)
    return a.price_sourced and a.per_hour <= ch.per_hour


def _card_hour(o: GpuOption) -> float | None:
    return o.per_hour / o.gpus if o.gpus and o.per_hour > 0 else None


def _out(choice: GpuChoice, name: str, gpu: str, card_hour: float | None, gpus: int | None, *,
         set_aside: bool = False) -> bool:
    """``set_aside``: the GPU the choice's reason set aside for its standing (vendor stack, region, grade): it is
    named only to be dismissed, so its memory alone puts it out of scale (q23: a 192 GB MI300X at 1.3 × the L40S's
    card-hour beside a model held on 48 GB cards)."""
    ch = choice.chosen
    tp, ch_tp = _tp(choice, name), _tp(choice, ch.gpu_name)
    if gpus is not None and tp is not None and ch_tp is not None \
            and gpus >= CARDS_X * ch.gpus and tp >= CARDS_X * ch_tp and not _no_dearer(choice, name):
        return True  # many more cards, a replica and in all, at a higher price or none to plan on
    mem, ch_mem, ch_hour = _memory(gpu), _memory(ch.gpu), _card_hour(ch)
    if mem is None or ch_mem is None:
        return False
    if mem * (tp or 1) < MEMORY_X * ch_mem * (ch_tp or 1):  # one replica's memory against the chosen replica's
        return False
    if set_aside:
        return True
    return card_hour is not None and ch_hour is not None and card_hour >= PRICE_X * ch_hour


def out_of_scale(choice: GpuChoice) -> set[str]:
    """The GPU names "Why this GPU" leaves out (module docstring): alternatives, and the cheaper GPU the choice's
    reason set aside (its card-hour in ``reason_params["card_hour"]``)."""
    keep = relied_on(choice) | {choice.chosen.gpu_name}
    other = choice.reason_params.get("other") if choice.reason not in ("cost", "fleet") else None
    out: set[str] = set()
    if isinstance(other, str) and other not in keep:
        # the cheaper GPU the reason rests on, judged on its memory alone: many cards of a consumer card is what
        # the reason weighs (q42's 16 × RTX 4090 D beside 4 L20), not a layout no one would pick
        if _out(choice, other, other, choice.reason_params.get("card_hour"), None, set_aside=True):
            out.add(other)
        keep.add(other)
    return out | {a.gpu_name for a in choice.alternatives
                  if a.gpu_name not in keep and _out(choice, a.gpu_name, a.gpu, _card_hour(a), a.gpus)}


def in_scale(choice: GpuChoice) -> GpuChoice:
    """``choice`` as "Why this GPU" says it: the GPUs out of scale taken out of its next setups, its dearer sizings
    and its per-card weighing (a weighing of the chosen card alone says nothing: dropped), and the reason that set
    one aside said no more. Where that reason's GPU was cheaper, the text no longer calls the choice the cheapest
    (``cheaper_left_out``)."""
    drop = out_of_scale(choice)
    if not drop:
        return choice
    upd: dict[str, Any] = {"alternatives": [a for a in choice.alternatives if a.gpu_name not in drop],
                           "dearer": [d for d in choice.dearer if d.gpu_name not in drop], "pruned": True}
    reason_out = choice.reason_params.get("other") in drop and choice.reason not in ("cost", "fleet")
    if reason_out:
        upd.update({"reason": "cost", "reason_params": {}})
    if choice.grant and choice.grant.get("gpu_name") in drop:
        upd["grant"] = None
    if choice.cheaper_card is not None and choice.cheaper_card.gpu_name in drop:
        upd["cheaper_card"] = None
    if choice.weighing is not None:
        cards = [c for c in choice.weighing.cards if c.gpu_name not in drop]
        upd["weighing"] = choice.weighing.model_copy(update={"cards": cards}) if len(cards) > 1 else None
    view = choice.model_copy(update=upd)
    view._cheaper_out = reason_out  # the reason's GPU cost less an hour: "the cheapest" is no longer true
    return view


__all__ = ["CARDS_X", "MEMORY_X", "PRICE_X", "in_scale", "out_of_scale", "relied_on"]
