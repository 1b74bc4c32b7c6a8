"""Wording from blind review 34 (s41-zhclean): the memo points at its own sections, not at pages a Markdown memo has
not got; it gives no tool jargon, simulator internals or untranslated answer codes; Chinese says 你们 for the team.

- q05/q42 zh: "第 1 页的成本含线路合计" and "the memo has no pages"; q39 zh: "'第 1 页'/'第 7 节' clash with
  '第一节'-style headings"; q06 zh: "见发现与义务" should name section 七;
- q03/q15/q27 zh: "重新生成方案", "填入项目文件（plan → quotes）后重新生成方案", "请回答后重新生成" a boss cannot act on;
  q18 zh: "cordon 隔离"; q13/q34/q37 zh: "所列市场：SEA" untranslated;
- q09/q18/q33: "相邻几列重复的首 token P99…每级最多计时 128 个请求", "只分别计时了 16 和 21 个请求", "误差中位数（54 %）";
- q39 zh: "8 张 NVIDIA H800 SXM5 80GB 张".
"""

from __future__ import annotations

import re

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ["en", "zh_CN"]
NO_PAGES = {"en": re.compile(r"\b[Pp]age 1\b"), "zh_CN": re.compile(r"第 ?\d+ ?(页|节)")}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q05_filed_finetune_mainland_sg", "q06_l20_batch_72h_claims",
                                  "q39_hybrid_l20_base_cloud_burst", "q38_eu_internal_hr_assistant"])
def test_the_memo_points_at_its_sections_in_its_headings_style(name: str, lang: str) -> None:
    memo = render_memo_markdown(advice_plan(name), lang)
    assert not NO_PAGES[lang].search(memo), NO_PAGES[lang].search(memo)
    assert "见发现与义务" not in memo


def test_the_line_cost_and_the_batch_margin_name_their_sections() -> None:
    assert "第一节的成本已含线路费用" in render_memo_markdown(advice_plan("q05_filed_finetune_mainland_sg"), "zh_CN")
    assert "The cost in section 1 includes the line" in render_memo_markdown(
        advice_plan("q05_filed_finetune_mainland_sg"), "en")
    assert "（见第七节“判断与合规义务”）" in render_memo_markdown(advice_plan("q06_l20_batch_72h_claims"), "zh_CN")


@pytest.mark.parametrize("name", ["q03_hospital_private_wan_medical", "q15_hosted_api_small_us_team",
                                  "q18_us_fleet_32_h100", "q27_six_month_pilot_no_ops", "q29_batch_impossible_budget"])
def test_no_tool_jargon_in_chinese(name: str) -> None:
    memo = render_memo_markdown(advice_plan(name), "zh_CN")
    for jargon in ("重新生成", "plan → quotes", "`advisor ab`", "cordon", "通过/否决", "阻碍项", "读一读"):
        assert jargon not in memo, jargon


@pytest.mark.parametrize("lang", LANGS)
def test_south_east_asia_is_named_not_coded(lang: str) -> None:
    memo = render_memo_markdown(advice_plan("q13_sg_sellers_pi_below_threshold"), lang)
    assert "SEA" not in memo
    assert ("Markets named: South-East Asia." if lang == "en" else "所列市场：东南亚。") in memo


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q09_eu_voice_agent", "q18_us_fleet_32_h100", "q33_office_4090d_fleet"])
def test_no_simulator_internals(name: str, lang: str) -> None:
    memo = render_memo_markdown(advice_plan(name), lang)
    for said in {"en": ("times at most", "time only", "median error at that load"),
                 "zh_CN": ("每级最多计时", "只分别计时", "误差中位数（")}[lang]:
        assert said not in memo, said


def test_the_rented_burst_cards_take_one_measure_word() -> None:
    memo = render_memo_markdown(advice_plan("q39_hybrid_l20_base_cloud_burst"), "zh_CN")
    assert "只在扩容时租用 8 张 NVIDIA H800 SXM5 80GB）" in memo
    assert not re.search(r"\d+ 张 [^，。；（）]* 张）", memo)


@pytest.mark.parametrize("name", ["q11_paid_api_b25", "q14_medical_followup_mainland", "q32_filed_public_chatbot_fast",
                                  "q20_china_parts_offshore_sg"])
def test_chinese_says_nimen_for_the_team(name: str) -> None:
    memo = render_memo_markdown(advice_plan(name), "zh_CN")
    assert "您" not in memo and not re.search("你(?!们)", memo)
