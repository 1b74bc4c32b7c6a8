"""Sources the eleventh blind review found stale (s21-sources21b): the MAS outsourcing guidelines in force since
11 December 2024 replace the 2016/2018 set (q37), the Singapore personal-data finding says the PDPA's breach notice
(s. 26D, q37), and a health service's pre-ICP approval rests on what the sources support, the reported 2017
cancellation graded U (q14). The new rules' both-direction rows are in tests/core/test_plan_obligations.py."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from tests.core.test_plan_obligations import HK_BANK, MAINLAND, NO_MAINLAND, pi

LANGS = ("en", "zh_CN")
SG_FINANCE = {**NO_MAINLAND, **pi(1_000_000, 0, sector="finance")}


def _finding(answers: dict, rule_id: str):
    [x] = [f for f in make_plan(answers_from_dict(answers)).findings if f.id == rule_id]
    return x


def test_the_mas_outsourcing_finding_cites_the_guidelines_in_force_not_the_2016_set():
    x = _finding(SG_FINANCE, "fin.mas_outsourcing")
    dates = [s.date for s in x.sources]
    assert "2023-12-11" in dates and "2016-07-27" not in dates
    assert any(s.grade == "A" and "mas.gov.sg" in s.url for s in x.sources)


@pytest.mark.parametrize("lang", LANGS)
def test_the_singapore_personal_data_finding_says_the_three_day_breach_notice(lang):
    sg = _finding(SG_FINANCE, "pi.region_residency")
    assert "26D" in sg.detail_in(lang)
    assert any("Part 6A" in s.title for s in sg.sources)
    hk = _finding(HK_BANK, "pi.region_residency")  # Hong Kong's PDPO has no such duty: neither the text nor the source
    assert "26D" not in hk.detail_in(lang) and not any("Part 6A" in s.title for s in hk.sources)


@pytest.mark.parametrize("lang", LANGS)
def test_a_health_service_is_told_which_approvals_the_sources_support_and_the_unconfirmed_one_is_marked(lang):
    x = _finding({**MAINLAND, "icp_status": "none", **pi(sector="medical")}, "icp.sector_preapproval")
    assert x.title_key == "plan.rule.icp.sector_preapproval.health.title"
    assert x.verify  # the 2017 cancellation is read in no public source here (grade U): the finding says verify
    assert [s.grade for s in x.sources if "2017" in s.date and not s.url] == ["U"]
    general = translate(lang, "plan.rule.icp.sector_preapproval.detail")
    assert x.detail_in(lang) != general
    news = _finding({**MAINLAND, "icp_status": "none", **pi(sector="news")}, "icp.sector_preapproval")
    assert news.title_key == "plan.rule.icp.sector_preapproval.title"  # other sectors keep the general text
    assert not any(s.grade == "U" for s in news.sources)
