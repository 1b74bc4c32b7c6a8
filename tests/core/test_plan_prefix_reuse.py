"""Prefix reuse where prefill decides (#25, blind review 26: q06, q10; q04 through the time per token): the
sizing sentence says the estimate counts no shared prompt start and that prefix caching makes it conservative,
beside the prefill figure it qualifies; said once (the serve command's note stays silent then), and not where
prefill does not decide."""

from __future__ import annotations

import pytest

from advisor.plan import prefix_cache_note, prefix_reuse
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import advice_answers, planned

LANGS = ("en", "zh_CN")


def _keys(plan):
    return [str(p.get("tr", "")) for p in plan.binding_constraint.then]


@pytest.fixture(scope="module")
def q06():
    return planned(advice_answers("q06_l20_batch_72h_claims"))


@pytest.fixture(scope="module")
def q10():
    return planned(advice_answers("q10_128k_document_assistant"))


@pytest.mark.parametrize("lang", LANGS)
def test_prefill_bound_batch_says_its_hours_assume_no_shared_instruction(q06, lang):
    b = q06.binding_constraint
    assert b.kind == "prefill_compute"  # the plan's own sizing reason
    keys = _keys(q06)
    assert keys.count("prefix37_reuse.batch") == 1
    # after the prefill floor it qualifies, never between the replica count and "the plan runs twice that"
    assert keys.index("prefix37_reuse.batch") > keys.index("plan.batch15.floor.prefill")
    assert keys.index("prefix37_reuse.batch") == len(keys) - 1
    phrase = render(lang, "prefix37_reuse.batch", {"how": {"tr": "prefix37_reuse.how.vllm"}})
    text = b.text_in(lang)
    assert phrase in text
    assert phrase in render_memo_markdown(q06, lang)
    assert "prefix" not in (q06.hardware.command or "")  # on by default in vLLM V1: no flag added


@pytest.mark.parametrize("lang", LANGS)
def test_long_document_ttft_argument_counts_prefix_reuse_once(q10, lang):
    keys = _keys(q10)
    # directly after the long prompt's prefill time, the TTFT argument it qualifies
    assert keys.index("prefix37_reuse.document") == keys.index("plan.long_prompt.prefill") + 1
    md = render_memo_markdown(q10, lang)
    assert render(lang, "prefix37_reuse.document", {"how": {"tr": "prefix37_reuse.how.vllm"}}) in md
    # the serve command's aside ("the predictions do not count it") is not said a second time
    assert prefix_reuse.said(q10.binding_constraint)
    assert not prefix_cache_note.applies(q10)
    assert prefix_cache_note.note(q10, lang) == ""


def test_not_said_where_prefill_does_not_decide():
    # a batch of short prompts and long answers: decode, not prefill, sizes it
    a = advice_answers("q06_l20_batch_72h_claims")
    a["prompt_tokens"], a["output_tokens"] = {"avg": 100, "p95": 200}, {"avg": 1500, "p95": 3000}
    plan = planned(a)
    assert plan.binding_constraint.kind == "decode_bandwidth"
    assert not prefix_reuse.said(plan.binding_constraint)
    # an interactive service sized by decode bandwidth with short prompts (q23): TTFT does not decide
    q23 = planned(advice_answers("q23_japan_game_npc"))
    assert q23.binding_constraint.kind != "prefill_compute"
    assert not prefix_reuse.said(q23.binding_constraint)


@pytest.mark.parametrize("lang", LANGS)
def test_prefill_through_the_time_per_token_says_it_once_in_place_of_the_serve_note(lang):
    # q04: "prefill compute decides, through the time per output token" (the long prompts' chunks share the steps)
    plan = planned(advice_answers("q04_securities_h20_l20_fleet"))
    b = plan.binding_constraint
    assert (b.kind, b.variant) in (("decode_bandwidth", "prefill"), ("decode_bandwidth", "above_prefill"))
    md = render_memo_markdown(plan, lang)
    assert render(lang, "prefix37_reuse.start", {"how": {"tr": "prefix37_reuse.how.vllm"}}) in md
    assert not prefix_cache_note.applies(plan)  # the serve command's aside is not repeated
