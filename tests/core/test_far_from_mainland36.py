""""No mainland China rules apply" is one of page 1's reasons only where a node stands near the mainland (issue #25,
blind review 25, q09 zh: "'本服务不涉及中国大陆规则' is irrelevant to a German team and should leave the summary").

For a node in Europe or the US nobody weighed mainland rules, so the memo does not say it at all (review 28, q18) and
page 1's list gives its place to a reason that decides; for Hong Kong, Singapore or Japan — where a team does weigh the mainland
as the alternative — it stays a reason (q25's reviewer: "no mainland rules for Hong Kong customers" as a strength)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import deciding
from tests.support.planned import advice_plan

FAR = ["q09_eu_voice_agent", "q15_hosted_api_small_us_team", "q18_us_fleet_32_h100", "q38_eu_internal_hr_assistant"]
NEAR = ["q25_hk_bank_retail", "q37_sg_fintech_public", "q23_japan_game_npc"]
TITLE = {"en": "No mainland China rules apply to this service", "zh_CN": "不涉及中国大陆规则"}


def _page_one(md: str) -> str:
    return md.split("\n## 2.")[0] if "\n## 2." in md else md.split("\n## 二、")[0]


@pytest.mark.parametrize("scenario", FAR)
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_far_nodes_keep_it_in_the_plan_not_the_memo(scenario, lang):
    """Blind review 28 (q18 en: "The 'No mainland China rules apply' finding is noise for a US-only company"): in
    section 7 too it was noise; the plan (``--json``) keeps it and the disclaimer still reads it."""
    r = advice_plan(scenario)
    found = next(f for f in r.findings if f.id == "region.no_mainland_rules")  # still in the plan
    assert found not in deciding(r.findings)
    md = render_memo_markdown(r, lang)
    assert TITLE[lang] not in md
    assert translate(lang, "memo28.disclaimer") in md


@pytest.mark.parametrize("scenario", NEAR)
def test_near_nodes_keep_it_among_the_reasons(scenario):
    r = advice_plan(scenario)
    found = next(f for f in r.findings if f.id == "region.no_mainland_rules")
    assert found in deciding(r.findings)
    assert TITLE["en"] in _page_one(render_memo_markdown(r, "en"))


BATCHES = ["q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h", "q29_batch_impossible_budget"]
NO_ICP = {"en": "No ICP filing needed for this setup", "zh_CN": "这种部署不需要 ICP 备案"}


@pytest.mark.parametrize("scenario", BATCHES)
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_batch_says_no_icp_in_section_7_not_as_a_reason(scenario, lang):
    """An offline batch publishes nothing: "no ICP filing" is true and decides nothing (q06, q28 zh reviewers)."""
    r = advice_plan(scenario)
    found = next(f for f in r.findings if f.id == "icp.not_needed")
    assert found not in deciding(r.findings)
    md = render_memo_markdown(r, lang)
    assert NO_ICP[lang] in md and NO_ICP[lang] not in _page_one(md)


def test_an_office_box_keeps_no_icp_among_its_reasons():
    """On an office LAN "no ICP" answers the team's own question (q01: no filing, no cloud bill): still a reason."""
    r = advice_plan("q01_office_lan_capex_contracts")
    assert next(f for f in r.findings if f.id == "icp.not_needed") in deciding(r.findings)
