"""s37-usage39 (issue 25, blind review 28 q05/q07): a public chat app used day to day is counted a day — the share of
its counted people who use it on a given day × the requests each sends that day — not "36 requests a person a year";
a daily rate past what the peak carries is costed at the peak's reading and said so; the sooner route on a filed
model's API says first what it still does not clear."""

from __future__ import annotations

from unittest import mock

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan, public_people, public_volume, single_card
from advisor.plan.memo import memo_context, render_memo_markdown
from tests.support.planned import advice_answers, advice_plan, planned

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")
DAILY = {"q07_minors_education_app": "study_paid", "q05_filed_finetune_mainland_sg": "consumer",
         "q32_filed_public_chatbot_fast": "consumer"}
YEARLY = ("q14_medical_followup_mainland", "q25_hk_bank_retail", "q37_sg_fintech_public", "q09_eu_voice_agent")


def _kind(a: dict) -> str | None:
    return public_people.daily_kind_of(a["audience"], a["use_case"], a.get("charges_users"),
                                       (a.get("data_sensitivity") or {}).get("sector"))


@pytest.mark.parametrize("name", sorted(DAILY))
def test_a_public_chat_app_for_consumers_or_study_is_counted_a_day(name):
    a = advice_answers(name)
    assert _kind(a) == DAILY[name]
    c = planned(a).costs
    b = c.volume_basis
    assert b["tr"] == public_volume.DAILY_BASIS
    lo_d, mid_d, hi_d = public_people.per_day_ends(DAILY[name])
    counted = a.get("users") or a["data_sensitivity"]["pi_subjects_per_year"]
    per_day = c.output_tokens_per_month * 12 / 365 / counted / a["output_tokens"]["avg"]
    if b["capped"]:  # more than the peak carries: the peak's reading, its high end, is costed, and said
        # (no higher end is kept: the month is the high end itself)
        assert c.output_tokens_per_month_high in (None, c.output_tokens_per_month) and per_day < mid_d
    else:
        assert per_day == pytest.approx(mid_d, rel=0.02)
    assert lo_d <= mid_d <= hi_d and b["per"] == public_people.per_day_text(mid_d)


@pytest.mark.parametrize("name", YEARLY)
def test_a_service_people_come_to_now_and_then_keeps_the_yearly_reading(name):
    a = advice_answers(name)
    assert _kind(a) is None
    assert planned(a).costs.volume_basis["tr"] != public_volume.DAILY_BASIS


def test_the_kind_follows_the_answers():
    assert public_people.daily_kind_of("public", "interactive", True, "education") == "study_paid"
    assert public_people.daily_kind_of("public", "interactive", False, "education") == "consumer"
    assert public_people.daily_kind_of("public", "interactive", None, None) == "consumer"
    assert public_people.daily_kind_of("public", "interactive", False, "medical") is None
    assert public_people.daily_kind_of("public", "interactive", True, "general") is None  # maybe paid by the use
    assert public_people.daily_kind_of("business", "interactive", False, "general") is None
    assert public_people.daily_kind_of("public", "api", False, "general") is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_paid_homework_app_is_said_a_day_and_the_capped_month_is_said(lang):
    r = advice_plan("q07_minors_education_app")
    [assumed] = [x for x in r.assumptions if x.field == "requests_per_day"]
    assert assumed.key == "usage39.public.assume"
    text = assumed.text_in(lang)
    share, per_day = public_people.ACTIVE_A_DAY["study_paid"][1], public_people.REQUESTS_AN_ACTIVE_DAY[1]
    assert f"{round(share * 100)}" in text and f"{per_day}" in text and "500,000" in text
    b = r.costs.volume_basis
    assert b["capped"] and b["capped"]["peak_rpd"] in translate(lang, b["capped"]["tr"], **b["capped"])
    # requests a day given replace the assumption
    given = planned({**advice_answers("q07_minors_education_app"), "requests_per_day": 300_000}).costs
    assert given.volume_basis["tr"] != public_volume.DAILY_BASIS


@pytest.mark.parametrize("lang", LANGS)
def test_the_sooner_api_line_says_first_what_it_still_does_not_clear(lang):
    r = advice_plan("q07_minors_education_app")
    route = memo_context(r, lang)["registration_route"]
    reg = "It needs only the registration" if lang == "en" else "只需登记"
    head = route[:route.index(reg)]
    assert "60" in head and "双减" in head  # the deadline it misses and the blocker it leaves, before the route


@pytest.mark.parametrize("lang", LANGS)
def test_a_split_overseas_node_says_why_against_smaller_splits_and_one_big_card(lang):
    """review 28 q05: 8 × L4 as two TP4 replicas, said against TP1/TP2 L4s and a one-card 80 GB replica. Since s39
    q05's node takes one A100 80GB a replica (``single_card.premium_for``: 50 % for a TP4 split); the split and its
    reason are read here with no premium for a single card, every other rule as it is."""
    with mock.patch.object(single_card, "premium", lambda: 0.0):
        r = make_plan(answers_from_dict(advice_answers("q05_filed_finetune_mainland_sg")))
    f = r.finding("region.split")
    layout = f.params["faster"]["layout"]
    node = next(n for n in r.nodes if n.region != "mainland")
    assert layout["tp"] == node.tp > 1 and layout["n"] == node.total_gpus
    slots = [layout[s] for s in ("a", "b", "c") if layout[s]]
    assert len(slots) >= node.tp.bit_length() - 1  # every smaller split said (TP1, TP2 under TP4)
    memo = render_memo_markdown(r, lang)
    assert (f"Why TP{node.tp}" if lang == "en" else f"为何用 TP{node.tp}") in memo
    assert ("no listed price for it in Singapore was found here" if lang == "en" else "未找到它在新加坡的标价") in memo


def test_no_layout_reason_where_a_smaller_split_takes_no_more_gpus():
    """q34: TP1 × 4 beside the chosen TP2 × 2 is as many GPUs: the cost did not choose the split, so no 'Why TP'.
    s39-sgp (issue #25): on Google Cloud's sized L4 rows (a pair on g2-standard-24, dearer a GPU) q34's node takes
    TP1 × 4 itself; the rule is read where the L4 is priced by the card (``l4_by_card``), as it was written."""
    from tests.support.l4_by_card import planned_by_card
    from tests.support.planned import advice_answers

    r = planned_by_card(advice_answers("q34_mixed_users_split"))
    node = next(n for n in r.nodes if n.region != "mainland")
    assert node.tp > 1
    assert f"Why TP{node.tp}" not in render_memo_markdown(r, "en")
    now = next(n for n in advice_plan("q34_mixed_users_split").nodes if n.region != "mainland")
    assert now.tp == 1 and now.total_gpus == node.total_gpus  # as many GPUs, none split
