"""Numbers in one memo that must agree with each other, as properties over every advice scenario (issue 25,
fifth blind review: s16-consistency).

- payback: the rent finding's verdict, the "owning pays off" row and the "break-even utilisation" row of the
  cost table are one figure (q24: "break-even 25 % in the best case" beside "owning does not pay back at 40 %";
  q25: "pays off after 16.6 months" beside "does not pay back").
"""

import json
from pathlib import Path

import pytest

from advisor.plan import (
    blocked_brief39,
    filedwait38,
    hybrid_path43,
    owned_rent_rows,
    payback,
    rent_ruled_out39,
)
from advisor.plan.binding import BETWEEN
from advisor.plan.result import render
from tests.support.planned import planned

SCEN = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
NAMES = sorted(p.stem for p in SCEN.glob("*.json"))


def _plan(name: str):
    return planned(json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"])


def _finding(r, rule_id):
    return next((f for f in r.findings if f.id == rule_id), None)


@pytest.mark.parametrize("name", NAMES)
def test_break_even_rows_and_the_rent_reason_agree(name):
    r = _plan(name)
    c = r.costs
    if c is None or c.break_even_months is None:
        return
    util, months, be_util = c.utilisation, c.break_even_months, c.break_even_utilisation
    verdict = payback.verdict(months)
    if be_util is not None and c.bare_metal_capex is not None:
        # the best case pays back within the horizon exactly when the stated utilisation reaches its break-even,
        # which is rounded up (q34: a 40.04 % break-even shown as 40 % beside "does not pay back at 40 %")
        best_in = verdict in ("best_case_only", "always")
        reaches_best = be_util.low is not None and util >= be_util.low - 1e-9
        assert best_in == reaches_best, (name, months, be_util, util)
        worst_in = verdict == "always"
        reaches_worst = be_util.high is not None and util >= be_util.high - 1e-9
        assert worst_in == reaches_worst, (name, months, be_util, util)
    rent = _finding(r, "cost.rent")
    if rent is None:
        return
    if filedwait38.waits(r):  # months behind the filing: no purchase weighed, no payback said (s36-filedwait, q30)
        assert rent.detail_key == filedwait38.RENT_DETAIL
        return
    for lang in ("en", "zh_CN"):
        # the verdict at the stated (assumed) utilisation; s21-util21b adds the volume's own share and its verdict
        # where the tokens row contradicts it (``volume``, tested in test_util21b): left out here, it is another basis
        detail = render(lang, rent.detail_key, {**rent.params, "volume": ""})
        says_never = ("does not pay back" in detail or "would not pay back" in detail
                      or ("回不了本。" in detail and "按最差的价格回不了本" not in detail))
        assert says_never == (verdict == "never"), (name, lang, detail)
    en = render("en", rent.detail_key, rent.params)
    if rent.detail_key.startswith("trim42.rent."):
        # a rent decision where owning is far off says it in one sentence, no months (trim42, blind review 32 q19/q21):
        # the sentence still says which verdict it is
        assert ("only at the best prices" in en) == (verdict == "best_case_only"), en
        return
    if verdict == "best_case_only" and months.mid is not None:
        # paid back at mid-range prices within the horizon: never "only in the best case" beside "after about 14.6
        # months at mid-range prices" (blind review 31, q25)
        assert "only in the best case" not in en and "at mid-range prices" in en and "not in the worst case" in en, en
        assert f"{months.mid:g}" in en and f"{months.low:g}" in en, en
    elif verdict == "best_case_only":
        assert "only in the best case" in en and f"{months.low:g}" in en, en  # a whole month said without ".0"


@pytest.mark.parametrize("name", NAMES)
def test_the_sizing_line_quotes_the_claim_before_any_level_above_it(name):
    """q31: "at 18 concurrent … 26 s TTFT" beside a most-within-target of 9; q02: "at 242 concurrent requests per
    replica" beside 8 in the table. A latency limit quoted at a level other than the one right after the claim
    names the claim first, and that claim is the table's "most concurrency per replica within the target"."""
    r = _plan(name)
    b = r.binding_constraint
    if b is None or b.kind not in ("prefill_compute", "decode_bandwidth") or b.variant in ("batch", "floors"):
        return
    at, c_max = b.figures.get("at"), b.figures.get("c_max")
    if at is None or c_max is None:
        return
    assert at > c_max, (name, b.figures)
    # s38-burst40 (review 29, q39): where the curve meets the target far above the cap, "up to N" is the curve's
    # ceiling and the next sentence names the claim (the cap) as the plan
    between = next((p for p in b.then if isinstance(p, dict) and p.get("tr") == BETWEEN), None)
    if between is not None:
        assert c_max == between["ok"] and between["cap"] == r.capacity.max_concurrency_per_replica, name
        return
    assert c_max == r.capacity.max_concurrency_per_replica, (name, c_max, r.capacity.max_concurrency_per_replica)
    for lang in ("en", "zh_CN"):
        text = b.text_in(lang)
        if at != c_max + 1:
            assert f"{c_max} " in text and text.index(f"{c_max} ") < text.index(f"{at}"), (name, lang, text)


@pytest.mark.parametrize("name", NAMES)
def test_a_bought_plan_runs_the_layout_its_layouts_line_says_needs_fewest(name):
    """q31: "TP2 fp8 would need at least 6 GPUs" beside a bought TP1 on 8: the owned plan is sized by the same
    layout search, so no layout tried on the plan's GPU meets the target on fewer GPUs than the one chosen."""
    r = _plan(name)
    found = r.layouts_tried
    lay = r.hardware.layout
    if found is None or found.chosen is None or (lay is not None and lay.basis == "fleet"):
        return  # on the team's own GPUs the fleet, not the search, sets the count (free cards kept as headroom)
    chosen = found.chosen
    for t in found.tries:
        if t.outcome == "more":  # a lower bound from the screen: never below the chosen one's GPUs
            assert (t.gpus or 0) >= (chosen.gpus or 0), (name, t, chosen)


@pytest.mark.parametrize("name", NAMES)
def test_bought_servers_are_installed_not_rented_in_the_timeline(name):
    r = _plan(name)
    if r.deployment_form not in ("bare_metal", "on_premises"):
        return
    for lang in ("en", "zh_CN"):
        labels = [render(lang, i.label_key, {}) for i in r.timeline.items]
        assert not any(x.startswith(("Rent", "租用")) for x in labels), (name, lang, labels)


def _memo(r, lang):
    from advisor.plan.memo import render_memo_markdown

    return render_memo_markdown(r, lang=lang)


@pytest.mark.parametrize("name", NAMES)
def test_ops_staff_are_named_only_for_a_team_that_said_it_has_them(name):
    """q02: a design agency that answered "basic Linux/Docker" (nobody runs servers) read "your ops staff look after
    one more server"."""
    answers = json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"]
    r = planned(answers)
    strong = answers.get("ops_capability") == "strong"
    en, zh = _memo(r, "en"), _memo(r, "zh_CN")
    assert ("your ops staff" in en) <= strong, name
    assert ("你们的运维人员" in zh) <= strong, name


def test_an_office_box_with_ops_unanswered_says_the_upkeep_is_assumed():
    answers = json.loads((SCEN / "q02_office_lan_small_design_agency.json").read_text(encoding="utf-8"))["answers"]
    answers = {k: v for k, v in answers.items() if k != "ops_capability"}
    r = planned(answers)
    assert r.deployment_form == "on_premises"
    en = _memo(r, "en")
    assert "your ops staff" not in en
    assert "assumed: someone on the team keeps it running" in en and "not answered" in en


TWO_NODES = ["q05_filed_finetune_mainland_sg", "q34_mixed_users_split"]


@pytest.mark.parametrize("name", TWO_NODES)
def test_a_two_node_plans_layouts_are_sized_for_the_mainland_nodes_share(name, monkeypatch):
    """q34: the layouts line set the mainland node's bf16 on 3 GPUs (36 concurrent) beside an fp8 "5 GPUs" sized for
    the whole peak of 60. The layouts the memo shows are the last search made: on the node's share."""
    from advisor.plan import answers_from_dict, layout_search, make_plan

    peaks: list[int] = []
    search = layout_search.search

    def spy(c, *args, **kwargs):
        peaks.append(c.peak)
        return search(c, *args, **kwargs)

    monkeypatch.setattr(layout_search, "search", spy)
    r = make_plan(answers_from_dict(json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"]))
    main = next(n for n in r.nodes if n.region == "mainland")
    assert peaks and peaks[-1] == main.peak, (peaks, main.peak)
    chosen = r.layouts_tried.chosen
    assert (chosen.tp, chosen.weights) == (main.tp, main.weights)
    assert chosen.replicas * r.capacity.max_concurrency_per_replica >= main.peak


@pytest.mark.parametrize("name", TWO_NODES)
@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_node_of_a_two_node_plan_has_its_latency_table(name, lang):
    """q34: "no latency table for the Singapore node"."""
    r = _plan(name)
    text = _memo(r, lang)
    section = text.split("\n## ")[3]  # 1 decision, 2 sizing, 3 latency
    for node in r.nodes:
        if node.region == "mainland":
            continue
        assert node.latency_curve is not None and node.latency_curve.points
        where = "新加坡节点" if lang == "zh_CN" else "Node in Singapore"
        assert where in section and node.gpu_name in section, section
        assert section.count("|---|") == 2  # the mainland node's table and this node's


@pytest.mark.parametrize("name", NAMES)
def test_the_latency_section_says_why_there_is_no_curve_for_this_plan_only(name):
    """q06: a batch's section 3 read "… and a plan without GPUs of its own has nothing to predict"."""
    r = _plan(name)
    batch = json.loads((SCEN / f"{name}.json").read_text(encoding="utf-8"))["answers"].get("use_case") == "offline_batch"
    for lang in ("en", "zh_CN"):
        section = _memo(r, lang).split("\n## ")[3]
        assert "without GPUs of its own" not in section and "不自建 GPU" not in section, (name, lang)
        says_batch = "offline batch is judged" in section or "离线批量任务看的是" in section
        assert says_batch == (batch and not r.latency_curve.points), (name, lang)


@pytest.mark.parametrize("name", NAMES)
def test_the_headline_cost_names_the_price_it_stands_on(name):
    """q35: "the headline cost quietly uses the reserved price, while other tables use on-demand"."""
    from advisor.plan import reserved_price

    r = _plan(name)
    c = r.costs
    reserved = reserved_price.on_reserved(c)
    floor = c.cloud_reserved_floor is not None  # the always-on floor reserved, the bursts on demand (s19-reserve19)
    for lang, word in (("en", "reserved for the" if floor else "monthly/reserved price"),
                       ("zh_CN", "包月/预留，" if floor else "按包月/预留价")):
        page1 = _memo(r, lang).split("\n## ")[1]
        if blocked_brief39.blocker(r):
            # s37-blocked (review 28, q07): a service the law may not permit at all has its hardware and cost in one
            # line until that is answered: the month is there, its price basis in section 4
            brief = next(line for line in page1.splitlines() if line.startswith(("| Hardware and cost |", "| 硬件与成本 |")))
            month = c.recommended_monthly
            assert month is not None and f"{month.low:,.0f}" in brief and f"{month.high:,.0f}" in brief, brief
            continue
        cost_row = next((line for line in page1.splitlines() if line.startswith(("| Cost |", "| 成本 |"))), "")
        assert (word in cost_row) == reserved, (name, lang, cost_row)
        if reserved:
            od = c.cloud_on_demand_monthly
            # trim42/pg42 (blind review 32): an API-led memo's page-1 row gives the one self-host price basis it
            # stands on and points to section 4 for the others: there the on-demand month is printed, not in the row
            other = "(other prices: section 4)" if lang == "en" else "其他价格见第四节）"
            where = cost_row
            if other in cost_row:
                where = next(s for s in _memo(r, lang).split("\n## ") if s.startswith(("4. ", "四、")))
                assert f"{od.low:,.0f}" not in cost_row, cost_row  # said once, in section 4
            assert f"{od.low:,.0f}" in where and f"{od.high:,.0f}" in where, (name, lang, where[:300])
        rent = _finding(r, "cost.rent")
        if rent is not None:
            assert (word in render(lang, rent.title_key, rent.params)) == reserved, (name, lang)


@pytest.mark.parametrize("name", NAMES)
def test_the_rental_comparison_says_why_it_prices_more_gpus_than_the_plan_runs(name):
    """q08: "the rental comparison prices 16 cards while the plan uses 12". Beside a purchase the rent is sized to the
    load in rented units (s24-ownrent24, round 13: q31 rented 12 L20 as bought, q26 three whole H20 servers), fewer
    than the servers bought: the row says what it rents and the count bought."""
    r = _plan(name)
    c, hw = r.costs, r.hardware
    if r.nodes or not hw.total_gpus or not c.gpus or c.gpus == hw.total_gpus:
        return
    if rent_ruled_out39.applies(r):
        # s37-quote (review 28, q03): highly sensitive data kept inside rules renting out: no billing row at all
        assert not any("730 h" in line for line in _memo(r, "en").splitlines() if line.startswith("| ")), name
        return
    if owned_rent_rows.owns_it_all(r):
        # re-argued in s29-memo29 (blind review 18, q18/q33: rent rows for an owned fleet are noise): a plan on the
        # team's own cards, nothing rented, prints no rental billing row to explain
        assert not any("730 h" in line for line in _memo(r, "en").splitlines() if line.startswith("| ")), name
        return
    words = (("en", f"the {hw.total_gpus} bought"), ("zh_CN", f"自购的 {hw.total_gpus} 张")) if c.rent_sized else \
        (("en", f"the plan's {hw.total_gpus} take"), ("zh_CN", f"方案的 {hw.total_gpus} 张"))
    for lang, word in words:
        # the billing row ("16 GPUs billed × 730 h"): "730" alone also matched q26's page-1 threshold ¥2,730,000 (gpu26)
        rows = [line for line in _memo(r, lang).splitlines()
                if f"{c.gpus:,} " in line and ("730 h" in line or "730 小时" in line)]
        assert rows and all(word in line for line in rows), (name, lang, rows)


@pytest.mark.parametrize("name", NAMES)
def test_the_per_replica_load_and_the_headroom_are_over_the_same_replicas(name):
    """q23: "22 per replica" beside 150 ÷ 6 = 25 and "20% headroom": the headroom is over the replicas that carry
    the load (the spare not counted), so their load is said too, and it agrees with the headroom."""
    import math

    r = _plan(name)
    f = _finding(r, "sizing.plan")
    if f is None or f.params.get("room") is None or r.deployment_form == "hosted_api":
        return  # a hosted API: the replicas are the comparison's, said without a spare
    p = f.params
    spare = p.get("spare")
    if not spare:
        assert r.hardware.layout is None or not r.hardware.layout.spare_units, name
        return
    serving, down, peak = spare["serving"], spare["down"], p["peak"]
    assert down == math.ceil(peak / serving)
    assert abs(serving * p["c_max"] / peak - 1 - p["room"] / 100) < 0.01, (name, p)
    en = render("en", f.detail_key, p)
    said = {"plan.headroom19.spare_server": f"{down} each on the {serving} that carry the load",
            "replica21.spare.per": f"{down} each on the other {serving} with one replica down",
            "replica21.spare.per_one": f"all {down} on one with the other down"}[spare["tr"]]
    assert said in en, en
    # s21-replica21 (round 10, q05: "42 each on the 1 that carry the load, the spare aside"; q23: the peak table's 25
    # a replica beside "5 carry the peak plus 1 spare"): the finding's figure is the capacity table's, one source
    assert (r.capacity.load_per_serving_replica, r.capacity.serving_replicas) == (down, serving), name
    if hybrid_path43.peak_row(r, lambda key, **kw: key) is not None:
        # s42-hyb (review 35, q39): the row says the owned base and the hosted API's overflow, not the measured
        # reading's replicas (no load per replica of a fleet the plan does not have)
        assert f"{hybrid_path43.carried(r)['own']:,} " in _peak_row(_memo(r, "en")), name
        return
    assert f"{down:,} " in _peak_row(_memo(r, "en")), name


def _peak_row(memo: str) -> str:
    return next(line for line in memo.splitlines() if line.startswith("| Peak concurrency planned for"))


@pytest.mark.parametrize("name", NAMES)
def test_a_batch_floor_on_another_layout_names_the_plans_own(name):
    """q28: "the decode floor mentions a 2 × L20 replica that doesn't match the plan" (1 × L20 replicas)."""
    r = _plan(name)
    b = r.binding_constraint
    if b is None or not b.then or r.hardware.gpu is None:
        return  # no plan: the floors are the nearest setup's, named in the sentence before
    for phrase in b.then:
        if not str(phrase.get("tr", "")).startswith("plan.batch15.floor."):
            continue
        other = phrase["decode_tp"] != r.hardware.tp or phrase["decode_kv"].lower() != (r.hardware.kv_dtype or "")
        for lang, word in (("en", "not the plan's layout"), ("zh_CN", "这不是本方案的布局")):
            text = render(lang, phrase["tr"], {k: v for k, v in phrase.items() if k != "tr"})
            assert (word in text) >= other, (name, lang, text)
            if other:
                assert f"its replicas of {r.hardware.tp} ×" in text or lang == "zh_CN", text


@pytest.mark.parametrize("name", NAMES)
def test_a_buy_finding_never_stands_beside_a_table_where_owning_does_not_pay_back(name):
    """The other side of q24/q25: "bare metal pays off" only where the cost table's break-even is within the
    horizon (at mid-range prices at least). A tie on stand-in prices (s24-ownrent24) claims no payback: it says the
    prices cannot rank the two and what decides, so it may stand beside a table whose mid-range payback is past
    the horizon. Nor does s25-tie25's tie where renting is cheaper at the middle: it says so, gives the purchase the
    quotes must come under and the middle's break-even past the horizon (tests/core/test_tie25.py)."""
    r = _plan(name)
    buy = _finding(r, "cost.buy")
    if buy is None or buy.title_key in ("ownrent24.rule.cost.buy.tie.title", "tie25.rule.cost.buy.tie_rent.title"):
        return
    months = r.costs.break_even_months
    verdict = payback.verdict(months)
    assert verdict in ("always", "best_case_only"), (name, months)
    if verdict == "best_case_only":
        assert months.mid is not None and months.mid <= r.costs.horizon_months, (name, months)
