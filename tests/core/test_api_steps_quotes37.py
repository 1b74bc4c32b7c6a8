"""Session 35 (blind review 26, q12): under a hosted-API headline the next steps start on the API; the quote for the
self-hosted fallback's stand-in GPU price follows the API's step (it came first: "ask Hong Kong data centres … for
a quote" before "start on the hosted API")."""

from __future__ import annotations

import pytest

from advisor.plan.api_lead_steps import API_STEP, api_first, leads_with_api
from tests.support.planned import advice_plan


@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1", "q22_hk_company_telecom_only"])
def test_the_fallbacks_quote_follows_the_apis_step(name):
    r = advice_plan(name)
    assert leads_with_api(r)
    plan_ids = [s.id for s in r.next_steps]
    assert "quotes" in plan_ids  # the plan itself asks for the quote (its stand-in price), first among its own steps
    ids = [s.id for s in api_first(r)]
    assert ids.index(API_STEP) < ids.index("quotes")
    assert ids.count("quotes") == plan_ids.count("quotes")  # moved, not dropped or said twice
