"""A mainland sensitive-data impact assessment (PIPL Art. 55) sends the reader to the role PIPL names, the personal
information protection officer (个人信息保护负责人, Art. 52), not to a GDPR data protection officer (blind review 19b,
q41 zh: "数据保护官 where PIPL uses 个人信息保护负责人"); the EU DPIA step still asks the DPO."""

from __future__ import annotations

import pytest

from advisor.plan.memo import memo_document
from tests.support.planned import advice_plan

LANGS = ["en", "zh_CN"]
OFFICER = {"en": "personal information protection officer", "zh_CN": "个人信息保护负责人"}
DPO = {"en": "data protection officer", "zh_CN": "数据保护官"}


def _pia_line(memo: str, lang: str) -> str:
    needle = "第五十五条" if lang == "zh_CN" else "Art. 55"
    rows = [ln for ln in memo.splitlines() if needle in ln and ln.startswith("|")]
    assert rows, memo
    return rows[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_mainland_pia_step_asks_the_pipl_officer(lang: str) -> None:
    memo = memo_document(advice_plan("q41_finetune_internal_callcentre"), lang).markdown()
    line = _pia_line(memo, lang)
    assert OFFICER[lang] in line and DPO[lang] not in line, line


@pytest.mark.parametrize("lang", LANGS)
def test_the_eu_dpia_step_still_asks_the_dpo(lang: str) -> None:
    memo = memo_document(advice_plan("q38_eu_internal_hr_assistant"), lang).markdown()
    assert DPO[lang] in memo
