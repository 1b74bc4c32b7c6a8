"""The Lawyers Law cited only for a law firm (s31-bigctx32; blind review 20, q10 zh: "《律师法》第三十八条 is cited
although the client is a consulting firm").

``confidentiality.client_documents`` fires for a legal-documents service whose documents a provider holds. The Civil
Code's duties (Art. 501, 509) bind any contracting party; Lawyers Law Art. 38 binds lawyers, so it is cited, with its
source, only where the answers' sector names a law firm — both directions, both languages.
"""

from __future__ import annotations

import pytest

from advisor.plan.duties27_rules import is_law_firm
from tests.support.planned import advice_plan, only_finding

Q10 = "q10_128k_document_assistant"
LAWYERS_LAW = {"en": "Lawyers Law Art. 38", "zh_CN": "《律师法》第三十八条"}
CIVIL_CODE = {"en": "Civil Code Art. 501", "zh_CN": "《民法典》第五百零一条"}


def _sector(sector: str) -> dict:
    return {"level": "medium", "personal_info": True, "pi_subjects_per_year": 20000,
            "sensitive_pi_subjects_per_year": 0, "sector": sector}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_consultancy_reading_clients_contracts_is_not_told_the_lawyers_law(lang: str) -> None:
    f = only_finding(advice_plan(Q10), "confidentiality.client_documents")
    text = f.title_in(lang) + " " + f.detail_in(lang)
    assert CIVIL_CODE[lang] in text and "《律师法》" not in text and "Lawyers Law" not in text
    assert not [s for s in f.sources if "Lawyers Law" in s.title]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("sector", ["law_firm", "律师事务所"])
def test_a_law_firms_client_documents_cite_the_lawyers_law_with_its_source(lang: str, sector: str) -> None:
    f = only_finding(advice_plan(Q10, data_sensitivity=_sector(sector)), "confidentiality.client_documents")
    text = f.detail_in(lang)
    assert CIVIL_CODE[lang] in text and LAWYERS_LAW[lang] in text
    assert [s.grade for s in f.sources if "Lawyers Law" in s.title] == ["C"]


def test_law_firm_words() -> None:
    assert is_law_firm("law_firm") and is_law_firm("律师事务所") and is_law_firm("lawyers")
    assert not is_law_firm("legal") and not is_law_firm("consulting")
