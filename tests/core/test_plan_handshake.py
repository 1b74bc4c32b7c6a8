"""A tight TTFT target for mainland users on an offshore node (``region.latency_budget``) counts one round trip; a
new connection's TCP and TLS 1.3 handshakes add one each (RFC 8446), so the memo says to keep connections open
(q43's review: "Add the TLS/connection-setup cost (keep-alive) to the 150 ms budget")."""

from __future__ import annotations

import pytest

from advisor.plan.data import facts
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned


def test_q43_handshakes_are_two_more_round_trips_from_the_node():
    plan = planned(advice_answers("q43_us_team_mainland_low_latency"))
    (f,) = [f for f in plan.findings if f.id == "region.latency_budget"]
    rtt = facts()["rtt_ms"][plan.region]
    assert f.params["handshake"] == {"tr": "plan.latency_budget.handshake", "low": 2 * int(rtt["low"]),
                                     "high": 2 * int(rtt["high"])}  # fmt: skip
    assert any("rfc8446" in s.url for s in f.sources)


@pytest.mark.parametrize(("lang", "words"), [("en", "Keep connections open"), ("zh_CN", "保持连接复用")])
def test_the_memo_says_keep_alive(lang, words):
    md = render_memo_markdown(planned(advice_answers("q43_us_team_mainland_low_latency")), lang)
    assert words in md
