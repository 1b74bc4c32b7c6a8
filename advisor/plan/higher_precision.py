"""A 4-bit plan whose budget also covers a setup at a higher precision: that setup named with its price (issue 25,
blind review of q01: "with ¥120k available, the memo picks a ¥17–28k 4090D with 4-bit AWQ on legal text; it never
weighs a 48 GB card running FP8/BF16").

The plan keeps its cost rule (the cheapest setup that meets the target: the answers have no field saying quality
matters more than cost; ``quantization_acceptable`` only says which precisions may be used). Where the chosen
weights are 4-bit and a setup of 8 or 16 bits that the screen found to meet the target also meets it on the
predictor, laid out and priced as the plan's own (bought: its purchase against the one-off budget; else its month
against the monthly budget), and every budget given covers it, the quantization finding names it: what it costs
and what it buys (no 4-bit quality check). The 4-bit quality risk itself stays a check the memo asks for, never a
figure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from advisor.sizing.quant import get_format

FOUR_BIT = 4  # the chosen weights' bits at or below which the alternative is looked for
MAX_TRIED = 3  # setups checked on the predictor (each a few levels)


@dataclasses.dataclass(frozen=True)
class HigherPrecision:
    """A setup at a higher precision that every budget given covers: ``gpus`` × ``gpu_name`` in ``weights``;
    ``basis`` "capex" (``cost``: the one-off purchase, checked against ``budget``, the one-off budget) or "monthly"
    (``cost``: the month, checked against the monthly budget); amounts in the answers' currency."""

    gpu_name: str
    gpus: int
    weights: str
    basis: str
    cost: tuple[float, float]
    budget: float
    # s33-rows34: the plan leads with this setup; ``cheaper`` is the 4-bit setup it replaced (gpus, gpu name,
    # weights, purchase low/high), said beside it
    cheaper: tuple[int, str, str, float, float] | None = None
    # the setup as laid out and its costing, for the plan to lead with it (``leads``); not part of the figures said
    setup: Any = dataclasses.field(default=None, compare=False, repr=False)
    out: Any = dataclasses.field(default=None, compare=False, repr=False)

    @property
    def bits(self) -> float:
        """The alternative's weights' nominal bits (16: unquantized)."""
        return get_format(self.weights).bits


def find(c: Any, chosen: Any, ok: Sequence[Any], form: str, out: Any, *, owned: bool,
         lay_out: Callable[[Any], Any], verify: Callable[[Any], bool], cost_of: Callable[[Any], Any],
         budget_of: Callable[[Any], tuple[bool | None, float | None, bool]]) -> HigherPrecision | None:
    """The cheapest setup of ``ok`` (ranked) at more than 4 bits that meets the target on the predictor and that
    every budget given covers, or None (the chosen weights are not 4-bit, no budget, a hosted API or a batch).
    ``lay_out(k)``: a copy of ``k`` laid out as the plan's setup is (bought or rented); ``verify(k)``: the
    predictor's check, sizing it in place; ``cost_of``/``budget_of``: the plan's own cost and budget check."""
    if chosen is None or out is None or c.is_batch or form in ("hosted_api", "hybrid"):
        return None
    if get_format(chosen.weights).bits > FOUR_BIT:
        return None
    capex_budget = out.costs.capex_budget if owned else None
    if capex_budget is None and c.budget_amount is None:
        return None
    tried = 0
    for k in ok:
        if get_format(k.weights).bits <= FOUR_BIT:
            continue
        if tried >= MAX_TRIED:
            break
        tried += 1
        mine = lay_out(k)
        if not verify(mine):
            continue
        o = cost_of(mine)
        within, _, _ = budget_of(o)
        if c.budget_amount is not None and within is not True:
            continue
        if capex_budget is not None:
            own = o.forms.owned if o.forms is not None else None
            if own is None:
                continue
            cost = (own.capex[0] * o.conv, own.capex[1] * o.conv)
            if cost[1] > capex_budget:
                continue
            return HigherPrecision(mine.gpu.name, mine.total_gpus, mine.weights, "capex", cost, capex_budget, setup=mine, out=o)
        m = o.costs.recommended_monthly
        if m is None:
            continue
        return HigherPrecision(mine.gpu.name, mine.total_gpus, mine.weights, "monthly", (m.low, m.high),
                               float(c.budget_amount), setup=mine, out=o)
    return None


# the answers' quantization words that make the quality of quantized weights a condition of the plan
QUALITY_CHECKED = ("yes_after_quality_check", "fp8_only", "no")


def leads(hp: HigherPrecision | None, answers: Any) -> bool:
    """The plan leads with the higher-precision setup rather than naming it (s33-rows34, blind review 23, q01: a law
    firm's ¥120,000 one-off budget bought a ¥17–28k 4-bit box for legal contracts while 2 cards in fp8 fitted it
    several times over). Where a one-off budget covers that setup's whole purchase range, the money is set aside
    once and spending it buys no monthly bill; on work whose quality is a condition (quantization accepted only
    after a quality check, or data of high sensitivity) the cheaper 4-bit box saves nothing the budget asked for and
    adds a quality risk. A monthly budget keeps the cost rule (each month's saving is real)."""
    if hp is None or hp.basis != "capex" or hp.setup is None or hp.out is None:
        return False
    if hp.cost[1] > hp.budget:
        return False
    quant = getattr(answers, "quantization_acceptable", None)
    level = getattr(getattr(answers, "data_sensitivity", None), "level", None)
    return quant in QUALITY_CHECKED or level == "high"


def cheaper_kept(chosen: Any, out: Any, hp: HigherPrecision) -> HigherPrecision:
    """``hp`` led with, carrying the 4-bit setup it replaces and that setup's purchase (the cheaper option said)."""
    own = out.forms.owned if out.forms is not None else None
    cost = (own.capex[0] * out.conv, own.capex[1] * out.conv) if own is not None else (0.0, 0.0)
    return dataclasses.replace(hp, cheaper=(chosen.total_gpus, chosen.gpu.name, chosen.weights, cost[0], cost[1]))


__all__ = ["QUALITY_CHECKED", "HigherPrecision", "cheaper_kept", "find", "leads"]
