"""``advisor plan``'s text summary of a batch job (the CLI on a headless server): the job's rows — requests in
flight, throughput, hours against the deadline — as the memo has them, never a P99 TTFT/TPOT "at the peak" that
nobody waits on (q06 printed "At the peak 632 concurrent: P99 TTFT 1,826 ms, P99 TPOT 785.3 ms")."""

from __future__ import annotations

import pytest

from advisor.cli.plan import summary
from tests.support.planned import advice_answers, planned


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_batch_summary_has_the_job_rows_not_latency(lang):
    plan = planned(advice_answers("q06_l20_batch_72h_claims"))
    text = summary(plan, lang)
    assert "TTFT" not in text and "TPOT" not in text
    hours = f"{plan.capacity.batch_hours:.1f}"
    assert hours in text and "72" in text
    assert f"{plan.capacity.peak_concurrency:,}" in text


def test_interactive_summary_keeps_the_peak_latency():
    text = summary(planned(advice_answers("q24_us_saas_rent")), "en")
    assert "At the peak" in text and "P99 TTFT" in text
