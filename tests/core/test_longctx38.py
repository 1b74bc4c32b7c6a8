"""s36-longctx (issue 25, blind review 27, q10/q01/q03): a plan at the edge names its risks together on page 1 and
commits only on what removes them; a daily-peak single server's quote step asks for daytime pricing with the plan's
own day/night split; a latency column past the serve command's cap is labelled as queued."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from advisor.i18n import translate
from advisor.plan import edge_lead44, edge_risks38, usage_share
from advisor.plan.memo import memo_document
from advisor.plan.money_text import number_text, symbol_range
from advisor.plan.result import render
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
Q10 = "q10_128k_document_assistant"
Q03 = "q03_hospital_private_wan_medical"
Q01 = "q01_office_lan_capex_contracts"


def _page1(md: str) -> str:
    return md.split("\n## 2.")[0]


def _risks_line(md: str, lang: str) -> list[str]:
    # either wording: labelled conditional where the plan holds only at the edge (edge_gate41, review 31)
    heads = tuple(translate(lang, key, risks="\0", conds="").split("\0")[0]
                  for key in ("longctx38_risks.line", "kvgate41_risks.line"))
    return [line for line in md.splitlines() if line.startswith(heads)]


@pytest.mark.parametrize("lang", LANGS)
def test_q10_names_its_edge_risks_together_on_page_1_each_with_its_figure(lang):
    r = advice_plan(Q10)
    found = edge_risks38.risks(r)
    kinds = {str(x["tr"]).rsplit(".", 1)[1] for x in found}
    # the review's five: no headroom, a first token within the predictor's error, one server, a straddled budget on a
    # placeholder price, a part not sold new
    assert kinds == {"headroom", "ttft", "no_spare", "budget_placeholder", "legacy"}
    md = memo_document(r, lang).markdown()
    # vrd44 (review 35): led by the pilot-and-sign rule, the risks numbered, the stock-only part's supply line after
    line = edge_lead44.line(r, lang)
    assert line and line in _page1(md)
    for x in found:
        if str(x["tr"]).endswith(".legacy"):  # said as the supply commitment to ask for
            assert translate(lang, "vrd44.edge.stock", gpu=x["gpu"], term=translate(
                lang, "vrd44.edge.term_months", n=r.answers["expected_duration_months"])) in line
            continue
        assert render(lang, str(x["tr"]), {k: v for k, v in x.items() if k != "tr"}) in line
    cap = r.capacity
    assert cap.headroom == 0
    assert translate(lang, "longctx38_risk.headroom", peak=number_text(cap.peak_concurrency)) in line
    assert f"{cap.ttft_p99_ms / 1000:.1f}" in line and f"{r.latency_curve.slo_ttft_p99_ms / 1000:g}" in line
    straddle = next(f for f in r.findings if f.id == "cost.budget_straddles")
    assert straddle.params["cost"] in line and straddle.params["budget"] in line
    assert r.hardware.gpu_name in line
    # committed only on what removes them: the written quote with supply and replacement, the test on real prompts
    assert {"en": "written commitment to supply", "zh_CN": "书面承诺"}[lang] in line
    assert {"en": "replacement time for a failed server", "zh_CN": "故障服务器的更换时限"}[lang] in line
    assert number_text(r.answers["prompt_tokens"]["avg"]) in line


@pytest.mark.parametrize("lang", LANGS)
def test_q10s_upgrade_paragraph_leaves_the_headroom_and_first_token_to_the_risks_line(lang):
    r = advice_plan(Q10)
    md = memo_document(r, lang).markdown()
    lead = next(line for line in md.splitlines() if line.startswith(("**This plan, one server", "**本方案（一台服务器）**")))
    assert f"{r.capacity.ttft_p99_ms / 1000:.1f}" not in lead
    assert ("headroom above the peak" if lang == "en" else "峰值") not in lead
    # the upgrade's own headroom stays: that is what the second server buys
    assert ("100 % headroom above the peak" if lang == "en" else "余量为 100 %") in md


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q01, Q03])
def test_a_plan_with_fewer_edge_risks_keeps_page_1_without_the_line(name, lang):
    r = advice_plan(name)
    assert len(edge_risks38.risks(r)) < edge_risks38.MIN_RISKS
    assert not _risks_line(memo_document(r, lang).markdown(), lang)


@pytest.mark.parametrize("lang", LANGS)
def test_q10s_quote_step_asks_for_daytime_pricing_on_the_plans_own_day_night_split(lang):
    r = advice_plan(Q10)
    # (review 34: q10's contracts bring the PIPL Art. 55 assessment, a gate said first; the quote step follows it)
    steps = [s for s in r.next_steps if s.id != "waits"]
    assert r.next_steps[0].id == "waits"
    step = steps[0]
    assert step.id == "replacement_time" and step.key == "longctx38_next.replacement_day"
    c = r.costs
    day = usage_share.SCALED_HOURS["diurnal"]
    text = step.text_in(lang)
    assert symbol_range(c.cloud_monthly.low * day, c.cloud_monthly.high * day, c.currency) in text
    assert symbol_range(c.cloud_on_demand_monthly.low * day, c.cloud_on_demand_monthly.high * day, c.currency) in text
    assert symbol_range(c.cloud_monthly.low, c.cloud_monthly.high, c.currency) in text  # the month it is weighed on
    assert f"{day * 100:.0f} %" in text
    assert text in memo_document(r, lang).markdown()


def test_daytime_pricing_is_asked_only_of_a_daily_peak_at_low_use():
    r = advice_plan(Q10)
    c = SimpleNamespace(load="diurnal", office_steady=False, volume_utilisation=0.05)
    assert edge_risks38.daytime_price(r.costs, c) is not None
    assert edge_risks38.daytime_price(r.costs, SimpleNamespace(load="stable", office_steady=False)) is None
    busy = r.costs.model_copy(update={"utilisation": 0.7, "usage_high": 0.8})
    assert usage_share.printed(busy, c)[1] > edge_risks38.LOW_USE
    assert edge_risks38.daytime_price(busy, c) is None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q03, Q10])
def test_a_latency_column_past_the_cap_is_labelled_as_queued(name, lang):
    r = advice_plan(name)
    cap = r.hardware.max_num_seqs
    md = memo_document(r, lang).markdown()
    header = next(line for line in md.splitlines() if line.startswith(f"| {translate(lang, 'memo.latency.c')} |"))
    cells = [x.strip() for x in header.strip("|").split("|")[1:]]
    levels = [p.concurrency for p in r.latency_curve.points]
    assert any(c > cap for c in levels)  # the case: the curve runs past the cap
    for level, cell in zip(levels, cells, strict=True):
        queued = translate(lang, "longctx38_curve.queued", c=number_text(level))
        assert (cell == queued) == (level > cap), (level, cell)


def test_q03s_twenty_column_is_the_queued_one():
    r = advice_plan(Q03)
    md = memo_document(r, "en").markdown()
    assert "| 20 (queued past the cap) |" in md and r.hardware.max_num_seqs == 12
