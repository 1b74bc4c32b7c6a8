"""Who exports, and the Hong Kong quote step (issue 25, s19-duties19b).

- A Hong Kong company with no mainland entity serving mainland business customers, with names in the prompts: the
  cross-border findings say the customers export (each counting its own people) and the company signs the standard
  contract as the overseas recipient, with PIPL reaching it through Art. 3(2)/53; a public service exports itself.
- The quote step for Hong Kong data centres asks them to confirm in writing that they can supply the GPU the export
  finding flags, and only then (the same predicate: ``duties19_rules.hk_export_gpus``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from tests.core.test_plan_rules import facts_for, fire
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, planned, scenario_answers

LANGS = ("en", "zh_CN")
QUOTE_KEYS = ("prices16.next.quotes_line_host", "rows18.next.quotes_region")
SCENARIOS = sorted(ADVICE_SCENARIOS.glob("q*.json"))


def _q22(**data_sensitivity) -> dict:
    """q22 (a Hong Kong company, no mainland entity, mainland business customers) with personal information."""
    a = advice_answers("q22_hk_company_telecom_only")
    a["data_sensitivity"] = {**a["data_sensitivity"], "personal_info": True, **data_sensitivity}
    return a


@pytest.mark.parametrize("lang", LANGS)
def test_the_customers_export_and_the_company_signs_as_recipient(lang):
    """s22-duties22 (eleventh review and 11b, q12): a count that needs the standard contract plans it on the whole
    count (``whole_count``) and says who signs — the company as the handler, or each customer with the company as
    the overseas recipient — with the per-customer count a reading to confirm, no longer the lead framing."""
    r = planned(_q22(pi_subjects_per_year=300_000, sensitive_pi_subjects_per_year=0))
    [tier] = [f for f in r.findings if f.id == "pi.export_contract"]
    assert tier.title_key == "plan.rule.pi.export_contract.whole_count.title"
    procedure = translate(lang, "duties22.pi.procedure.contract")
    roles = translate(lang, "duties22.pi.whole_count_roles", procedure=procedure)
    memo = render_memo_markdown(r, lang)
    assert roles.strip() in tier.detail_in(lang) and tier.detail_in(lang) in memo
    words = {"en": ("overseas recipient", "Art. 38", "Art. 3(2)", "Art. 53", "its own people"),
             "zh_CN": ("境外接收方", "第三十八条", "第三条第二款", "第五十三条", "其自己的人数")}[lang]
    assert all(w in roles for w in words), roles
    sources = " ".join(s.title for s in tier.sources)
    assert "Art. 38" in sources and "Art. 3(2)" in sources and "Art. 53" in sources
    # notice and consent: the customers' to give, as the handlers that send it
    [consent] = [f for f in r.findings if f.id == "pi.consent_notice"]
    assert consent.title_key.endswith(".abroad_customers.title")
    # said once: the representative's finding no longer repeats who exports
    assert translate(lang, "plan.duties16.exporter.business") not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_service_exports_itself(lang):
    a = {**_q22(pi_subjects_per_year=300_000, sensitive_pi_subjects_per_year=0), "audience": "public"}
    r = planned(a)
    [tier] = [f for f in r.findings if f.id == "pi.export_contract"]
    assert tier.title_key == "plan.rule.pi.export_contract.title"
    assert "customers_roles" not in str(tier.params)
    [consent] = [f for f in r.findings if f.id == "pi.consent_notice"]
    assert consent.title_key.endswith(".abroad.title")


def test_the_counts_unknown_still_say_who_exports():
    r = planned(_q22())
    [tier] = [f for f in r.findings if f.id == "pi.export_unknown"]
    assert tier.title_key.endswith(".customers.title")
    assert "overseas recipient" in tier.detail_in("en")


def _quote_step(r):
    return next((s for s in r.next_steps if s.id == "quotes" and s.key in QUOTE_KEYS), None)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: Path(p).stem[:3])
def test_a_hong_kong_quote_asks_for_supply_exactly_where_the_export_finding_flags_the_gpu(path):
    r = planned(scenario_answers(path))
    step = _quote_step(r)
    if step is None:
        return
    flagged = next((f for f in r.findings if f.id == "gpu.hk_export_rules"), None)
    supply = step.params.get("supply")
    if isinstance(supply, dict) and supply.get("tr") == "reg42.next.also_quote":
        supply = supply.get("before")  # reg42 (review 32, q13): "… and on 2 × L40S too" after the slot's own text
    asks = bool(supply)
    in_hk = "hong_kong" in str(step.params.get("region"))
    assert asks == (flagged is not None and in_hk), (path.stem, step.params, flagged)
    for lang in LANGS:
        text = step.text_in(lang)
        assert "{" not in text
        if asks:
            assert flagged.params["gpus"] in text and translate(lang, "duties19b.next.confirm_supply",
                                                                gpus=flagged.params["gpus"]) in text


def test_the_supply_question_occurs_and_is_left_out_for_a_card_below_the_threshold():
    """Not vacuous: q22 (L40S in Hong Kong) asks; the same plan held to an L4 (below the threshold) does not."""
    r = planned(advice_answers("q22_hk_company_telecom_only"))
    step = _quote_step(r)
    assert step is not None and step.params["supply"] and "L40S" in step.text_in("en")
    l4 = planned({**advice_answers("q22_hk_company_telecom_only"), "gpu_constraint": ["l4"]})
    assert not any(f.id == "gpu.hk_export_rules" for f in l4.findings)
    step = _quote_step(l4)
    assert step is not None and not step.params.get("supply")


def test_a_singapore_finance_node_points_to_the_mas_finding_where_the_memo_has_it():
    """q37 (a Singapore fintech on rented GPUs): the residency text pointed at MAS's guidelines as "not stated here"
    while the MAS outsourcing finding sat in the same memo; it now points to it, and says "not stated" only where
    that finding is absent (the company's own servers)."""
    r = planned(advice_answers("q37_sg_fintech_public"))
    ids = {f.id for f in r.findings}
    [res] = [f for f in r.findings if f.id == "pi.region_residency"]
    assert "fin.mas_outsourcing" in ids
    assert res.params["extra"] == {"tr": "duties19b.residency.mas_outsourcing"}
    # the company's own servers: no provider, no MAS outsourcing finding, so the text says MAS's guidelines are not
    # stated here (the rules alone, on the plan's facts with the form set)
    owned = facts_for(advice_answers("q37_sg_fintech_public"), form="on_premises")
    assert not fire("fin.mas_outsourcing", owned)
    [res] = fire("pi.region_residency", owned)
    assert res.params["extra"] == {"tr": "plan.residency.mas"}


def test_a_business_service_with_a_mainland_entity_leaves_its_customers_contacts_to_them():
    # q21 (blind review 23): a mainland SaaS for businesses hosting in Hong Kong; the people in the prompts are its
    # customers' sales contacts, not its users: separate consent "from 50,000 third parties" is the customers' to
    # arrange as handlers, said as such; the same company serving the public still tells its own users itself
    a = advice_answers("q21_fast_launch_hk_rule1")
    assert a["mainland_entity"] is True and a["audience"] == "business"
    [consent] = [f for f in planned(a).findings if f.id == "pi.consent_notice"]
    assert consent.title_key.endswith(".abroad_customers.title")
    [public] = [f for f in planned({**a, "audience": "public"}).findings if f.id == "pi.consent_notice"]
    assert public.title_key.endswith(".abroad.title")
