"""The GPU-use share multiplies out from the figures the memo prints beside it (issue 25, session 30).

The share divided the month's tokens by the screen's analytic tokens/s a replica (every request decoding at the steady
TPOT, no prefill, no wait, and at the screen's load per replica before replicas were added), while the memo prints the
simulated throughput at the planned load (the sizing table's output speed, the latency table): q08's 491 against 189.5
tokens/s a replica, so the "about 2 % of capacity used" was 6 % by the memo's own figures, and the power, the
hours-based break-even and the "fills ~N % of hours" leads all stood on the smaller share. Now the share is the
printed month's tokens ÷ (replicas × the printed tokens/s a replica × 730 h), read back from the memo text here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.planned import scenario_memo, scenario_plan

SCENARIOS = {p.stem[:3]: p for p in Path("bench/advice_scenarios").glob("q*.json")}
SECONDS_A_MONTH = 730 * 3600  # the cost table's month (usage_share.HOURS_PER_MONTH)
# the owned fleets (q04, q08, q18, q33) and two rented setups (q12 monthly/reserved, q14 with its spare)
PRINTED = ["q04", "q08", "q18", "q33", "q12", "q14"]


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _row(memo: str, *labels: str) -> str:
    """The value cells of the memo's table row that starts with one of ``labels``."""
    for ln in memo.splitlines():
        if any(ln.startswith(f"| {label} |") for label in labels):
            return ln.split("|", 2)[2]
    raise AssertionError(f"no row {labels}")


def _printed_rate(memo: str, per_replica: int) -> tuple[float, float]:
    """(tokens/s a replica, tokens/s all replicas) as printed: the latency table's throughput at the planned load
    per replica, and the sizing table's output speed for every replica (its second tokens/s figure)."""
    heads = [c.strip() for c in _row(memo, "Concurrency", "并发").split("|")]
    rates = [c.strip() for c in _row(memo, "Throughput (tokens/s)", "吞吐（tokens/秒）").split("|")]
    one = _num(rates[heads.index(str(per_replica))])
    speeds = re.findall(r"([\d,.]+) tokens/(?:s|秒)", _row(memo, "Output speed (predicted)", "输出速度（预测）"))
    return one, _num(speeds[1])


def _printed_share(memo: str) -> list[float]:
    """The GPU-use row's share in percent: one figure ("about 6 %") or a range ("2–8 %")."""
    value = _row(memo, "GPU use; horizon", "Accelerator use; horizon", "GPU 使用率；测算周期", "加速卡使用率；测算周期")
    got = re.search(r"([\d.]+)(?:–([\d.]+))? ?%", value)
    assert got is not None, value
    return [float(g) for g in got.groups() if g is not None]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
@pytest.mark.parametrize("qid", PRINTED)
def test_share_multiplies_out_from_the_printed_rate(qid: str, lang: str) -> None:
    r = scenario_plan(SCENARIOS[qid])
    c, cap, hw = r.costs, r.capacity, r.hardware
    assert c is not None and cap is not None and hw is not None and c.usage_from_tokens
    memo = scenario_memo(SCENARIOS[qid], lang)
    one, total = _printed_rate(memo, cap.concurrency_per_replica)
    # the sizing table's every-replica figure is the latency table's level at the planned load × the replicas
    assert total == pytest.approx(one * hw.replicas, rel=0.01, abs=1.0)
    tokens = [c.output_tokens_per_month, c.output_tokens_per_month_high if c.usage_high else None]
    shares = _printed_share(memo)
    counts = [_num(n) for n in re.findall(r"\d{1,3}(?:,\d{3}){2,}", memo)]
    for printed, month in zip(shares, tokens, strict=False):
        assert month is not None
        # the month's tokens the share is of, as the tokens rows print it (an estimate's top to two figures:
        # q04 "190,000,000" for 190,273,550)
        said = min(counts, key=lambda n: abs(n - month))
        assert said == pytest.approx(month, rel=0.03), (qid, lang, month)
        share = said / (total * SECONDS_A_MONTH) * 100
        # the printed share is whole percent (at least 1); the printed total is rounded to the token/s
        assert abs(max(1.0, share) - printed) <= 0.5 + 0.01 * share, (qid, lang, share, printed)


@pytest.mark.parametrize("qid", sorted(SCENARIOS))
def test_share_is_of_the_stated_capacity(qid: str) -> None:
    """In every scenario whose share is the month's tokens: the share is those tokens over the capacity the plan
    states (``per_million_basis``: the simulated tokens/s at the planned load, both nodes' where it has two, every
    replica around the clock), the same capacity the per-million figures and the "fills ~N % of hours" leads
    read. Before, the basis printed the simulated tokens/s beside a share of the analytic rate (q08: 568.5 tokens/s
    all replicas beside a full month of 4,340,000,000 tokens, 491 a replica)."""
    r = scenario_plan(SCENARIOS[qid])
    c = r.costs
    if c is None or c.per_job or not c.usage_from_tokens:
        return
    basis = c.per_million_basis or {}
    full = float(basis["output_tokens_per_s"]) * SECONDS_A_MONTH
    assert full == pytest.approx(basis["full_output_tokens"], rel=0.001)
    assert c.utilisation == pytest.approx(c.output_tokens_per_month / full, rel=0.001)


def test_two_nodes_share_is_of_both_nodes() -> None:
    """A mainland + overseas plan (q05, q34): the share is both nodes' month of tokens over both nodes' printed
    capacity (the per-million basis sums their tokens/s), not the mainland node's own share beside both nodes'
    tokens (q05 printed 15 % where the printed figures give 17 %)."""
    for qid in ("q05", "q34"):
        r = scenario_plan(SCENARIOS[qid])
        c = r.costs
        assert c is not None and c.usage_from_tokens
        basis = c.per_million_basis or {}
        assert basis.get("nodes") == 2
        full = float(basis["output_tokens_per_s"]) * SECONDS_A_MONTH
        assert c.utilisation == pytest.approx(c.output_tokens_per_month / full, rel=0.001), qid
        if c.usage_high:
            assert c.usage_high == pytest.approx(min(1.0, c.output_tokens_per_month_high / full), abs=1e-3), qid
