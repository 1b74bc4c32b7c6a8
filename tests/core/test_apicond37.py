"""Session 35 (s35-apicond, blind review 27: q12, q13, q21, q22, q24): an API lead on another model than the one
asked for puts that swap first among page 1's reasons as the owner's decision, taken only on the team's quality test
(thinking off where the model thinks by default); under an API lead the GPU servers' quote is said as the self-hosted
fallback's, and the API's step asks for the host in front of the API and its line where the lead prices them."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import api_first_why, api_thinking
from advisor.plan.api_lead_steps import (
    API_STEP,
    FALLBACK_QUOTES,
    HOST_STEP,
    WITH_HOST_STEP,
    api_first,
    inner_key,
)
from advisor.plan.line_cost import WITH_HOST
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import clause_case, render
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
SWAPPED = ("q12_hk_saas_pi_contract", "q22_hk_company_telecom_only", "q24_us_saas_rent")  # next gen / another list
SAME_MODEL = "q36_bursty_b2b_event_mainland"  # an API lead on the model asked for
HOSTED_LINE = ("q12_hk_saas_pi_contract", "q21_fast_launch_hk_rule1", "q22_hk_company_telecom_only")


def _decision(lang: str, change: dict, think: bool) -> str:
    key = f"{api_first_why.DECIDE}{'_think' if think else ''}"
    return translate(lang, key, other=change["other"], asked=change["asked"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPPED)
def test_another_models_api_is_the_owners_decision_said_first(name, lang):
    r = advice_plan(name)
    change = r.start_with.params["model37"]
    assert change["other"] != change["asked"]
    reasons = [x["title"] for x in api_first_why.reasons(r, lang)]
    # thinking off exactly where the lead's model-change bullet says the model thinks by default
    think = bool(api_thinking.thinkers(change["other"]))
    memo = render_memo_markdown(r, lang)
    assert think == ("enable_thinking" in memo.split("\n## ")[1])
    decision = _decision(lang, change, think)
    if isinstance(r.start_with.params.get("fallback39"), dict):
        # s37: the lead's owner's-decision bullet says it, with the fallback's month: not a reason again
        # (s39-swap, review 31: that bullet is the sign-off's conditions, the quality test first)
        head = "**Before you sign off:**" if lang == "en" else "**签字同意的前提**："
        page_one = memo.split("\n## ")[1]
        assert decision not in reasons and decision not in memo and page_one.count(head) == 1
        return
    assert reasons[0] == decision
    assert f"**{reasons[0]}**" in memo and sum(t == reasons[0] for t in reasons) == 1


@pytest.mark.parametrize("lang", LANGS)
def test_an_api_on_the_model_asked_for_has_no_decision_to_make(lang):
    r = advice_plan(SAME_MODEL)
    assert "model37" not in r.start_with.params
    assert api_first_why.model_decision(r.start_with.params, lang) == ""
    assert api_first_why.reasons(r, lang)  # its own reasons stay


def test_thinking_off_only_for_a_model_that_thinks_by_default():
    params = {"model37": {"kind": "switch", "other": "Llama-3.3-70B-Instruct", "asked": "Llama-3.1-70B-Instruct"}}
    assert api_first_why.model_decision(params, "en") == _decision("en", params["model37"], False)
    params["model37"]["other"] = "Qwen3-32B"
    assert api_first_why.model_decision(params, "en") == _decision("en", params["model37"], True)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", HOSTED_LINE)
def test_the_gpu_quote_is_the_fallbacks_and_the_api_step_asks_for_its_host(name, lang):
    r = advice_plan(name)
    steps = {s.id: s for s in r.next_steps}
    quote, api = steps["quotes"], steps[API_STEP]
    assert quote.said_for == {"tr": FALLBACK_QUOTES}
    plain = render(lang, quote.key, quote.params)  # the step's own words, its key and params kept
    assert quote.text_in(lang).startswith(translate(lang, FALLBACK_QUOTES, step=clause_case(plain, lang)))
    # the host and its line priced in the lead: the API's step says to get them quoted, where the host is
    cost = r.start_with.params["cost37"]
    assert cost["host"] and r.line_cost is not None and r.line_cost.line != "any"
    # s37-hostline: a line sold only with its provider's hosts has the VM quoted from that provider
    # under the API path's own rate-limit sentence (api43: its peak in writing and load-tested)
    assert inner_key(api) == (WITH_HOST_STEP if r.line_cost.line in WITH_HOST else HOST_STEP)
    assert translate(lang, cost["region"]["tr"]) in api.text_in(lang)


def test_an_api_path_on_any_line_keeps_the_plain_api_step():
    r = advice_plan("q24_us_saas_rent")
    assert r.line_cost is None or r.line_cost.line == "any"
    ids = {s.id: inner_key(s) for s in api_first(r)}
    assert ids[API_STEP] == "consistent28.next.api_first"
