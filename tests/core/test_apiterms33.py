"""The hosted API's terms said where page 1 or a fix takes it (s33-apiterms, issue 25, blind review 22).

- q24 (and q12/q13/q22): the API is priced on a Qwen3 hybrid-thinking model's list; its price holds only with
  thinking off, said after the switch, as q29's smaller-model fix says it.
- q11: reselling a hosted API first is said with its two conditions: the provider's terms must allow resale, and
  at list prices it has the same margin problem as self-hosting.
- q29: the job's hosted API is priced on Qwen2.5-72B's list: a change of model, said as page 1's switch says it.
- q15: a month of a few tokens prints to the cent ("$0.15–$1.20"), never "$0–$1".
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from advisor.plan import api_thinking, fixes17
from advisor.plan.rule_base import _money, _range
from tests.support.planned import advice_plan, scenario_memo

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
LANGS = ("en", "zh_CN")


def _page1(name: str, lang: str) -> str:
    memo = scenario_memo(SCENARIOS / f"{name}.json", lang)
    return memo.split("\n## 2.", 1)[0]


@pytest.mark.parametrize("priced_on, said", [
    ("Qwen3-32B", ["Qwen3-32B"]),
    ("Qwen3-32B / Qwen3-30B-A3B", ["Qwen3-32B", "Qwen3-30B-A3B"]),
    ("Qwen2.5-14B-Instruct / Qwen3-14B", ["Qwen3-14B"]),
    ("DeepSeek-V3 / DeepSeek-R1 / Qwen3-235B-A22B", ["Qwen3-235B-A22B"]),
    ("Qwen2.5-72B-Instruct", []),
    ("Qwen3-Coder-30B-A3B-Instruct", []),  # not a hybrid-thinking release
    ("Llama-3.3-70B-Instruct", []),
])
def test_thinkers_are_the_hybrid_thinking_releases(priced_on: str, said: list[str]) -> None:
    assert api_thinking.thinkers(priced_on) == said
    assert bool(api_thinking.clause(priced_on)) == bool(said)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name, model", [("q24_us_saas_rent", "Qwen3-32B"),
                                         ("q22_hk_company_telecom_only", "Qwen3-14B")])
def test_api_lead_on_a_thinking_model_says_thinking_off(name: str, model: str, lang: str) -> None:
    """Page 1 starts on an API priced on a hybrid-thinking model: it says how to switch thinking off and that the
    price holds only then, after the switch to that model (q24: another model's list; q22: the next generation)."""
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    page1 = _page1(name, lang)
    assert "`enable_thinking: false`" in page1
    assert f"https://huggingface.co/Qwen/{model}" in page1
    switch = page1.index(model)  # the switch names the model before the thinking sentence
    assert switch < page1.index("`enable_thinking: false`")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q11_paid_api_b25", "q36_bursty_b2b_event_mainland", "q15_hosted_api_small_us_team"])
def test_api_not_on_a_thinking_model_says_nothing_of_it(name: str, lang: str) -> None:
    assert "enable_thinking" not in scenario_memo(SCENARIOS / f"{name}.json", lang)


@pytest.mark.parametrize("lang, terms, margin", [("en", "only if its provider's terms allow resale", "same margin problem"),
                                                 ("zh_CN", "前提是服务商条款允许转售", "同样的利润问题")])
def test_resale_says_terms_and_the_same_margin(lang: str, terms: str, margin: str) -> None:
    """q11 sells tokens and leads on an API: reselling it is conditional on the provider's terms and carries the
    margin problem the memo points out for self-hosting (review 22: "the same margin problem it points out")."""
    page1 = _page1("q11_paid_api_b25", lang)
    assert terms in page1 and margin in page1
    assert page1.index(terms) < page1.index(margin)
    assert "B25" in page1  # the licence it still needs, kept


def test_batch_api_on_another_models_list_is_a_model_change() -> None:
    """q29: Llama-3.3-70B's job priced on Qwen2.5-72B's list: the fix says it is a change of model with its quality
    test, and no longer calls it "a hosted API for this model"."""
    r = advice_plan("q29_batch_impossible_budget")
    fix = next(f for f in r.fixes if f.id == "hosted_api_job")
    assert fix.key == fixes17.OTHER_MODEL_KEY
    assert fix.params["model"] == "Llama-3.3-70B-Instruct" and fix.params["priced_on"] == "Qwen2.5-72B-Instruct"
    for lang, model_change, same in (("en", "a change of model to Qwen2.5-72B-Instruct", "for this model instead"),
                                     ("zh_CN", "换成 Qwen2.5-72B-Instruct 这个模型", "该模型的模型 API")):
        memo = scenario_memo(SCENARIOS / "q29_batch_impossible_budget.json", lang)
        assert model_change in memo and same not in memo


def test_small_amounts_print_to_the_cent() -> None:
    f = SimpleNamespace(ctx=SimpleNamespace(currency="USD"))
    assert _range(0.1492, 1.2, f) == "$0.15–$1.20"
    assert _money(0.0, f) == "$0" and _money(4.0, f) == "$4"  # whole amounts stay whole
    assert _money(12.4, f) == "$12" and _money(1234.5, f) == "$1,234"  # at 10 and above: whole units as before


@pytest.mark.parametrize("lang", LANGS)
def test_q15_headline_month_is_not_zero_to_one(lang: str) -> None:
    page1 = _page1("q15_hosted_api_small_us_team", lang)
    assert "$0–$1" not in page1
    assert "$0.15–$1.20" in page1


@pytest.mark.parametrize("lang, offered, said", [
    ("en", "buy the tokens from a hosted API and resell them", "leaves no more margin"),
    ("zh_CN", "从模型 API 服务买入 token、在自己的服务下转售", "按标价转售模型 API 也留不下利润")])
def test_margin_finding_no_longer_offers_resale_as_the_fix(lang: str, offered: str, said: str) -> None:
    """q11's margin finding: reselling at list prices has the same margin, so it is not offered as a way out; the
    finding asks what the service adds that the API does not."""
    r = advice_plan("q11_paid_api_b25")
    margin = next(f for f in r.findings if f.id == "cost.token_margin")
    assert margin.detail_key.startswith("apiterms33.token_margin.")
    memo = scenario_memo(SCENARIOS / "q11_paid_api_b25.json", lang)
    assert offered not in memo and said in memo
