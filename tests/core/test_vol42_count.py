"""The real daily request count asked once in the next steps where the month is an estimate (s40-volume, issue 25,
blind review 32: q30 "pin the 11× range with a requests-a-day figure before anyone budgets on it", q23 "ask for real
request counts")."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import volume_ask42
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
COMMITTING = ("serve", "quotes", "api_first", "api_trial", "supply_quote", "confirm_instance", "placement_check")


@pytest.mark.parametrize("name", ["q30_unfiled_finetune_public_30d", "q23_japan_game_npc", "q01_office_lan_capex_contracts"])
@pytest.mark.parametrize("lang", LANGS)
def test_an_estimated_month_asks_for_the_daily_count_once_before_money_is_committed(name, lang):
    r = advice_plan(name)
    assert not (r.answers or {}).get("requests_per_day")
    ids = [s.id for s in r.next_steps]
    assert ids.count(volume_ask42.STEP_ID) == 1
    at = ids.index(volume_ask42.STEP_ID)
    assert all(i not in COMMITTING for i in ids[:at])  # nothing before it spends money
    assert all(i in volume_ask42.LEADING for i in ids[:at])
    text = render_memo_markdown(r, lang)
    assert text.count(translate(lang, "vol42.next.count")) == 1


@pytest.mark.parametrize("name", ["q15_hosted_api_small_us_team", "q36_bursty_b2b_event_mainland",
                                  "q06_l20_batch_72h_claims"])
def test_a_counted_month_or_a_job_is_not_asked(name):
    """Requests a day answered (a figure or a range), or a job sized by its own size: nothing to ask."""
    r = advice_plan(name)
    assert volume_ask42.STEP_ID not in [s.id for s in r.next_steps]


def test_a_count_page_1_already_asks_for_is_not_asked_again():
    """q24: page 1's open questions ask how many requests a day, as the count decides API or self-host: once."""
    r = advice_plan("q24_us_saas_rent")
    assert any(q.field == "requests_per_day" for q in r.open_questions)
    assert volume_ask42.STEP_ID not in [s.id for s in r.next_steps]


def test_a_plan_that_starts_on_a_hosted_api_commits_nothing_up_front():
    """q12: the API bills the tokens used; page 1's price already gives the month's range (``tokens41``)."""
    r = advice_plan("q12_hk_saas_pi_contract")
    ids = [s.id for s in r.next_steps]
    assert any(i in volume_ask42.PAY_PER_TOKEN for i in ids) and volume_ask42.STEP_ID not in ids
