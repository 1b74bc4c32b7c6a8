"""A filed mainland service whose plan rents GPU servers: the ICP access record said plainly (s31-bigctx32; blind
review 20b, q10 en: "renting GPUs from a new cloud provider usually needs the ICP access record (接入备案) moved or
added there. Say that plainly")."""

from __future__ import annotations

import pytest

from advisor.plan.access_record_rent import RENTED_KEY
from advisor.plan.data import duration
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

PLAIN = {"en": "Renting the GPU servers from another provider than the one holding your ICP filing needs an ICP access "
               "record (接入备案) with it first, about {lo}–{hi} days",
         "zh_CN": "向备案所在接入商以外的服务商租用 GPU 服务器，须先在该服务商办理 ICP 接入备案（约 {lo}–{hi} 天）"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_a_rented_plan_for_a_filed_service_says_the_access_record_on_page_1(lang: str) -> None:
    r = advice_plan("q10_128k_document_assistant")
    assert r.deployment_form == "cloud"
    q = next(q for q in r.open_questions if q.field == "hosting_move")
    lo, hi = duration("icp_access_record")
    said = PLAIN[lang].format(lo=lo, hi=hi)
    assert said in q.text_in(lang)
    memo = render_memo_markdown(r, lang)
    assert said in memo.split("## 2.")[0]  # page 1's section


def test_servers_bought_for_colocation_keep_their_own_access_record_wording() -> None:
    """q26 buys servers and colocates them (the plan moves the service: ``icp.access_record``'s by_plan case); the
    rented wording is for cloud plans only."""
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    assert r.deployment_form != "cloud"
    assert all(q.assumption_key != RENTED_KEY for q in r.open_questions)
    assert all(a.key != RENTED_KEY for a in r.assumptions)


def test_an_answered_move_asks_nothing_and_the_rule_fires() -> None:
    r = advice_plan("q10_128k_document_assistant", hosting_move=True)
    assert not [q for q in r.open_questions if q.field == "hosting_move"]
    assert "icp.access_record" in r.finding_ids
