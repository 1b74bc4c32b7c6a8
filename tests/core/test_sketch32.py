"""Session 32's lead trims, each tied to a blind-review note: a plan a blocker stands before (q07: months of filings
and possibly the 双减 rules) is the closest option, not yet the setup to build, so section 2 keeps its table and what
decides the size but not the layouts tried or a failover-only KV sentence (review 22, q07 en: "the hardware sizing is
premature ... can be cut to a sketch"); where page 1 leads with a hosted API, the self-hosted plan's in-region plan B
stays in ``--json`` and off the quote step (q12), while a self-hosted lead keeps it there (q25)."""

from __future__ import annotations

import pytest

from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, advice_plan, h20_kept, unled

LANGS = ("en", "zh_CN")


def _section_2(plan, lang: str) -> str:
    return memo_document(plan, lang).markdown().split("\n## ")[2]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_blocked_plan_is_sized_as_a_sketch(lang):
    plan = h20_kept("q07_minors_education_app")  # its H20 (``h20_kept``): as written q07 rents the L20 (s36-sourced)
    assert any(f.severity == "blocker" for f in plan.findings)
    fit = plan.capacity.kv_fit
    # the sentence's case: the 16-bit cache fell short with one replica down, so the plan set FP8 (s33-kvdef)
    assert fit is not None and fit.failover_per_replica > fit.bf16_full_fit >= fit.peak_per_replica
    said = {p.get("tr") for p in plan.binding_constraint.then if isinstance(p, dict)}
    assert "kvfit33.down" not in said and "kvdef34.set_down" not in said
    assert "--kv-cache-dtype fp8" in plan.hardware.command  # the command still carries it
    assert plan.layouts_tried is not None and plan.layouts_tried.tries  # kept for --json
    section = _section_2(plan, lang)
    assert ("Layouts tried" not in section) if lang == "en" else ("试过的布局" not in section)
    # the sizing table still gives both KV counts
    assert f"{fit.at_full}" in section and f"{fit.at_typical}" in section


def test_an_unblocked_plan_keeps_its_failover_sentence():
    plan = advice_plan("q38_eu_internal_hr_assistant")
    assert not any(f.severity == "blocker" for f in plan.findings)
    said = {p.get("tr") for p in plan.binding_constraint.then if isinstance(p, dict)}
    assert "kvdef34.set_down" in said  # s33-kvdef: the failover load is why its cache is FP8 now


def test_plan_b_is_off_the_quote_step_where_a_hosted_api_leads():
    led = unled({**advice_answers("q12_hk_saas_pi_contract")})
    assert led.start_with is not None and led.start_with.form == "hosted_api"
    assert led.in_region_fallback is not None  # still in the JSON
    assert all(s.otherwise is None for s in led.next_steps)
    kept = unled({**advice_answers("q25_hk_bank_retail")})
    assert kept.start_with is None or kept.start_with.form != "hosted_api"
    assert any(s.id == "quotes" and s.otherwise is not None for s in kept.next_steps)
