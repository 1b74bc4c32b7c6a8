"""The KV cache set to FP8, not only offered, where a replica's failover load (or peak) exceeds what its 16-bit cache
holds at the full context and FP8 holds it (issue 25, blind review 22: q05, q07, q25; advisor.plan.kv_fp8_set), and
the plan's figures re-derived from that one setup: the KV-fit lines, the serve command, the latency table and the
GPU-use share every cost figure is at."""

from __future__ import annotations

import pytest

from advisor.plan import answers_from_dict, sizing
from advisor.plan.batch_kv import fp8_kv_allowed
from advisor.plan.context import resolve
from advisor.plan.memo import memo_document
from advisor.plan.result import render
from tests.support.planned import advice_answers, advice_plan, unled
from tests.support.unswitched import plan_kept_bf16

LANGS = ["en", "zh_CN"]
Q05, Q07, Q25 = "q05_filed_finetune_mainland_sg", "q07_minors_education_app", "q25_hk_bank_retail"
SET = [Q05, Q25, "q38_eu_internal_hr_assistant"]
# s34-kvpick36 (blind review 25, q37): FP8 holds the peak's 40 the 16-bit cache does not, though not the 80 with one
# down; set too, the failover load said after it (test_kvpick36). s36-sourced: q07's and q42's L20 likewise
# (``sure_first38``: the listed L20 over the H20's placeholder; q07's H20 held its failover load in FP8, q42's in
# 16 bits)
SET_PEAK = ["q37_sg_fintech_public", Q07, "q42_china_market_gpus_mainland"]
# q36: the L20 the KV pick moved it to holds its load in 16 bits (kv_pick.py)
KEPT = ["q36_bursty_b2b_event_mainland"]
SECONDS_A_MONTH = 730 * 3600


def _memory(name: str, kv: str):
    """One replica of the led setup as the sizing core estimates it with ``kv`` (not through kv_fit.py)."""
    hw = unled(advice_answers(name)).hardware
    ctx = resolve(answers_from_dict(advice_answers(name)))
    if unled(advice_answers(name)).nodes:  # a two-node plan: the mainland node's share (the setup led)
        from advisor.plan.two_nodes import mainland_ctx

        ctx = mainland_ctx(ctx)
    gpu = sizing.gpus_by_id()[hw.gpu]
    return sizing._memory(ctx, gpu, hw.weights, kv, hw.tp, sizing._engine(ctx, gpu))


def _condition(name: str) -> bool:
    """The screen's plan falls short at the full context, FP8 is accepted on its GPU and an FP8 cache holds the load,
    or the peak's load where the 16-bit cache does not hold even that."""
    kept = plan_kept_bf16(name)
    fit = kept.capacity.kv_fit
    if fit is None or fit.kv_dtype == "fp8" or not fit.load_over_full:
        return False
    ctx = resolve(answers_from_dict(advice_answers(name)))
    if not fp8_kv_allowed(ctx, sizing.gpus_by_id()[kept.hardware.gpu]):
        return False
    worst = max(fit.peak_per_replica, fit.failover_per_replica or 0)
    fp8 = next((r.full_fit for r in fit.remedies if r.kind == "fp8_kv"), None)
    return fp8 is not None and (fp8 >= worst or fit.at_full < fit.peak_per_replica <= fp8)


@pytest.mark.parametrize("name", SET + SET_PEAK + KEPT)
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_the_flag_is_set_exactly_where_the_16_bit_cache_falls_short_and_fp8_holds_the_load(name):
    plan = unled({**advice_answers(name)})
    hw, fit = plan.hardware, plan.capacity.kv_fit
    want = _condition(name)
    assert want == (name in SET + SET_PEAK)
    assert ("--kv-cache-dtype fp8" in (hw.command or "")) == want
    assert ("--kv-cache-dtype fp8" in (hw.engine_flags or [])) == want
    assert (hw.kv_dtype == "fp8") == want and (fit.bf16_full_fit is not None) == want
    if not want:  # the plan as the screen sized it, unchanged
        kept = plan_kept_bf16(name)
        assert hw.command == kept.hardware.command and fit == kept.capacity.kv_fit


@pytest.mark.parametrize("name", SET)
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_the_switched_plan_agrees_with_itself(name):
    plan, kept = unled({**advice_answers(name)}), plan_kept_bf16(name)
    hw, cap, fit, c = plan.hardware, plan.capacity, plan.capacity.kv_fit, plan.costs
    # the KV-fit lines are the FP8 setup's own memory estimate, the 16-bit one said beside it
    assert fit.kv_dtype == "fp8" and fit.at_full == _memory(name, "fp8").max_concurrency_kv
    assert fit.bf16_full_fit == kept.capacity.kv_fit.at_full == _memory(name, kept.hardware.kv_dtype).max_concurrency_kv
    assert fit.kv_tokens == _memory(name, "fp8").kv_tokens and fit.at_typical == cap.memory_max_concurrency
    worst = max(fit.peak_per_replica, fit.failover_per_replica or 0)
    assert fit.bf16_full_fit < worst <= fit.at_full and not fit.load_over_full and not fit.remedies
    # the same GPUs, replicas and load; the serve command's cap is the capacity's claim and the fit's
    assert (hw.gpu, hw.tp, hw.replicas, hw.weights) == (kept.hardware.gpu, kept.hardware.tp, kept.hardware.replicas,
                                                         kept.hardware.weights)  # fmt: skip
    assert f"--max-num-seqs {hw.max_num_seqs}" in hw.command and fit.max_num_seqs == hw.max_num_seqs
    assert hw.max_num_seqs == cap.max_concurrency_per_replica
    # the latency table's level at the planned load is the sizing table's throughput
    curve = plan.latency_curve
    at = next(p for p in curve.points if p.concurrency == cap.concurrency_per_replica)
    assert cap.output_tokens_per_s_per_replica == at.output_tokens_per_s
    assert cap.tpot_p99_ms == at.tpot_p99_ms
    # every cost figure is at one share: the month's tokens over the capacity the plan states (both nodes' where two)
    basis = c.per_million_basis
    full = float(basis["output_tokens_per_s"]) * SECONDS_A_MONTH
    assert full == pytest.approx(basis["full_output_tokens"], rel=0.001)
    assert c.utilisation == pytest.approx(c.output_tokens_per_month / full, rel=0.001)
    if not plan.nodes:  # one node: the stated capacity is the sizing table's every-replica figure
        assert float(basis["output_tokens_per_s"]) == pytest.approx(cap.output_tokens_per_s_total, abs=0.2)
    # the rent is the same GPUs' (what moves is what the month's tokens carry: the volume read from the peak's rate)
    assert c.recommended_monthly.low == pytest.approx(kept.costs.recommended_monthly.low, rel=0.01)


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_two_node_plan_is_costed_again_on_its_fp8_node():
    """q05: the mainland node's cache is set to FP8; the merged month and share are both nodes', re-derived."""
    plan, kept = advice_plan(Q05), plan_kept_bf16(Q05)
    c, basis = plan.costs, plan.costs.per_million_basis
    assert basis["nodes"] == 2
    assert plan.nodes and "--kv-cache-dtype fp8" in (plan.nodes[0].command or plan.hardware.command)
    # the merged rent is the same GPUs'; the capacity is the FP8 node's and the other's
    assert c.recommended_monthly.low == pytest.approx(kept.costs.recommended_monthly.low, rel=0.01)
    full = float(basis["output_tokens_per_s"]) * SECONDS_A_MONTH
    assert c.utilisation == pytest.approx(c.output_tokens_per_month / full, rel=0.001)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q05, Q25])
@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_the_memo_says_why_its_command_sets_fp8(name, lang):
    plan = unled({**advice_answers(name)})
    fit = plan.capacity.kv_fit
    [said] = [p for p in plan.binding_constraint.then if isinstance(p, dict) and p.get("tr", "").startswith("kvdef34.")]
    assert said["bf16"] == fit.bf16_full_fit and said["full_fit"] == fit.at_full and said["context"] == fit.context
    assert said["down"] == max(fit.peak_per_replica, fit.failover_per_replica or 0)
    text = memo_document(plan, lang).markdown()
    assert render(lang, said["tr"], said) in text
    assert "--kv-cache-dtype fp8" in text
    steps = {s.id: s for s in plan.next_steps}
    assert steps["quant_ab"].key == "kvdef34.next.quant_ab_kv" and "kv-fp8" in steps["quant_ab"].command


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_sketch_keeps_the_flag_without_the_sentence():
    """q07 is blocked by months of filings (a sketch, binding.py): the command and the table carry the FP8 cache, the
    failover-only sentence waits."""
    plan = advice_plan(Q07)
    assert "--kv-cache-dtype fp8" in plan.hardware.command
    assert not any(isinstance(p, dict) and p.get("tr") == "kvdef34.set_down" for p in plan.binding_constraint.then)



@pytest.mark.parametrize("lang", LANGS)
def test_an_mla_model_short_of_kv_names_data_parallel_attention_among_the_remedies(lang):
    """q35 (DeepSeek-V3 on 8 × H20, its FP8 cache already set): the remedies named data-parallel attention nowhere
    but a sentence after them; it is one of them now, before the larger card, and the sentence that follows gives
    its flags. A dense model (q36, A10) is offered none."""
    plan = advice_plan("q35_deepseek_v3_h20_internal")
    kinds = [r.kind for r in plan.capacity.kv_fit.remedies]
    assert kinds[-2:] == ["dp_attention", "larger_card"]
    text = memo_document(plan, lang).markdown()
    assert render(lang, "kvdef34.remedy.dp_attention", {}) in text and "--data-parallel-size" in text
    assert "dp_attention" not in [r.kind for r in advice_plan("q42_china_market_gpus_mainland").capacity.kv_fit.remedies]
