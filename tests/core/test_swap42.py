"""Page 1's owner decision under a swapped or relayed hosted API (s40-swap, issue 25, blind review 32: q12, q22, q24).

- the generative-AI filing a company with no mainland entity cannot make (``genai.signup_no_entity``) blocks the
  self-hosted plan as much as the API: its own line, before the sign-off's conditions, cleared with counsel first;
- an API served from another place than the node: the bold line names the path ("a front-end host in Hong Kong
  calling the API of <provider> in Singapore"), and where PIPL names each recipient, a condition says the notice,
  consent, standard contract and impact assessment name that provider (not the data path's clause again);
- a service sold to businesses: the provider is its customers' new subprocessor, in the terms-in-writing condition;
- the self-hosted fallback on the model asked for is named as the other choice ("Or keep <asked>").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.plan import owner_sign39
from advisor.plan.result import render
from tests.support.planned import advice_plan, scenario_memo

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("en", "zh_CN")
SECTION_2 = {"en": "\n## 2.", "zh_CN": "\n## 二、"}
SWAPS = ["q12_hk_saas_pi_contract", "q13_sg_sellers_pi_below_threshold", "q22_hk_company_telecom_only",
         "q24_us_saas_rent"]
CONDS = {"en": "**Before you sign off:**", "zh_CN": "**签字同意的前提**："}


def _page_one(name: str, lang: str) -> str:
    return scenario_memo(ROOT / "bench" / "advice_scenarios" / f"{name}.json", lang).split(SECTION_2[lang])[0]


def _lead(page: str) -> tuple[str, list[str]]:
    """The lead's bold line and its bullets (a Markdown list's "- " items since s42-zhx)."""
    lines = page.split("\n- ")
    return lines[0].splitlines()[-1], [b.split("\n")[0] for b in lines[1:]]


def _runs(name: str) -> dict | None:
    params = advice_plan(name).start_with.params
    return owner_sign39.near(owner_sign39.parts((params.get("near") or {}).get("runs")))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_the_filing_no_entity_can_make_is_a_blocker_before_the_conditions(name: str, lang: str) -> None:
    """q12 en (review 32): "condition (4) … can block both paths. Raise it from a sign-off condition to a blocker to
    clear with counsel first" — where the engine flags it, and only there."""
    r = advice_plan(name)
    flagged = any(f.id == owner_sign39.FILING for f in r.findings)
    _, bullets = _lead(_page_one(name, lang))
    # s41-swap (review 34, q13/q22: "either it gates launch or it doesn't"): for contracted business customers a
    # question to confirm with counsel, a blocker only on open sign-up; after the two ways (A, B), before the conditions
    blocker = render(lang, "sw43.blocker")
    conds = next(b for b in bullets if b.startswith(CONDS[lang]))
    assert blocker not in conds  # no longer one of the owner's conditions
    if flagged:
        assert bullets[2] == blocker.rstrip()  # after A and B, above the conditions
        assert bullets.index(conds) == 3
        # the sign-up question points at page 1's question for counsel
        assert any(q.assumption_key == "sw43.assume.open_signup_said" for q in r.open_questions)
    else:
        assert blocker not in "".join(bullets) and bullets[2] == conds
    assert any(f.id == owner_sign39.FILING for f in advice_plan("q12_hk_saas_pi_contract").findings)
    assert not any(f.id == owner_sign39.FILING for f in advice_plan("q24_us_saas_rent").findings)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_an_api_served_elsewhere_says_the_path_in_the_bold_line(name: str, lang: str) -> None:
    """q12 en: "say 'an HK front-end host calling Alibaba's Singapore API'"; an API at the node's own place (q13,
    q24) keeps its opening words. s41-swap (review 34): said in way B's line, the bold line above it saying the
    choice."""
    runs = _runs(name)
    _, bullets = _lead(_page_one(name, lang))
    head = bullets[1]  # B)
    if runs is None:
        assert render(lang, "swap42.start.path.deploy", {"region": "R", "where": "W", "providers": "P"}) \
            .split("R")[1].split("P")[0] not in head  # no "front-end host" where the API serves from the node's own place
        return
    # no mainland entity here (q12, q22): "deploy", no later move to the mainland to start towards
    path = render(lang, "swap42.start.path.deploy", {k: runs[k] for k in ("region", "where", "providers")})
    assert path in head or (path[0].upper() + path[1:]) in head, head
    assert str(runs["providers"]) in head and render(lang, "plan.apiregion21.where.singapore") in head


@pytest.mark.parametrize("lang", LANGS)
def test_pipl_onward_recipient_is_a_condition_not_a_clause_of_the_data_path(lang: str) -> None:
    """q12 (review 32): "note that the onward transfer must be named in the standard contract and the PIA"; "make
    sure the PIPL notice, consent and SCC name Alibaba Cloud International (SG) as a recipient" — a condition."""
    runs = _runs("q12_hk_saas_pi_contract")
    assert runs is not None and owner_sign39.law_named(runs) == "swap42.cond.place_pipl"
    _, bullets = _lead(_page_one("q12_hk_saas_pi_contract", lang))
    conds = next(b for b in bullets if b.startswith(CONDS[lang]))
    named = render(lang, "swap42.cond.place_pipl", {"where": runs["where"], "providers": runs["providers"]})
    assert named in conds
    law = render(lang, "plan.apiregion21.law.hong_kong_mainland")
    assert law not in "".join(bullets)  # said once, as the condition
    # q22: no personal information as answered: no PIPL instrument to name; the customers' own paperwork if it does
    runs22 = _runs("q22_hk_company_telecom_only")
    assert runs22 is not None and owner_sign39.law_named(runs22) == ""
    _, bullets22 = _lead(_page_one("q22_hk_company_telecom_only", lang))
    assert render(lang, "swap41.cond.told_pi") in bullets22[3]  # s41-swap: after A, B and the question for counsel


def test_the_subprocessor_condition_only_for_a_service_sold_to_businesses() -> None:
    """q24 zh (review 32): "for US enterprise customers, adding Cerebras as a new subprocessor needs notice and DPA
    review under the customers' contracts"; q24 en: "the provider's DPA … in writing before launch"."""
    change = {"other": "M2", "asked": "M1", "kind": "next"}
    for lang in LANGS:
        for business, key in ((True, "swap42.cond.writing_b2b"), (False, "swap41.cond.writing")):
            params = {"fallback39": {"month": "$1–$2", "line": False, "business": business}, "start": "S", "peak": 5,
                      "model37": change}
            conds = owner_sign39.bullets(params, None, lang, render)[0]
            assert render(lang, key, {"peak": 5}) in conds
        params = {"fallback39": {"month": "$1–$2", "line": False, "business": True}, "start": "S", "model37": change}
        assert render(lang, "swap42.cond.writing_b2b_nopeak") in owner_sign39.bullets(params, None, lang, render)[0]
    assert advice_plan("q24_us_saas_rent").start_with.params["fallback39"]["business"] is True


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", SWAPS)
def test_the_model_asked_for_is_named_as_the_other_choice(name: str, lang: str) -> None:
    """q22 (review 32): "offer it as an option beside the Qwen2.5-14B path the customer asked for"; the
    recommendation stays the bold line (one pick, not "you decide")."""
    change = advice_plan(name).start_with.params["model37"]
    head, bullets = _lead(_page_one(name, lang))
    label = render(lang, "sw43.a.model", {"asked": change["asked"], "region": "", "fallback": "",
                                          "line": ""}).split("**")[1]
    assert sum(b.startswith(f"**{label}**") for b in bullets) == 1
    # s41-swap (review 34): two ways, the owner's choice, B (the API on the other model) recommended
    assert head.rstrip("\\") == render(lang, "sw43.head") and change["other"] in bullets[1]
