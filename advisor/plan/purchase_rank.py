"""Setups to BUY ranked as a buyer ranks them (round 13 of the blind review, q17 and q01: the card to buy was ranked
on rental rows, 4090 D 3.49 against L20 8.03 CNY/h, though the plan is a purchase and nobody pays by the hour).

``gpu_choice.rank_key`` keeps its tiers (region, fleet, vendor, price grade, part grade, stock). For a setup laid out
to buy (``Layout.owned``) on a one-off budget the hourly rental cost that follows them is replaced by, in order:

1. the one-off budget: a setup whose purchase fits the budget at its high end, as the plan judges its own purchase
   (``forms``), first — a setup over it only at the high end of a stand-in price whose middle the budget covers
   counts as fitting (``stand_in_straddle``: a grade-U row never decides alone; round 15, q17: 4 × L20 with FP8 set
   aside for 8 × A10 on an L20 server share that no source gives, against an A10 price no source gives either) —
   unless it costs more over the term than a setup the budget does not cover (round 14, q26's
   variant: 88 × A10 in 11 servers "fit" a budget just under 3 H20 servers, and cost more to own over the three
   years): the budget is then short for this load, and the plan keeps the setup worth buying and says it is over;
2. capability, on a one-off budget (the box is bought once and runs for years, and the budget, not the cost, is
   the limit): a setup on a part without FP8 while FP8 is accepted (Ampere and older) after one on a part with it
   (q17: 8 × A10 in BF16 for a lab that accepts FP8);
3. what the setup costs over the term (``term_cost``: the purchase, power, colocation where the form pays it and an
   engineer's share per server), where the caller passes the costing; else the purchase price (cards and their
   server share, mid of the price rows); a part with no purchase row after the priced ones.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from advisor.plan.answers import OWN_NETWORK_REACH
from advisor.plan.context import Ctx
from advisor.plan.cost import _usd
from advisor.plan.data import PriceBook
from advisor.plan.stand_in_prices import stand_ins


def per_gpu_usd(book: PriceBook, gpu_id: str) -> tuple[float, float] | None:
    """One card and its share of a server, low and high in USD, from the purchase price rows; None when none."""
    rows = book.find(gpu_id, "capex")
    if not rows:
        return None
    fx = float(book.fx()["cny_per_usd"])
    usd = [_usd(r, fx) for r in rows]  # the cost table's conversion of a price row
    return min(lo for lo, _ in usd), max(hi for _, hi in usd)


def purchase_basis(book: PriceBook, gpu_id: str) -> dict[str, str] | None:
    """What a card's purchase price rests on (blind review 25, q01/q02: "A10 at '34,929 CNY a card' … far above
    street prices", said with no source): ``basis`` "sourced" (a dated public figure or the user's quote), "stand_in"
    (a figure with a source but graded U or stale: ``stand_in_prices``) or "none" (a placeholder no public source
    gives: the price is unknown), with the rows' grade and date; None where the part has no purchase row."""
    rows = book.find(gpu_id, "capex")
    if not rows:
        return None
    stand = stand_ins(rows)
    if any(r.user_quote for r in rows) or not stand:
        basis = "sourced"
    elif all(r.grade == "U" and not r.url and not r.user_quote for r in rows):
        basis = "none"
    else:
        basis = "stand_in"
    worst = max(rows, key=lambda r: "ABCU".find(r.grade) if r.grade in "ABCU" else 3)
    got = {"basis": basis, "grade": worst.grade, "date": max(r.date for r in rows)}
    # the row's server share is a server of this many cards (blind review 27, q01/q02: an 8-card server's share is
    # no single-card office box's): said beside the card's price
    size = max((r.server_gpus or 0) for r in rows)
    if size:
        got["server_gpus"] = str(size)
    return got


def purchase_usd(book: PriceBook, k: Any) -> tuple[float, float] | None:
    """The setup's purchase (cards and their share of a server) low and high in USD; None when the part has no
    purchase price row."""
    per = per_gpu_usd(book, k.gpu.id)
    return None if per is None else (per[0] * k.total_gpus, per[1] * k.total_gpus)


def said_bought(c: Ctx, book: PriceBook, chosen: Any, option: Any, conv: float, own: Any = None) -> Any:
    """``option`` (a ``GpuOption``) with its purchase in the answers' currency where the plan buys ``chosen`` on a
    one-off budget (the memo then names each setup at its purchase, not its hourly rental); as it is otherwise.
    With ``own`` (``term_cost.Judge``) the purchase is the plan's own figure for it (a rack's extras in colocation)
    and the option also carries what it costs over the term (buyrank25)."""
    lay = getattr(chosen, "layout", None)
    per = per_gpu_usd(book, option.gpu)
    # bought with or without a one-off budget: a purchase is said at its price, not at a rental rate (blind review
    # 20b, q02: "compares hourly rental rates (1.56 vs 9.74 CNY/h) for a card being bought"); without a one-off
    # budget the ranking stays on the hourly yardstick (``key``), which the purchases then merely name; only for a
    # box on the team's own network (a data-centre purchase, bare metal or a hybrid's base, is weighed against
    # renting its cards, and a hybrid rents its bursts: their hourly rates stay), and not on a fleet the team owns
    if lay is None or not lay.owned or per is None or (one_off_budget_usd(c, book) is None and (
            c.reach not in OWN_NETWORK_REACH or getattr(c.answers, "current_fleet", None) is not None)):
        return option
    t = None if own is None else own.setup(option.gpu, option.gpus, option.units or math.ceil(option.gpus / 8))
    # a card's own purchase with its server share and what that rests on (price36: never a bare middle)
    card = {"per_card_buy": [round(per[0] * conv), round(per[1] * conv)], "purchase_basis": purchase_basis(book, option.gpu)}
    if t is None:
        return option.model_copy(update={"purchase": [round(per[0] * option.gpus * conv),
                                                      round(per[1] * option.gpus * conv)], **card})
    return option.model_copy(update={"purchase": [round(v * conv) for v in t.capex],
                                     "term": [round(v * conv) for v in t.total], "term_months": t.months, **card})


def one_off_budget_usd(c: Ctx, book: PriceBook) -> float | None:
    """The answers' one-off hardware budget in USD, None when not given."""
    b = getattr(c.answers, "capex_budget", None)
    if b is None:
        return None
    return b.amount / float(book.fx()["cny_per_usd"]) if b.currency == "CNY" else float(b.amount)


def short_of_accepted(c: Ctx, k: Any) -> bool:
    """The setup is bought on a part without FP8 where FP8 is accepted: its BF16 weights take twice the memory and
    its matrix units run at half the FP8 rate for the years it is owned (a checkpoint shipped in one precision
    excepted: the part runs what the model ships)."""
    accepted = c.quant in ("fp8_only", "yes_after_quality_check", "yes") and c.model.checkpoint_quant is None
    return accepted and not k.gpu.fp8_tflops_dense


def _purchase(c: Ctx, k: Any, book: PriceBook, own: Callable[[Any], Any] | None) -> tuple[float, float] | None:
    """The setup's purchase low and high in USD: as the plan costs it where ``own`` is given, else the cards and
    their server share; None without a purchase price."""
    t = own(k) if own is not None else None
    return t.capex if t is not None else purchase_usd(book, k)


def stand_in_straddle(c: Ctx, k: Any, book: PriceBook, own: Callable[[Any], Any] | None = None) -> bool:
    """The setup's purchase is over the one-off budget only at its high end, the budget covers its middle, and the
    price rests on a stand-in (a grade-U row or a stale one, not a quote): the budget cannot say it does not fit,
    only the quote can (issue 25: a placeholder row never decides alone)."""
    budget = one_off_budget_usd(c, book)
    price = _purchase(c, k, book, own)
    if budget is None or price is None or not price[0] <= budget < price[1]:
        return False
    return (price[0] + price[1]) / 2 <= budget and bool(stand_ins(book.find(k.gpu.id, "capex")))


def fits(c: Ctx, k: Any, book: PriceBook, own: Callable[[Any], Any] | None = None) -> bool:
    """The setup's purchase fits the one-off budget at its high end (True where no budget is given): as the plan
    costs it where ``own`` (``term_cost.judge``) is given, else the cards and their server share."""
    budget = one_off_budget_usd(c, book)
    if budget is None:
        return True
    price = _purchase(c, k, book, own)
    return price is not None and (price[1] <= budget or stand_in_straddle(c, k, book, own))


def term_floor(c: Ctx, owned: list[Any], book: PriceBook, own: Callable[[Any], Any] | None) -> float | None:
    """The least term cost (mid, USD) among the setups whose purchase fits the one-off budget: a setup over the
    budget that costs less than this over the term is not ranked after them (the budget is short, not the setup);
    None without a costing, a one-off budget or a fitting setup."""
    if own is None or one_off_budget_usd(c, book) is None:
        return None
    mids = [t.mid for k in owned if getattr(getattr(k, "layout", None), "owned", False)
            and (t := own(k)) is not None and fits(c, k, book, own)]
    return min(mids, default=None)


def key(c: Ctx, k: Any, book: PriceBook, hourly: float, own: Callable[[Any], Any] | None = None,
        floor: float | None = None) -> tuple[int, int, int, float]:
    """(over the one-off budget, short of the accepted precision, no purchase row, cost) for ``gpu_choice.rank_key``:
    a setup laid out to buy is ranked on its term cost (``own``: ``term_cost.judge``) or, without it, its purchase;
    a rented one on ``hourly`` (zeros before it). ``floor``: ``term_floor`` of the setups ranked together."""
    lay = getattr(k, "layout", None)
    budget = one_off_budget_usd(c, book)
    # a purchase without a one-off budget is judged on its month (the purchase spread, power, space) against renting
    # and a monthly budget: the rental rows' hourly cost stays its yardstick there (on the purchase rows alone, whose
    # placeholders put an A10 at a third of an L20's price, q26 bought 88 × A10 for 24 × H20)
    if lay is None or not lay.owned or budget is None:
        return 0, 0, 0, round(hourly, 6)
    t = own(k) if own is not None else None
    price = purchase_usd(book, k)
    mid = t.mid if t is not None else None if price is None else (price[0] + price[1]) / 2
    over = int(not fits(c, k, book, own))
    if over and t is not None and floor is not None and t.mid < floor:
        over = 0  # cheaper to own over the term than every setup the budget covers: the budget is short (q26 variant)
    # the one-off budget bounds what is bought, and the cheaper part's saving buys nothing else (q17)
    short = int(short_of_accepted(c, k))
    return over, short, int(mid is None), round(mid if mid is not None else hourly, 6)


__all__ = ["fits", "key", "term_floor", "one_off_budget_usd", "per_gpu_usd", "purchase_basis", "purchase_usd", "said_bought", "short_of_accepted",
           "stand_in_straddle"]
