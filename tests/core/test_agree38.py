"""Numbers that agree with each other (issue 25, blind review 28).

- q20: the fix "allow other GPUs" is re-planned alone; where that re-plan lands on the GPUs and count the page's plan
  shows, the fix line says the same format and month as the body (it said "fp8, 1,251–2,190 USD" beside the body's
  "bf16, 1,246–2,165 USD": the fix's re-plan skipped the layout search the plan ran).
- q43: the failover-margin paragraph quotes a load with one unit down past the most a replica is claimed to carry
  within the target (section 2): it says so, rather than reading as one server carrying more than section 2 allows.
"""

from __future__ import annotations

import re

import pytest

from advisor.plan.memo import memo_document
from tests.support.planned import ADVICE_SCENARIOS, advice_plan, scenario_plan

SCENARIOS = sorted(ADVICE_SCENARIOS.glob("*.json"))


def _same_setup_fixes(r):
    """The other-GPUs fixes whose setup is the plan's own GPUs and count."""
    hw = r.hardware
    return [f for f in r.fixes if f.key == "plan.fix.other_gpus_setup"
            and f.params.get("gpu") == (hw.gpu_name or hw.gpu) and f.params.get("total") == hw.total_gpus]


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_other_gpus_fix_on_the_plans_setup_says_its_format_and_month(path):
    r = scenario_plan(path)
    for fix in _same_setup_fixes(r):
        assert fix.params["weights"] == r.hardware.weights, path.stem
        m, shown = fix.monthly_cost, r.costs.recommended_monthly
        assert m is not None and shown is not None
        assert (round(m.low), round(m.high)) == (round(shown.low), round(shown.high)), path.stem


def test_q20_fix_line_and_body_are_one_setup():
    r = advice_plan("q20_china_parts_offshore_sg")
    assert _same_setup_fixes(r), "q20's fix is the L40S setup the body shows"
    md = memo_document(r, "en").markdown()
    line = next(x for x in md.splitlines() if x.startswith("- Allow other GPUs:"))
    assert f"weights in {r.hardware.weights}" in line
    m = r.costs.recommended_monthly
    assert f"{round(m.low):,}–{round(m.high):,} USD" in line
    assert f"{round(m.low):,}–{round(m.high):,} USD a month at the monthly/reserved price" in md


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_q43_margin_paragraph_says_the_load_past_the_claim(lang):
    r = advice_plan("q43_us_team_mainland_low_latency")
    f = next(x for x in r.findings if x.id == "sizing.redundancy" and x.params.get("past"))
    cap, load = f.params["past"]["cap"], f.params["load_down"]
    assert load > cap
    # the claim the paragraph names is section 2's own "per replica, most within the target"
    assert r.capacity.max_concurrency_per_replica == cap
    text = f.detail_in(lang)
    assert f"{load} " in text and f"{cap} " in text
    if lang == "en":
        assert f"past the {cap} a replica that section 2 claims within the target" in text
        md = memo_document(r, lang).markdown()
        assert re.search(rf"\| Per replica, most within the target \| {cap} \|", md)
