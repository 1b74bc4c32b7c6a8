"""s40-q39 (blind review 33, q39: "The pressure test ramps only 'up to 12', yet the decision hinges on whether a
replica really carries about 36, so ramp to 40"; zh: the serve command's cap of 12 against the curve's claim that
the 16 GPUs carry the peak): the ramp goes past the largest per-replica load any stated basis of the plan relies on,
the test replica started with the ramp's top as its cap, and the curve's claim names the cap and the test."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import fleet, ramp_top42
from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")
Q39 = "q39_hybrid_l20_base_cloud_burst"


def _levels(r) -> list[int]:
    step = next(s for s in r.next_steps if s.id == "ramp")
    return [int(v) for v in re.search(r"--ramp (\S+)", step.command).group(1).split(",")]


def test_q39_ramp_reaches_past_the_curves_per_replica_load():
    r = planned(advice_answers(Q39))
    step = next(s for s in r.next_steps if s.id == "ramp")
    relied, top, cap = step.params["relied"], step.params["top"], step.params["cap"]
    levels = _levels(r)
    # the decision's per-replica load (the curve's, above the serve command's cap) is a level, and the ramp goes past
    assert relied > cap and relied in levels and max(levels) == top > relied
    assert levels == sorted(levels) and len(set(levels)) == len(levels)
    assert step.key == "hy42.next.ramp_past_cap"


@pytest.mark.parametrize("lang", LANGS)
def test_q39_ramp_step_starts_the_test_replica_with_the_ramps_cap(lang):
    r = planned(advice_answers(Q39))
    step = next(s for s in r.next_steps if s.id == "ramp")
    md = memo_document(r, lang).markdown()
    assert f"--max-num-seqs {step.params['top']}" in md and f"--max-num-seqs {step.params['cap']}" in md
    # the section 6 evidence command is the step's own: the same levels
    assert md.count(step.command.splitlines()[0]) >= 1


@pytest.mark.parametrize("lang", LANGS)
def test_q39_curve_claim_names_its_load_beside_the_cap(lang):
    r = planned(advice_answers(Q39))
    f = next(x for x in r.findings if x.id == "sizing.fleet_load_disagrees")
    on = f.params["on_curve_text"]
    assert on["tr"] == "hy42.on_curve.fits_cap" and on["per"] > on["cap"]
    text = translate(lang, "hy42.on_curve.fits_cap", **{k: v for k, v in on.items() if k != "tr"})
    assert text in memo_document(r, lang).markdown()


class _Ch:
    def __init__(self, per_replica):
        self.per_replica = per_replica


class _C:
    peak = 10


def test_a_plan_with_one_basis_keeps_twice_its_load(monkeypatch):
    """No second basis (the curve agrees with the measurement, or no fleet): twice the load a replica takes, at least
    8; the levels double from 1 to it; no step past the serve command's cap."""
    monkeypatch.setattr(fleet, "curve_per_replica", lambda c, ch: None)
    ch = _Ch(6)
    assert ramp_top42.top(_C(), ch) == 12 and ramp_top42.levels(_C(), ch, 12) == "1,2,4,8,12"
    assert ramp_top42.top(_C(), _Ch(2)) == 8
    assert ramp_top42.past_cap(_C(), ch, 12, 12) is None


def test_a_second_basis_raises_the_top_past_its_load_capped(monkeypatch):
    monkeypatch.setattr(fleet, "curve_per_replica", lambda c, ch: 36)
    ch = _Ch(6)
    top = ramp_top42.top(_C(), ch)
    assert 36 < top <= 36 * 1.5
    assert "36" in ramp_top42.levels(_C(), ch, top).split(",")
    assert ramp_top42.past_cap(_C(), ch, top, 12) == {"top": top, "cap": 12, "relied": 36}
    monkeypatch.setattr(fleet, "curve_per_replica", lambda c, ch: 10_000)
    assert ramp_top42.top(_C(), ch) == ramp_top42.CEILING
    # a curve below twice the planned load leaves the top where it was
    monkeypatch.setattr(fleet, "curve_per_replica", lambda c, ch: 5)
    assert ramp_top42.top(_C(), ch) == 12


def test_q39_plan_cap_is_the_serve_commands():
    r = planned(advice_answers(Q39))
    step = next(s for s in r.next_steps if s.id == "ramp")
    assert f"--max-num-seqs {step.params['cap']}" in (next(s for s in r.next_steps if s.id == "serve").command or "")

