"""Timeline steps of unknown or sourced length, said as the sources allow (s26-polish26, issue 25's loose ends):

- q16: the API provider's processing contract has no source for its length: "length unknown" stays, with what it
  turns on (the provider's standard terms, or terms negotiated) and no number;
- q12: round 15 ("the CAC rules let the transfer start once the contract is signed, with the filing due within 10
  working days"): the filing deadline is now sourced (a provincial CAC office's notice, grade B) and said in the
  finding with the source; the launch waits for the assessment and the signed contract, not for the filing.
"""

from __future__ import annotations

import re

import pytest

from tests.support.planned import advice_answers, advice_plan, planned

LANGS = ("en", "zh_CN")
FILING_SOURCE = "http://dz24hour.cms.dezhoudaily.com/p/99471.html"
TERMS = {"en": "standard terms", "zh_CN": "标准条款"}
WORKING_DAYS = {"en": "within 10 working days of the contract taking effect", "zh_CN": "生效之日起 10 个工作日内"}


def _step(r, step_id):
    return next((i for i in r.timeline.items if i.id == step_id), None)


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_contract_step_says_what_its_unknown_length_turns_on(lang):
    r = advice_plan("q16_hosted_api_mainland_registration")
    step = _step(r, "api_contract")
    assert step is not None and step.blocking and not step.length_known
    said = step.days_in(lang)
    assert TERMS[lang] in said and not re.search(r"\d", said), said  # no duration without a source


def test_no_api_contract_step_without_its_finding():
    r = advice_plan("q01_office_lan_capex_contracts")
    assert _step(r, "api_contract") is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_standard_contract_filing_deadline_is_said_with_its_source(lang):
    r = advice_plan("q12_hk_saas_pi_contract")
    f = r.finding("pi.export_impact_assessment")
    assert f is not None and WORKING_DAYS[lang] in f.detail_in(lang)
    [src] = [s for s in f.sources if s.url == FILING_SOURCE]
    assert src.grade == "B" and src.date
    # the launch waits for the assessment and the signed contract; the filing comes after, so the step is not "filed"
    step = _step(r, "export_pia")
    assert step is not None and step.blocking and not step.length_known
    label = step.label_in(lang)
    assert ("filed" not in label) if lang == "en" else ("备案" not in label), label


@pytest.mark.parametrize("lang", LANGS)
def test_a_security_assessment_count_carries_no_standard_contract_deadline(lang):
    """Over a million people a year: the CAC security assessment, not the standard contract; its step and finding
    say nothing of the contract's 10-working-day filing, nor cite it."""
    answers = advice_answers("q12_hk_saas_pi_contract")
    data = {**answers["data_sensitivity"], "pi_subjects_per_year": 1_500_000}
    r = planned({**answers, "data_sensitivity": data})
    f = r.finding("pi.export_impact_assessment")
    assert f is not None and WORKING_DAYS[lang] not in f.detail_in(lang)
    assert FILING_SOURCE not in {s.url for s in f.sources}
    step = _step(r, "export_pia")
    assert step is not None and step.label_key == "gates25.timeline.export_pia_assessment"
