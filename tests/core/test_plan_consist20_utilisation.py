"""The utilisation the cost table shows and the one the buy-vs-rent decision reads are the service's own duty
(issue 25, s20-consist20): a measured and answered utilisation is called "measured" (q26's 80 %), an assumed one
"assumed"; a named fleet's utilisation by other work decides neither (it says which cards are free).

Since s25-usage25, power and per-token cost use the month's tokens' share, not the load pattern's 40 %: where
nothing is measured the row is "GPU use", the month's tokens over what the setup serves fully busy, said as
estimated (not measured) or as the team's own tokens; never "measured", never the load pattern's figure."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, office_token_rows
from advisor.plan import cost as costmod
from advisor.plan.context import UTILISATION, resolve
from advisor.plan.engine import _decide_form
from advisor.plan.memo import _cost_rows
from advisor.plan.memo_per_million import usage_text
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _utilisation_row(result, lang: str) -> tuple[str, str]:
    labels = [translate(lang, k) for k in ("memo.consist20.cost.measured", "memo4.cost.assumed", "usage25.cost.label")]
    rows = [r for r in _cost_rows(result, lang) if r[0] in labels]
    assert len(rows) == 1, rows
    return rows[0]


@pytest.mark.parametrize("lang", LANGS)
def test_a_measured_duty_is_labelled_measured_and_an_assumed_one_assumed(lang):
    answers = advice_answers("q26_steady_3y_strong_ops_buy")
    label, value = _utilisation_row(planned(answers), lang)
    assert label == translate(lang, "memo.consist20.cost.measured")
    assert value.startswith(f"{round(answers['measured_utilisation'] * 100)} %")
    answers.pop("measured_utilisation")  # the same service, nothing measured: the month's tokens' share
    _assert_tokens_share(planned(answers), answers, lang)


def _assert_tokens_share(r, answers, lang: str) -> None:
    """The unmeasured row: "GPU use", the month's tokens' share (not the load pattern's), said as not measured."""
    label, value = _utilisation_row(r, lang)
    c = r.costs
    assert label == translate(lang, "usage25.cost.label") and c.usage_from_tokens and not c.utilisation_measured
    assert c.utilisation != pytest.approx(UTILISATION[answers["load_pattern"]], abs=0.005)
    key = "util28.cost.value_own" if c.per_million_basis["own_volume"]["answered"] else "util28.cost.value_estimated"
    # s33-rows34: where no per-million row states the GPU-time split, this row ends with it
    said = translate(lang, key, busy=usage_text(c, lang), months=c.horizon_months)
    assert value == said + office_token_rows.split_clause(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_fleets_utilisation_by_other_work_is_not_called_measured(lang):
    """q04: the fleet is 30 % busy with other work; the table prices the service's own use (its month's tokens'
    share since s25-usage25) and says it is not measured."""
    answers = advice_answers("q04_securities_h20_l20_fleet")
    _assert_tokens_share(planned(answers), answers, lang)


def _busy_fleet_answers(this_service: bool) -> dict:
    """A stable service on a fleet measured 90 % busy, owning cheaper than renting (the outcome below): the fleet's
    utilisation is the service's own duty only where ``load_is_this_service``."""
    answers = advice_answers("q26_steady_3y_strong_ops_buy")
    answers.update(load_pattern="bursty", measured_utilisation=0.9,
                   current_fleet={"gpu": "h100-sxm-80g", "count": 2, "load_is_this_service": this_service})
    return answers


def _owning_cheaper(utilisation: float = 0.9) -> costmod.CostOutcome:
    costs = costmod.Costs(currency="USD", fx_rate=7.0, fx_date="2026-01-01", fx_source="test", horizon_months=36,
                          utilisation=utilisation)  # fmt: skip
    return costmod.CostOutcome(costs=costs, series=[], cloud_usd=(100_000.0, 120_000.0),
                               owned_usd=(50_000.0, 60_000.0), conv=1.0)  # fmt: skip


def test_the_buy_decision_reads_the_services_own_duty_not_the_fleets_other_work():
    own = resolve(answers_from_dict(_busy_fleet_answers(True)))
    other = resolve(answers_from_dict(_busy_fleet_answers(False)))
    assert own.utilisation == other.utilisation == 0.9  # the same measured figure in both
    # the fleet's 90 % is this service's: owning pays at that duty, bought straight away
    assert _decide_form(own, _owning_cheaper()) == "bare_metal"
    # the 90 % is other work: the service's own duty is the bursty pattern's 20 %, below the utilisation at which
    # owning is chosen at all, so the same prices rent. Re-argued in s26-usage26: the decision reads the usage the
    # cost table prints (``Costs.utilisation``), which for this service is its own month's tokens' share, never the
    # fleet's 90 %: the costs it is decided on carry that share (the plan's own), and those rent
    assert other.volume_utilisation == UTILISATION["bursty"]
    printed = planned(_busy_fleet_answers(False)).costs
    assert not printed.utilisation_measured and printed.utilisation < 0.5
    assert _decide_form(other, _owning_cheaper(printed.utilisation)) == "cloud"
    # and where the costs did print 90 % for it, the decision would follow the printed figure, not a hidden one
    assert _decide_form(other, _owning_cheaper(0.9)) != "cloud"
