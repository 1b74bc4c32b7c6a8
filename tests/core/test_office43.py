"""Office-box plans said as an owner reads them (blind review 34, q01/q02, en + zh_CN): the payback row leads with
the like-for-like comparison alone; one word, "workstation", for a one- or two-card box in the office; the GPU
choice in two sentences (the chosen pair on price, the one fallback); no rental price rows for a plan that buys
from a one-off budget and keeps its prompts on the office LAN; a 0 count of sensitive data challenged for contracts;
the box's noise, heat and power cut said once; plain Chinese for the peak read as a short burst."""

from __future__ import annotations

import re

import pytest

from advisor.plan import unbought_rows
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, only_finding, planned

LANGS = ("en", "zh_CN")
Q01 = "q01_office_lan_capex_contracts"
Q02 = "q02_office_lan_small_design_agency"
WORKSTATION = {"en": "workstation", "zh_CN": "工作站"}
SERVER = {"en": "server", "zh_CN": "服务器"}


def _row(memo: str, *heads: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith(tuple(f"| {h} |" for h in heads)))


@pytest.mark.parametrize("lang", LANGS)
def test_the_payback_row_gives_one_payback_against_the_like_for_like_vm(lang):
    r = planned(advice_answers(Q02))
    assert r.costs.payback_vm  # the VM is the yardstick
    row = _row(render_memo_markdown(r, lang), "Owning pays off", "自购回本时间")
    months = re.findall(r"(\d+(?:\.\d+)?)(?:–\d+(?:\.\d+)?)? ?(?:months|个月)", row)
    # blind review 35 (cst44): two paybacks, the same card rented (like-for-like) and the VM over the budget, after
    # the LAN-only requirement said as the reason to buy, so neither reads as "buying doesn't pay"
    assert len(months) >= 2, row
    assert ("LAN-only requirement is the reason to buy" if lang == "en" else "自购的理由") in row
    assert ("GPU marketplace" if lang == "en" else "GPU 租用平台") in row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("sid", (Q01, Q02))
def test_a_one_or_two_card_office_box_is_a_workstation_throughout(sid, lang):
    r = planned(advice_answers(sid))
    assert 0 < r.costs.owned.gpus_owned <= 2
    memo = render_memo_markdown(r, lang)
    head = next(line for line in memo.splitlines() if line.startswith(("**Recommendation**", "**建议**")))
    assert WORKSTATION[lang] in head and SERVER[lang] not in head
    f = only_finding(r, "cost.on_premises")
    title, detail = f.title_in(lang), f.detail_in(lang)
    assert WORKSTATION[lang] in title and SERVER[lang] not in title
    setup = next(i for i in r.timeline.items if i.id == "setup")
    assert setup.label_key == "plan.timeline.of43.setup_workstation"
    # noise, heat and a power cut said once, in the box's own finding
    assert ("UPS" in detail) and detail.count("UPS") == 1
    assert ("fan heater" if lang == "en" else "电暖器") in detail


@pytest.mark.parametrize("lang", LANGS)
def test_a_four_card_office_box_stays_a_server(lang):
    r = planned({**advice_answers(Q01), "peak_concurrency": 30})
    assert r.deployment_form == "on_premises" and r.costs.owned.gpus_owned > 2
    f = only_finding(r, "cost.on_premises")
    assert "of43" not in f.title_key and SERVER[lang] in f.title_in(lang)
    assert next(i for i in r.timeline.items if i.id == "setup").label_key == "plan.timeline.setup_office"
    head = next(line for line in render_memo_markdown(r, lang).splitlines()
                if line.startswith(("**Recommendation**", "**建议**")))
    assert WORKSTATION[lang] not in head


@pytest.mark.parametrize("lang", LANGS)
def test_the_gpu_choice_is_two_sentences_with_the_licence_clause_once(lang):
    r = planned(advice_answers(Q01))
    text = r.gpu_choice.text_in(lang)
    sentences = [s for s in re.split(r"(?<=[.。])\s*", text) if s.strip()]
    assert len(sentences) == 2, text
    other = r.gpu_choice._option(r.gpu_choice.single_card_declined["other"])
    assert other.gpu_name in sentences[1] and r.gpu_choice.chosen.gpu_name in sentences[0]
    assert "A10" not in text  # no third card
    assert text.count("GeForce 许可" if lang == "zh_CN" else "GeForce licence") == 1
    assert ("office" if lang == "en" else "办公室") in sentences[1]
    assert ("quotes decide" if lang == "en" else "以报价为准") in text


@pytest.mark.parametrize("lang", LANGS)
def test_no_rental_price_rows_for_a_one_off_office_box_whose_prompts_stay_on_the_lan(lang):
    a = advice_answers(Q01)
    r = planned(a)
    assert unbought_rows.rent_excluded(r.deployment_form, r.answers)
    memo = render_memo_markdown(r, lang)
    table = memo.split("Prices used" if lang == "en" else "所用价格")[1].split("\n\n")[1]
    kinds = {"en": ("| on demand |", "| monthly |", "| spot |"), "zh_CN": ("| 按量 |", "| 包月 |", "| 抢占式 |")}[lang]
    assert not any(k in table for k in kinds), table
    assert ("| purchase |" if lang == "en" else "| 购置 |") in table
    # with a monthly budget (q02) the rows stay: the payback is weighed against them
    r2 = planned(advice_answers(Q02))
    assert not unbought_rows.rent_excluded(r2.deployment_form, r2.answers)
    assert any(p.kind == "on_demand" for p in unbought_rows.shown(r2.costs.prices, r2.deployment_form, r2.costs,
                                                                  r2.answers, r2.hardware.gpu))


@pytest.mark.parametrize("lang", LANGS)
def test_a_zero_count_of_sensitive_data_is_challenged_for_client_contracts(lang):
    a = advice_answers(Q01)
    assert a["data_sensitivity"]["sensitive_pi_subjects_per_year"] == 0 and a["data_sensitivity"]["sector"] == "legal"
    f = only_finding(planned(a), "pi.sensitive_safeguards")
    assert f.title_key == "plan.rule.pi.sensitive_safeguards.of43.title" and f.sources
    detail = f.detail_in(lang)
    assert ("ID-card" if lang == "en" else "身份证号") in detail and ("0" in detail)
    assert ("recount" if lang == "en" else "重新清点") in detail
    # a public legal Q&A holds its users' questions, not contracts: no challenge there
    pub = {**a, "audience": "public"}
    assert all(x.title_key != f.title_key for x in planned(pub).findings if x.id == "pi.sensitive_safeguards")
    # a count above 0 is the general sensitive-data text
    n = {**a, "data_sensitivity": {**a["data_sensitivity"], "sensitive_pi_subjects_per_year": 800}}
    g = only_finding(planned(n), "pi.sensitive_safeguards")
    assert "of43" not in g.title_key


def test_the_peak_read_as_a_short_burst_is_plain_chinese():
    memo = render_memo_markdown(planned(advice_answers(Q02)), "zh_CN")
    row = _row(memo, "每月 tokens（输入 / 输出）")
    assert "按短时突发理解" not in row and "最多发出上面的上限" not in row
    assert "短时的集中使用" in row
