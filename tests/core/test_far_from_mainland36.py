""""No mainland China rules apply" is one of page 1's reasons only where a node stands near the mainland (issue #25,
blind review 25, q09 zh: "'本服务不涉及中国大陆规则' is irrelevant to a German team and should leave the summary").

For a node in Europe or the US nobody weighed mainland rules, so the finding stays in section 7 and page 1's list
gives its place to a reason that decides; for Hong Kong, Singapore or Japan — where a team does weigh the mainland
as the alternative — it stays a reason (q25's reviewer: "no mainland rules for Hong Kong customers" as a strength)."""

from __future__ import annotations

import pytest

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
def test_far_nodes_keep_it_in_section_7_only(scenario, lang):
    r = advice_plan(scenario)
    found = next(f for f in r.findings if f.id == "region.no_mainland_rules")  # still said
    assert found not in deciding(r.findings)
    md = render_memo_markdown(r, lang)
    assert TITLE[lang] in md and TITLE[lang] not in _page_one(md)


@pytest.mark.parametrize("scenario", NEAR)
def test_near_nodes_keep_it_among_the_reasons(scenario):
    r = advice_plan(scenario)
    found = next(f for f in r.findings if f.id == "region.no_mainland_rules")
    assert found in deciding(r.findings)
    assert TITLE["en"] in _page_one(render_memo_markdown(r, "en"))
