"""Fixes the sixth blind review sent back (docs/advice-quality.md): text that fits the case it is said of."""

from __future__ import annotations

import pytest

from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _consent(sid):
    (f,) = [f for f in planned(advice_answers(sid)).findings if f.id == "pi.consent_notice"]
    return f


@pytest.mark.parametrize("lang", LANGS)
def test_the_legal_basis_example_follows_the_sector(lang):
    loan = "loan files" if lang == "en" else "贷款档案"
    assert loan in _consent("q28_bank_backfill_batch_48h").detail_in(lang)  # a bank's own files
    for sid in ("q03_hospital_private_wan_medical", "q07_minors_education_app"):
        assert loan not in _consent(sid).detail_in(lang), sid  # a hospital's and a school app's are not loan files
    patients = "patients' records" if lang == "en" else "患者本人诊疗的病历"
    assert patients in _consent("q03_hospital_private_wan_medical").detail_in(lang)
