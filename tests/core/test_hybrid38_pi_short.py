"""q39 with personal information (its bursts may not go to the API as freely): the owned cards' short reason in a
title had no text ("apiweigh36.owned.short.same", logged as a missing translation and shown in English in the
Chinese memo). Session 36, found by the hybrid helper."""

from __future__ import annotations

import logging

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, advice_plan

NAME = "q39_hybrid_l20_base_cloud_burst"


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q39_with_personal_information_renders_every_key(lang, caplog):
    sens = {**advice_answers(NAME)["data_sensitivity"], "personal_info": True, "pi_subjects_per_year": 200_000}
    r = advice_plan(NAME, data_sensitivity=sens)
    with caplog.at_level(logging.WARNING, logger="advisor.i18n"):
        memo = render_memo_markdown(r, lang)
    assert not [m for m in caplog.messages if "missing" in m], caplog.messages
    assert "apiweigh36." not in memo
