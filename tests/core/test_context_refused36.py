"""An assumed longest context says what happens to the requests past it (issue #25, blind review 25, q18: "a paid
API's '--max-model-len 5120' is just P95 prompt + P95 answer, so the tail of longer requests will be rejected").

The server refuses a request whose prompt and requested answer exceed ``--max-model-len`` (an error, not a slow
answer), so the assumption line says so and asks for the longest; where the 4,096-token floor, not the p95 sum, set
the figure, the line says that instead of calling 4,096 "p95 prompt + p95 answer"."""

from __future__ import annotations

import pytest

from advisor.plan.memo import render_memo_markdown
from advisor.plan.served_context38 import RAISED_KEY
from tests.support.planned import advice_plan

Q18, Q43 = "q18_us_fleet_32_h100", "q43_us_team_mainland_low_latency"
REFUSED = {"en": "the server refuses longer requests", "zh_CN": "更长的请求会被服务拒绝"}


def _assumed(plan):
    return next(a for a in plan.assumptions if a.field == "max_context_tokens")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_p95_sum_rounded_up_is_said_with_the_refusal(lang):
    r = advice_plan(Q18)  # p95 prompt 4,000 + p95 answer 1,000 → 5,120
    got = _assumed(r)
    assert got.key == "plan.assume.max_context_tokens" and got.value == 5120
    assert "--max-model-len 5120" in r.hardware.command
    md = render_memo_markdown(r, lang)
    line = next(x for x in md.splitlines() if "5,120" in x and REFUSED[lang] in x)
    assert ("p95 prompt + p95 answer, rounded up" if lang == "en" else "P95 输入 + P95 输出，向上取整") in line


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_the_floor_is_said_as_the_floor_not_as_the_p95_sum(lang):
    r = advice_plan(Q43)  # p95 prompt 800 + p95 answer 300: the 4,096 floor sets it
    got = _assumed(r)
    # said as the floor, also where the serve command allows more than it (served_context38: q43's cache holds its
    # 20 a replica at 16,384)
    assert got.key in ("plan.assume.max_context_tokens_floor",
                       RAISED_KEY["plan.assume.max_context_tokens_floor"]) and got.value == 4096
    md = render_memo_markdown(r, lang)
    line = next(x for x in md.splitlines() if "4,096" in x and REFUSED[lang] in x)
    assert ("the floor;" if lang == "en" else "规划下限") in line
