"""N+1 said from the plan's own figures when the spare was left out for the budget (s23-uplift23).

On the cloud uplift by component q10's 150,000 CNY buys a second 8 × H800 server (TP8, one replica each, each
carrying the peak of 8 on the plan's curve); a third, spare, server would break the budget. Page 1 read "Not N+1:
... when one fails, the service slows or stops" beside two servers either of which carries the peak. Where the
replicas left with the largest unit down still carry the peak, the finding says N+1 holds without a spare, with
the figures; where they do not (the fixture at 120,000 CNY: one server), the warning stays."""

from __future__ import annotations

import pytest

from tests.support.planned import advice_answers, planned, q10_short_of_headroom

LANGS = ("en", "zh_CN")


def _left(r) -> int:
    hw, lay = r.hardware, r.hardware.layout
    return max(0, hw.replicas - max(1, lay.unit_gpus // max(1, hw.tp))) * r.capacity.max_concurrency_per_replica


@pytest.mark.parametrize("lang", LANGS)
def test_servers_that_ride_out_one_failure_are_not_called_not_n_plus_one(lang):
    r = planned(advice_answers("q10_128k_document_assistant"))
    lay = r.hardware.layout
    assert lay is not None and lay.spare_units == 0 and lay.units >= 2
    assert _left(r) >= r.capacity.peak_concurrency  # one server down, the other carries the peak
    f = r.finding("sizing.redundancy")
    assert f.title_key.endswith(".covered.title") and f.severity == "info"
    title, detail = f.title_in(lang), f.detail_in(lang)
    assert str(r.capacity.peak_concurrency) in title and "{" not in title + detail
    assert f.params["extra"] in detail and "150,000" in detail  # what a further spare would cost, against what
    assert ("slows or stops" if lang == "en" else "变慢或中断") not in detail


def test_a_plan_that_one_failure_takes_below_the_peak_keeps_the_warning():
    r = planned(q10_short_of_headroom())
    assert r.hardware.layout.spare_units == 0 and _left(r) < r.capacity.peak_concurrency
    f = r.finding("sizing.redundancy")
    assert f.title_key.endswith(".over_budget.title") and f.severity == "warning"
    assert "slows or stops" in f.detail_in("en")
