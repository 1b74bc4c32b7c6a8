"""One busiest-hour floor for a two-node plan, said in the memo (issue 25, s29-volume29).

s28-volume28 floored each node of a two-node plan on its own share of the peak: the busiest hour's mean grows slower
than the peak and the nodes' per-request rates differ, so q34's L40S node was raised (16M → 39M output tokens) and its
L20 node not, their sum matched no floor of the plan's, and the memo did not say the figure had been raised (kept
quiet to hold the page budget). Now the floor is decided once, on the whole plan before it is split; each node's month
is its estimate × the plan's (floor ÷ estimate), and the cost table says the figure the costs use and the estimate it
replaces (a row of its own under the tokens row), in both languages.
"""

from __future__ import annotations

import dataclasses

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, burst, make_plan, volume_nodes, volume_peak
from advisor.plan.context import resolve
from advisor.plan.memo import render_memo_markdown
from advisor.plan.two_nodes import mainland_ctx
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _nodes_of(name: str, monkeypatch) -> tuple[object, list]:
    """The plan of scenario ``name`` and its two nodes' own costs, as the engine merges them."""
    seen: list = []
    merged = volume_nodes.rebase

    def spy(costs, c, parts):
        # the last merge is the plan's: a node whose KV cache the plan then sets to FP8 is costed and merged again
        # (kv_fp8_set.py, engine._kv_fp8)
        seen[:] = list(parts)
        return merged(costs, c, parts)

    monkeypatch.setattr(volume_nodes, "rebase", spy)  # the engine calls it through the module
    r = make_plan(answers_from_dict(advice_answers(name)))
    return r, seen


def test_q34s_two_nodes_are_raised_by_one_floor_in_proportion(monkeypatch):
    """Both nodes raised by the same factor, the plan's; the plan's month is their sum and its floor's estimate the
    sum of theirs; the plan's estimate is under half of that floor (the rule that raised it)."""
    r, parts = _nodes_of("q34_mixed_users_split", monkeypatch)
    assert len(parts) == 2 and len(r.nodes or []) == 2
    records = [p.volume_basis[volume_peak.FLOOR] for p in parts]
    factors = [float(x["implied"]) / float(x["estimate"]) for x in records]
    assert factors[0] == pytest.approx(factors[1], rel=1e-9)
    plan = r.costs.volume_basis[volume_peak.FLOOR]
    assert r.costs.output_tokens_per_month == plan["implied"]
    assert plan["implied"] == pytest.approx(sum(p.output_tokens_per_month for p in parts), abs=2)
    assert plan["estimate"] == pytest.approx(sum(float(x["estimate"]) for x in records), abs=2)
    assert plan["implied"] / plan["estimate"] == pytest.approx(factors[0], rel=1e-3)
    assert plan["estimate"] < volume_peak.NEAR * plan["implied"]
    assert plan["peak"] == r.costs.volume_basis["who"]["peak"] == sum(n.peak for n in r.nodes)


@pytest.mark.parametrize("lang", LANGS)
def test_q34s_floor_is_said_in_its_tokens_row(lang):
    """The raised figure is never silent (s28-volume28 recorded q34's floor without saying it). Re-argued
    (onebasis36, review 25, q34: "'Costed on 290,000,000 / 87,000,000' beside an estimate of 132M/39.6M. Pick
    one."): the tokens row, the only one, opens on the input / output the costs use with the busiest hour's line,
    and names the plan's estimate (the nodes' estimates summed) after it as the reading not used; no row under it."""
    r = planned(advice_answers("q34_mixed_users_split"))
    plan = r.costs.volume_basis[volume_peak.FLOOR]
    lines = render_memo_markdown(r, lang).splitlines()
    label = {"en": "| Tokens per month", "zh_CN": "| 每月 token"}[lang]
    tokens = [i for i, line in enumerate(lines) if line.startswith(label)]
    assert len(tokens) == 1
    value = lines[tokens[0]].split("|")[2].strip()
    costed = f"{r.costs.input_tokens_per_month:,.0f} / {r.costs.output_tokens_per_month:,.0f}"
    assert value.startswith(costed) and f"{plan['line']['mean']} " in value
    # re-argued (s36-rowtrim, review 27, q34: "cut to one figure and a range"): the estimate is the assumptions
    # list's, which says the costs read the peak instead
    assert f"{round(plan['estimate']):,.0f}" not in value
    assert not lines[tokens[0] + 1].startswith(f"| {translate(lang, 'volume29.cost.floor')} | ")


def test_a_two_node_plan_that_needs_no_floor_floors_no_node(monkeypatch):
    """q05 (two nodes, an estimate of people a year well above its busiest hour's floor): neither node is raised."""
    r, parts = _nodes_of("q05_filed_finetune_mainland_sg", monkeypatch)
    assert len(parts) == 2
    assert all(volume_peak.FLOOR not in (p.volume_basis or {}) for p in parts)
    assert volume_peak.FLOOR not in (r.costs.volume_basis or {})


def test_a_node_is_never_floored_on_its_own_share():
    """A node of a plan that needs no floor ({}) is not raised even where its own share alone would be; one of a
    plan that does is raised by the plan's factor, whatever its own peak would say."""
    c = resolve(answers_from_dict(advice_answers("q34_mixed_users_split")))
    node = mainland_ctx(dataclasses.replace(c, plan_floor={}))
    rate, small = 5000.0, 1_000_000.0  # a month far under what this rate at the node's peak makes in its busiest hour
    assert volume_peak.floor(node, rate, small) is not None  # alone, it would be raised
    assert burst._floor(node, rate, small) is None
    plan = {"implied": 90e6, "estimate": 30e6, "peak": c.peak, "mean": 46, "when": "volume28.when.working"}
    raised = burst._floor(mainland_ctx(dataclasses.replace(c, plan_floor=plan)), rate, small)
    assert raised is not None and raised["implied"] == pytest.approx(3 * small) and raised["estimate"] == small
