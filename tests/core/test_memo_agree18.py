"""Figures in one memo that must agree, as properties over every advice scenario (issue 25, seventh blind review,
s18-agree): the headroom of a plan sized on the team's measured fleet load (q39)."""

import json
from pathlib import Path

import pytest

from advisor.plan.sizing import HEADROOM
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
NAMES = sorted(p.stem for p in SCEN.glob("*.json"))


def _plan(name: str):
    return planned(json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"])


def _memo(r, lang):
    from advisor.plan.memo import render_memo_markdown

    return render_memo_markdown(r, lang=lang)


@pytest.mark.parametrize("name", NAMES)
def test_a_plan_sized_on_the_measured_fleet_load_says_its_headroom_on_that_measurement(name):
    """q39: "its own tables mix '96 % headroom' with sizing on the measurement". A plan sized on the fleet's
    measured utilisation has the policy's headroom on that measurement; the sizing table says it, named apart from
    the curve's; and the first step counts the requests in flight before anything is rented on it."""
    r = _plan(name)
    cap = r.capacity
    if cap is None or cap.headroom_measured is None:
        return
    assert cap.headroom_measured >= HEADROOM - 0.005, (name, cap.headroom_measured)
    assert r.next_steps and r.next_steps[0].id == "fleet_load", (name, [s.id for s in r.next_steps])
    en = _memo(r, "en")
    row = next(line for line in en.splitlines() if line.startswith("| Headroom at the peak |"))
    assert f"{cap.headroom_measured * 100:.0f} % on your fleet's measured load" in row, row
    assert f"{cap.headroom * 100:.0f} % if the predicted curve" in row, row
    assert "vllm:num_requests_running" in r.next_steps[0].text_in("en")


def test_the_hybrid_on_a_busy_fleet_is_sized_on_its_measurement():
    """The property above is not vacuous: the advice scenario of a fleet busier than the curve says (q39) has it."""
    r = _plan("q39_hybrid_l20_base_cloud_burst")
    assert r.capacity is not None and r.capacity.headroom_measured is not None
    assert r.next_steps[0].key == "agree18.next.fleet_load_budget"  # its cost's high end is over the budget
