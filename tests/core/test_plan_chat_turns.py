"""A chat counted by the day on a hosted API says that the month prices single requests, and what a few turns with
the history resent make of it (``advisor.plan.chat_turns``; eleventh blind review, q16: "the cost treats 2,000
conversations/day as 2,000 single requests of 600/200 tokens"). Read from the plan's JSON; the decision kept."""

from __future__ import annotations

import pytest

from advisor.plan.chat_turns import TURNS, factors
from tests.support.planned import advice_answers, planned


def _turns(plan):
    return next((f for f in plan.findings if f.id == "cost.chat_turns"), None)


def test_history_resent_grows_the_input_by_the_triangle_of_turns():
    # 3 turns of 600 in / 200 out: 600 + (1,200 + 200) + (1,800 + 400) = 4,200 in, 600 out
    assert factors(600, 200, 3) == (pytest.approx(7.0), 3.0)
    assert factors(600, 200, 1) == (pytest.approx(1.0), 1.0)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q16_says_its_basis_and_the_month_at_a_few_turns(lang):
    plan = planned(advice_answers("q16_hosted_api_mainland_registration"))
    assert plan.deployment_form == "hosted_api"  # the decision stands
    f = _turns(plan)
    assert f is not None
    p = f.params
    assert (p["n1"], p["n2"]) == TURNS and p["prompt"] == 600 and p["output"] == 200
    # the single-request month is the cost table's hosted figure; each turn count costs more, the more turns the more
    hosted = plan.costs.hosted_api_monthly
    assert hosted is not None
    assert p["monthly"] == f"¥{hosted.low:,.0f}–¥{hosted.high:,.0f}"
    lows = [float(p[k].split("–")[0].lstrip("¥").replace(",", "")) for k in ("monthly", "cost1", "cost2")]
    assert lows[0] * p["in1"] / 2 < lows[1] < lows[2]
    assert "2,000" in f.title_in(lang)


def test_an_api_service_or_a_gpu_plan_says_nothing():
    answers = advice_answers("q16_hosted_api_mainland_registration")
    assert _turns(planned({**answers, "use_case": "api"})) is None
    assert _turns(planned(advice_answers("q24_us_saas_rent"))) is None
    # a staff tool's requests a day are taken as counted (q15: "an internal writing helper, about 200 requests a day")
    q15 = planned(advice_answers("q15_hosted_api_small_us_team"))
    assert q15.deployment_form == "hosted_api" and _turns(q15) is None
