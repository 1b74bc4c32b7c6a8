"""A university's purchase goes through its procurement process, of a length the plan does not know (s34-procure36,
issue #25, blind review 25 q17: "A ¥400k university purchase normally goes through 招标/政府采购, so '30–90 天' is
likely optimistic"): a finding with the thresholds, and a step of unknown length before the buy-and-install step,
end to end with it; a company's purchase (q01, q26) has neither."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.procure36_rules import STEP_ID
from advisor.plan.sector_kinds import is_edu_research, is_public_institution
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
RULE = "procure.institution_process"
LAB = "q17_capex_only_university_lab"


@pytest.mark.parametrize("lang", LANGS)
def test_a_university_lab_purchase_waits_on_its_procurement_process(lang):
    result = planned(advice_answers(LAB))
    assert RULE in [f.id for f in result.findings]
    ids = [i.id for i in result.timeline.items]
    # the process comes right before the buy-and-install step, of unknown length, blocking the launch
    assert ids.index(STEP_ID) == ids.index("procurement") - 1
    step = result.timeline.items[ids.index(STEP_ID)]
    assert step.blocking and step.days_low is None and step.days_high is None
    memo = render_memo_markdown(result, lang)
    assert translate(lang, f"plan.rule.{RULE}.title") in memo
    # unknown stays unknown: the step's row says whom to ask, never a number of days
    ask = translate(lang, "plan.timeline.length_unknown", ask=translate(lang, "procure36_timeline.ask"))
    row = next(line for line in memo.splitlines()
               if line.startswith(f"| {step.label_in(lang)} |"))  # the timeline table's row
    assert ask in row and not re.search(r"\d", row)
    # end to end: the launch is after the process, then the purchase's days (not "beside it")
    buy = result.timeline.items[ids.index("procurement")]
    days = f"{result.timeline.launch_days_low}–{result.timeline.launch_days_high}"
    launch = result.timeline.launch_text(lang, days)
    assert launch.startswith(translate(lang, "procure36_launch.after_one", steps="", days="", gate="")[:2])
    assert step.label_in(lang, clause=True) in launch and buy.days_in(lang) in launch and days in launch


@pytest.mark.parametrize("lang", LANGS)
def test_the_thresholds_are_the_catalogue_s(lang):
    """Under ¥1,000,000 the institution's own rules, the Government Procurement Law from ¥1,000,000, an open tender
    from ¥2,000,000, as 国办发〔2019〕55号 sets them for central budget units."""
    detail = translate(lang, f"plan.rule.{RULE}.detail")
    one, two = ("¥1,000,000", "¥2,000,000") if lang == "en" else ("100 万元", "200 万元")
    assert one in detail and two in detail


@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q26_steady_3y_strong_ops_buy"])
def test_a_company_s_purchase_has_no_procurement_process(name):
    result = planned(advice_answers(name))
    assert result.deployment_form in ("on_premises", "bare_metal", "hybrid")  # it buys: silent for the sector alone
    assert RULE not in [f.id for f in result.findings]
    assert STEP_ID not in [i.id for i in result.timeline.items]


def test_the_sector_words():
    for s in ("education", "university", "research", "高校", "科研院所", "教育"):
        assert is_edu_research(s)
    for s in ("general", "finance", "medical", "legal", "基金会"):
        assert not is_edu_research(s)


def _lab_as(**change):
    return {**advice_answers(LAB), **change}


@pytest.mark.parametrize("change", [
    {"audience": "business", "reach": "private_network"},  # offered to other organisations, beyond its own people
    {"audience": "business", "reach": "private_network", "charges_users": True},  # and sold to them
], ids=["business", "business_paid"])
def test_a_private_education_company_buys_as_any_company(change):
    """The bare sector "education" is shared by private companies (q07's start-up): a service offered beyond the
    organisation's own people is a company's, and 国办发〔2019〕55号 is for public budget units (s35-duties,
    issue 25)."""
    result = planned(_lab_as(**change))
    if result.deployment_form not in ("on_premises", "bare_metal", "hybrid"):
        pytest.skip("the changed answers no longer buy")  # (the rule is about a purchase)
    assert RULE not in [f.id for f in result.findings]
    assert STEP_ID not in [i.id for i in result.timeline.items]


def test_an_institution_named_by_its_sector_keeps_its_process_whoever_pays():
    """A university named as such goes through its procurement office even where its service charges a fee."""
    sens = advice_answers(LAB)["data_sensitivity"]
    result = planned(_lab_as(charges_users=True, data_sensitivity={**sens, "sector": "大学"}))
    if result.deployment_form not in ("on_premises", "bare_metal", "hybrid"):
        pytest.skip("the changed answers no longer buy")
    assert RULE in [f.id for f in result.findings]


def test_the_institution_test():
    class C:
        def __init__(self, sector, audience="internal"):
            self.sector, self.audience = sector, audience
    assert is_public_institution(C("education")) and is_public_institution(C("大学", audience="public"))
    assert is_public_institution(C("科研院所", audience="business"))
    assert not is_public_institution(C("education", audience="public"))
    assert not is_public_institution(C("教育", audience="business"))
    assert not is_public_institution(C("general")) and not is_public_institution(C("finance"))
