"""Blind review 27 (issue 25 point 5: capacity claims and engine caps within what the plan's own numbers allow).

q02: "'--max-model-len 4096' is needlessly tight … when the card holds '102,944 tokens of KV cache'": an assumed
context is raised in the serve command to the longest power of two at which the KV cache still holds every request
a replica runs at once (served_context38.py); a given one, or one the KV cache limits, stays.
q35: "the launch command sets --max-num-seqs 24" against 8 full-context requests a replica: every plan whose cap
exceeds the full-context count says so in numbers (page 1, else under the command: kv_cap_note38.py); the
single-request step timed on other GPUs reads as an optimistic bound; SGLang's data-parallel attention is named
beside vLLM's for an MLA model."""

from __future__ import annotations

import dataclasses

import pytest

from advisor.plan import answers_from_dict, sizing
from advisor.plan.context import resolve
from advisor.plan.kv_fit import DP_ATTENTION_FLAGS
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import lead_text, render
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, advice_plan

LANGS = ("en", "zh_CN")
Q02, Q35 = "q02_office_lan_small_design_agency", "q35_deepseek_v3_h20_internal"
NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))


def _admitted(fit) -> int:
    return max(fit.max_num_seqs, fit.peak_per_replica, fit.failover_per_replica or 0)


def _planned(name: str):
    """The plan's context as resolved from the answers (the context it was sized for)."""
    return resolve(answers_from_dict(advice_answers(name)))


def _served(name: str):
    """The plan, its KV fit and its hardware; the fit None where there is no serve command to read."""
    r = advice_plan(name)
    fit, hw = (r.capacity.kv_fit if r.capacity else None), r.hardware
    return r, (fit if hw.command else None), hw


@pytest.mark.parametrize("name", NAMES)
def test_the_serve_commands_context_and_cap_agree_with_the_kv_cache_or_the_memo_says_the_gap(name):
    r, fit, hw = _served(name)
    if fit is None:
        return
    # the command, the hardware row and the KV fit read one context, never past the model's own
    assert fit.context == hw.max_model_len
    assert f"--max-model-len {hw.max_model_len}" in hw.command or f"--context-length {hw.max_model_len}" in hw.command
    ctx = _planned(name)
    assert ctx.max_context <= hw.max_model_len <= ctx.model.max_context
    if fit.at_full >= _admitted(fit) or r.deployment_form == "hosted_api":
        return
    if lead_text(r.start_with, "en") and not fit.load_over_full:
        return  # a fallback under a hosted-API lead whose load the cache holds: the cap alone is not read there
    # the cap (or the load) above what the cache holds at the full context: said in numbers in both languages
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert f"--max-num-seqs {fit.max_num_seqs:,}" in memo.replace("```", "")
        cap_said = [s for s in memo.split("\n") if "--max-num-seqs" in s and "vllm serve" not in s]
        assert any(f"{fit.at_full:,}" in s for s in cap_said), (name, lang)


@pytest.mark.parametrize("name", NAMES)
def test_a_raised_context_still_holds_every_request_a_replica_admits_and_keeps_the_sized_kv(name):
    r, fit, hw = _served(name)
    if fit is None:
        return
    ctx = _planned(name)
    if hw.max_model_len == ctx.max_context:
        return
    # only an assumed context is raised, to a power of two (or the model's maximum)
    assert any(a.field == "max_context_tokens" for a in ctx.assumptions)
    n = hw.max_model_len
    assert n & (n - 1) == 0 or n == ctx.model.max_context
    # the sizing core at the raised context: the same KV tokens, and room for all the replica admits at once
    gpu = sizing.gpus_by_id()[hw.gpu]
    at_n = sizing._memory(dataclasses.replace(ctx, max_context=n), gpu, hw.weights, hw.kv_dtype, hw.tp,
                          sizing._engine(ctx, gpu))
    assert at_n.kv_tokens == fit.kv_tokens and at_n.max_concurrency_kv == fit.at_full >= _admitted(fit)


def test_q02_serves_a_longer_context_than_it_was_sized_for_and_says_why():
    r = advice_plan(Q02)
    fit = r.capacity.kv_fit
    planned = _planned(Q02).max_context
    assert r.hardware.max_model_len > planned and fit.context == r.hardware.max_model_len
    # the next power of two would not hold the 8 a replica admits (the raise is the longest that does)
    assert fit.kv_tokens // (2 * r.hardware.max_model_len) < _admitted(fit)
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert f"--max-model-len {r.hardware.max_model_len}" in memo
        [said] = [a for a in r.assumptions if a.field == "max_context_tokens"]
        text = said.text_in(lang)
        assert text in memo and f"{r.hardware.max_model_len:,}" in text and f"{planned:,}" in text


def test_a_given_context_is_never_raised():
    r = advice_plan(Q02, max_context_tokens=4096)
    assert r.hardware.max_model_len == 4096 and "--max-model-len 4096" in r.hardware.command


def test_a_context_the_kv_cache_limits_stays_as_planned():
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    assert fit.at_full < _admitted(fit) and r.hardware.max_model_len == _planned(Q35).max_context


@pytest.mark.parametrize("lang", LANGS)
def test_q35_single_request_step_reads_as_an_optimistic_bound_and_sglang_is_named(lang):
    r = advice_plan(Q35)
    memo = render_memo_markdown(r, lang)
    sizing_part = memo.split("\n## ")[2]
    bc = r.binding_constraint
    [step] = [p for p in bc.then if isinstance(p, dict) and p.get("tr") == "moespeed28.single"]
    text = render(lang, "moespeed28.single", step)
    assert text in sizing_part and f"{step['step_ms']} ms" in text
    assert ("optimistic bound" if lang == "en" else "乐观估计") in text
    # the plan starts vLLM; SGLang's own data-parallel-attention flags are named beside them
    assert "vllm serve" in r.hardware.command
    assert DP_ATTENTION_FLAGS["vllm"] in sizing_part and DP_ATTENTION_FLAGS["sglang"] in sizing_part
    assert "SGLang" in sizing_part
