"""A deprecated hosted model's next generation on the same list leads as another model's API does (s32-apinext32,
issue 25, blind review 21: q22 sent back, q12/q13 edits: "the right headline is 'start on an API (Qwen3-14B after a
quality test …), self-host later'"; "a hosted-API start with a quality test should be offered as a real option").

- q12, q13, q22 (Qwen2.5-14B-Instruct, marked deprecated at Model Studio International, 24-month plans): page 1
  starts on the hosted API at the next generation's month (the row's ``next`` rates × the plan's own tokens), says
  the quality test once, and keeps the self-hosted plan as the one to move to; the personal-information scenarios
  (q12, q13) take it only as a processor under an entrusted-processing contract.
- Where the deprecated row names no priced next generation (q34's split row), or names one that costs more, the
  deprecated model's price stays a yardstick and the self-hosted plan leads (s31-publicsaas31's rule unchanged).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, hosted_next, make_plan
from advisor.plan.memo import memo_document
from tests.support.planned import advice_answers, advice_plan

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh_CN")
NEXT_LEADS = ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q22_hk_company_telecom_only")
PI = ("q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold")
SECTION_2 = {"en": "\n## 2.", "zh_CN": "\n## 二、"}
# s37-owner (blind review 28): said once, in the owner's decision bullet
# s38-swap: the bold line's condition; s39-swap (owner_sign39, blind review 31): condition (1) of the numbered list
# before the sign-off, "Qwen3-14B passes your quality test" / "Qwen3-14B 通过你们的质量测试" — still said once
QUALITY = {"en": "passes your quality test", "zh_CN": "通过你们的质量测试"}
# s34-apilead34: where the API runs may follow "hosted API" (q12: "… served from Singapore (pay per token)")
START = {"en": "(pay per token)", "zh_CN": "（按 token 计费）"}
MOVE_TO = {"en": "the self-hosted plan to move to", "zh_CN": "之后要转到的自建方案"}


def _page_one(r, lang: str) -> str:
    return memo_document(r, lang).markdown().split(SECTION_2[lang])[0]


def _next_month(r) -> float:
    """The next generation's month at the plan's own tokens, from the price row (USD, as the row lists it)."""
    rows = json.loads((ROOT / "resources" / "plan" / "hosted_api_prices.json").read_text(encoding="utf-8"))["models"]
    [row] = [m for m in rows if m["id"] == "singapore_qwen2_5_14b"]
    c = r.costs
    return (c.output_tokens_per_month * row["next"]["output"] + c.input_tokens_per_month * row["next"]["input"]) / 1e6


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NEXT_LEADS)
def test_the_next_generation_leads_with_its_quality_test_once(name: str, lang: str) -> None:
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.form == "hosted_api"
    assert r.start_with.key.startswith(hosted_next.LEAD_PREFIX)
    assert r.deployment_form == "cloud"  # the scenario's expected form: the self-hosted plan to move to
    one = _page_one(r, lang)
    lead = next(block for block in one.split("\n\n") if START[lang] in block)  # the sentence and its bullets
    assert "Qwen3-14B" in lead and ("deprecated" if lang == "en" else "弃用") in lead
    assert one.count(QUALITY[lang]) == 1, one
    assert MOVE_TO[lang] in one
    # the lead's month is the next generation's, not the deprecated model's (a lower figure at the same tokens)
    # s35-apicost: the price bullet opens on the path's whole month; the API's tokens are the figure named for them
    said = TOKENS[lang].search(lead)
    assert said is not None, lead
    month = float(said.group("m").replace(",", ""))
    deprecated = r.costs.hosted_api_monthly
    assert month < deprecated.low
    # the next generation's rates × the plan's tokens, in the memo's currency: the deprecated month × the ratio of
    # the two lists' months at the same tokens (the row's own USD figures)
    assert month / deprecated.low == pytest.approx(_next_month(r) / _old_month_usd(r), rel=0.05)


# s39-tokens41 (blind review 31): the API's month on the busiest hour's floor is a range up to its high end (the
# peak held through the busy hours); its low end is the month at the plan's own tokens, the ones the deprecated
# month is costed on, so the comparison reads that end (the high end's tokens: test_tokens41)
TOKENS = {"en": re.compile(r"[¥$](?P<m>[\d,]+)(?:–[¥$][\d,]+)? a month for the API's tokens on Qwen3-14B"),
          "zh_CN": re.compile(r"API token 费用按 Qwen3-14B 计每月约 [¥$](?P<m>[\d,]+)")}


def _old_month_usd(r) -> float:
    rows = json.loads((ROOT / "resources" / "plan" / "hosted_api_prices.json").read_text(encoding="utf-8"))["models"]
    [row] = [m for m in rows if m["id"] == "singapore_qwen2_5_14b"]
    c = r.costs
    return (c.output_tokens_per_month * row["output"][0] + c.input_tokens_per_month * row["input"][0]) / 1e6


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PI)
def test_personal_information_takes_the_api_only_under_a_processor_contract(name: str, lang: str) -> None:
    r = advice_plan(name)
    assert r.start_with is not None and r.start_with.key == f"{hosted_next.LEAD_PREFIX}.lead_dpa"
    lead = next(block for block in _page_one(r, lang).split("\n\n") if START[lang] in block)
    assert {"en": "PIPL Art. 21", "zh_CN": "委托处理"}[lang] in lead


def test_a_deprecated_model_without_a_priced_next_generation_stays_a_yardstick() -> None:
    """q34's split row (two lists combined) names no next generation: the plan leads, the API a yardstick."""
    r = advice_plan("q34_mixed_users_split")
    assert r.start_with is not None and (r.start_with.form, r.start_with.reason) == ("this_plan", "deprecated")
    assert START["en"] not in _page_one(r, "en")


@pytest.mark.parametrize("nxt", [None, {"model_name": "Dearer-14B", "input": 5.0, "output": 20.0,
                                         "date": "2026", "grade": "C"}])
def test_no_next_generation_or_a_dearer_one_keeps_the_plan(monkeypatch: pytest.MonkeyPatch, nxt) -> None:
    """q22 with the row's next generation taken away, or priced above the deprecated model: the self-hosted plan
    leads again (a dearer model is not weighed on the deprecated one's cost test)."""
    monkeypatch.setattr(hosted_next, "row", lambda c: nxt if hosted_next.deprecated_params(c) else None)
    r = make_plan(answers_from_dict(advice_answers("q22_hk_company_telecom_only")))
    assert r.start_with is not None and (r.start_with.form, r.start_with.reason) == ("this_plan", "deprecated")
