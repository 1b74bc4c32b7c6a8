"""The built-in H20 server price as it was until s30-prices30, for tests of branches only that price reached.

Until s30 the 8 × H20 server row was a distributor's ¥1.2–1.5 million of 2024-07 (¥150,000–187,500 a GPU, grade
C), dated before the part's export and import rules last changed (the stale-purchase case). s30 replaced it with a
report of 2025-12 (the 141 GB H20's 8-GPU module, ¥880,000–1,050,000, plus about ¥100,000 for the server around it:
¥122,500–143,750 a GPU). Tests of what the dearer, older price did (88 × A10 cheaper to buy than 3 H20 servers, the
stale case, q26's quotes-first purchase, fixture 10's rent share) run on it with ``use_former_h20_price``; the
plans they build are never cached (``make_plan``, not ``tests.support.planned``).
"""

from __future__ import annotations

import pytest

# its grade too: the former row priced the 96 GB part itself (grade C); s31-pricegate32 graded the current row U, a
# stand-in from the 141 GB module
FORMER_H20_SERVER = {"date": "2024-07", "low": 150_000.0, "high": 187_500.0, "grade": "C"}


def use_former_h20_price(monkeypatch: pytest.MonkeyPatch) -> None:
    """The built-in rows with the H20 server row at its former price and date, for this test only."""
    from advisor.plan import data

    former = tuple(r.model_copy(update=FORMER_H20_SERVER) if r.id == "capex.h20" else r for r in data.builtin_rows())
    monkeypatch.setattr(data, "builtin_rows", lambda: former)
