"""The cost table's cost per million tokens said with its basis (s20-costtoken20, issue 25).

The figures divide the setup's monthly cost by the tokens it serves at its stated throughput and the cost table's
utilisation (advisor.plan.capacity_per_million); the row says so with the figures a reader redoes it from (the
throughput, the utilisation, the tokens a month), the figure fully busy (the lowest this setup reaches), and the
figure at the month's volume only where the user's answers gave that volume.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from advisor.i18n import translate
from advisor.plan import memo_text15
from advisor.plan.money_text import about, money_range, number_text
from advisor.plan.result import MoneyRange


def _range(lo: float, hi: float, cur: str) -> str:
    return money_range(MoneyRange(low=lo, high=hi), cur)


def _scaled(split: tuple[tuple[float, float], tuple[float, float]], k: float) -> tuple[tuple[float, float], ...]:
    return tuple((a * k, b * k) for a, b in split)


def basis_clause(costs: Any, lang: str) -> str:
    """", at the setup's capacity: … " after the figures; "" where they divide the month's volume (a batch)."""
    b = costs.per_million_basis
    if not b:
        return ""
    cur, util = costs.currency, float(b["utilisation"])
    common = {"tok_s": translate(lang, "memo.unit.tok_s", n=number_text(float(b["output_tokens_per_s"]))),
              "util": f"{util * 100:.0f}", "out": about(float(b["output_tokens"])),
              "where": translate(lang, "costtoken20.per_million.where_nodes") if b.get("nodes", 1) > 1 else
              _billed(b, lang)}
    split = memo_text15.per_million_split(costs)
    if split is not None:  # fully busy: the same cost over 1 ÷ utilisation times the tokens
        (i_lo, i_hi), (o_lo, o_hi) = _scaled(split, util)
        return translate(lang, "costtoken20.per_million.capacity", in_full=_range(i_lo, i_hi, cur),
                         out_full=_range(o_lo, o_hi, cur), **common)
    out_m, all_m = costs.cost_per_million_output_tokens, costs.cost_per_million_tokens
    if out_m is None or all_m is None:
        return ""
    return translate(lang, "costtoken20.per_million.capacity_whole",
                     out_full=_range(out_m.low * util, out_m.high * util, cur),
                     all_full=_range(all_m.low * util, all_m.high * util, cur), **common)


def _billed(b: dict[str, Any], lang: str) -> str:
    """Where the burst replicas are billed part of the month, the capacity is over the GPU-hours billed: said
    (s20-consist20, q36)."""
    billed = b.get("billed_gpus")
    if not billed:
        return ""
    return translate(lang, "consist20.per_million.billed", billed=number_text(round(float(billed), 1)), gpus=b["gpus"])


def volume_clause(costs: Any, lang: str) -> str:
    """"; at your own volume …" where the month's tokens rest on the answers (requests a day); else ""."""
    if not costs.per_million_basis:
        return ""
    cur = costs.currency
    split = memo_text15.volume_split(costs)
    if split is not None:
        (i_lo, i_hi), (o_lo, o_hi) = split
        return translate(lang, "costtoken20.per_million.volume", input=_range(i_lo, i_hi, cur),
                         output=_range(o_lo, o_hi, cur))
    out_v, all_v = costs.cost_per_million_output_tokens_volume, costs.cost_per_million_tokens_volume
    if out_v is None or all_v is None:
        return ""
    return translate(lang, "costtoken20.per_million.volume_whole", output=money_range(out_v, cur),
                     all=money_range(all_v, cur))


def with_basis(value: str, costs: Any, lang: str, note: Callable[[], str]) -> str:
    """The row's ``value`` with its basis and, where answered, the volume's figure; ``note`` (the per-person
    assumption beside a volume-based figure) only where the figures still divide the month's volume."""
    if value == "—":
        return value
    if not costs.per_million_basis:
        return value + note()
    return value + basis_clause(costs, lang) + volume_clause(costs, lang)


__all__ = ["basis_clause", "volume_clause", "with_basis"]
