"""The twelfth blind review's obligation and timeline items (issue 25, s22-duties22c), end to end on the advice
scenarios: the impact assessment before q12's export, q11's per-token API with its
filing planned. The rules' conditions both ways are rows in tests/core/test_plan_obligations.py."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import gpu_swap44
from advisor.plan.memo import render_memo_markdown
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


def test_a_free_public_service_has_no_licence_to_wait_for():
    """Without a charge there is no B25 licence to wait for. (q07's licence and filing in series, added here in
    s22, were taken out in s25-dates25: no source gives that order; tests/core/test_dates25.py.)"""
    r = scenario("q07_minors_education_app", charges_users=False)
    assert "icp_licence" not in [i.id for i in r.timeline.items]


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
    assert r.timeline.launch_days_low > 90  # the filing counted (longer than the licence, beside it)
    [q] = [q for q in r.open_questions if q.field == "open_signup"]
    # answered "not public": the standing assumption says it overrides that answer (r35, s42-ctx)
    assert q.assumption_key == "ctx44.assume.open_signup_overrides"
    contracted = scenario("q11_paid_api_b25", open_signup=False)
    assert not {"genai.business_only", "genai.business_signup"} & set(contracted.finding_ids)
    assert not [i for i in contracted.timeline.items if i.id.endswith("_likely")]


# -- stock text where it does not apply (twelfth blind review, item 4) -------------------------------------------
@pytest.mark.parametrize("name", ["q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h"])
def test_a_batch_job_prints_no_carrier_or_icp_assumption(name):
    """A batch job serves nobody over a carrier and publishes nothing: its memo lists no carrier or ICP assumption
    (they stay in the plan's assumptions, which the decision questions read)."""
    r = scenario(name)
    assert {"mainland_carriers", "icp_status"} <= {a.field for a in r.assumptions}
    memo = render_memo_markdown(r, "en")
    assert "Carriers not given" not in memo and "ICP status not given" not in memo


def test_a_service_answered_for_the_public_internet_keeps_its_carrier_assumption():
    r = scenario("q11_paid_api_b25", mainland_carriers=None)
    assert "Carriers not given" in render_memo_markdown(r, "en")


@pytest.mark.parametrize("name", ["q20_china_parts_offshore_sg", "q29_batch_impossible_budget",
                                  "q40_tiny_budget_72b"])
def test_an_infeasible_plan_does_not_promise_a_launch_in_days(name):
    """Infeasible as asked with nothing but the set-up to wait for: the launch row says the days follow the
    blockers, not "in 1–5 days". The one stated exception (s41-vrd44, review 36): a plan blocked only by the GPU
    asked, whose memo sets up the swap (``gpu_swap44.applies``), may give the swap's days, but only with the GPU the
    days are on named ("1–5 days on 2 × NVIDIA L40S 48GB"), never as a bare promise."""
    r = scenario(name)
    assert not r.feasible
    memo = render_memo_markdown(r, "en")
    [row] = [line for line in memo.splitlines()  # a job's row reads "Earliest start" (s35-batchjob, q06 zh)
             if line.startswith(("| Earliest launch |", "| Earliest start |"))]
    if gpu_swap44.applies(r):
        assert " days on " in row and (r.hardware.gpu_name or r.hardware.gpu) in row, row
    else:
        assert "blockers" in row


@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q02_office_lan_small_design_agency"])
def test_an_office_box_from_stock_is_not_rented_for_a_deadline_it_meets(name):
    """A workstation from stock arrives in days: a 60-day deadline keeps the box (it rented a cloud VM before, so the
    memo asked "By when must it launch? Another answer changes the deployment form"); a week's deadline still
    rents, since the box may not arrive in time."""
    r = scenario(name)
    assert r.deployment_form == "on_premises"
    assert "launch_deadline_days" not in [q.field for q in r.open_questions]
    assert scenario(name, launch_deadline_days=60).deployment_form == "on_premises"
    assert scenario(name, launch_deadline_days=7).deployment_form != "on_premises"


def test_a_server_purchase_still_asks_the_deadline():
    """A hospital's servers take 30–90 days: the deadline still decides whether to rent first (q03)."""
    r = scenario("q03_hospital_private_wan_medical")
    assert "launch_deadline_days" in [q.field for q in r.open_questions]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q25_hk_bank_retail", "q37_sg_fintech_public"])
def test_a_banks_spare_is_explained_by_its_continuity_not_by_the_public(name, lang):
    x = one(scenario(name), "sizing.redundancy")
    text = x.detail_in(lang)
    assert translate(lang, "plan.redundancy.why.finance") in text
    assert translate(lang, "plan.redundancy.why.public") not in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_hosted_api_pilot_grades_its_own_application_as_a_note(lang):
    """q27: a level-2 system on a hosted API: the application calling it is graded and filed after launch — said as
    a note, not a warning; a self-hosted service keeps the warning."""
    x = one(scenario("q27_six_month_pilot_no_ops"), "mlps.filing")
    assert x.title_key == "plan.rule.mlps.filing.hosted.title" and x.severity == "info"
    assert ("application" if lang == "en" else "应用系统") in x.title_in(lang)
    own = one(scenario("q27_six_month_pilot_no_ops", ops_capability="strong"), "mlps.filing")
    assert own.title_key == "plan.rule.mlps.filing.title" and own.severity == "warning"
