"""The people behind a peak, business customers' staff, a contact centre's agents and chat history in the month's
tokens (s19-volume19, issue 25).

Expert reviewers: q38 read "15 concurrent" as 15 people (hosted API $1–6 a month, $299–568 a million output
tokens: "nonsense"); q10's 8 users at once were a public service busy around the clock (18.6 billion input tokens a
month, "~30× too high"); q41's call-centre agents were counted at an office worker's 20 requests a day (¥1,181–3,586
a million output tokens). Each figure below is derived from the stated assumptions in ``advisor.plan.staff_usage``,
not copied from a plan.
"""

from __future__ import annotations

import dataclasses

import pytest

from advisor.plan import people_volume, public_volume
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import round_money
from advisor.plan.staff_usage import (
    ACTIVE_AT_ONCE,
    HANDLE_MINUTES,
    OCCUPANCY,
    REQUESTS_PER_AGENT,
    REQUESTS_PER_PERSON,
    SHIFT_MINUTES,
    WORKING_DAYS,
    counted_by_people,
    people_from_peak,
)
from advisor.plan.volume_low_end import FLOOR
from tests.core.test_plan_rules import facts_for
from tests.support.planned import advice_answers, estimated_month, planned

LANGS = ("en", "zh_CN")
HR = "q38_eu_internal_hr_assistant"  # 15 concurrent, employees over a VPN, no head count
DOCS = "q10_128k_document_assistant"  # business clients, 8 at once, 60,000-token prompts
CALLS = "q41_finetune_internal_callcentre"  # a call centre's agents, 30 concurrent


def _month_out(people: int, per_day: int, answers: dict) -> int:
    return people * per_day * WORKING_DAYS * answers["output_tokens"]["avg"]


def test_q38s_people_are_not_its_concurrency_but_the_peak_over_the_share_at_once():
    a = advice_answers(HR)
    peak = a["peak_concurrency"]
    c = planned(a).costs
    few, people, most = people_from_peak(peak)
    assert people != peak and (few, people, most) == tuple(round(peak / s) for s in reversed(ACTIVE_AT_ONCE))
    assert c.volume_basis["tr"] == people_volume.BASIS_KEY and c.volume_basis["people"] == people
    _, mid, hi = REQUESTS_PER_PERSON
    assert c.output_tokens_per_month == _month_out(people, mid, a)
    # the people's own top is in the tokens row; the range's high end is the peak read as requests in flight, above
    # it (s19-volume19b, tests/core/test_plan_volume19b.py)
    assert c.volume_basis["high_out"] == round_money(_month_out(most, hi, a))
    assert c.output_tokens_per_month_high > _month_out(most, hi, a) and c.volume_basis["flight"]
    # the month, the hosted API and the cost per million all move with the people: peak ÷ 20 % = 5 × the peak
    assert c.output_tokens_per_month == pytest.approx(_month_out(peak, mid, a) / ACTIVE_AT_ONCE[1])


@pytest.mark.parametrize("lang", LANGS)
def test_the_memo_says_how_the_people_were_found_with_their_range(lang):
    a = advice_answers(HR)
    r = planned(a)
    few, people, most = people_from_peak(a["peak_concurrency"])
    [assumed] = [x for x in r.assumptions if x.field == "requests_per_day"]
    assert assumed.key == "plan.volume19.assume.people"
    said = assumed.text_in(lang)
    assert str(people) in said and "15–25" in said  # the range of people is the tokens row's (s19-volume19b)
    text = render_memo_markdown(r, lang)
    assert said in text
    label = "Tokens per month" if lang == "en" else "每月 token"
    row = next(line for line in text.splitlines() if line.startswith(f"| {label}"))
    # the people's range is said by its shares in the assumption (s36-rowtrim: the tokens row names the people it
    # multiplies, one month and its range; q01 "cut it"), the range's ends the people the shares give
    assert f"{few}–{most}" not in row and f"{r.costs.input_tokens_per_month:,.0f}" in row
    assert few < people < most


def test_a_head_count_given_is_the_people_not_the_estimate():
    a = {**advice_answers(HR), "users": 400}
    c = planned(a).costs
    assert c.volume_basis["people"] == 400
    assert c.output_tokens_per_month == _month_out(400, REQUESTS_PER_PERSON[1], a)


def test_q10s_month_follows_its_people_not_a_public_peak_around_the_clock():
    a = advice_answers(DOCS)
    assert a["audience"] == "business" and a["use_case"] == "interactive"
    r = planned(a)
    c = r.costs
    people = people_from_peak(a["peak_concurrency"])[1]
    assert c.volume_basis["tr"] == people_volume.BASIS_KEY
    # s39-tokens41 (blind review 31, q42): business customers with no head count are costed on their peak's busiest
    # hour (``volume_peak.customers_guessed``), the people's estimate kept beside it, not staff systems' share at once
    raised = c.volume_basis[FLOOR]
    assert raised["estimate"] == _month_out(people, REQUESTS_PER_PERSON[1], a)
    assert c.output_tokens_per_month == raised["implied"]
    # the floor's input said to its two figures, as its output (``volume_peak.two_figures``)
    assert c.input_tokens_per_month == pytest.approx(
        c.output_tokens_per_month * a["prompt_tokens"]["avg"] / a["output_tokens"]["avg"], rel=0.01)
    # the public reading of the same peak (every one at the plan's predicted speed, the peak ÷ 3 around the clock,
    # as until session 19) is over ten times as much
    ctx = dataclasses.replace(facts_for(a).ctx, pi_subjects=None)  # the peak's reading, nobody counted
    per_user = r.capacity.output_tokens_per_s_per_user
    assert per_user
    public = public_volume.estimate(ctx, ctx.peak * per_user)
    assert public is not None and public.expected > 10 * c.output_tokens_per_month


def test_q10s_eight_users_given_are_its_month():
    a = {**advice_answers(DOCS), "users": 8}
    c = planned(a).costs
    requests = 8 * REQUESTS_PER_PERSON[1] * WORKING_DAYS
    assert estimated_month(c) == requests * a["output_tokens"]["avg"]  # the estimate, before s28-volume28's floor
    assert c.input_tokens_per_month == c.output_tokens_per_month * a["prompt_tokens"]["avg"] / a["output_tokens"]["avg"]
    top = 8 * REQUESTS_PER_PERSON[2] * WORKING_DAYS * a["output_tokens"]["avg"]
    # s28-volume28: where the busiest hour's floor is above the people's top, the month has no higher figure
    assert c.output_tokens_per_month_high == (None if c.output_tokens_per_month >= top else top)


@pytest.mark.parametrize(("audience", "use_case", "reach", "counted"), [
    ("internal", "interactive", "internet", True), ("business", "interactive", "internet", True),
    ("business", "api", "internet", False), ("public", "interactive", "internet", False),
    ("public", "interactive", "private_network", True),
])
def test_who_is_counted_by_people(audience, use_case, reach, counted):
    assert counted_by_people(audience, reach, use_case) is counted


def test_an_agents_rate_is_one_request_a_contact_over_a_shift():
    assert REQUESTS_PER_AGENT == tuple(round(SHIFT_MINUTES * o / m) for o, m in zip(OCCUPANCY, HANDLE_MINUTES,
                                                                                    strict=True))
    assert REQUESTS_PER_AGENT[0] < REQUESTS_PER_AGENT[1] < REQUESTS_PER_AGENT[2]
    assert REQUESTS_PER_AGENT[1] > REQUESTS_PER_PERSON[2]  # a typical agent sends more than a busy office worker


@pytest.mark.parametrize("lang", LANGS)
def test_a_contact_centre_is_counted_at_an_agents_rate_and_its_cost_per_million_stays_the_setups(lang):
    from tests.support.unpicked import unpicked

    # on the A10 (s34-kvpick36 moves q41 to an L20, whose faster replicas make the busiest hour floor the office
    # month: the agents' rate against the office one is this test's subject, read where neither is floored)
    a = advice_answers(CALLS)
    office, agents = unpicked(a), unpicked({**a, "usage_kind": "contact_centre"})
    people = people_from_peak(a["peak_concurrency"])[1]
    lo, mid, hi = REQUESTS_PER_AGENT
    assert agents.costs.output_tokens_per_month == _month_out(people, mid, a)
    assert agents.costs.output_tokens_per_month == pytest.approx(
        office.costs.output_tokens_per_month * mid / REQUESTS_PER_PERSON[1])
    assert agents.costs.volume_basis["per"] == mid and agents.costs.volume_basis["low_per"] == lo
    # the same GPUs: the setup's cost at full use is the same whatever the month's assumed volume. Since
    # s25-usage25, power and per-token cost use the month's tokens' share, not the load pattern's 40 %: the
    # per-million figure is the month's cost over the month's own tokens (2.8x the agents' tokens, 1/2.8 the cost
    # per million), and the setup's full-use floor the memo states beside it (the figure s20-costtoken20 pinned as
    # "the setup's") stays the same for both.
    from advisor.plan.memo_text15 import per_million_split

    (ai, ao), (oi, oo) = per_million_split(agents.costs), per_million_split(office.costs)
    ratio = agents.costs.output_tokens_per_month / office.costs.output_tokens_per_month
    assert ratio > 2
    assert ai == pytest.approx((oi[0] / ratio, oi[1] / ratio), rel=1e-3)
    assert ao == pytest.approx((oo[0] / ratio, oo[1] / ratio), rel=1e-3)

    def full_use(r):  # the month's per-million at the share its tokens fill, scaled to the setup fully busy
        return [x * r.costs.utilisation for pair in per_million_split(r.costs) for x in pair]

    assert full_use(agents) == pytest.approx(full_use(office), rel=1e-4)
    [assumed] = [x for x in agents.assumptions if x.field == "requests_per_day"]
    assert f"{lo}–{hi}" in assumed.text_in(lang) and str(mid) in render_memo_markdown(agents, lang)


def test_the_kind_of_use_is_asked_where_the_month_rests_on_it():
    asked = {q.field: q for q in planned(advice_answers(CALLS)).open_questions}
    assert "contact_centre" in asked["usage_kind"].alternatives and asked["usage_kind"].assumed == "office"
    given = planned({**advice_answers(CALLS), "usage_kind": "contact_centre"}).open_questions
    assert all(q.field != "usage_kind" for q in given)
    public = planned(advice_answers("q09_eu_voice_agent")).open_questions  # counted from its peak, not people
    assert all(q.field != "usage_kind" for q in public)


@pytest.mark.parametrize("lang", LANGS)
def test_the_tokens_row_says_a_requests_tokens_include_a_chats_re_sent_turns(lang):
    r = planned(advice_answers(HR))
    text = render_memo_markdown(r, lang)
    label = "Tokens per month" if lang == "en" else "每月 token"
    row = next(line for line in text.splitlines() if line.startswith(f"| {label}"))
    assert ("re-sent turns" if lang == "en" else "重发的历史") in row


def test_a_two_node_plan_counted_by_people_says_the_whole_plans_people():
    a = advice_answers("q34_mixed_users_split")  # business customers, 60 % mainland, 40 % South-East Asia
    r = planned(a)
    assert r.region == "mainland_plus_overseas"
    c, b = r.costs, r.costs.volume_basis
    few, people, most = people_from_peak(a["peak_concurrency"])
    assert b["tr"] == people_volume.BASIS_KEY and b["people"] == people  # the whole peak's, not the first node's
    # the nodes' months, each from its share of the peak, add up to the whole people's (within rounding)
    assert estimated_month(c) == pytest.approx(_month_out(people, REQUESTS_PER_PERSON[1], a), rel=0.02)
    assert c.output_tokens_per_month >= estimated_month(c)  # the floor only ever raises it  # the estimate, before s28-volume28's floor
    # the whole peak's people at their top in the row; the high end the two nodes' in-flight readings (s19-volume19b)
    assert b["high_out"] == round_money(_month_out(most, REQUESTS_PER_PERSON[2], a)) and b["flight"]
    assert c.output_tokens_per_month_high > _month_out(most, REQUESTS_PER_PERSON[2], a)
