"""Blind review 29's smaller defects (session 38, misc40): a finding's reference to a next step past page 1 says its
section (q28); the serve command's longer --max-model-len says why beside it (q40); plan B's part at its cheapest
layout once its spare is added, and the GPU choice's figure for that part the same (q20); the layouts tried name the
next tensor-parallel size (q37, q42); the Hong Kong export finding names the licence-free China-market parts (q43);
a batch priced only on its nearest setup lists the price rows it was priced on (q29)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import in_region_fallback, served_context38, step_where40
from advisor.plan.memo import FIRST_STEPS, _next_tps
from advisor.plan.result import Assumption, GpuChoice, GpuOption, LayoutSearch, LayoutTry
from tests.support.planned import ADVICE_SCENARIOS, scenario_memo, scenario_plan

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

LANGS = ("en", "zh_CN")


# --- q28: "next step 6" from section 7 says where step 6 is ------------------------------------------------------
@pytest.mark.parametrize(("lang", "text", "said"), [
    ("en", "so the job finishes sooner: next step 6 checks a sample.", "next step 6 (section 9) checks"),
    ("en", "next step 2 checks it; next step 12 too", "next step 2 checks it; next step 12 (section 9) too"),
    ("zh_CN", "同样的 GPU 能更快跑完任务：下一步第 6 条用任务样本对比。", "下一步第 6 条（见第九节）用任务样本"),
    ("zh_CN", "下一步第 6 步在上线前对比", "下一步第 6 步（见第九节）在上线前"),
])
def test_a_reference_to_a_step_past_page_one_names_its_section(lang, text, said):
    rendered = [{"title": "t", "detail": text}]
    step_where40.said_where(rendered, lang, FIRST_STEPS)
    assert said in rendered[0]["detail"]
    again = [dict(rendered[0])]
    step_where40.said_where(again, lang, FIRST_STEPS)  # said once: a second pass adds nothing
    assert again == rendered


def test_a_step_page_one_lists_is_left_as_it_is():
    rendered = [{"title": "next step 3", "detail": "下一步第 1 条"}]
    step_where40.said_where(rendered, "en", FIRST_STEPS)
    step_where40.said_where(rendered, "zh_CN", FIRST_STEPS)
    assert rendered == [{"title": "next step 3", "detail": "下一步第 1 条"}]


@pytest.mark.parametrize("lang", LANGS)
def test_q28_memo_points_to_the_remaining_steps_for_its_quality_check(lang):
    memo = scenario_memo(ADVICE_SCENARIOS / "q28_bank_backfill_batch_48h.json", lang)
    section = translate(lang, "memo.h.next")
    assert section in memo
    # s42-zhx (review 35, q23): the step is named in the list it is in, never "next step 6" when page 1 lists 3
    where = "step 6 in section 9" if lang == "en" else "第九节第 6 条"
    assert where in memo
    assert ("next step 6" if lang == "en" else "下一步第 6") not in memo


# --- q40: a --max-model-len longer than the planned context says why beside the command ---------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_the_raised_context_is_explained_beside_the_command(lang):
    raised = Assumption(field="max_context_tokens", value=4096, key="dsv3cmd38_assume.context_raised",
                        params={"value": 4096, "served": "32,768", "seqs": 15})
    note = served_context38.command_note([raised], lang)
    assert "--max-model-len 32768" in note and "4,096" in note and "15" in note
    kept = raised.model_copy(update={"key": "plan.assume.max_context_tokens", "params": {"value": 4096}})
    assert served_context38.command_note([kept], lang) == ""
    # a step up (8,192 for 4,096; 8,192 for 7,168) reads as the same plan: section 8's assumption says it
    for value in (4096, 7168):
        step = raised.model_copy(update={"value": value, "params": {"value": value, "served": "8,192", "seqs": 8}})
        assert served_context38.command_note([step], lang) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_q40_memo_says_why_its_command_serves_a_longer_context(lang):
    r = scenario_plan(ADVICE_SCENARIOS / "q40_tiny_budget_72b.json")
    flag = r.hardware.max_model_len
    raised = next(a for a in r.assumptions if a.key in served_context38.RAISED_KEY.values())
    assert flag and flag > raised.value  # the command's limit is longer than the sized context
    memo = scenario_memo(ADVICE_SCENARIOS / "q40_tiny_budget_72b.json", lang)
    assert served_context38.command_note(r.assumptions, lang) in memo


# --- q20: plan B's part at its cheapest layout with its spare ----------------------------------------------------
def test_q20_plan_b_is_the_cheapest_l4_layout_and_the_gpu_choice_says_the_same_size():
    r = scenario_plan(ADVICE_SCENARIOS / "q20_china_parts_offshore_sg.json")
    fb = r.in_region_fallback
    assert fb is not None and fb["meets"] and fb["gpu_id"] == "l4"
    # a 7B model's fp8 weights fit one L4: TP1 replicas with a one-card spare rent fewer GPUs than TP2 pairs
    assert fb["tp"] == 1
    [alt] = [o for o in r.gpu_choice.alternatives if o.gpu == fb["gpu_id"]]
    assert alt.gpus == fb["n"]


def test_the_gpu_choice_takes_plan_bs_smaller_size_only():
    choice = GpuChoice(chosen=GpuOption(gpu="l40s", gpu_name="L40S", gpus=2, weights="bf16", per_hour=3.0),
                       alternatives=[GpuOption(gpu="l4", gpu_name="L4", gpus=6, weights="fp8", per_hour=5.22)])
    in_region_fallback.same_size(choice, {"meets": True, "gpu_id": "l4", "n": 4, "weights": "fp8"})
    assert (choice.alternatives[0].gpus, choice.alternatives[0].per_hour) == (4, 3.48)
    in_region_fallback.same_size(choice, {"meets": True, "gpu_id": "l4", "n": 8, "weights": "fp8"})
    assert choice.alternatives[0].gpus == 4  # a larger plan B leaves the choice's figure as it is
    in_region_fallback.same_size(choice, {"meets": False, "gpu_id": "l4", "n": 2, "weights": "fp8"})
    assert choice.alternatives[0].gpus == 4  # a plan B that misses the target is no size for the part


# --- q37, q42: the next tensor-parallel size is said --------------------------------------------------------------
def _search(*tries: LayoutTry) -> LayoutSearch:
    return LayoutSearch(gpu="l4", gpu_name="L4", tries=list(tries))


def test_next_tps_below_always_above_only_where_asked():
    found = _search(LayoutTry(tp=1, weights="fp8", outcome="tpot"), LayoutTry(tp=2, weights="fp8", outcome="more"),
                    LayoutTry(tp=4, weights="fp8", outcome="chosen"), LayoutTry(tp=8, weights="fp8", outcome="more"),
                    LayoutTry(tp=2, weights="bf16", outcome="more"))
    assert _next_tps(found, above=False) == {(2, "fp8")}
    assert _next_tps(found, above=True) == {(2, "fp8"), (8, "fp8")}
    assert _next_tps(_search(LayoutTry(tp=1, weights="fp8", outcome="more")), above=True) == set()


def test_q37_and_q42_layouts_tried_name_the_next_tp():
    # s39-sgp (issue #25): q37 now takes one A100 80GB a replica (Google Cloud's a2-ultragpu-1g in Singapore): its
    # TP4 L4 plan, where TP2 lies between the TP1 that misses and the TP4 chosen, is read on Singapore's L4 priced by
    # the card with no Google Cloud A100 row (``l4_by_card``), as written
    from advisor.plan.memo import render_memo_markdown
    from tests.support.l4_by_card import planned_by_card
    from tests.support.planned import advice_answers

    q37 = render_memo_markdown(planned_by_card(advice_answers("q37_sg_fintech_public")), "en")
    assert "TP2 fp8 would need at least" in q37  # between the TP1 that misses and the TP4 chosen
    # q42 on a budget that carries its four L20s but not the fifth that holds the failover (s40-kvp42: within the
    # budget the fifth is the plan, and TP2's 4 GPUs are no more than its 4 serving ones)
    from advisor.plan.memo import render_memo_markdown as md
    from tests.support.planned import advice_plan

    q42 = advice_plan("q42_china_market_gpus_mainland", monthly_budget={"amount": 45000, "currency": "CNY"})
    assert q42.capacity.kv_fit.load_over_full  # its KV cache is short at the full context: the TP above is said
    assert "TP2 fp8 would need at least" in md(q42, "en")


# --- q43: the licence-free China-market parts named in the Hong Kong export finding -------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_q43_export_finding_names_the_licence_free_china_market_parts(lang):
    r = scenario_plan(ADVICE_SCENARIOS / "q43_us_team_mainland_low_latency.json")
    [x] = [f for f in r.findings if f.id == "gpu.hk_export_rules"]
    text = x.detail_in(lang)
    assert "L20" in text and "H20" in text
    assert "4090" not in text  # a public service plans no consumer card
    assert "H800" not in text and "A800" not in text  # not sold new since the Oct-2023 rule


# --- q29: the rows that priced the unfinished job are listed ------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_q29_lists_the_price_it_was_costed_on(lang):
    r = scenario_plan(ADVICE_SCENARIOS / "q29_batch_impossible_budget.json")
    assert not r.feasible and r.costs.prices
    assert any(p.gpu == "l20-48g" or "L20" in str(p.gpu) for p in r.costs.prices)
    memo = scenario_memo(ADVICE_SCENARIOS / "q29_batch_impossible_budget.json", lang)
    assert translate(lang, "memo.prices.intro", date=r.prices_date or "—") in memo
