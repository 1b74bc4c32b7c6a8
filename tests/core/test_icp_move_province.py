"""A filed service moving data centre says what changes when the new one is in another province (issue 25, s20).

Round 9 (q31, a move "to another city"): "if it is another province, the filing's provincial handling changes and
that should be said". The answers never give the province, so the access-record finding says it conditionally, on
what MII Order 33 Art. 3(2) says (a filing is with the administration of the province of the filer's domicile):
the filing stays with the company's province, which reviews the new provider's access record; only a move of the
company's registered address moves it. Both the answered move (q31) and the move the plan makes (q26: servers
bought for colocation) say it, cite the article, and in both languages.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from tests.support.planned import advice_answers, bought_now, planned

PROVINCE = {"en": "another province", "zh_CN": "另一个省"}


@pytest.mark.parametrize("scenario", ["q31_icp_filed_hosting_move", "q26_steady_3y_strong_ops_buy"])
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_access_record_says_what_another_province_changes(scenario: str, lang: str) -> None:
    plan = bought_now(advice_answers(scenario))  # s31-ctb32: q26 as bought once a quote meets its covered gate
    access = next(f for f in plan.findings if f.id == "icp.access_record")
    detail = translate(lang, access.detail_key, **access.params)
    assert PROVINCE[lang] in detail and "{" not in detail
    assert any("miit.gov.cn" in s.url and "Art. 3(2)" in s.title for s in access.sources)


def test_a_service_that_stays_put_is_not_told_about_provinces() -> None:
    plan = planned({**advice_answers("q31_icp_filed_hosting_move"), "hosting_move": False,
                    "measured_utilisation": None})
    assert all(f.id != "icp.access_record" for f in plan.findings)
