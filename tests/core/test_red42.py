"""Page 1 says the same as the sections below about server-level cover, pilots and the hosted-API fork (issue #25,
blind review 32; the rules: ``quote_lead35`` / ``gpu_rules._repair_rent``, ``quote_lead39.pilot``, ``fork42``).

- q26: one failed server of an owned fleet leaves part of the peak for days: keeping failover capacity (today's,
  contracted, or one more server with its month) is a condition of buying, on page 1 and in section 7 alike.
- q03: the second server is in the plan for level 3's hot redundancy: a pilot-first step says it is required before
  go-live, so the pilot sets when it is ordered, not whether.
- q34: the mainland users' hosted-API test is the recommendation's one fork (rent; if the test passes, the API
  instead of the mainland node), its paragraph labelled the alternative, not a second decision.
"""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import api_per_region, fork42, launch_order44, launch_paths42
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import advice_plan, only_finding

HEAD = ("**Recommendation**", "**建议**")
LANGS = ["en", "zh_CN"]


def _head(md: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(HEAD))


def _section7_redundancy(md: str, title: str) -> str:
    return next(line for line in md.splitlines() if line.startswith(f"- **{title}"))


@pytest.mark.parametrize("lang", LANGS)
def test_q26_failover_cover_is_a_condition_of_buying_not_a_choice(lang):
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    md = render_memo_markdown(r, lang)
    red = only_finding(r, "sizing.redundancy")
    p = red.params
    assert p["failover"]  # a measured load: today's capacity is the failover named
    head = _head(md)
    # blind review 34 (q26): the contracted failover is part of the first sentence's buy rule, a condition of buying
    first = head.split("**", 2)[2].lstrip(": ：").split(". " if lang == "en" else "。", 1)[0]
    condition = {"en": "and the failover capacity is contracted; otherwise rent",
                 "zh_CN": "并且已签约保留故障切换容量，就购买；否则租用"}[lang]
    contracted = {"en": "keep the capacity you run on today contracted as the failover",
                  "zh_CN": "签约保留目前运行本服务的算力作为故障切换"}[lang]
    assert condition in first and contracted in head
    assert {"en": "choose before ordering", "zh_CN": "下单前二选一"}[lang] not in head
    # what a failed server leaves and what the further server costs, the finding's own figures
    assert f" {p['carried']} " in head and p["other"] in head and f"{p['servers'] + 1}" in head
    # section 7 says the same: a third server where today's capacity cannot stay, not "if customers will not accept"
    detail = _section7_redundancy(md, red.title_in(lang))
    assert translate(lang, "red42.buy_when.failover", pct=p["pct"]) in detail
    assert translate(lang, "red42.buy_when.accept", pct=p["pct"]) not in detail
    assert "{" not in head and "{" not in detail


@pytest.mark.parametrize("lang", LANGS)
def test_q03_pilot_first_says_the_duty_second_server_comes_before_go_live(lang):
    r = advice_plan("q03_hospital_private_wan_medical")
    md = render_memo_markdown(r, lang)
    head = _head(md)
    assert any(f.title_key == "plan.rule.sizing.single_point.added.title" for f in r.findings)
    required = {"en": "the second is required before go-live all the same", "zh_CN": "第二台无论如何都须在上线前到位"}[lang]
    assert required in head
    assert "only once" not in head  # en: the plain gate's "order the second only once it measures"


def test_pilot_without_a_duty_keeps_the_plain_gate():
    """A pilot gate where no duty requires the second server says "only once" (the rest is the pilot's to decide)."""
    from advisor.plan import quote_lead39

    r = advice_plan("q03_hospital_private_wan_medical")
    plain = r.model_copy(update={"findings": [f for f in r.findings if f.id != "sizing.single_point"]})
    text = quote_lead39.pilot(plain, "en", 2)
    assert "only once" in text and "required before go-live" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_q34_api_test_is_the_recommendations_one_fork(lang):
    r = advice_plan("q34_mixed_users_split")
    assert fork42.is_fork(r.start_with) and r.start_with.key == api_per_region.KEY
    md = render_memo_markdown(r, lang)
    head = _head(md)
    assert translate(lang, "red42.fork.headline").strip() in head
    page = page_one(md)
    label = translate(lang, "red42.fork.label").strip()
    para = next(x for x in page.split("\n\n") if x.startswith(label))
    # the paragraph is the alternative, no longer a second decision for the owner
    assert translate(lang, "usage40_choice.label").strip() not in page
    assert r.start_with.params["node_month"] in para


def test_no_fork_where_the_api_line_is_not_a_test_replacing_part_of_the_plan():
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    assert not fork42.is_fork(r.start_with) and fork42.clause(r, "en") == ""


@pytest.mark.parametrize("lang", LANGS)
def test_q10_edge_plan_leads_with_pilot_and_measure_before_any_commitment(lang):
    """Three or more edge risks at once (q10: 0 % headroom, a thin first token, no spare, a straddled budget): the
    recommendation's first words say no commitment until the quote and the pressure test the risks line names."""
    from advisor.plan import edge_risks38

    r = advice_plan("q10_128k_document_assistant")
    assert len(edge_risks38.risks(r)) >= edge_risks38.MIN_RISKS
    head = _head(render_memo_markdown(r, lang))
    lead = translate(lang, "red42.edge.first", form="|", waits="|").split("|")[0]
    assert head.split("：" if lang == "zh_CN" else ": ", 1)[1].startswith(lead)
    assert translate(lang, "red42.edge.waits.both") in head


def test_no_pilot_first_lead_off_the_edge():
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    head = _head(render_memo_markdown(r, "en"))
    assert "Pilot and measure before any commitment" not in head


@pytest.mark.parametrize("lang", LANGS)
def test_q11_both_launch_dates_where_the_memo_overrides_the_audience_answer(lang):
    """q11: the generative-AI filing is planned on the memo's likely reading (a ``…_likely`` step) against the
    answer "not for the public": the first line gives the launch on the answer's own reading too, from the timeline's
    other steps (the longest timed blocking step, then the set-up), and names it a question for counsel."""
    r = advice_plan("q11_paid_api_b25")
    tl = r.timeline
    assert tl.gate is not None and tl.gate.id.endswith(launch_paths42.LIKELY)
    rest = [i for i in tl.items if i.blocking and i.id != "setup" and i.length_known
            and not i.id.endswith(launch_paths42.LIKELY)]
    setup = next(i for i in tl.items if i.id == "setup")
    low = max(i.days_low for i in rest) + setup.days_low
    high = max(i.days_high for i in rest) + setup.days_high
    assert tl.launch_days_low - high >= launch_paths42.MONTHS_APART
    # vrd44 (review 35): under the recommendation, the question for counsel, then the two dates as two bullets
    page = render_memo_markdown(r, lang).split("\n## ")[1]
    paths = launch_order44.paths(r, lang)
    assert len(paths) == 2 and all(f"- {x}" in page for x in paths)
    assert f"{tl.launch_days_low}–{tl.launch_days_high}" in paths[0] and f"{low}–{high}" in paths[1]
    assert page.index(_head(render_memo_markdown(r, lang))) < page.index(paths[0]) < page.index(paths[1])
    assert ("question for counsel" if lang == "en" else "先问律师") in launch_order44.intro(lang)
    g = tl.gate
    assert f"{g.days_low}–{g.days_high}" in paths[0]
    assert launch_order44.intro(lang) in page


def test_no_second_launch_date_where_the_answer_sets_the_filing():
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    assert launch_paths42.clause(r, "en") == ""


def test_the_fork_key_fork42_writes_out_is_the_one_api_per_region_sets():
    """fork42 names api_per_region's key as a string (importing it would close a cycle back to result.py): the two
    must stay one key, or the fork would never open."""
    assert api_per_region.KEY in fork42.FORK_KEYS
