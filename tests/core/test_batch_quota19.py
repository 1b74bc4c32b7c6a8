"""An offline batch's GPUs at once are capped by the cloud's GPU quota the plan assumes, in GPUs and the same for
every model and layout, and said as a quota (issue 25, q29: a 64-replica cap gave a 70B on 2-GPU replicas 128 GPUs
and an 8B on 1-GPU replicas 64, so "the 8B needs 27 h"; 541 GPUs, 1,042 replicas and 64 replicas appeared with
nothing tying them together)."""

from __future__ import annotations

from advisor.plan import sizing
from advisor.plan.answers import answers_from_dict
from advisor.plan.context import resolve
from tests.support.planned import advice_answers, planned

Q29 = "q29_batch_impossible_budget"


def test_the_batch_quota_is_gpus_not_replicas():
    c = resolve(answers_from_dict(advice_answers(Q29)))
    quota = sizing.batch_quota_gpus()
    assert {tp * sizing.max_replicas(c, tp) for tp in (1, 2, 4, 8)} == {quota}
    service = resolve(answers_from_dict(advice_answers("q38_eu_internal_hr_assistant")))
    assert sizing.max_replicas(service, 1) == sizing.max_replicas(service, 4) == sizing.MAX_REPLICAS


def test_q29_deadline_figures_agree_with_each_other():
    r = planned(advice_answers(Q29))
    b = r.binding_constraint.figures
    deadline = r.finding("sizing.batch_deadline")
    assert deadline is not None
    quota, floor = deadline.params["quota"], deadline.params["floor"]
    # the whole job's GPUs at once and the quota are the binding's own figures
    assert int(quota["need"].replace(",", "")) == b["gpus"] == b["replicas"] * b["tp"]
    assert quota["quota"] == b["max_gpus"] == sizing.batch_quota_gpus() and quota["max"] == b["max"]
    # the prefill floor's GPUs are a floor under the whole job's, which is over the quota (why it cannot finish)
    assert floor["gpus"] <= b["gpus"] and b["gpus"] > b["max_gpus"]
    en = deadline.detail_in("en")
    assert f"{b['gpus']:,} GPUs at once" in en and f"{floor['gpus']:,} GPUs for" in en and "quota" in en
    assert "配额" in deadline.detail_in("zh_CN")


def test_q29_fixes_run_on_the_same_quota_in_gpus():
    r = planned(advice_answers(Q29))
    b = r.binding_constraint.figures
    longer = next(f for f in r.fixes if f.id == "longer_batch")
    assert longer.params["quota"] == b["max_gpus"]
    assert "quota" in longer.text_in("en") and "配额" in longer.text_in("zh_CN")
    # its hours are the job's GPU-hours on the quota's GPUs, with the margin and the setup the plan keeps
    assert longer.params["hours"] * b["max_gpus"] >= b["gpu_hours"]
    # a smaller model on one-GPU replicas gets as many GPUs at once as the 70B does: no longer deadline beside it
    # unless its GPU-hours on the quota need one
    for f in (f for f in r.fixes if f.id == "smaller_model"):
        hw = planned({**advice_answers(Q29), **f.change}).hardware
        assert hw.total_gpus is not None and hw.total_gpus <= sizing.batch_quota_gpus()
        if f.with_deadline_hours is None:
            assert planned({**advice_answers(Q29), **f.change}).feasible
