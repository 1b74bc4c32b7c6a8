"""A public chat with no TPOT target is sized to the chat rule of thumb, the one figure page 1 judges it by
(s36-chat50, blind review 27: q37 "only because TPOT was assumed at 100 ms"; q20 "71.7 ms with one replica down";
q05 "recommend the L40S … well within the budget"); kept looser, with what the rule costs, only where its setup is
over the budget; a staff tool keeps 100 ms; an always-on public service shows no spot price."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, chat_rule38, make_plan
from advisor.plan.memo import render_memo_markdown
from advisor.plan.money_text import money_range
from tests.support.page_one import page_one
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
SPEED = {"en": "**Speed each user sees:**", "zh_CN": "**每位用户看到的输出速度：**"}


def _tpot(r):
    return next(a for a in r.assumptions if a.field == chat_rule38.FIELD)


def _failover_p99(r) -> float:
    """The P99 TPOT each serving replica runs at with one unit down (the latency table's column at that load)."""
    down = r.capacity.load_per_serving_replica or r.capacity.peak_concurrency
    pt = next(p for p in r.latency_curve.points if p.concurrency == down)
    assert pt.tpot_p99_ms is not None
    return float(pt.tpot_p99_ms)


@pytest.mark.parametrize("name", ["q37_sg_fintech_public", "q20_china_parts_offshore_sg"])
def test_public_chat_sized_to_the_rule_with_one_replica_down(name: str) -> None:
    r = planned(advice_answers(name))
    got = _tpot(r)
    assert got.key == chat_rule38.KEY and float(got.value) == chat_rule38.RULE_MS  # one figure: target and rule
    assert r.hardware.replicas >= 2  # N+1 for the public
    assert _failover_p99(r) <= chat_rule38.RULE_MS  # the rule holds with a replica down
    for lang in LANGS:
        md = render_memo_markdown(r, lang)
        assert SPEED[lang] not in page_one(md)  # nothing to warn of: the plan meets the rule it states
        assert got.text_in(lang) in md


def test_internal_tool_keeps_the_looser_assumption() -> None:
    r = planned({**advice_answers("q37_sg_fintech_public"), "audience": "internal"})
    got = _tpot(r)
    assert got.key == "plan.assume.tpot_p99_ms" and float(got.value) == chat_rule38.LOOSE_MS


def test_given_target_is_never_replaced() -> None:
    r = planned({**advice_answers("q37_sg_fintech_public"), "latency_slo": {"tpot_p99_ms": 100}})
    assert not any(a.field == chat_rule38.FIELD for a in r.assumptions)
    assert r.capacity.tpot_p99_ms is not None and r.capacity.tpot_p99_ms <= 100


def _ruled_plan(answers: dict):
    token = chat_rule38.SIZE_TO_RULE.set(True)
    try:
        from advisor.plan.engine import _plan

        return _plan(answers_from_dict(answers))
    finally:
        chat_rule38.SIZE_TO_RULE.reset(token)


@pytest.mark.parametrize("lang", LANGS)
def test_over_the_budget_keeps_the_slower_plan_and_says_what_the_rule_costs(lang: str) -> None:
    base = advice_answers("q20_china_parts_offshore_sg")
    ruled = planned(base)  # the rule's setup within the scenario's own budget
    lo = ruled.costs.recommended_monthly
    assert lo is not None
    tight = {**base, "monthly_budget": {"amount": float(int(lo.low) - 1), "currency": ruled.costs.currency}}
    r = planned(tight)
    got = _tpot(r)
    assert got.key == chat_rule38.KEY_KEPT and float(got.value) == chat_rule38.LOOSE_MS
    assert r.costs.within_budget is not False
    over = _ruled_plan(tight)  # the rule-sized plan under the tight budget, as the engine weighed it
    assert over.costs.within_budget is False and over.costs.recommended_monthly is not None
    month = money_range(over.costs.recommended_monthly, over.costs.currency)
    line = next(x for x in page_one(render_memo_markdown(r, lang)).splitlines() if x.startswith(SPEED[lang]))
    assert month in line and over.hardware.gpu_name in line  # what meeting it costs, on page 1
    assert translate(lang, "chat5038_page1.give") not in line


def test_always_on_public_service_has_no_spot_price() -> None:
    public = planned(advice_answers("q20_china_parts_offshore_sg"))
    assert public.costs.cloud_spot_monthly is None
    business = planned({**advice_answers("q20_china_parts_offshore_sg"), "audience": "business"})
    # a business service is a production service too: no spot row either since blind review 34 (s41-spot, q38/q41)
    assert business.costs.cloud_spot_monthly is None
    for lang in LANGS:
        label = re.escape(translate(lang, "memo4.cost.spot", cost=""))  # "spot 769–1,071 USD", "抢占式 …"
        assert re.search(label + r"\d", render_memo_markdown(public, lang)) is None


def test_make_plan_is_the_wrapper() -> None:
    """The CLI's and the UI's entry (``make_plan``) decides the rule too, not only ``engine.plan``."""
    r = make_plan(answers_from_dict(advice_answers("q37_sg_fintech_public")))
    assert _tpot(r).key == chat_rule38.KEY


def test_a_plan_blocked_only_by_the_law_is_not_re_planned_at_the_looser_target(monkeypatch) -> None:
    # q07 (双减, the filing's wait): a looser TPOT target cannot lift a legal blocker, so the rule-sized plan stands
    # without a second plan at 100 ms (issue 27: four full plans and their fixes were made for one answer)
    from advisor.plan import engine

    targets: list[bool] = []
    real = engine._plan

    def recording(answers, **kw):
        targets.append(chat_rule38.SIZE_TO_RULE.get())
        return real(answers, **kw)

    monkeypatch.setattr(engine, "_plan", recording)
    r = make_plan(answers_from_dict(advice_answers("q07_minors_education_app")))
    blockers = {f.id for f in r.findings if f.severity == "blocker"}
    assert blockers and all(b.startswith(chat_rule38.TARGET_FREE) for b in blockers)
    assert _tpot(r).key == chat_rule38.KEY and targets and all(targets)  # sized to the rule; no plan at 100 ms
    # a budget blocker is the target's to lift: that plan is weighed against the looser one as before
    short = r.model_copy(update={"findings": [*r.findings, r.findings[0].model_copy(
        update={"id": "cost.budget_short", "severity": "blocker"})]})
    assert not chat_rule38.blocked_alike(short)
