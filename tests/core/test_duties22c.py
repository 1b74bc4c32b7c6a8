"""The twelfth blind review's obligation and timeline items (issue 25, s22-duties22c), end to end on the advice
scenarios: the impact assessment before q12's export, q07's approvals in series, q11's per-token API with its
filing planned. The rules' conditions both ways are rows in tests/core/test_plan_obligations.py."""

from __future__ import annotations

import pytest

from advisor.plan.reasons import deciding
from tests.support.planned import advice_plan, only_finding

LANGS = ("en", "zh_CN")
scenario, one = advice_plan, only_finding


@pytest.mark.parametrize("lang", LANGS)
def test_an_export_under_the_standard_contract_is_assessed_first_and_the_report_filed_with_it(lang):
    """q12: 300,000 mainland people's data to a Hong Kong node under the standard contract: the impact assessment
    (PIPL Art. 55) comes before the transfer and goes with the contract's filing; with the data on a mainland node
    (a mainland company) there is no export to assess."""
    r = scenario("q12_hk_saas_pi_contract")
    x = one(r, "pi.export_impact_assessment")
    text = x.detail_in(lang)
    assert all(n in text for n in (("55", "56") if lang == "en" else ("第五十五条", "第五十六条")))
    assert ("standard contract" if lang == "en" else "标准合同") in text
    assert any("Art. 55" in s.title for s in x.sources)
    moved = scenario("q12_hk_saas_pi_contract", mainland_entity=True, icp_status="filed")
    assert moved.region == "mainland" and "pi.export_impact_assessment" not in moved.finding_ids


def test_the_filing_waits_for_the_b25_licence_and_the_launch_counts_both():
    """q07: a paid public service on a mainland node: the generative-AI filing starts after the B25 licence, so the
    earliest launch is their days end to end (not the longer one alone: "91–245 days is optimistic"), and the next
    step names the order with the education approval first."""
    r = scenario("q07_minors_education_app")
    items = {i.id: i for i in r.timeline.items}
    licence, setup = items["icp_licence"], items["setup"]
    [filing] = [i for i in r.timeline.items if i.after == "icp_licence"]
    assert r.timeline.launch_days_low == licence.days_low + filing.days_low + setup.days_low
    assert r.timeline.launch_days_high == licence.days_high + filing.days_high + setup.days_high
    assert r.timeline.launch_days_high > max(licence.days_high, filing.days_high) + setup.days_high
    text = r.timeline.gate_text("en")
    assert "in series" in text and text.index("B25") < text.index("filing")
    [gate] = [s for s in r.next_steps if s.id == "gate"]
    assert gate.key == "duties22c.next.gate_serial" and gate.params["pre"]  # the education approval first


def test_a_free_public_service_has_no_licence_to_wait_for():
    """Without a charge there is no B25 licence: the filing runs from now, as before."""
    r = scenario("q07_minors_education_app", charges_users=False)
    assert "icp_licence" not in [i.id for i in r.timeline.items]
    assert not [i for i in r.timeline.items if i.after]


@pytest.mark.parametrize("lang", LANGS)
def test_a_per_token_api_sold_to_businesses_plans_the_filing(lang):
    """q11: a per-token API sold to other businesses from a mainland node, sign-up unanswered: the filing is a
    planned step (a reason on page 1, in the launch) with its own reason, not "you answered any business can sign
    up"; answered "customers under a contract you name", the plan keeps "not public" and plans nothing."""
    r = scenario("q11_paid_api_b25")
    x = one(r, "genai.business_only")
    assert x.title_key.endswith(".per_token.title")
    assert "genai.business_signup" not in r.finding_ids
    assert x.id in [f.id for f in deciding(r.findings)]
    assert [i for i in r.timeline.items if i.id.endswith("_likely") and i.blocking]
    assert r.timeline.launch_days_low > 60  # the filing counted, after the licence
    [q] = [q for q in r.open_questions if q.field == "open_signup"]
    assert q.assumption_key == "duties22c.assume.open_signup_per_token"
    contracted = scenario("q11_paid_api_b25", open_signup=False)
    assert not {"genai.business_only", "genai.business_signup"} & set(contracted.finding_ids)
    assert not [i for i in contracted.timeline.items if i.id.endswith("_likely")]
