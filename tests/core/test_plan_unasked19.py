"""No open question about what the answers already say (s19-apireason, ninth blind review, issue 25).

The memos of a public app (q07, q14) asked "who can reach the service?" though a public audience reaches it over
the internet, and q07's memo asked for the generative-AI filing's status though the brief had said no filing exists
(no ICP filing, on a mainland node: not online yet, so not filed for generative AI either).
"""

from __future__ import annotations

from typing import Any

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.unknowns import MAINLAND_REGIONS, _get
from tests.core.test_plan_apireason19 import _answers
from tests.core.test_plan_hosted_weigh import ALL, LANGS, _plan
from tests.support.planned import advice_answers, planned


def _implied(answers: dict[str, Any], field: str, region: str | None) -> bool:
    """The answers settle ``field`` without naming it: a public audience its reach; no ICP filing on a mainland node
    its generative-AI filing."""
    if field == "reach":
        return answers.get("audience") == "public"
    if field == "genai_filing":
        return answers.get("icp_status") == "none" and region in MAINLAND_REGIONS
    return False


@pytest.mark.parametrize("name", ALL)
def test_no_open_question_about_a_field_the_answers_set(name):
    """Property over every scenario: an open question is about a field the answers leave unset (the exceptions:
    carriers answered "does not apply" of users who are in the mainland, as good as unknown; an object answered in
    part), and never about one they settle by implication."""
    answers = _answers(name)
    r = _plan(name)
    for q in r.open_questions:
        value = _get(answers, q.field)
        if q.field == "mainland_carriers" and value == "n/a":
            continue
        if isinstance(value, dict):  # a part answered, another asked (a burst schedule's days, a latency's TPOT)
            continue
        assert value is None, (name, q.field, value)
        assert not _implied(answers, q.field, r.region), (name, q.field)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q07_minors_education_app", "q14_medical_followup_mainland"])
def test_a_public_app_is_not_asked_who_can_reach_it(name, lang):
    r = _plan(name)
    assert "reach" not in [q.field for q in r.open_questions]
    # said as following from the audience, not as an answer missing
    assert [a.key for a in r.assumptions if a.field == "reach"] == ["plan.apireason19.assume.reach_public"]
    memo = render_memo_markdown(r, lang)
    assert ("Who can reach the service" if lang == "en" else "谁能访问") not in memo
    assert ("A public audience reaches the service over the public internet" if lang == "en" else "面向公众的服务经") in memo


def test_q07_is_not_asked_its_generative_ai_filing_and_says_why_it_is_planned_unfiled():
    r = _plan("q07_minors_education_app")
    assert "genai_filing" not in [q.field for q in r.open_questions]
    [a] = [a for a in r.assumptions if a.field == "genai_filing"]
    assert a.key == "plan.apireason19.assume.genai_filing_no_icp" and not r.feasible


def test_the_reach_is_still_asked_where_the_audience_leaves_it_open():
    """A business audience may be served on a private network or the internet: the reach stays a question where it
    changes the plan, and the audience alone does not answer it."""
    answers = {**advice_answers("q07_minors_education_app"), "audience": "business"}
    r = planned(answers)
    assert [a.key for a in r.assumptions if a.field == "reach"] == ["plan.assume.reach"]


def test_the_generative_ai_filing_is_still_asked_once_the_icp_filing_is_done():
    r = _plan("q14_medical_followup_mainland")  # ICP filed: the generative-AI filing, a separate one, is unknown
    assert "genai_filing" in [q.field for q in r.open_questions]
