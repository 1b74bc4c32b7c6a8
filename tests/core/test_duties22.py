"""Obligations complete (issue 25, s22-duties22): the cross-border tier of a company with no mainland entity serving
business customers, and the Llama licence by version.

The eleventh blind review and its re-check 11b (q12, both languages) read the standard-contract finding as "each
small-business customer counts only its own people, which in practice tells most customers they are exempt": the
tier the count needs was stated, then argued away per customer. A count that needs a procedure now plans it on the
whole count, in the finding's title (a reason on page 1), and says the per-customer count is a reading for counsel to
confirm; an exempt count keeps the customers' roles (every customer is below the threshold whoever counts: q13).

The Llama licence rule read only the 3.1 and 3.3 licences; each of Llama 3, 3.1, 3.2, 3.3 and 4 now says its own
(``advisor.plan.llama_licences``): the attribution and naming it asks, Llama 3's ban on improving other models, and
the EU clause of the multimodal models' Acceptable Use Policy (Llama 3.2 Vision, Llama 4).
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


# -- the Llama licence by version (s22-duties22): each version's own Community License and Acceptable Use Policy --
EU_PUBLIC = {"user_location": "overseas", "overseas_markets": ["EU"], "mainland_entity": False, "audience": "public",
             "reach": "internet", "use_case": "interactive", "peak_concurrency": 50}  # fmt: skip


def _llama(model: str, **more):
    r = planned({**EU_PUBLIC, "model": model, **more})
    [x] = [f for f in r.findings if f.id == "model.llama_licence"]
    return x


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("model", "built", "prefix", "licence_file", "no_other_llm", "eu_clause"), [
    ("llama-3-8b-instruct", "Built with Meta Llama 3", "Llama 3", "meta-llama/llama3/blob/main/LICENSE", True, False),
    ("llama-3.1-8b-instruct", "Built with Llama", "Llama", "models/llama3_1/LICENSE", False, False),
    ("llama-3.2-3b", "Built with Llama", "Llama", "models/llama3_2/LICENSE", False, False),
    ("llama-3.3-70b-instruct", "Built with Llama", "Llama", "models/llama3_3/LICENSE", False, False),
    ("llama-4-scout-17b-16e", "Built with Llama", "Llama", "models/llama4/LICENSE", False, True),
    ("llama-4-maverick-17b-128e-instruct", "Built with Llama", "Llama", "models/llama4/LICENSE", False, True),
])  # fmt: skip
def test_each_llama_version_says_its_own_licence(lang, model, built, prefix, licence_file, no_other_llm, eu_clause):
    x = _llama(model, overseas_markets=["US"], model_customisation="fine_tuned")
    detail = x.detail_in(lang)
    assert built in detail
    assert translate(lang, "duties22.llama.naming", prefix=prefix) in detail
    assert (translate(lang, "duties22.llama.no_other_llm").strip() in detail) is no_other_llm
    eu = translate(lang, "duties22.llama.eu_multimodal", version=x.params["version"]).strip()
    assert (eu in detail) is eu_clause
    assert x.severity == "info"  # no users in the EU: the clause is said as a condition on where the company is
    assert any(licence_file in s.url for s in x.sources), [s.url for s in x.sources]
    # the published model as it is: no naming clause
    assert translate(lang, "duties22.llama.naming", prefix=prefix) not in _llama(model).detail_in(lang)


def test_a_multimodal_llama_with_users_in_the_eu_is_a_warning_citing_its_use_policy():
    x = _llama("llama-4-scout-17b-16e")
    assert x.severity == "warning" and x.title_key.endswith(".eu.title")
    assert any("use-policy" in s.url or "USE_POLICY" in s.url for s in x.sources)
    # a text-only Llama with the same EU users: the clause is not its licence's
    y = _llama("llama-3.2-3b")
    assert y.severity == "info" and not y.title_key.endswith(".eu.title")


def test_llama_3_2_vision_models_are_the_multimodal_ones():
    from advisor.catalog import get_model
    from advisor.plan.llama_licences import llama_licence_of

    text = get_model("llama-3.2-3b")
    vision = text.model_copy(update={"id": "llama-3.2-11b-vision-instruct",
                                     "hf_repo": "meta-llama/Llama-3.2-11B-Vision-Instruct"})
    assert llama_licence_of(text).multimodal is False
    assert llama_licence_of(vision).multimodal is True and llama_licence_of(vision).key == "llama3_2"
    older = text.model_copy(update={"id": "my-llama", "hf_repo": "meta-llama/Llama-2-7b-chat-hf"})
    # s23-duties23: Llama 2's licence was read since (its own row, never Llama 3's terms; tests/core/test_licences23.py)
    assert llama_licence_of(older).key == "llama2" and llama_licence_of(older).version == "Llama 2"


def test_every_llama_preset_resolves_to_the_licence_its_catalogue_entry_names():
    """The presets' ``license`` tags (resources/models/*.json: llama3, llama3.1, …, llama4) are the licences the rule
    reads; a Llama preset the rule would not recognise, or would give another version's licence, fails here."""
    import json
    from pathlib import Path

    from advisor.catalog import get_model
    from advisor.plan.llama_licences import llama_licence_of

    root = Path(__file__).resolve().parents[2] / "resources" / "models"
    tagged = {}
    for path in root.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if str(data.get("license", "")).startswith("llama"):
            tagged[data["id"]] = data["license"]
    assert len(tagged) >= 6, tagged
    for model_id, tag in tagged.items():
        licence = llama_licence_of(get_model(model_id))
        assert licence is not None and licence.key == tag.replace(".", "_"), (model_id, tag, licence)
