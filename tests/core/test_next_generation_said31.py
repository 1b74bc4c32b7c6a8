"""Page 1 starting on a deprecated model's next generation (s31-apinext32: q12, q13, q22) says the API's month, the
deprecation, the quality test and the data terms; section 7's hosted-API finding priced the deprecated model (q12 en
~¥709 beside page 1's ¥291) and is left out of the memo then — only then: the app's and ``--json``'s findings keep it,
and a lead of the model itself keeps it in section 7 (q24's other-model lead, q36's)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.memo_lead_once import FALLBACK_TITLE, HOSTED_FINDING
from advisor.plan.result import render
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")


def _section7(text: str, lang: str) -> str:
    head = "## 7." if lang == "en" else "## 七、"
    return text.split(head, 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold",
                                  "q22_hk_company_telecom_only"])
def test_a_next_generation_lead_leaves_the_deprecated_price_out_of_section_7(name: str, lang: str) -> None:
    r = advice_plan(name)
    [hosted] = [f for f in r.findings if f.id == HOSTED_FINDING]  # the plan keeps it
    assert isinstance(hosted.params.get("next_lead"), dict)
    assert hosted.title_in(lang) not in _section7(render_memo_markdown(r, lang), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_lead_without_a_next_generation_keeps_the_finding(lang: str) -> None:
    r = advice_plan("q36_bursty_b2b_event_mainland")
    hosted = [f for f in r.findings if f.id == HOSTED_FINDING]
    assert hosted and not isinstance(hosted[0].params.get("next_lead"), dict)
    # apf44 (review 36): page 1 starts on the API, so section 7 titles the finding as the self-hosted fallback's
    # comparison, not "a hosted API would cost less … check it before you commit"; the finding is still there
    section7 = _section7(render_memo_markdown(r, lang), lang)
    assert render(lang, FALLBACK_TITLE, hosted[0].params) in section7
    assert hosted[0].title_in(lang) not in section7
