"""The cross-border tier of a company with no mainland entity serving business customers (issue 25, s22-duties22).

The eleventh blind review and its re-check 11b (q12, both languages) read the standard-contract finding as "each
small-business customer counts only its own people, which in practice tells most customers they are exempt": the
tier the count needs was stated, then argued away per customer. A count that needs a procedure now plans it on the
whole count, in the finding's title (a reason on page 1), and says the per-customer count is a reading for counsel to
confirm; an exempt count keeps the customers' roles (every customer is below the threshold whoever counts: q13).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q12 = "q12_hk_saas_pi_contract"
# the per-customer reading, said as one to confirm (the words of duties22.pi.whole_count_roles)
TO_CONFIRM = {"en": "a reading for counsel to confirm", "zh_CN": "须经律师确认"}


def _decision(memo: str) -> str:
    """Page 1's decision section (its reasons), up to the sizing section."""
    return memo.split("\n## 2.", 1)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_q12_states_the_standard_contract_for_its_whole_count_among_the_reasons(lang):
    r = planned(advice_answers(Q12))
    [tier] = [f for f in r.findings if f.id == "pi.export_contract"]
    assert tier.title_key.endswith(".whole_count.title")
    memo = render_memo_markdown(r, lang)
    title = tier.title_in(lang)
    count = {"en": "300,000", "zh_CN": "300,000"}[lang]
    procedure = {"en": "standard contract", "zh_CN": "标准合同"}[lang]
    assert count in title and procedure in title, title
    assert title in _decision(memo)
    detail = tier.detail_in(lang)
    plan_it = translate(lang, "duties22.pi.procedure.contract")
    assert {"en": f"plan on {plan_it} for the whole count", "zh_CN": f"按全部人数准备{plan_it}"}[lang] in detail
    assert TO_CONFIRM[lang] in detail
    # no other finding argues the count away per customer
    assert translate(lang, "duties19b.pi.customers_roles", region=translate(lang, "plan.region.hong_kong")).strip() \
        not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_an_exempt_count_keeps_the_customers_roles(lang):
    r = planned(advice_answers("q13_sg_sellers_pi_below_threshold"))
    [tier] = [f for f in r.findings if f.id == "pi.export_exempt"]
    assert tier.title_key.endswith(".customers.title")
    assert TO_CONFIRM[lang] not in tier.detail_in(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_count_over_a_million_plans_the_assessment_on_the_whole_count(lang):
    a = advice_answers(Q12)
    a["data_sensitivity"] = {**a["data_sensitivity"], "pi_subjects_per_year": 2_000_000}
    r = planned(a)
    [tier] = [f for f in r.findings if f.id == "pi.export_assessment"]
    assert tier.title_key.endswith(".whole_count.title")
    plan_it = translate(lang, "duties22.pi.procedure.assessment")
    assert plan_it in tier.detail_in(lang) and TO_CONFIRM[lang] in tier.detail_in(lang)
    assert not [f for f in r.findings if f.id == "pi.export_contract"]
