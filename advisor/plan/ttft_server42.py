"""The predicted first-token time named as the server's where the target it is set against is end to end (issue #25,
blind review 32, q43: "'P99 预测 94.1 毫秒（目标 150 毫秒）' compares model-only TTFT with an end-to-end target").

The plan's TTFT target counts from the request reaching the network (``latency.place``, ``steps34.latency``): the
users' round trip is part of it. The simulator's P99 starts at the server. Where the round trip from mainland users to
the node is on file (``first_token_tie.round_trip_ms``: the same figure the precision choice adds), the row adds it;
elsewhere it says the figure is the server's alone.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import facts


def round_trip_ms(result: Any) -> int:
    """The slowest round trip on file between mainland users and the plan's node (0: none on file, or no mainland
    users), as ``first_token_tie.round_trip_ms`` reads it from the plan's context."""
    a = result.answers or {}
    loc = a.get("user_location") or "mainland"  # unanswered: assumed mainland, as the plan's context does
    mix = a.get("user_mix") or {}
    mainland = loc == "mainland" or (loc == "mixed" and (not mix or float(mix.get("mainland") or 0) > 0))
    rtt = facts()["rtt_ms"].get(result.region)
    return int(rtt["high"]) if rtt is not None and mainland else 0


__all__ = ["round_trip_ms"]
