"""Blind review 34 (s41-batch): a deadline job waiting on reviews of unknown length states both readings of its
clock, and a bank's or insurer's job or service on rented GPUs names the provider already approved (q06, q28, q41).

- q06: "If the 72 hours run from now, the deadline is already at risk, so state which reading applies."
- q28: "'Feasible as asked: yes, once what next step 1 lists is done' is misleading if the audit's 48 hours is a
  calendar deadline already running ... run on a provider or financial-cloud (金融云) zone the bank has already
  approved, or the deadline is at risk."
- q41: "many insurers must use a financial-cloud zone (金融云) under the outsourcing rules".
- q06 zh: "决定开工日期的是这些事项，而不是 GPU" repeated; the insurer's title should lead with the health data.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import batch_clock43
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import next_step_line, page_one
from tests.support.planned import advice_answers, advice_plan

LANGS = ("en", "zh_CN")
JOBS = ("q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h")
HANDOVER = {"en": "hours run from the data's hand-over after", "zh_CN": "数据交付时起算"}
# the feasibility row's two short sentences (vrd44, review 35: q06/q28)
ROW_HANDOVER = {"en": "hours start at the data's hand-over, after", "zh_CN": "数据交付时起算"}
RUNNING = {"en": "calendar deadline already running", "zh_CN": "已在计时的日历期限"}
AT_RISK = {"en": "the deadline is at risk", "zh_CN": "期限有风险"}
APPROVED = {"en": "already approved under its outsourcing rules", "zh_CN": "已按外包规定准入"}
FIN_CLOUD = "金融云"
NOT_GPUS = {"en": "not the GPUs", "zh_CN": "而不是 GPU"}


def _row(memo: str, key: str, lang: str) -> str:
    head = f"| {translate(lang, key)} |"
    return next(ln for ln in page_one(memo).splitlines() if ln.startswith(head))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", JOBS)
def test_a_bank_or_insurer_job_states_both_readings_of_its_deadline_and_the_approved_provider(name, lang):
    r = advice_plan(name)
    memo = render_memo_markdown(r, lang)
    deadline = f"{advice_answers(name)['batch_deadline_hours']:,.0f}"
    step = next_step_line(memo, 1, lang)
    assert step.startswith("1. ") and step in page_one(memo)
    # both readings in the step that lists the reviews, with the outsourcing review among them
    assert any(i.id == batch_clock43.OUTSOURCING_ID for i in r.timeline.untimed)
    assert f"{deadline} {'hours' if lang == 'en' else '小时'}" in step
    for words in (HANDOVER, RUNNING, AT_RISK, APPROVED):
        assert words[lang] in step, (words[lang], step)
    assert FIN_CLOUD in step
    # the feasibility row carries the condition and points at the step
    feasible = _row(memo, "memo.key.feasible", lang)
    assert ROW_HANDOVER[lang] in feasible and FIN_CLOUD in feasible, feasible
    assert ("next step 1" if lang == "en" else "下一步第 1 条") in feasible
    assert translate(lang, "pages26.feasible.once_step", n=1) not in feasible  # no bare "yes, once …"
    # "those steps, not the GPUs, set the start date": said once, in the start row
    assert memo.count(NOT_GPUS[lang]) == 1, memo.count(NOT_GPUS[lang])
    assert NOT_GPUS[lang] in _row(memo, "batchjob37_key.start", lang)
    # the financial-cloud zone said on page 1's step, not again in the outsourcing finding
    f = r.finding("fin.cn_it_outsourcing")
    assert f is not None and FIN_CLOUD not in f.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_job_outside_banking_and_insurance_states_both_readings_without_the_provider_clause(lang):
    answers = advice_answers("q06_l20_batch_72h_claims")
    r = advice_plan("q06_l20_batch_72h_claims", data_sensitivity={
        **answers["data_sensitivity"], "sector": "general", "sensitive_pi_subjects_per_year": 5000})
    assert not any(i.id == batch_clock43.OUTSOURCING_ID for i in r.timeline.untimed)
    memo = render_memo_markdown(r, lang)
    step = next_step_line(memo, 1, lang)
    for words in (HANDOVER, RUNNING, AT_RISK):
        assert words[lang] in step, (words[lang], step)
    assert FIN_CLOUD not in step and APPROVED[lang] not in step
    feasible = _row(memo, "memo.key.feasible", lang)
    assert ROW_HANDOVER[lang] in feasible and FIN_CLOUD not in feasible, feasible


@pytest.mark.parametrize("lang", LANGS)
def test_an_insurer_service_on_rented_gpus_names_the_financial_cloud_or_approved_provider(lang):
    r = advice_plan("q41_finetune_internal_callcentre")
    assert r.deployment_form == "cloud"
    text = r.finding("fin.cn_it_outsourcing").detail_in(lang)
    assert FIN_CLOUD in text and APPROVED[lang] in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_a_bank_on_its_own_hardware_or_a_service_outside_finance_gets_no_provider_clause(lang):
    assert batch_clock43.rented_clause("on_premises", False) == ""
    assert batch_clock43.rented_clause("cloud", True) == ""  # a job: page 1's step says it
    answers = advice_answers("q41_finetune_internal_callcentre")
    r = advice_plan("q41_finetune_internal_callcentre",
                    data_sensitivity={**answers["data_sensitivity"], "sector": "general"})
    assert r.finding("fin.cn_it_outsourcing") is None
    assert FIN_CLOUD not in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_an_insurers_claim_files_lead_with_health_records_and_a_banks_keep_the_financial_title(lang):
    answers = advice_answers("q06_l20_batch_72h_claims")
    insurer = advice_plan("q06_l20_batch_72h_claims",
                          data_sensitivity={**answers["data_sensitivity"], "sector": "insurance"})
    title = insurer.finding("pi.sensitive_safeguards").title_in(lang)
    assert title.startswith("Claim files hold health records" if lang == "en" else "理赔文件含病历等健康信息"), title
    bank = advice_plan("q28_bank_backfill_batch_48h").finding("pi.sensitive_safeguards")
    assert bank.title_key == "plan.rule.pi.sensitive_safeguards.finance.title"
