"""The cost per million tokens "at the setup's capacity" counts the replica-hours its cost pays for (issue 25,
s20-consist20): q36 counted all 4 replicas busy 20 % of the month while the 2 burst replicas were billed only for the
bursts, so the capacity was the whole setup's and the cost a smaller bill's."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import capacity_per_million as cpm
from advisor.plan.memo_per_million import basis_clause
from advisor.plan.result import Costs, MoneyRange
from tests.support.planned import advice_answers, planned

TOK_S, UTIL = 8000.0, 0.2


def _costs(billed: float, billed_range: tuple[float, float] | None = None, rented: bool = True) -> Costs:
    monthly = MoneyRange(low=6000.0, high=24000.0)
    return Costs(currency="CNY", fx_rate=7.0, fx_date="2026-01-01", fx_source="test", horizon_months=12,
                 utilisation=UTIL, gpus=4, cloud_billed_gpus=billed, per_million_monthly=monthly,
                 cloud_monthly=monthly if rented else MoneyRange(low=1.0, high=2.0),
                 cloud_billed_gpus_range=MoneyRange(low=billed_range[0], high=billed_range[1]) if billed_range else None)


def _tokens(gpus_billed: float) -> float:
    return cpm.capacity_tokens(TOK_S * gpus_billed / 4, UTIL, 0.0)[0]


def test_burst_replicas_billed_part_of_the_month_count_only_their_billed_hours():
    costs = _costs(2.26, (2.13, 2.39))
    cpm.apply(costs, TOK_S, 2.0)
    out = costs.cost_per_million_output_tokens
    # the cost over the GPU-hours billed on average (the assumed range's middle), never all 4 GPUs every hour
    assert out.low == pytest.approx(6000.0 * 1e6 / _tokens(2.26), rel=1e-3)
    assert out.high == pytest.approx(24000.0 * 1e6 / _tokens(2.26), rel=1e-3)
    assert costs.per_million_basis["billed_gpus"] == 2.26 and costs.per_million_basis["gpus"] == 4
    assert "2.3" in basis_clause(costs, "en") and "2.3" in basis_clause(costs, "zh_CN")


@pytest.mark.parametrize("costs", [_costs(4.0), _costs(2.26, rented=False)], ids=["every-gpu-billed", "owned"])
def test_a_bill_for_every_gpu_all_month_divides_the_whole_setups_capacity(costs):
    """Every GPU billed all month, or a monthly cost that is not the rented bill (an owned setup): all 4 GPUs."""
    cpm.apply(costs, TOK_S, 2.0)
    assert costs.cost_per_million_output_tokens.low == pytest.approx(6000.0 * 1e6 / _tokens(4), rel=1e-3)
    assert "billed_gpus" not in costs.per_million_basis
    billed = translate("en", "consist20.per_million.billed", billed="X", gpus=4).split("X")[0]
    assert billed not in basis_clause(costs, "en")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q36_capacity_and_cost_refer_to_the_same_replica_hours(lang):
    # s31-q42fix32: on GPUs rented by the hour (the H20 q36 picks is sold only through the cloud's sales and billed
    # all month since blind review 20b, so its replica-hours are all of them); the A10s it then rents burst
    c = planned({**advice_answers("q36_bursty_b2b_event_mainland"), "gpu_constraint": ["l20-48g", "a10"]}).costs
    b = c.per_million_basis
    assert b is not None and b["gpus"] == c.gpus
    assert b["billed_gpus"] < c.gpus
    # Re-argued in s26-usage26: ``utilisation`` is the cost table's one usage (the month's tokens over what every
    # replica serves around the clock, ``full_output_tokens``), and the tokens divided are the month's own; the
    # billed replica-hours stay in the basis (``billed_gpus`` of ``gpus``), which the floor "at full use" scales by
    assert b["utilisation"] == c.utilisation and b["output_tokens"] == c.output_tokens_per_month
    assert b["full_output_tokens"] * b["utilisation"] == pytest.approx(b["output_tokens"], rel=1e-3)
    text = basis_clause(c, lang)
    assert str(c.gpus) in text and text.count(f"{b['utilisation'] * 100:.0f} %") == 1
