"""The fleet's layout put to the owner (s36-fleet38, blind review 27, issue #25).

- q08/q33 en: "make the symmetric 4 replicas on all 16 the plan rather than an aside"; q04 zh: "Put the 6th-replica
  option (36 of 40) in the hardware row as a decision for the owner, not a footnote". Where the one more replica
  needs cards the other work may use, page 1's hardware row weighs both layouts, each with what one machine down
  leaves of the peak, and names the cards to be freed; the plan's own figures stay those of the free cards.
- q04 en/zh: the first-token target raised to fit the free cards leads the recommendation line as the owner's call.
- q18 zh: the free cards, once found, are held for the service (a scheduler reservation or cordon).
"""

from __future__ import annotations

import pytest

from advisor.plan import (
    answers_from_dict,
    fleet_one_count,
    layout_headline40,
    make_plan,
    ttft_choice42,
)
from advisor.plan.fleet import free_gpus
from advisor.plan.headline25 import _more
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import Q33_BUSIER, advice_answers, advice_plan, only_finding
from tests.support.rec_block import recommendation_block

LANGS = ("en", "zh_CN")
Q04, Q08, Q18, Q33 = ("q04_securities_h20_l20_fleet", "q08_ascend_fleet_internal", "q18_us_fleet_32_h100",
                      "q33_office_4090d_fleet")


def _row(md: str, *labels: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(tuple(f"| {x} |" for x in labels)))


def _fleet(name: str) -> tuple[int, int]:
    a = advice_answers(name)
    count = int(a["current_fleet"]["count"])
    return count, free_gpus(count, float(a["measured_utilisation"]))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q04, Q08, Q33_BUSIER])
def test_the_layout_that_rides_out_a_machine_is_the_owners_decision_beside_the_plan(name, lang, monkeypatch):
    if name == Q04:  # since s41-q04 (review 34) q04's weighed layout is the plan (test_tc43_fleet_choice): the
        # decision beside a plan of the free cards is read where that rule does not take the replica
        r = make_plan(answers_from_dict(advice_answers(name)))
    else:
        r = advice_plan(name)
    count, free = _fleet(name)
    more = _more(only_finding(r, "sizing.placement").params)
    assert more is not None
    hw = r.hardware
    nxt = hw.replicas + 1
    total = nxt * hw.gpus_per_replica
    # the plan stays on the free cards; the one more takes busy ones: hence a decision, not the plan
    assert hw.total_gpus <= free < total <= count
    # the larger layout leaves more of the peak carried with a machine down than today's (``carried_by``'s figures)
    peak = int(advice_answers(name)["peak_concurrency"])
    assert more["carried_now"] < peak and more["carried_after"] > more["carried_now"]
    assert more["left_after"] > more["left_now"]
    row = _row(render_memo_markdown(r, lang), "Hardware", "硬件")
    if fleet_one_count.decided_first(r.assumptions):
        # s37-fleet39 (blind review 28, q04: "one number and one optional upgrade"): the headline's first-token
        # upgrade is page 1's one option; the row says what one machine down leaves and points to the placement
        if ttft_choice42.weighed(r):  # review 32 (q04): said with both layouts for the same cards, on the line above
            line = recommendation_block(render_memo_markdown(r, lang))  # s42-hyb: its choices as bullets
            assert (f"a server down leaves {more['left_now']} of the {hw.replicas} replicas, carrying "
                    f"{more['carried_now']} of the peak's {peak}" if lang == "en" else
                    f"一台服务器停机时 {hw.replicas} 个副本还剩 {more['left_now']} 个，承载峰值 {peak} 个请求中的 "
                    f"{more['carried_now']} 个") in line
            assert "one machine down" not in row and "一台机器停机" not in row
            return
        assert (f"one machine down leaves {more['left_now']} of the {hw.replicas}, carrying {more['carried_now']} "
                f"of the peak's {peak}" if lang == "en" else
                f"一台机器停机时 {hw.replicas} 个副本只剩 {more['left_now']} 个，承载峰值 {peak} 个请求中的 "
                f"{more['carried_now']} 个") in row
        assert str(total) not in row.split(";", 1)[-1].split("；", 1)[-1] and "your decision" not in row
        return
    if layout_headline40.applies(r):
        # blind review 29 (q33, q08: "make it the headline"): where the larger layout carries the whole peak with a
        # machine down it is page 1's recommendation, under its line, with what today's leaves; the row points up
        md = render_memo_markdown(r, lang)
        head = layout_headline40.head_clause(r, lang)
        assert head in md and more["carried_after"] >= peak
        assert (f"one machine down leaves {more['left_now']}, carrying {more['carried_now']} of the {peak}"
                if lang == "en" else
                f"一台机器停机时只剩 {more['left_now']} 个，承载峰值 {peak} 个请求中的 {more['carried_now']} 个") in head
        # blind review 30 (q08: "The boss needs one plan, with the other as a condition"): one plan, its first part
        # deployed now on the free cards (the plan's figures) and the rest once the other work moves
        # blind review 33 (q08: "'Recommended layout: 4 replicas on all 16' conflicts with the hardware table's 12
        # cards; lead with the 3 replicas deployed now and add the 4th as a follow-up"): today's layout leads, the
        # larger one follows as its follow-up, and the row says the same count
        lead = (f"**Recommended layout:** {hw.replicas} replicas now, on {hw.total_gpus} free cards of your {count}"
                if lang == "en" else f"**建议布局**：现在在你们 {count} 张卡中空闲的 {hw.total_gpus} 张上跑 {hw.replicas} 个副本")
        # review 36 (q08: "a recommendation with an owner, not an optional upgrade"): the recommended next step
        follow = (f"Recommended next step: add {nxt - hw.replicas} more, for {nxt} replicas" if lang == "en" else
                  "建议的下一步：再加")
        assert head.startswith(lead) and follow in head and head.index(lead) < head.index(follow)
        assert (f"建议的下一步：再加 {nxt - hw.replicas} 个，在" in head) if lang == "zh_CN" else True
        assert ("Owner: " if lang == "en" else "负责人：") in head
        assert (f"the {hw.replicas} replicas deployed now; the next step above brings them to {nxt}" if lang == "en"
                else f"即上面建议现在部署的 {hw.replicas} 个副本；按上面建议的下一步加到 {nxt} 个") in row
        assert f"{total - hw.total_gpus} more cards" in head if lang == "en" else f"另外 {total - hw.total_gpus} 张卡" in head
        assert row.rstrip(" |").endswith(layout_headline40.row_clause(r, lang)) and "your decision" not in row
        return
    if lang == "en":
        assert "your decision: as planned, one machine down leaves " \
            f"{more['left_now']} of the {hw.replicas}, carrying {more['carried_now']} of the peak's {peak}" in row
        on = f"all {count} of your cards" if total >= count else f"{total} of your {count} cards"
        after = f"all {peak}" if more["carried_after"] >= peak else f"{more['carried_after']} of the {peak}"
        assert f"; {nxt} replicas on {on} would leave {more['left_after']}, carrying {after}" in row
        assert f"once the other work moves off {total - hw.total_gpus} more cards: ask its owners" in row
        assert "recommended besides" not in row
    else:
        assert f"由你们决定：按本方案，一台机器停机时 {hw.replicas} 个副本只剩 {more['left_now']} 个，" \
            f"承载峰值 {peak} 个请求中的 {more['carried_now']} 个" in row
        assert f"跑 {nxt} 个副本，则仍剩 {more['left_after']} 个" in row
        assert f"先把另外 {total - hw.total_gpus} 张卡上的其他工作迁走" in row and "另建议" not in row


@pytest.mark.parametrize("lang", LANGS)
def test_q18_rides_out_a_server_on_its_free_cards_so_no_decision_is_asked(lang):
    # where the free cards hold the layout that survives a server down, it is the plan: nothing put to the owner
    r = advice_plan(Q18)
    count, free = _fleet(Q18)
    assert r.hardware.total_gpus <= free
    assert _more(only_finding(r, "sizing.placement").params) is None
    md = render_memo_markdown(r, lang)
    row = _row(md, "Hardware", "硬件")
    assert ("your decision" not in row) if lang == "en" else ("由你们决定" not in row)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q04, Q08, Q18])
def test_the_free_cards_once_found_are_held_for_the_service(name, lang):
    r = advice_plan(name)
    assert any(s.id == "placement_check" for s in r.next_steps)
    md = render_memo_markdown(r, lang)
    start = "Before starting any replica" if lang == "en" else "启动任何副本之前"
    step = next(line for line in md.splitlines() if start in line)
    assert ("Then hold those cards for this service (a reservation in your scheduler, or mark them unschedulable)" in step) \
        if lang == "en" else ("找到后把这些卡留给本服务（在调度器里预留，或把这些卡标记为不可调度）" in step)


@pytest.mark.parametrize("lang", LANGS)
def test_the_ascend_stack_note_names_the_versions_to_check(lang):
    # review 27, q08 en: "Name the CANN/vllm-ascend versions to check, since support is model- and version-specific":
    # the release whose supported-models list names the model, and the CANN its notes require, pinned together
    md = render_memo_markdown(advice_plan(Q08), lang)
    line = next(x for x in md.splitlines() if "vllm-ascend" in x and ("CANN version" in x or "CANN 版本" in x))
    if lang == "en":
        assert "supported-models list names it" in line and "write both into the runbook" in line
    else:
        assert "支持模型列表里列出它的 vllm-ascend 版本" in line and "把两个版本号写进运维手册" in line
    # not said for an NVIDIA plan
    assert "CANN version" not in render_memo_markdown(advice_plan(Q18), "en")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q08, Q18, Q33])
def test_the_fleet_is_said_once_where_the_cost_finding_says_it_all(name, lang):
    # review 27, q33 en: "The findings 'Runs on 6 of your 8' and 'Your fleet' repeat each other; merge them"; q18 zh:
    # reason 5 ('现有 GPU：32 张') is filler. The finding stays in the result; the memo says the fleet once
    from advisor.plan.reasons import deciding

    r = advice_plan(name)
    fleet = only_finding(r, "gpu.fleet")
    cost = only_finding(r, "cost.fleet")
    assert fleet.id not in [f.id for f in deciding(r.findings)]
    md = render_memo_markdown(r, lang)
    assert f"**{fleet.title_in(lang)}**" not in md and f"**{cost.title_in(lang)}**" in md
    # the continuity it said stays on page 2's "why this GPU"
    assert ("the same software stack, spare parts and skills" in md) if lang == "en" else ("软件栈" in md)


def test_a_fleet_finding_with_more_to_say_stays():
    # q04: the fleet's other GPU type (its L20s) and why the plan does not run on it: said in section 7 still
    r = advice_plan(Q04)
    fleet = only_finding(r, "gpu.fleet")
    assert fleet.params.get("others")
    assert f"**{fleet.title_in('en')}**" in render_memo_markdown(r, "en")
