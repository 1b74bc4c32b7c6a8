"""Under an API lead, page 1's summary table is the self-hosted plan's and says so; a GPU the answers asked for is
said to be that plan, with why the API still comes first (s27-apilead27, blind review 17: q21 "a reader cannot tell
which is being recommended", q35 "leads with an API although the client asked for H20")."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import memo_self_host_rows
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from tests.support.planned import advice_plan, short_lived

LANGS = ("en", "zh_CN")
ASKED = {"en": "you asked to run on NVIDIA H20 96GB", "zh_CN": "你们要求在 NVIDIA H20 96GB 上运行"}
REQUIRES = {"en": "nothing in your answers requires self-hosting", "zh_CN": "没有非自建不可的理由"}


def _page_one(r: PlanResult, lang: str) -> str:
    return render_memo_markdown(r, lang).split("\n## ")[1]


def _table_head(page: str) -> str:
    """The summary table's heading row: the first Markdown table row on page 1."""
    return next(line for line in page.splitlines() if line.startswith("| "))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q21_fast_launch_hk_rule1", "q22_hk_company_telecom_only", "q12_hk_saas_pi_contract"])
def test_the_table_under_an_api_lead_says_the_api_first_in_a_plain_value_column(name, lang):
    """s35-apipage (review 24): the column heading "If you self-host" still left the table read as the wrong plan;
    the hardware and cost rows now name the API first and the self-hosted plan as the fallback
    (``tests/core/test_apipage35.py``), under the plain "Value" heading."""
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    r = advice_plan(name, **short_lived({}))
    assert memo_self_host_rows.api_leads(r)  # the premise: these memos open on a hosted API
    head = _table_head(_page_one(r, lang))
    assert translate(lang, "memo.table.value") in head
    assert translate(lang, memo_self_host_rows.KEY) not in head


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical",
                                  "q15_hosted_api_small_us_team"])
def test_a_memo_without_an_api_lead_keeps_its_plain_value_column(name, lang):
    r = advice_plan(name)
    assert not memo_self_host_rows.api_leads(r)
    head = _table_head(_page_one(r, lang))
    assert translate(lang, "memo.table.value") in head
    assert translate(lang, memo_self_host_rows.KEY) not in head


@pytest.mark.parametrize("lang", LANGS)
def test_the_one_gpu_asked_for_is_said_to_be_the_plan_to_move_to_and_why_the_api_leads(lang):
    """Re-argued in s34-apilead34 (blind review 23, q35: "the user explicitly asked for rented H20: keep the
    self-hosted plan as the main deliverable"): the H20 plan heads page 1, the API the option checked beside it;
    the s27 clause ("the API comes first as nothing in your answers requires self-hosting") is gone with the lead."""
    r = advice_plan("q35_deepseek_v3_h20_internal")
    assert not memo_self_host_rows.api_leads(r)
    # the paragraph after the reasons (s36-apiplace, review 27 q42: "should not precede the decision reasons")
    lead = next(p for p in _page_one(r, lang).split("\n\n") if ASKED[lang] in p)
    assert _page_one(r, lang).index(lead) > _page_one(r, lang).index("1. **")
    assert ASKED[lang] in lead and REQUIRES[lang] not in lead


@pytest.mark.parametrize("lang", LANGS)
def test_no_gpu_named_or_a_list_of_allowed_parts_adds_no_such_clause(lang):
    unnamed = advice_plan("q35_deepseek_v3_h20_internal", gpu_constraint=None)
    listed = advice_plan("q42_china_market_gpus_mainland")  # H20, L20 or RTX 4090 D: which one is the question
    assert memo_self_host_rows.api_leads(unnamed) and not memo_self_host_rows.api_leads(listed)
    for r in (unnamed, listed):
        assert REQUIRES[lang] not in _page_one(r, lang)
