"""Text from another kind of case that the answers do not make true (issue 25, blind review 35, s42-ctx).

Each memo says a thing only where its own answers make it true: no voice-agent words in a game's text chat (q23), no
other workload's examples in a writing assistant's personal-information finding (q43, q22), no China-template duty
words for a US company's API (q24), the round-trip example from the plan's own region (q09), no "network line" on a
hosted API's recommendation (q15, q27), a small office's payer and data location and an optional second box (q01),
the product's own surface for the filing number (q16), an overridden answer said as the first question (q11), and a
finance title naming what the files hold (q06).
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def plan(name: str, **change: object) -> PlanResult:
    return planned({**advice_answers(name), **change})


def memo(name: str, lang: str) -> str:
    return render_memo_markdown(plan(name), lang)


def page_one(md: str) -> str:
    return md.split("\n## ")[1]


@pytest.mark.parametrize("lang", LANGS)
def test_a_game_npc_chat_gets_no_voice_agent_words(lang: str) -> None:
    md = memo("q23_japan_game_npc", lang)
    banned = {"en": ("speech", "calls or sessions", "person speaks"), "zh_CN": ("语音", "通话")}[lang]
    assert not [w for w in banned if w in md]
    # the latency finding still names a step before the model, in words any service's team can check
    assert ("a retrieval call" if lang == "en" else "检索调用") in md


@pytest.mark.parametrize("name", ["q43_us_team_mainland_low_latency", "q22_hk_company_telecom_only"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_personal_information_finding_carries_no_other_workloads_examples(name: str, lang: str) -> None:
    f = plan(name).finding("pi.none_as_answered")
    assert f is not None
    text = f.detail_in(lang)
    banned = {"en": ("Meeting minutes", "call transcripts", "HR files", "support tickets"),
              "zh_CN": ("会议纪要", "通话转写", "人事材料", "客服工单")}[lang]
    assert not [w for w in banned if w in text], text
    assert ("If they do name people" if lang == "en" else "若其中出现人名") in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_us_companys_local_api_says_no_china_template_duties(lang: str) -> None:
    md = memo("q24_us_saas_rent", lang)
    assert ("出境" not in md) if lang == "zh_CN" else ("the node's own duties apply" not in md)
    assert ("which company processes and keeps the prompts" if lang == "en" else "由哪家公司、在哪里处理和存放提示词") in md


@pytest.mark.parametrize(("name", "place", "never"), [
    ("q09_eu_voice_agent", {"en": "Frankfurt", "zh_CN": "法兰克福"}, {"en": "Shanghai", "zh_CN": "上海"}),
    ("q23_japan_game_npc", {"en": "Tokyo–Los Angeles", "zh_CN": "东京—洛杉矶"}, {"en": "Shanghai", "zh_CN": "上海"}),
])
@pytest.mark.parametrize("lang", LANGS)
def test_the_round_trip_example_starts_in_the_plans_own_region(name, place, never, lang: str) -> None:
    r = plan(name)
    f = r.finding("region.latency_budget")
    assert f is not None
    text = f.detail_in(lang)
    assert place[lang] in text, text
    # nor in the finding's source, whose title named the mainland's example too
    assert never[lang] not in render_memo_markdown(r, lang)


@pytest.mark.parametrize("name", ["q15_hosted_api_small_us_team", "q27_six_month_pilot_no_ops"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_hosted_api_recommendation_names_the_providers_endpoint_not_a_line(name: str, lang: str) -> None:
    r = plan(name)
    assert r.deployment_form == "hosted_api"
    first = page_one(render_memo_markdown(r, lang))
    rec = next(line for line in first.splitlines() if line.startswith("**Recommendation**" if lang == "en" else "**建议**"))
    assert ("Network line" not in rec) if lang == "en" else ("线路：" not in rec), rec
    assert ("provider's endpoint" if lang == "en" else "服务商在") in rec, rec
    if r.region == "mainland":  # the provider's mainland network reaches every carrier
        assert ("every carrier" if lang == "en" else "各运营商") in rec


@pytest.mark.parametrize("lang", LANGS)
def test_a_self_hosted_recommendation_keeps_its_region_and_line(lang: str) -> None:
    md = memo("q23_japan_game_npc", lang)
    assert ("Network line:" if lang == "en" else "线路：") in page_one(md)


@pytest.mark.parametrize("lang", LANGS)
def test_a_small_office_box_is_paid_from_the_office_and_keeps_data_on_its_lan(lang: str) -> None:
    r = plan("q01_office_lan_capex_contracts")
    md = render_memo_markdown(r, lang)
    assert translate(lang, "ctx44.payer.office") in md
    assert translate(lang, "sp43.payer.general") not in md
    keep = r.finding("pi.keep_in_mainland")
    assert keep is not None and keep.title_in(lang) == translate(lang, "ctx44.lan.title")
    assert ("mainland node" not in md) if lang == "en" else ("大陆节点" not in md)
    second = r.finding("sizing.single_point")
    assert second is not None
    title = second.title_in(lang)
    assert ("optional" if lang == "en" else "可选") in title, title
    assert ("would cover a second" not in title) if lang == "en" else ("再加一台" not in title)


@pytest.mark.parametrize("lang", LANGS)
def test_a_node_in_a_data_centre_keeps_its_mainland_wording(lang: str) -> None:
    """The LAN's words only for a box on the LAN: the same firm on its private network keeps "a mainland node"."""
    r = plan("q01_office_lan_capex_contracts", reach="private_network")
    keep = r.finding("pi.keep_in_mainland")
    assert keep is not None and keep.title_key != "ctx44.lan.title"


@pytest.mark.parametrize("lang", LANGS)
def test_the_filing_number_is_shown_on_the_services_own_surface(lang: str) -> None:
    md = memo("q16_hosted_api_mainland_registration", lang)
    assert ("your website or app shows the model name" if lang == "en" else "网站或应用上要显示模型名称") in md
    assert ("the app shows" not in md) if lang == "en" else ("应用里" not in md)


@pytest.mark.parametrize("lang", LANGS)
def test_an_overridden_answer_is_the_first_open_question_and_says_so(lang: str) -> None:
    r = plan("q11_paid_api_b25")
    questions = [q for q in r.open_questions if q.changes_decision]
    assert questions[0].field == "open_signup"
    assert questions[0].assumption_key == "ctx44.assume.open_signup_overrides"
    md = render_memo_markdown(r, lang)
    said = translate(lang, "ctx44.assume.open_signup_overrides")
    assert said in md
    assert ("overrides your answer" if lang == "en" else "没有采用你们") in said
    # answered "public" already: nothing is overridden, the plain standing assumption stays
    public = plan("q11_paid_api_b25", public_genai_in_mainland=True)
    assert all(q.assumption_key != "ctx44.assume.open_signup_overrides" for q in public.open_questions)


@pytest.mark.parametrize("lang", LANGS)
def test_a_finance_title_names_what_the_files_hold(lang: str) -> None:
    f = plan("q06_l20_batch_72h_claims").finding("pi.sensitive_safeguards")
    assert f is not None
    title = f.title_in(lang)
    words = {"en": ("ID numbers", "medical records"), "zh_CN": ("身份证号", "病历")}[lang]
    assert all(w in title for w in words) and ("Financial records" not in title and "金融记录" not in title), title
