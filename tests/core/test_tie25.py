"""Own against rent where the plan's own figures make renting cheaper at the middle (s25-tie25, issue #25, blind
review 14: q26 bought 24 H20 at about ¥174k a month against ¥148k renting 18; q31 12 L20 at ¥58.9k against ¥45k
renting 9, and said "rent if renting costs under ¥58,900", which its own ¥45k middle met).

1. Like for like: the bought and the rented setup both carry the peak with the plan's headroom with one unit down
   (N+1); where they count different GPUs, the memo says why (a bought server fails whole, so its spare is a whole
   server; the rented spare is one instance) and gives the month a GPU on each side.
2. Words agree with the numbers: no "rent if it costs under X" (or "buy under Y") threshold that the plan's own
   middle already meets while the plan buys; where renting is cheaper at the middle the memo says so, gives the
   purchase the quotes must come under and the break-even at the middle in months.
"""

from __future__ import annotations

import functools
import json
import math
import pickle
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.plan import answers_from_dict, make_plan, own_rent_verdict, rent_cheaper_tie
from advisor.plan import cost as costmod
from advisor.plan.capacity import headroom_target
from advisor.plan.context import resolve
from advisor.plan.memo import memo_document
from advisor.plan.result import MoneyRange, render
from tests.support.former_l20_rent import former_l20_quotes
from tests.support.planned import advice_answers, advice_plan, only_finding

Q26, Q31 = "q26_steady_3y_strong_ops_buy", "q31_icp_filed_hosting_move"
LANGS = ("en", "zh_CN")
ADVICE = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


# s28-own28 re-argued: q26 no longer ties with renting cheaper at the middle. Its servers are now bought like for like
# with the rent (the 16 rented H20 in fp8 in two servers, a failed server's cards rented for its repair days:
# tests/core/test_own28.py), so both sides count the same GPUs and owning pays back within the horizon; q31 keeps
# this shape, and rents now on it (``cloud_then_bare_metal``: the JSON says what its page 1 says).
TIE_RENT = [Q31]
# s29-prices29b: with Alibaba's L20 quote wired in (¥14.63 a GPU-hour against the USD 0.7–1.6 placeholder), q31's rent
# (9 GPUs, about ¥72,200 a month at the middle) is dearer than owning (about ¥64,200): q31 buys (``bare_metal``), a tie
# with owning cheaper at the middle. The tie with renting cheaper at the middle is read on q31 at the rent it was
# written on, given as the user's quote (``_tie_rent_plan``), as tests/support/former_l20_rent.py does for q42.
FORMER_L20_RENT = former_l20_quotes()


@functools.cache
def _tie_rent_bytes(name: str) -> bytes:
    return pickle.dumps(make_plan(answers_from_dict(advice_answers(name)), quotes=[dict(q) for q in FORMER_L20_RENT]))


def _tie_rent_plan(name: str):
    """A TIE_RENT scenario's plan at the former L20 rent (a fresh copy)."""
    return pickle.loads(_tie_rent_bytes(name))  # noqa: S301 (our own bytes)
RENT_FIRST_FORMS = ("bare_metal", "cloud_then_bare_metal")


def _mid(r: MoneyRange) -> float:
    return (r.low + r.high) / 2


def _yuan(text: str) -> float:
    return float(text.replace(",", ""))


def _memo(r, lang: str) -> str:
    return memo_document(r, lang).markdown()


# --- 1. like for like --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TIE_RENT)
def test_both_sides_carry_the_peak_with_one_unit_down(name):
    """The replicas the peak needs (headroom included, at the bought setup's own per-replica figure) survive one
    unit down on both sides: the bought servers less their one spare server, the rented instances less their one
    spare instance."""
    r = _tie_rent_plan(name)
    lay, sized, tp = r.hardware.layout, r.costs.rent_sized, r.hardware.gpus_per_replica
    needed = math.ceil(headroom_target(resolve(answers_from_dict(advice_answers(name)))) /
                       r.capacity.max_concurrency_per_replica)
    assert r.deployment_form in RENT_FIRST_FORMS and lay.unit == "server" and sized is not None
    assert lay.spare_units == 1 and (lay.units - lay.spare_units) * (lay.unit_gpus // tp) >= needed
    if sized.get("weights"):  # rented at the lower precision accepted (gpu26): needed at that replica's own figure
        tp = sized["tp"]
        needed = math.ceil(headroom_target(resolve(answers_from_dict(advice_answers(name)))) / sized["per_replica"])
    assert sized["spare_gpus"] == sized["unit_gpus"] and sized["load_gpus"] // tp >= needed
    # the spares differ in size, and that alone: the load's GPUs are what the peak needs on each side
    assert lay.unit_gpus > sized["unit_gpus"] and sized["gpus"] < lay.units * lay.unit_gpus


@pytest.mark.parametrize("name", TIE_RENT)
@pytest.mark.parametrize("lang", LANGS)
def test_the_memo_says_why_the_two_sides_count_different_gpus(name, lang):
    """Where renting counts fewer GPUs than bought, the own/rent finding names both spares (a whole server of N
    GPUs bought, one M-GPU instance rented) and the month a GPU costs on each side at the middle."""
    r = _tie_rent_plan(name)
    lay, sized, c = r.hardware.layout, r.costs.rent_sized, r.costs
    f = only_finding(r, "cost.buy")
    text = render(lang, f.detail_key, f.params)
    whole = {"en": f"a whole server of {lay.unit_gpus} GPUs", "zh_CN": f"一整台 {lay.unit_gpus} 张 GPU 的服务器"}
    one = {"en": f"one {sized['unit_gpus']}-GPU instance", "zh_CN": f"一台 {sized['unit_gpus']} 卡实例"}
    assert whole[lang] in text and one[lang] in text
    own_gpu = _mid(c.bare_metal_monthly) / (lay.units * lay.unit_gpus)
    rent_gpu = _mid(c.cloud_monthly) / sized["gpus"]
    for per in (own_gpu, rent_gpu):
        assert f"¥{float(f'{per:.3g}'):,.0f}" in text
    assert text in _memo(r, lang)


# --- 2. words that agree with the numbers -------------------------------------------------------------------------
# every threshold sentence of the own/rent texts, with the side it sends to when the quoted figure is under it
RENT_UNDER = {"en": r"if renting costs less than about ¥([\d,]+) a month, rent", "zh_CN": r"若租用每月低于约 ¥([\d,]+)，就租用"}
BUY_UNDER = {"en": r"rent unless they bring the purchase under about ¥([\d,]+)",
             "zh_CN": r"除非报价使购置款低于约 ¥([\d,]+)"}


@pytest.mark.parametrize("name", TIE_RENT)
@pytest.mark.parametrize("lang", LANGS)
def test_no_threshold_that_the_plans_own_middle_already_meets(name, lang):
    """A buy plan never says "rent if renting costs under X" where its own rent middle is under X, nor "buy if the
    purchase comes under Y" where its own purchase middle is already under Y: either would make the plan's own
    figures say the opposite of its decision."""
    r = _tie_rent_plan(name)
    c = r.costs
    assert r.deployment_form in RENT_FIRST_FORMS
    memo = _memo(r, lang)
    for x in re.findall(RENT_UNDER[lang], memo):
        assert _mid(c.cloud_monthly) >= _yuan(x)
    found = re.findall(BUY_UNDER[lang], memo)
    assert found  # renting is cheaper at the middle here: the memo gives the purchase the quotes must come under
    for y in found:
        assert _mid(c.bare_metal_capex) > _yuan(y)


def _buy_scenarios() -> list[str]:
    """The advice scenarios whose expected forms include buying bare metal (their answers alone: nothing planned)."""
    return sorted(p.stem for p in ADVICE.glob("q*.json")
                  if "bare_metal" in json.loads(p.read_text(encoding="utf-8"))["expected"]["deployment_form"])


@pytest.mark.parametrize("lang", LANGS)
def test_no_buy_plan_of_the_advice_set_says_a_threshold_its_middle_meets(lang):
    """The same property over every advice scenario an expert may answer with a purchase, wherever the plan buys."""
    checked = 0
    for name in _buy_scenarios():
        r = advice_plan(name)
        c = r.costs
        if r.deployment_form != "bare_metal" or c is None or c.cloud_monthly is None or c.bare_metal_capex is None:
            continue
        memo = _memo(r, lang)
        for x in re.findall(RENT_UNDER[lang], memo):
            assert _mid(c.cloud_monthly) >= _yuan(x), name
        for y in re.findall(BUY_UNDER[lang], memo):
            assert _mid(c.bare_metal_capex) > _yuan(y), name
        checked += 1
    assert checked >= 2  # q26 and q31 at least


@pytest.mark.parametrize("name", TIE_RENT)
def test_renting_cheaper_at_the_middle_is_said_with_the_purchase_that_would_turn_it(name):
    """The purchase the finding names is where owning's middle meets renting's, the running costs' middle kept; the
    break-even at the middle of the ranges is said in months, past the horizon (renting is cheaper there)."""
    r = _tie_rent_plan(name)
    c = r.costs
    assert _mid(c.cloud_monthly) < _mid(c.bare_metal_monthly)
    fig = rent_cheaper_tie.figures(c, r.hardware.layout.unit_gpus)
    run_lo, run_hi = rent_cheaper_tie.running(c)
    months = costmod.amortisation_months(c.horizon_months)
    assert fig.max_purchase / months + (run_lo + run_hi) / 2 == pytest.approx(_mid(c.cloud_monthly))
    assert fig.max_purchase < c.bare_metal_capex.low  # not met anywhere in the plan's own purchase range
    assert fig.mid_months > c.horizon_months
    f = only_finding(r, "cost.buy")
    assert f.title_key == "tie25.rule.cost.buy.tie_rent.title"
    en = render("en", f.detail_key, f.params)
    assert f"at the middle of the ranges, after about {round(fig.mid_months)} months, past the" in en
    row = next(line for line in _memo(r, "en").splitlines() if line.startswith("| Cost |"))
    # s28-own28 re-argued: rented now (``cloud_then_bare_metal``), the cost row is the rent's own month, and the side
    # cheaper at the middle is said where the decision is, in the headline (test_ownrent27b)
    head = next(line for line in _memo(r, "en").splitlines() if line.startswith("**Recommendation**"))
    assert "renting costs less at the middle" in head
    assert "your cloud bill and the vendors' quotes decide" not in row  # no "tie" left standing beside a side
    zh_row = next(line for line in _memo(r, "zh_CN").splitlines() if line.startswith("| 成本 |"))
    assert "区间中值" in next(line for line in _memo(r, "zh_CN").splitlines() if line.startswith("**建议**"))
    # Re-argued in s27-pages27 (issue 25, page 1 says each fact once): the purchase that would turn it is said in
    # the headline's condition and step 1's order ("order only if they bring the purchase under about …"), not a
    # third time at the end of the memo's cost row; the app's row and --json keep it (page_one_clause)
    # s28-own28: rented now, the app's cost row is the rent's month too; the bought branch's clause (the app's row
    # beside a bought setup) keeps the threshold
    bought = r.model_copy(update={"deployment_form": "bare_metal"})
    assert "buy only if the quotes" in own_rent_verdict.page_one_clause(bought, "en")
    assert "只有报价使购置款低于约" in own_rent_verdict.page_one_clause(bought, "zh_CN")
    assert "buy only if the quotes" not in row and "只有报价使购置款低于约" not in zh_row


def test_where_owning_is_cheaper_at_the_middle_the_tie_keeps_its_rent_threshold_unmet():
    """The other direction: the rent quoted higher (still overlapping owning's range, the purchase still a stand-in)
    makes owning cheaper at the middle; the tie's wording stays, and its "rent if renting costs under X" is not met
    by the rent's own middle."""
    row = next(p for p in advice_plan(Q26).costs.prices if p.kind == "on_demand")
    # s28-fix28 re-argued: the L20's placeholder rent is quoted 1.6x too. A quote no longer outranks a placeholder
    # that is cheaper even at the top of its range (s28-prices28, ``gpu_choice.guess_top``), so the H20's rent quoted
    # alone moves the choice to 44 L20 whose rent no quote touches, and owning is no longer cheaper at the middle
    # (that plan: ``test_a_tie_on_the_same_gpus_keeps_its_threshold_unmet`` below). Quoted on both, the plan stays
    # on the H20 and owning is cheaper at the middle, this test's premise.
    r = make_plan(answers_from_dict(advice_answers(Q26)), quotes=_rent_quoted_higher(both=True))
    c = r.costs
    assert r.hardware.gpu == row.gpu
    assert r.deployment_form == "bare_metal" and _mid(c.cloud_monthly) > _mid(c.bare_metal_monthly)
    assert not rent_cheaper_tie.rent_cheaper(c)
    f = only_finding(r, "cost.buy")
    assert not f.title_key.startswith("tie25.")
    for lang in LANGS:
        for x in re.findall(RENT_UNDER[lang], _memo(r, lang)):
            assert _mid(c.cloud_monthly) >= _yuan(x)


def _rent_quoted_higher(both: bool) -> list[dict]:
    """q26's H20 rent quoted 1.6x its price row; ``both``: the L20's (q31's row, the catalogue's placeholder) too."""
    row = next(p for p in advice_plan(Q26).costs.prices if p.kind == "on_demand")
    rows = [row, *([next(p for p in advice_plan(Q31).costs.prices if p.kind == "on_demand" and p.gpu == "l20-48g")]
                   if both else [])]
    return [{"gpu": p.gpu, "kind": "on_demand", "low": p.low * 1.6, "high": p.high * 1.6, "unit": p.unit} for p in rows]


def test_a_tie_on_the_same_gpus_keeps_its_threshold_unmet():
    """(s28-fix28) q26 with only its H20 rent quoted 1.6x: the plan buys 44 L20 (rented as the same 44 GPUs, no
    ``rent_sized``), renting cheaper at the middle (~¥205k against ~¥236k). Its tie said "if renting costs less than
    about ¥236,000 a month, rent", which its own rent's middle met while it bought; it now gives the purchase the
    quotes must come under, as every tie with renting cheaper at the middle does."""
    # s29-prices29b: with Alibaba's L20 quote wired in, the L20 no longer undercuts q26's dearer H20 rent; the tie on
    # the same GPUs is read at the L20 rent it was written on, given as the user's quote (FORMER_L20_RENT)
    r = make_plan(answers_from_dict(advice_answers(Q26)),
                  quotes=_rent_quoted_higher(both=False) + [dict(q) for q in FORMER_L20_RENT])
    c = r.costs
    assert r.hardware.gpu != advice_plan(Q26).hardware.gpu and not c.rent_sized  # the premise: the same GPUs rented
    assert r.deployment_form in RENT_FIRST_FORMS and rent_cheaper_tie.rent_cheaper(c)
    assert only_finding(r, "cost.buy").title_key.startswith("tie25.")
    assert rent_cheaper_tie.order_condition(r.findings) is not None  # the order step carries the same condition
    capex = c.bare_metal_capex
    for lang in LANGS:
        memo = _memo(r, lang)
        for x in re.findall(RENT_UNDER[lang], memo):
            assert _mid(c.cloud_monthly) >= _yuan(x), (lang, x)
        under = [_yuan(x) for x in re.findall(BUY_UNDER[lang], memo)]
        assert under and all(u < _mid(capex) for u in under), (lang, under)


def _costs(own: tuple[float, float], rent: tuple[float, float], running: tuple[float, float],
           capex: tuple[float, float]) -> SimpleNamespace:
    parts = [MoneyRange(low=running[0] / 3, high=running[1] / 3)] * 3
    grade_u = SimpleNamespace(kind="on_demand", grade="U", user_quote=False)
    return SimpleNamespace(bare_metal_monthly=MoneyRange(low=own[0], high=own[1]),
                           cloud_monthly=MoneyRange(low=rent[0], high=rent[1]),
                           bare_metal_power_monthly=parts[0], bare_metal_colo_monthly=parts[1],
                           bare_metal_staff_monthly=parts[2], bare_metal_capex=MoneyRange(low=capex[0], high=capex[1]),
                           horizon_months=36, prices=[grade_u],
                           rent_sized={"gpus": 9, "spare_gpus": 1, "bought_gpus": 12})  # fmt: skip


def test_no_purchase_turns_it_where_the_running_costs_alone_reach_the_rent():
    """Renting's middle at or under owning's running costs: no purchase price brings owning down to it (no
    threshold, no break-even at the middle)."""
    fig = rent_cheaper_tie.figures(_costs((40.0, 80.0), (20.0, 50.0), (34.0, 40.0), (900.0, 1200.0)), 4)
    assert fig is not None and fig.max_purchase is None and fig.mid_months is None


def test_no_figures_where_owning_is_cheaper_or_the_prices_are_sourced():
    assert rent_cheaper_tie.figures(_costs((40.0, 60.0), (45.0, 70.0), (10.0, 14.0), (900.0, 1200.0)), 4) is None
    sourced = _costs((40.0, 80.0), (20.0, 60.0), (10.0, 14.0), (900.0, 1200.0))
    sourced.prices = [SimpleNamespace(kind="on_demand", grade="B", user_quote=False)]
    assert rent_cheaper_tie.figures(sourced, 4) is None  # sourced prices: no tie, the middles rank the sides


@pytest.mark.parametrize("name", TIE_RENT)
@pytest.mark.parametrize("lang", LANGS)
def test_the_first_step_orders_only_on_quotes_that_turn_it(name, lang):
    """Page 1's first step (the purchase sets the earliest launch) says what the quotes must show before ordering,
    the purchase the finding names, and to rent otherwise: "start the purchase now" alone contradicted the middle."""
    r = _tie_rent_plan(name)
    f = only_finding(r, "cost.buy")
    # s28-own28 re-argued: rented now (q31, ``cloud_then_bare_metal``), the purchase no longer sets the launch, so
    # the step that orders on the quotes is the quotes step itself, after the launch's own gate (the ICP access
    # record), not the purchase's gate step
    step = next(s for s in r.next_steps if s.key in {*rent_cheaper_tie.GATE_KEYS.values(),
                                                       *rent_cheaper_tie.QUOTES_KEYS.values()})
    text = render(lang, step.key, step.params)
    limit = f.params["threshold"]["max_purchase"]
    assert limit in text
    assert {"en": "else rent", "zh_CN": "否则租用"}[lang] in text
    assert _yuan(limit.lstrip("¥")) < _mid(r.costs.bare_metal_capex)


def test_a_purchase_the_middle_favours_keeps_the_plain_quotes_step():
    """No condition where renting is not cheaper at the middle: the rent quoted higher (test above) keeps the step
    as it was."""
    # s28-fix28 re-argued: the rent quoted higher on both GPUs, as in the test above (its comment says why)
    r = make_plan(answers_from_dict(advice_answers(Q26)), quotes=_rent_quoted_higher(both=True))
    assert r.hardware.gpu == advice_plan(Q26).hardware.gpu
    assert rent_cheaper_tie.order_condition(r.findings) is None
    # s31-pricegate32 re-argued (was: no tie25 step at all): the step on a stand-in purchase now says the quote that
    # decides it, a price a server (price_gate), not the tie's threshold of the purchase in all
    conditions = [s.params.get("condition") for s in r.next_steps if s.key.startswith("tie25.")]
    # s34-quotelead (review 24, q26): the server-level cover decision may follow the gate, wrapping it
    conditions = [c["condition"] if isinstance(c, dict) and c.get("tr") == "quote35.next.with_cover" else c
                  for c in conditions]
    assert all(isinstance(c, dict) and c["tr"].startswith("gate32.") for c in conditions)
