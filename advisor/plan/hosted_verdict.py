"""How a hosted API's month compares with the plan's, as one verdict from the printed ends (s21-apiprice21, issue 25).

Round 10 of the blind review: q23 called "$778–$8,556 against $6,711–$8,571" "ranges that overlap, get quotes" where
the API's cheapest month is about 9× below the plan's cheapest ("undersells a roughly 8x gap"); q20 headed the
Decision with "the two cost ranges overlap" while its own finding said "likely cheaper" of $96–$865 against
$1,010–$1,432. Both sentences now come from this one verdict, taken from the figures the memo prints (the API's
month, its dearest rate on the assumed volume's high end, the plan's month):

- ``clear``: the API at its dearest on the volume's high end is below the plan's cheapest month;
- ``volume``: every list price is below the plan's cheapest on the volume costed; only the high volume reaches it;
- ``tie`` (s23-apisg23): as ``volume``, but the API's dearest month on the volume costed is within ``TIE`` of the
  plan's cheapest: "cheaper at every list price" of $1,009 against $1,010 read as a contradiction beside a plan that
  is kept (re-check 12b, q20); the two cost about the same, and the memo says which other factor decides;
- ``ends``: the ranges meet only at their far ends (each middle outside the other range);
- ``far``: the API's cheapest month is ``FAR`` times or more below the plan's cheapest, and only its dearer lists
  reach the plan's range: said with the ratio of the low ends, never as "the ranges overlap";
- ``overlap``: a real overlap, where the quotes decide;
- ``yardstick`` (s22-apilead22): the API's figures come from a list no provider of which serves from where the API
  would run (``hosted_where.mismatch``): a yardstick, not a price that can be bought there, so no verdict is drawn
  from it ("cheaper", "N× below") whatever the figures; a quote from a provider serving there decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.plan.money_text import about

# the plan's cheapest month at least this many times the API's cheapest: the two are far apart, not "overlapping"
# (a policy on wording, not a sourced figure; q20's ends are 10.5× apart, q23's 8.6×)
FAR = 3.0
# the API's month on the volume costed at most this share below the plan's cheapest: about the same cost (a policy on
# wording, not a sourced figure: a quote for either moves more than this; q20's ends are 0.1 % apart)
TIE = 0.05


@dataclass(frozen=True)
class ApiVerdict:
    """``kind`` (see the module), and the plan's cheapest month ÷ the API's cheapest (``low_times``)."""

    kind: str
    low_times: float
    gap_pct: float = 0.0  # the API's dearest month on the volume costed below the plan's cheapest, in per cent

    @property
    def times_text(self) -> str:
        """The ratio of the low ends as the memo prints it ("8.6", "11")."""
        return about(self.low_times)


def _mid(lo: float, hi: float) -> float:
    return (lo + hi) / 2


def api_verdict(hosted: tuple[float, float], plan: tuple[float, float], top: float, *,
                yardstick: bool = False) -> ApiVerdict:
    """The verdict on an API month ``hosted`` (low, high) against the plan's ``plan`` (low, high), ``top`` the API at
    its dearest rate on the assumed volume's high end (``hosted[1]`` where the volume has no higher figure);
    ``yardstick``: the figures are no price a provider serving the API's region charges (kind ``yardstick``)."""
    (h_lo, h_hi), (p_lo, p_hi) = hosted, plan
    times = p_lo / h_lo if h_lo > 0 else float("inf")
    if yardstick:
        kind = "yardstick"
    elif top < p_lo:
        kind = "clear"
    elif h_hi < p_lo:
        # about the same only where the API's whole range sits within TIE of the plan's cheapest month (q20: one list
        # price, $1,009 against $1,010); an API range reaching far below it is cheaper on the volume costed (round 13,
        # q11: "about the same" read against ¥6,606–¥14,901 beside ¥15,333–¥43,092)
        kind = "tie" if h_lo >= p_lo * (1 - TIE) else "volume"
    elif _mid(h_lo, h_hi) < p_lo and top < _mid(p_lo, p_hi):
        kind = "ends"
    elif times >= FAR:
        kind = "far"
    else:
        kind = "overlap"
    gap = (p_lo - h_hi) / p_lo * 100 if p_lo > 0 else 0.0
    return ApiVerdict(kind=kind, low_times=times, gap_pct=gap)


# the clause that says why the plan is kept where no reason in the answers does and the API is not clearly cheaper
# (``hosted_weigh.choice`` "close"): in the verdict's own words, so the Decision's headline and the finding agree
CLOSE_REASONS = {"volume": "plan.apiprice21.why.volume", "tie": "plan.apisg23.why.tie", "far": "plan.apiprice21.why.far",
                 "ends": "plan.apiprice21.why.ends", "overlap": "plan.hostedlead20b.why.close"}
# no clause for ``yardstick``: "close" is chosen only where a priced provider serves the API's region
# (``hosted_weigh.unserved_or``), so its verdict is never a yardstick (s22-cleanup22b)


def close_reason(verdict: ApiVerdict) -> dict[str, object]:
    """The keep clause for ``verdict`` (a phrase key ending in ``{more}``, with the ratio where it says one)."""
    return {"tr": CLOSE_REASONS.get(verdict.kind, CLOSE_REASONS["overlap"]), "times": verdict.times_text, "more": ""}


__all__ = ["CLOSE_REASONS", "FAR", "TIE", "ApiVerdict", "api_verdict", "close_reason"]
