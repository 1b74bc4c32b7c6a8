"""Under a hosted-API lead, the self-hosted plan to move to is where self-hosting would start (s26-polish26, issue
25, blind review 15, q21): a plan that launches in Hong Kong only until its ICP filing is done moves to the mainland
node, so page 1 names that node's region and line, not the launch node's; where the plan has no such move (q22), or
the plan itself leads (no API lead), the plan's own region and line are said as before."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan, short_lived

LANGS = ("en", "zh_CN")
# s35-apihead: labelled the fallback (blind review 26, q12/q13)
MOVE_TO = {"en": "**The fallback, the self-hosted plan to move to**", "zh_CN": "**备选：之后要转到的自建方案**"}
REGION = {"en": "Region: ", "zh_CN": "区域："}


def _move_to_line(memo: str, lang: str) -> str | None:
    return next((line for line in memo.splitlines() if line.startswith(MOVE_TO[lang])), None)


@pytest.mark.parametrize("lang", LANGS)
def test_q21_moves_to_the_mainland_node_after_its_filing(lang):
    r = advice_plan("q21_fast_launch_hk_rule1")
    assert r.start_with is not None and r.start_with.form == "hosted_api" and r.costs.phased is not None
    line = _move_to_line(render_memo_markdown(r, lang), lang)
    assert line is not None
    region = line.split(REGION[lang], 1)[1]
    mainland, bgp = ("mainland China", "BGP multi-line") if lang == "en" else ("中国大陆", "BGP 多线")
    assert region.startswith(mainland if lang == "en" else "ICP 备案完成后在中国大陆") and bgp in line, line
    # s28-memo28, re-argued (review 17, q21: "Network line: BGP multi-line" contradicted the Hong Kong phase's
    # three-network line that page 1's cost, reasons and first step still plan for): the line, like the region, names
    # each phase, the mainland's first and the launch's "before it"; it no longer leaves the launch line out
    before = line.split(bgp, 1)[1]
    assert ("three-network" in before) if lang == "en" else ("三网" in before), line
    assert r.region == "hong_kong" and r.line == "three_network"  # the plan's own decision is unchanged


@pytest.mark.parametrize("lang", LANGS)
def test_a_plan_with_no_move_keeps_its_region_and_line(lang):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    r = advice_plan("q22_hk_company_telecom_only", **short_lived({}))
    assert r.start_with is not None and r.start_with.form == "hosted_api" and r.costs.phased is None
    line = _move_to_line(render_memo_markdown(r, lang), lang)
    assert line is not None
    assert (("Region: Hong Kong" in line and "CN2 GIA" in line) if lang == "en"
            else ("区域：香港" in line and "CN2 GIA" in line)), line


@pytest.mark.parametrize("lang", LANGS)
def test_without_an_api_lead_the_plan_is_said_as_it_launches(lang):
    """q21 at two million requests a day: self-hosting leads, the Hong Kong launch node first (the move is in the
    cost row and the timeline), no "plan to move to"."""
    r = advice_plan("q21_fast_launch_hk_rule1", requests_per_day=2_000_000)
    assert r.start_with is None and r.costs.phased is not None
    memo = render_memo_markdown(r, lang)
    assert _move_to_line(memo, lang) is None
    head = memo.split("\n## ")[1]
    assert ("Region: Hong Kong" in head) if lang == "en" else ("区域：香港" in head), head[:600]
