"""Page 1 says the first-token target the plan was sized for where an assumed one was raised to fit the free cards
(s34-q04said, blind review 26, q04: "That trade-off belongs in the headline, not only in the open-questions box");
a plan whose target the team gave says nothing of it."""

from __future__ import annotations

from advisor.plan import answers_from_dict, make_plan
from advisor.plan.memo import render_memo_markdown
from advisor.plan.ttft_free_cards import KEY
from tests.support.planned import Q04_GIVEN, advice_answers, advice_plan
from tests.support.rec_block import recommendation_block

Q04 = "q04_securities_h20_l20_fleet"


def _row(md: str, label: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"| {label} |"))


def _free_cards_plan(monkeypatch):
    """q04 on its free cards with one more replica only recommended: since s41-q04 (blind review 34) the replica
    weighed first for the busy cards is the plan (``fleet_choice43``, test_tc43_fleet_choice); these read the
    recommendation line where that rule does not take it."""
    return make_plan(answers_from_dict(advice_answers(Q04)))


def _recommendation(md: str) -> str:
    return recommendation_block(md)  # its choices as bullets below the first line (s42-hyb)


def test_raised_target_is_the_owners_decision_on_the_recommendation_line_with_the_plans_figures(monkeypatch):
    # s36-fleet38 (blind review 27) moved it to the recommendation line; review 28 (q04 zh: "choosing an SLO so the
    # plan fits the idle hardware needs explicit business sign-off, so put it first as a decision … not an
    # assumption"; "give one number and one optional upgrade"): the line opens on the owner's decision, with the
    # plan's card count and the usual target's layout, and no free-card figure beside them
    r = _free_cards_plan(monkeypatch)
    a = next(a for a in r.assumptions if a.key == KEY)
    p = a.params
    value, default = f"{p['value'] / 1000:g}", f"{p['default'] / 1000:g}"
    assert p["n"] - p["free"] > 0 and p["value"] > p["default"]  # raised because the usual one takes busy cards
    used = r.hardware.total_gpus
    md_en, md_zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    en = _recommendation(md_en)
    # review 31 (q04: "the 10 s TTFT target is not explained"; "state which target you recommend and why"): the
    # line recommends the raised target, then says the usual one with its rule and what keeping it takes; review 32
    # (q04 zh: "lead with 'use 10 existing H20, no purchase' and put the SLO sign-off second"): the deployment first
    count = r.hardware.layout.fleet_count
    assert en.startswith(f"**Recommendation**: Run it on {used} of your {count} × {p['gpu']}, in your own server "
                         "room: nothing to buy. The one decision for the business owner, in writing")
    # s42-hyb (blind review 35, q04): one choice, the plan on the free cards at the raised target or the usual
    # target's layout on the busy cards too
    assert f"first token within {value} s at P99" in en
    assert f"the usual one for your {p['p95']:,}-token P95 prompt is {default} s (2 s for a chat turn plus 0.5 s " \
           "per 1,000 prompt tokens beyond 2,000, at most 6 s)" in en
    assert f"TP{p['tp']} × {p['replicas']} on {p['n']} cards: first token within {default} s" in en  # the usual one
    assert f"{p['free']} free" not in en  # one card count (the plan's), one upgrade (review 28)
    assert f"on {used} free cards (this plan)" in en
    assert en.index("nothing to buy") < en.index("in writing")  # the deployment before the decision
    assert "first-token target of" not in _row(md_en, "Feasible as asked")
    assert f"under the {value} s target" in _row(md_en, "Feasible as asked")
    zh = _recommendation(md_zh)
    assert zh.startswith(f"**建议**：使用现有 {count} 张 {p['gpu']} 中的 {used} 张，放在自有机房，无需新购。请业务负责人")
    assert f"首 token P99 在 {value} 秒以内" in zh
    assert f"通常的目标是 {default} 秒（一轮聊天 2 秒" in zh
    assert f"跑 TP{p['tp']} × {p['replicas']}：首 token 在 {default} 秒以内" in zh
    assert f"空闲的 {p['free']} 张" not in zh
    assert "未给出目标" not in _row(md_zh, "按要求是否可行")
    # the alternative stated once: the open question points to the decision instead of weighing it again
    assert md_en.count(f"TP{p['tp']} × {p['replicas']}") == 2 and md_zh.count(f"TP{p['tp']} × {p['replicas']}") == 2
    assert "the decision put to the business owner at the top" in md_en and "请业务负责人决定的事项" in md_zh


def test_a_given_target_is_not_said_as_assumed():
    r = advice_plan(Q04, **Q04_GIVEN)
    assert not any(a.key == KEY for a in r.assumptions)
    assert "first-token target of" not in render_memo_markdown(r, "en")
    assert "未给出目标" not in render_memo_markdown(r, "zh_CN")


def test_with_a_spare_the_server_loss_is_said_once_on_page_one(monkeypatch):
    # blind review 26 (q04 zh) split the replica failure from the server failure; review 28 (q04 en: "the
    # one-server-down case … is stated three times; say it once"): page 1's hardware row weighs it for the owner and
    # the placement finding gives it in full; the capacity reason no longer repeats it (the JSON's finding keeps it)
    r = _free_cards_plan(monkeypatch)
    f = next(x for x in r.findings if x.params.get("loss"))
    assert f.params["loss"]["tr"] == "q04said_.sizing.server_loss_spare"
    # since review 32 (q04: "present them as the real choice") the recommendation line weighs both 12-card layouts
    # with what a server down leaves today, so the hardware row no longer repeats it
    for lang, down, row in (("en", "a server down leaves", "one machine down leaves"),
                            ("zh_CN", "一台服务器停机时", "一台机器停机时")):
        md = render_memo_markdown(r, lang)
        assert down in _recommendation(md) and row not in _row(md, "Hardware" if lang == "en" else "硬件")
        assert ("The N+1 spare covers one replica failing, not a whole server" if lang == "en" else
                "N+1 备用只能顶住一个副本故障，顶不住整台服务器") in md  # the placement finding
        assert ("not a server outage" if lang == "en" else "顶不住整台服务器宕机") not in md


def test_headroom_that_rides_out_a_replica_is_said_as_replica_level_n_plus_1():
    # re-argued in s36-fleet38 (blind review 27, q08 zh: the placement said "没有备用副本" while the layout section
    # said the other 2 of 3 carry the peak with one down: "Say N+1 at replica level, not at server level"): where the
    # replicas less one carry the peak, the placement and the reason both say the N+1 covers a replica, not a server
    r = advice_plan("q08_ascend_fleet_internal")
    assert r.hardware.layout.spare_units == 0  # no spare by count: the headroom replica is the N+1
    en = render_memo_markdown(r, "en")
    assert "There is no spare replica" not in en
    assert "The N+1 spare covers one replica failing, not a whole server" in en
    # said once on page 1 (review 28), since review 29 in the recommended layout's paragraph, the row pointing to it
    page_one = en.split("What decides it", 1)[0]
    assert page_one.count("one machine down leaves") == 1 and "one machine down leaves" not in _row(en, "Hardware")
    zh = render_memo_markdown(r, "zh_CN")
    assert "没有备用副本" not in zh and "N+1 备用只能顶住一个副本故障" in zh
