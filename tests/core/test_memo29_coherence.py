"""Memo coherence the eighteenth blind review sent back (s29-memo29, issue 25), each held in both languages:

- a plan on the team's own GPUs shows no rent as its cost: no cloud rows in the cost table, no hourly rates in
  "Why this GPU" (q18, q33); renting stays only as the fleet finding's labelled alternative; a hybrid, which does
  rent, keeps its rent rows (q39);
- a self-hosted plan kept beside a cheaper hosted API says why it self-hosts first, never "a hosted API is cheaper,
  but …" among its deciding reasons (q26);
- the rent finding's utilisation and the break-even it is set against are one quantity, a share of the hours (q30);
- a hosted API priced only on another model's list is the labelled alternative, not the headline (q10, q24); an
  API of the same model still leads (q11);
- a public chat counted in requests a day leads with its month as chats of a few turns (q16);
- a fine-tuned model's filing names what its dossier holds, with its sources (q30).
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import rent_basis
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult, render
from tests.support.planned import advice_answers, advice_plan, only_finding

LANGS = ("en", "zh_CN")
OWNED_FLEETS = ("q18_us_fleet_32_h100", "q33_office_4090d_fleet", "q04_securities_h20_l20_fleet")
RENT_LABELS = ("memo4.cost.cloud_monthly", "memo.batchcost15.formula_label", "memo.cost.cloud_per_gpu_hour")
HOURLY = {"en": re.compile(r"\d (USD|CNY)/h\b|a card-hour"), "zh_CN": re.compile(r"每小时约|每卡每小时")}


HEADS = {"en": ("## 1.", "## 2.", "## 3.", "## 4.", "## 5."), "zh_CN": ("## 一、", "## 二、", "## 三、", "## 四、", "## 五、")}


def _section(md: str, lang: str, n: int) -> str:
    """Section ``n`` (1-based) of the memo, up to the next one."""
    return md.split(HEADS[lang][n - 1], 1)[1].split(HEADS[lang][n], 1)[0]


def _cost_table(md: str, lang: str) -> str:
    return _section(md, lang, 4)


def _why_gpu(md: str, lang: str) -> str:
    label = translate(lang, "memo.gpu_choice").rstrip(":：")
    line = next(ln for ln in md.splitlines() if label in ln or label.replace("GPU", "accelerator") in ln)
    return line


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", OWNED_FLEETS)
def test_an_owned_fleet_memo_shows_no_rent_as_its_cost(name: str, lang: str) -> None:
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    table = _cost_table(md, lang)
    for key in RENT_LABELS:
        assert f"| {translate(lang, key)} |" not in table, (name, key)
    assert not HOURLY[lang].search(_why_gpu(md, lang)), _why_gpu(md, lang)
    # the alternative stays, labelled: the fleet finding's "against … renting the same setup". Re-argued in session
    # 30 (review30, blind review 19, q33: "appears to price 4 GPUs at the reserved rate, not the 6 deployed"): that
    # figure is now the deployed GPUs reserved every hour (``rent_basis.reserved_deployed``), not the load's
    # ``cloud_monthly``; it must still be in the memo
    # Re-argued again in s34-fleet36 (blind review 25, q04 zh: "the '租用同样配置每月 ¥62,946–¥183,261' comparison
    # is irrelevant for owned cards"): a plan that buys and rents nothing no longer names it at all
    deployed = rent_basis.reserved_deployed(r.costs, r.hardware.total_gpus)
    assert deployed is not None
    low = f"{deployed[0][0]:,.0f}"
    assert low not in md, "renting the same setup is quoted for cards the team owns"


@pytest.mark.parametrize("lang", LANGS)
def test_a_hybrid_that_rents_its_bursts_keeps_its_rent_rows(lang: str) -> None:
    md = render_memo_markdown(advice_plan("q39_hybrid_l20_base_cloud_burst"), lang)
    assert f"| {translate(lang, 'memo.batchcost15.formula_label')} |" in _cost_table(md, lang) or \
        f"| {translate(lang, 'memo4.cost.cloud_monthly')} |" in _cost_table(md, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_kept_plan_says_why_it_self_hosts_before_the_cheaper_api(lang: str) -> None:
    r = advice_plan("q26_steady_3y_strong_ops_buy")
    title = only_finding(r, "cost.hosted_weighed").title_in(lang)
    reason = translate(lang, "plan.hostedrun21.short.running", util=80)
    # re-argued in s34-volume36 (blind review 25, q31): q26's month is its peak ÷ 1.5 around the clock, not the
    # peak × its 80 % GPU utilisation, so the API's month moved; the title's price is the costs' own
    price = f"¥{r.costs.hosted_api_monthly.low:,.0f}"
    assert reason in title and price in title
    assert title.index(reason) < title.index(price), title  # the reason leads; the API's price is the concession


@pytest.mark.parametrize("lang", LANGS)
def test_rent_lead_compares_hours_with_hours(lang: str) -> None:
    from tests.support.unpicked import unpicked

    # q30 on the A10 (s34-kvpick36 moves it to an L20, whose month the busiest hour floors: the other wording),
    # launched within a deadline the filing meets: a plan that waits on the filing weighs no purchase (s36-filedwait)
    r = unpicked({**advice_answers("q30_unfiled_finetune_public_30d"), "launch_deadline_days": 365})
    # trim42 (blind review 32): owning pays back only at the best prices, so the rent finding says that in one
    # sentence; the busy-hours reading is still the finding's ``lead`` (page 1 of an API-led memo says it)
    lead = only_finding(r, "cost.rent").params["lead"]
    detail = render(lang, lead["tr"], {k: v for k, v in lead.items() if k != "tr"})
    # the tokens' share (1–16 %) and the break-even (~58 %) each said as a share of the hours, not one of them as
    # a share of the capacity ("busy") set against the other. Re-argued in s29-pricefix29: the break-even share is
    # the prices' result, not this test's subject (Alibaba's sourced L20 rows, s29-prices29, moved it from ~58 % to
    # ~54 %): any figure, said as a share of the hours
    # s30-usage31: the tokens' share is the GPU-use row's (2–33 % since it is of the simulated tokens/s the memo
    # prints, issue 25; 1–16 % on the analytic rate before), said as hours
    c = r.costs
    share = f"{max(1, round(c.utilisation * 100))}–{round(c.usage_high * 100)}"
    # s31-util32 (blind review 20b, q24: two utilisation figures): the hours named as the GPU-use row's share of the
    # capacity run in full batches ("… of the hours in full batches: below the ~54 % at which"), still hours with hours
    util = {"en": share + r" % of the hours in full batches: below the ~\d+ % at which", "zh_CN": share + r" % 的时间"}[lang]
    brk = {"en": r"against renting only those hours", "zh_CN": r"与只租这些时段相比，24 个月内回本按最好的价格需约 \d+ %"}[lang]
    assert re.search(util, detail) and re.search(brk, detail), detail


def test_an_api_of_another_model_is_no_headline_for_confidential_prompts() -> None:
    r = advice_plan("q10_128k_document_assistant")  # client contracts, personal information
    assert r.start_with is not None and r.start_with.form == "this_plan" and r.start_with.reason == "other_model"
    for lang in LANGS:
        decision = _section(render_memo_markdown(r, lang), lang, 1)
        # the model asked for and the other model named beside its price, once
        assert "Llama-3.3-70B-Instruct" in decision and decision.count("Qwen2.5-72B-Instruct") == 1, decision


def test_an_api_of_the_same_model_or_for_prompts_with_nothing_confidential_still_leads() -> None:
    # the model's own list (q11 until s34-apilead34 kept a token seller's plan: tests/core/test_apilead34.py)
    assert advice_plan("q21_fast_launch_hk_rule1").start_with.form == "hosted_api"
    # another model's list, no personal data: the lead says the switch and its quality test (s23-apisg23), as before
    assert advice_plan("q10_128k_document_assistant", data_sensitivity={
        "level": "medium", "personal_info": False, "sector": "general"}).start_with.form == "hosted_api"


@pytest.mark.parametrize("lang", LANGS)
def test_a_public_chat_leads_with_its_month_as_chats(lang: str) -> None:
    r = advice_plan("q16_hosted_api_mainland_registration")
    turns = only_finding(r, "cost.chat_turns").params
    md = render_memo_markdown(r, lang)
    cost_label = translate(lang, "memo.key.cost")
    row = next(ln for ln in _section(md, lang, 1).splitlines() if ln.startswith(f"| {cost_label} |"))
    single = f"{r.costs.hosted_api_monthly.low:,.0f}–"
    # blind review 23 (q16): the chats' month is the figure; the single-request one is said once, in section 4's
    # hosted-API row (tests/core/test_steps34.py), never on page 1
    assert turns["chats"] in row and single not in row, row
    title = only_finding(r, "cost.hosted_api").title_in(lang)
    assert turns["chats"] in title and single not in title, title


FINE_TUNED_MODEL = {"en": "run on the fine-tuned model", "zh_CN": "在微调后的模型上测过"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_fine_tunes_filing_names_its_dossier(lang: str) -> None:
    r = advice_plan("q30_unfiled_finetune_public_30d")
    f = next(x for x in r.findings if x.id == "genai.filing")
    assert "TC260-003" in f.detail_in(lang)
    assert any("TC260-003" in s.title for s in f.sources)
    unchanged: PlanResult = advice_plan("q16_hosted_api_mainland_registration")  # calls a filed model unchanged
    g = unchanged.finding("genai.filing")
    # its registration's own dossier since s35-duties (review 26 q16), not the fine-tune's work on its own model
    assert g is None or FINE_TUNED_MODEL[lang] not in g.detail_in(lang)
    assert FINE_TUNED_MODEL[lang] in f.detail_in(lang)
