"""The cost table's cloud month row: the plan's own month first, the other billings after it in one short clause
with why they were not taken (cst44, blind review 35).

The row listed "on demand, scaled to the load: 65,601–71,849 CNY; monthly/reserved for all 9 GPUs: 61,564–82,903
CNY" with the worked product adding "peak-hour replicas on demand: 56,854–65,708 CNY" (q07; q09 the same in USD), and
reviewers read three competing monthly figures: "lead with the one for the recommended billing, the alternatives in
one short line at most, with a reason".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from advisor.i18n import translate
from advisor.plan import peak_reserved39, reserved_floor
from advisor.plan.reserved_price import same
from advisor.plan.result import MoneyRange


def arrange(costs: Any, lang: str, entries: Sequence[tuple[str, MoneyRange]],
            money: Callable[[MoneyRange], str]) -> str:
    """The row's value from ``entries`` (each billing's labelled text and its month): the one equal to the plan's
    month leads, named as the plan's, the others follow with why not. Unchanged (joined) where none or only one
    entry is the plan's month, or the plan's month is not one of them (a job, a hybrid, another form's month)."""
    sep = translate(lang, "memo.list_sep")
    rec = costs.recommended_monthly
    lead = [text for text, r in entries if same(r, rec)]
    if rec is None or costs.per_job or len(lead) != 1 or len(entries) < 2 and not peak_reserved39.reserved(costs):
        return sep.join(text for text, _ in entries)
    others = [(text, r) for text, r in entries if not same(r, rec)]
    stock = peak_reserved39.reserved(costs)
    if stock:  # every GPU reserved for the peak's stock: the month with the peak-hour replicas on demand is an option
        p = costs.cloud_peak_floor
        mixed = MoneyRange(low=p["low"], high=p["high"])
        others.insert(0, (translate(lang, "reserve19.cost.reserved_floor", cost=money(mixed),
                                    **reserved_floor.phrases(p, lang)), mixed))
    why = "stock" if stock else "dearer" if all(r.low >= rec.low and r.high >= rec.high for _, r in others) else ""
    out = translate(lang, "cst44.row.lead", item=lead[0])
    items = sep.join(text for text, _ in others)
    if others and why:
        out += translate(lang, "cst44.row.others_why", items=items, why=translate(lang, f"cst44.row.why.{why}"))
    elif others:
        out += translate(lang, "cst44.row.others", items=items)
    return out


__all__ = ["arrange"]
