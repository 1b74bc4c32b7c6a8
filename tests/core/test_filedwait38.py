"""A plan that waits months on the generative-AI filing, and three wordings of blind review 27 (issue 25; q30, q07,
q27, q22): one change said as one, what runs during the wait and the month from launch, the algorithm filing in the
timeline and next steps, the closed pilot only on the provincial CAC's written word, no payback or weight staging
while the plan waits, the personal-information question that fits a "no personal information" answer, and "deploy
in Hong Kong" where no mainland entity could make a later move."""

from __future__ import annotations

import pytest

from advisor.plan import filedwait38
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, advice_plan, only_finding, planned

LANGS = ("en", "zh_CN")
Q30 = "q30_unfiled_finetune_public_30d"


def _page1(memo: str) -> str:
    return memo.split("\n## 2.")[0] if "\n## 2." in memo else memo.split("\n## 二、")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_one_change_is_introduced_as_this_change_not_any_one(lang):
    r = advice_plan(Q30)
    assert len(r.fixes) == 1
    page1 = _page1(render_memo_markdown(r, lang))
    assert ("This change makes it feasible:" if lang == "en" else "做出以下这项调整即可实现：") in page1
    assert ("Any one of these" if lang == "en" else "任意一项") not in page1


@pytest.mark.parametrize("lang", LANGS)
def test_the_filing_wait_says_what_runs_and_that_the_month_starts_at_launch(lang):
    r = advice_plan(Q30)
    [fix] = r.fixes
    assert fix.id == "extend_deadline" and fix.key == filedwait38.FIX_KEY_DOSSIER  # a fine-tune files on the model
    assert fix.monthly_cost is not None
    line = next(x for x in _page1(render_memo_markdown(r, lang)).splitlines() if x.startswith("- ") and
                f"{fix.params['days']}" in x)
    low = f"{fix.monthly_cost.low:,.0f}"
    assert low in line
    if lang == "en":
        assert "one GPU rented by the hour" in line and "self-assessment" in line
        assert "rented only from launch" in line
        assert line.index("from launch") < line.index(low)  # the month is said as the serving GPUs', from launch
    else:
        assert "按小时租 1 张 GPU" in line and "安全自评估" in line
        assert "上线时才开始租" in line and line.index("上线时才开始租") < line.index(low)
    cost = next(x for x in _page1(render_memo_markdown(r, lang)).splitlines()
                if x.startswith("| Cost |" if lang == "en" else "| 成本 |"))
    assert ("paid from launch, after the filing" if lang == "en" else "上线后才开始支付") in cost
    # the self-assessment it points to is the filing finding's own dossier sentence
    assert "TC260-003" in only_finding(r, "genai.filing").detail_in("en")


def test_a_model_not_fine_tuned_gets_no_self_assessment_box():
    a = advice_answers(Q30)
    a.pop("model_customisation"), a.pop("model_name"), a.pop("checkpoint")
    r = planned(a)
    fix = next((f for f in r.fixes if f.id == "extend_deadline"), None)
    assert fix is not None and fix.key == filedwait38.FIX_KEY
    assert "by the hour" not in fix.text_in("en")


@pytest.mark.parametrize("name", [Q30, "q07_minors_education_app"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_algorithm_filing_is_in_the_timeline_and_next_steps(name, lang):
    r = advice_plan(name)
    assert only_finding(r, "genai.algorithm_filing").title_key == "plan.rule.genai.algorithm_filing.title"
    [s] = [i for i in r.timeline.items if i.id == filedwait38.ALGORITHM_STEP]
    # made before or with the generative-AI filing (its number in that dossier): before launch, inside that filing's
    # days, so not a wait of its own (s37-seq, review 29, q30: "it should be listed as a prerequisite")
    assert not s.length_known and s.blocking and s.within in [i.id for i in r.timeline.items if i.length_known]
    assert s not in r.timeline.untimed
    memo = render_memo_markdown(r, lang)
    word = "Algorithm filing (算法备案)" if lang == "en" else "算法备案（"
    timeline = memo.split("## 5." if lang == "en" else "## 五、")[1].split("\n## ")[0]
    assert word in timeline
    steps = memo.split("**Next steps:**" if lang == "en" else "**下一步：**")[1].split("\n## ")[0]
    assert ("algorithm filing (算法备案)" if lang == "en" else "算法备案") in steps


def test_a_filed_service_keeps_its_check_not_a_filing_step():
    r = advice_plan("q32_filed_public_chatbot_fast")
    ids = [i.id for i in r.timeline.items]
    assert filedwait38.ALGORITHM_STEP not in ids and "algorithm_filing_confirm" in ids


@pytest.mark.parametrize("lang", LANGS)
def test_the_closed_pilot_rests_on_the_provincial_cacs_written_word(lang):
    x = only_finding(advice_plan(Q30), "genai.closed_pilot")
    title, detail = x.title_in(lang), x.detail_in(lang)
    if lang == "en":
        assert title.startswith("Only with the provincial CAC's written agreement")
        assert "grade U" in detail and "not a way to launch early" in detail and "in writing" in detail
    else:
        assert title.startswith("须先取得省级网信办书面确认")
        assert "可信度 U" in detail and "不是提前上线的办法" in detail and "书面确认" in detail


@pytest.mark.parametrize("lang", LANGS)
def test_a_plan_waiting_on_the_filing_weighs_no_purchase_and_stages_no_weights(lang):
    r = advice_plan(Q30)
    assert filedwait38.waits(r)
    ids = r.finding_ids
    assert "scaling.prestage_weights" not in ids
    rent = only_finding(r, "cost.rent")
    detail = rent.detail_in(lang)
    assert ("pays back" not in detail and "paid from launch" in detail) if lang == "en" else \
        ("回本" not in detail and "自上线" in detail)
    memo = render_memo_markdown(r, lang)
    assert ("| Owning pays off |" if lang == "en" else "| 自购回本时间 |") not in memo
    assert "140 GB" not in memo


def test_a_plan_not_waiting_keeps_its_payback_and_weight_staging():
    a = advice_answers(Q30)
    a["launch_deadline_days"] = 365  # the filing fits: the plan is what launches
    r = planned(a)
    assert not filedwait38.waits(r) and r.region == "mainland"
    assert "scaling.prestage_weights" in r.finding_ids
    assert "paid from launch" not in only_finding(r, "cost.rent").detail_in("en")


@pytest.mark.parametrize("lang", LANGS)
def test_no_sensitive_count_question_beside_no_personal_information(lang):
    r = advice_plan("q27_six_month_pilot_no_ops")
    q = next(x for x in r.open_questions if x.field == "data_sensitivity.sensitive_pi_subjects_per_year")
    text = q.question_in(lang)
    assert ("How many of them" if lang == "en" else "其中多少人") not in text
    assert ("no personal information" if lang == "en" else "不含个人信息") in text


def test_the_sensitive_count_is_still_asked_where_personal_information_is_answered_yes():
    a = advice_answers("q27_six_month_pilot_no_ops")
    a["data_sensitivity"] = {**a["data_sensitivity"], "personal_info": True, "pi_subjects_per_year": 50000}
    qs = [x for x in planned(a).open_questions if x.field == "data_sensitivity.sensitive_pi_subjects_per_year"]
    assert all(x.question_key is None and "How many of them" in x.question_in("en") for x in qs)


@pytest.mark.parametrize("lang", LANGS)
def test_no_mainland_entity_deploys_in_hong_kong_not_first(lang):
    page1 = _page1(render_memo_markdown(advice_plan("q22_hk_company_telecom_only"), lang))
    # s39-swap (owner_sign39, blind review 31): the bold headline now opens "Recommended, subject to your sign-off:
    # deploy …"; the rule is unchanged: the headline deploys in Hong Kong, and nowhere on page 1 does it "start" there
    headline = next(line for line in page1.splitlines() if line.startswith("**"))
    # s41-swap (blind review 34): the bold line says the owner's choice; way B's line says the API's path
    headline = next(line for line in page1.splitlines() if line.startswith(("- **B)", "- **B）")))
    if lang == "en":
        # s40-swap (review 32, q12 en): the path said plainly, "deploy a front-end host in Hong Kong calling …"
        assert "deploy a front-end host in hong kong" in headline.lower() and "start in hong kong" not in page1.lower()
        assert "start with a front-end host" not in page1.lower()
    else:
        assert "在香港部署" in headline and "先在香港" not in page1


@pytest.mark.parametrize("lang", LANGS)
def test_with_a_mainland_entity_a_later_move_keeps_start_in_hong_kong(lang):
    a = advice_answers("q22_hk_company_telecom_only")
    a["mainland_entity"] = True
    page1 = _page1(render_memo_markdown(planned(a), lang))
    assert ("Deploy in Hong Kong" if lang == "en" else "**在香港部署") not in page1
    assert ("deploy a front-end host" if lang == "en" else "：在香港部署") not in page1  # s40-swap: "start with …"


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_plan_prices_its_volumes_high_end_on_page_1(lang):
    r = advice_plan("q27_six_month_pilot_no_ops")
    c = r.costs
    factor = c.output_tokens_per_month_high / c.output_tokens_per_month
    assert factor > 1
    row = next(x for x in _page1(render_memo_markdown(r, lang)).splitlines()
               if x.startswith("| Cost |" if lang == "en" else "| 成本 |"))
    # the API's bill is linear in the tokens: the same price range times the high end's share of the month costed
    assert f"{c.hosted_api_monthly.low * factor:,.0f}–{c.hosted_api_monthly.high * factor:,.0f}" in row
    assert f"{float(f'{c.output_tokens_per_month_high:.2g}'):,.0f}" in row  # as the tokens row rounds it


def test_no_high_end_clause_off_an_api_plan():
    from advisor.plan import api_top38

    r = advice_plan(Q30)  # rented GPUs: the hosted API is no plan of its own there
    assert r.deployment_form != "hosted_api" and api_top38.clause(r, "en") == ""
