"""s20-finance20 (issue 25; re-check of session 19's memos): Indonesian users of a finance service (q37) and the
launch row that leads with what it waits for (q25), in both languages."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.reasons import deciding
from advisor.plan.result import clause_case
from tests.core.test_plan_obligations import NO_MAINLAND, pi
from tests.support.page_one import next_step_line, pointed_step
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
POINTER_WORDS = {"en": "next step", "zh_CN": "下一步第"}  # the row's pointer at page 1's step (s27-pages27)


def _row(memo: str, key: str, lang: str) -> str:
    return next(x for x in memo.splitlines() if x.startswith("| " + translate(lang, key) + " |"))


@pytest.mark.parametrize("lang", LANGS)
def test_indonesian_financial_data_is_specific_data_beside_the_answers_count_and_on_page_one(lang):
    """q37: the answers' 0 sensitive subjects stays as given; Indonesia's reading (Art. 4(2)(f)) is said beside it,
    and the localisation question is one of page 1's reasons, naming the node it would be served from."""
    r = planned(advice_answers("q37_sg_fintech_public"))
    x = r.finding("pi.id_financial_data")
    assert x is not None and r.answers["data_sensitivity"]["sensitive_pi_subjects_per_year"] == 0
    assert x in deciding(r.findings)
    detail = x.detail_in(lang)
    assert "4" in detail and "OJK" in detail and "71" in detail and "21" in detail
    assert translate(lang, "obligations20.id.given", n="0") in detail
    assert translate(lang, "plan.region.singapore") in x.title_in(lang)
    memo = render_memo_markdown(r, lang)
    page1 = memo.split("\n## 2.")[0]
    assert x.title_in(lang) in page1
    # the South-East Asian finding leaves Indonesia's bank rule to it (said once)
    sea = r.finding("pi.sea_markets")
    assert sea is not None and sea.title_key.endswith(".finance_id.title")
    assert "banks keep financial data" not in sea.detail_in("en")
    # its sources: dated and graded, none unverified
    assert x.sources and all(s.date and s.grade in "AB" for s in x.sources)


def test_no_indonesian_finding_without_indonesia_or_outside_finance():
    vn = planned({**NO_MAINLAND, "overseas_markets": ["SG", "VN"], **pi(100_000, 0, sector="finance")})
    assert vn.finding("pi.id_financial_data") is None
    sea = vn.finding("pi.sea_markets")
    assert sea is not None and sea.title_key == "plan.rule.pi.sea_markets.title"
    retail = planned({**NO_MAINLAND, **pi(100_000, 0, sector="retail")})
    assert retail.finding("pi.id_financial_data") is None
    assert "banks keep financial data" in retail.finding("pi.sea_markets").detail_in("en")


def test_a_count_not_given_is_said_as_not_given():
    r = planned({**NO_MAINLAND, "overseas_markets": ["ID"], **pi(100_000, sector="finance")})
    x = r.finding("pi.id_financial_data")
    assert x is not None
    assert translate("en", "obligations20.id.not_given") in x.detail_in("en")


@pytest.mark.parametrize("lang", LANGS)
def test_the_launch_row_leads_with_the_untimed_gate_then_the_setup_days(lang):
    """q25: "after the HKMA's review … — then 1–5 days to set up", the gate first; the CLI's line alike."""
    r = planned(advice_answers("q25_hk_bank_retail"))
    [hkma] = r.timeline.untimed
    assert r.timeline.gate is None
    label = hkma.label_in(lang, clause=True)
    days = f"{r.timeline.launch_days_low}–{r.timeline.launch_days_high}"
    # Re-argued in s27-pages27 (issue 25, page 1 says each fact once): the memo's row points at next step 1, which
    # names the review, the gate still first and the days after it; the app and the CLI keep the timeline's text
    memo = render_memo_markdown(r, lang)
    row = _row(memo, "memo.key.launch", lang)
    n = pointed_step(row, memo, lang)
    assert n is not None and label in next_step_line(memo, n, lang) and label not in row
    assert days in row and row.index(POINTER_WORDS[lang]) < row.index(days)
    line = r.timeline.launch_text(lang, days)
    assert label in line and line.index(label) < line.index(days)
    assert line.startswith(translate(lang, "finance20.launch.after_one", steps=label, days=days)[:6])
    if lang == "en":  # a label mid-sentence is lower-cased where it starts a clause, an acronym kept
        assert "The HKMA" not in line and "the HKMA's review" in line


@pytest.mark.parametrize("lang", LANGS)
def test_a_timed_gate_and_an_untimed_approval_are_both_floors_not_end_to_end(lang):
    """q14: the sector approval runs beside the filing that sets the date, so the row names both as floors."""
    r = planned(advice_answers("q14_medical_followup_mainland"))
    assert r.timeline.untimed and r.timeline.gate is not None
    memo = render_memo_markdown(r, lang)
    row = _row(memo, "memo.key.launch", lang)
    approval = r.timeline.untimed[0].label_in(lang, clause=True)
    # the gate as the row names it: since s25-dates25 the full filing the launch is planned on, registration after
    gate = r.timeline.gate_text(lang)
    # Re-argued in s27-pages27 (issue 25, page 1 says each fact once): the approval is named in next step 1, which
    # the row points at before the gate that sets the date ("not before what next step 1 lists is done; plan on …")
    n = pointed_step(row, memo, lang)
    assert n is not None and approval in next_step_line(memo, n, lang) and gate and gate in row
    assert row.index(POINTER_WORDS[lang]) < row.index(gate)
    cell = row.split("| ")[2]
    lead, sequenced = ("not before", "— then") if lang == "en" else ("须等", "之后")
    assert cell.startswith(lead) and sequenced not in cell


def test_clause_case_lowers_a_word_not_an_acronym():
    assert clause_case("The HKMA's review", "en") == "the HKMA's review"
    assert clause_case("ICP filing (ICP 备案)", "en") == "ICP filing (ICP 备案)"
    assert clause_case("金管局的审查", "zh_CN") == "金管局的审查"
    assert clause_case("Sector approval (education)", "zh_CN") == "Sector approval (education)"


def test_an_order_label_has_its_own_clause_wording_inside_a_sentence():
    """q32: "after confirm the algorithm filing … is done" — a step named as an order reads as a noun in a sentence.
    s21-duties21 (tenth blind review q05/q32): the check no longer holds the launch back, so the launch row does not
    name it at all; its clause wording stays a noun wherever a sentence names the step."""
    r = planned(advice_answers("q32_filed_public_chatbot_fast"))
    [step] = [i for i in r.timeline.items if i.label_key == "plan.timeline.algorithm_confirm"]
    assert step.label_in("en").startswith("Check")  # the timeline table keeps the order
    assert step.label_in("en", clause=True).startswith("a check of the algorithm filing")
    row = _row(render_memo_markdown(r, "en"), "memo.key.launch", "en")
    assert "algorithm filing" not in row
    assert step not in r.timeline.untimed  # the H20's sales delivery may be (review 23), never the check
