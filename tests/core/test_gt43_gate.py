"""Blind review 34 (gt43): a thin end-to-end first-token margin is a go/no-go gate, the first next step, with "sign the
rent only if" in the decision (q43, q09); a live conversation's peak is said once to be sized as requests in flight,
and their count is a step before reserving (q09). Behaviour on the advice scenarios' plans, en and zh_CN."""

from __future__ import annotations

import pytest

from advisor.plan import e2e_gate43, live_calls43
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_answers, planned

Q43 = "q43_us_team_mainland_low_latency"
Q09 = "q09_eu_voice_agent"


def _page_one(md: str) -> str:
    return md.split("\n## ")[1]


def _row(md: str, label: str) -> str:
    return next(line for line in _page_one(md).splitlines() if line.startswith(f"| {label} |"))


def _steps(md: str) -> list[str]:
    """The numbered next steps, page 1's and section 9's, in order."""
    out = []
    page = _page_one(md)
    marker = "**Next steps:**" if "**Next steps:**" in page else "**下一步：**"
    for part in (page.split(marker, 1)[1], md.split("\n## ")[9].split("\n", 1)[1]):
        out += [line for line in part.splitlines() if line[:1].isdigit() and ". " in line[:4]]
    return out


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_mainland_users_thin_margin_measured_from_the_three_carriers_first(lang: str) -> None:
    r = planned(advice_answers(Q43))
    got = e2e_gate43.figures(r)
    # 94 ms at the server + the 45 ms round trip against 150 ms: 11 ms left, under a quarter of the target
    assert got is not None and got["rtt"] == 45 and got["sum"] == got["server"] + 45
    assert got["left"] == 150 - got["sum"] and got["left"] < e2e_gate43.SHARE * 150
    assert r.next_steps[0].key == e2e_gate43.KEY and r.next_steps[0].command == r.hardware.command
    assert not any(s.key == "plan.next.serve" for s in r.next_steps)  # the start step became the gate, not a second
    md = render_memo_markdown(r, lang)
    first = _steps(md)[0]
    carriers = ("Telecom, Unicom and Mobile" if lang == "en" else "电信、联通、移动")
    assert first.startswith("1. ") and carriers in first
    assert f"{got['sum']}" in first and f"{got['left']}" in first
    # the band's top is the capacity row's own figure, said once with one value
    band = f"{got['band']:,}"
    ttft_row = next(line for line in md.splitlines()
                    if line.startswith("| TTFT at the peak" if lang == "en" else "| 峰值时首 token 延迟"))
    assert band in first and band in ttft_row
    feasible = _row(md, "Feasible as asked" if lang == "en" else "按要求是否可行")
    assert ("sign the rent only if" in feasible and "150 ms target (next step 1)" in feasible) if lang == "en" else \
        ("才签租用合同（下一步第 1 条）" in feasible and "150 毫秒" in feasible)
    # the quote that was step 1 is now step 2, and the rows that point at it say so
    quote = next(i for i, s in enumerate(r.next_steps, start=1) if s.id == "quotes")
    assert quote == 2 and ("(next step 2)" in feasible if lang == "en" else "（下一步第 2 条）" in feasible)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_server_share_of_an_overseas_target_gated_through_the_callers_path(lang: str) -> None:
    r = planned(advice_answers(Q09))
    got = e2e_gate43.figures(r)
    assert got is not None and got["rtt"] == 0 and got["band"] is not None and got["band"] > 300
    md = render_memo_markdown(r, lang)
    first = _steps(md)[0]
    assert f"{got['left']}" in first and ("any hand-off before the model" in first if lang == "en" else "模型之前的每个环节" in first)
    feasible = _row(md, "Feasible as asked" if lang == "en" else "按要求是否可行")
    assert ("sign the rent only if" in feasible and "(next step 1)" in feasible) if lang == "en" else \
        "才签租用合同（下一步第 1 条）" in feasible
    # the thin-margin clause of the older rule is not said again beside it
    assert "inside the predictor's error" not in feasible and "在预测器的误差之内" not in feasible


def test_a_roomy_target_or_an_api_keeps_the_plain_start_step() -> None:
    # 900 ms: the server's 166 ms and its error band's top stay well inside, no gate
    loose = planned({**advice_answers(Q09), "latency_slo": {"ttft_p99_ms": 900, "tpot_p99_ms": 30}})
    assert e2e_gate43.figures(loose) is None and not e2e_gate43.applies(loose)
    assert any(s.key == "plan.next.serve" for s in loose.next_steps)
    assert "sign the rent only if" not in render_memo_markdown(loose, "en")
    # a target of seconds: the network is no real share of it
    slow = planned({**advice_answers(Q43), "latency_slo": {"ttft_p99_ms": 2000, "tpot_p99_ms": 40}})
    assert e2e_gate43.figures(slow) is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_live_calls_sized_as_requests_in_flight_said_once_and_counted_before_reserving(lang: str) -> None:
    r = planned(advice_answers(Q09))
    assert live_calls43.applies(r)
    assert r.capacity.peak_concurrency == 80 and r.costs.gpus == 4  # the sizing is unchanged: all 80 in flight
    n = next(i for i, s in enumerate(r.next_steps, start=1) if s.id == live_calls43.STEP_ID)
    assert n > next(i for i, s in enumerate(r.next_steps, start=1) if s.id == "quotes")
    md = render_memo_markdown(r, lang)
    assumed = [line for line in md.split("\n## ")[8].splitlines() if "vllm:num_requests_running" in line]
    assert len(assumed) == 1  # said once, in the assumptions
    line = assumed[0]
    # s42-zhx (review 35, q23): a step past page 1's three is named in the list it is in
    assert (f"step {n} in section 9" in line and "all 80 conversations" in line and "all 4 GPUs" in line) \
        if lang == "en" else (f"第九节第 {n} 条" in line and "80 个对话" in line and "全部 4 张 GPU" in line)
    step = _steps(md)[n - 1]
    assert step.startswith(f"{n}. ") and "vllm:num_requests_running" in step
    assert ("Before reserving all 4 GPUs" in step) if lang == "en" else ("在预留全部 4 张 GPU 之前" in step)


def test_no_live_call_reading_for_a_text_chat_or_a_business_tool() -> None:
    chat = planned(advice_answers("q32_filed_public_chatbot_fast"))  # a public chat with no sub-second target
    assert not live_calls43.applies(chat)
    assert not any(s.id == live_calls43.STEP_ID for s in chat.next_steps)
    tool = planned({**advice_answers(Q09), "audience": "business"})  # not the public talking to it
    assert not live_calls43.applies(tool)
    assert not any(a.key == live_calls43.ASSUME_KEY for a in tool.assumptions)
