"""Blind review 31 (issue #25): a plan whose own numbers say it holds only at the edge reads "conditional" on page 1,
each condition with its test or fix (q35: the KV cache at the full context short on failover; q10: 0 % headroom with
no spare, a first token inside the predictor's error); where a placeholder-priced part's quote would remove the KV
shortfall, the first line says the choice as one rule (q42, q19); a budget the cost range straddles no longer "decides
the size" (q10). Clean plans keep a plain row. Figures are read from the plans' own records."""

from __future__ import annotations

import pytest

from advisor.cli.plan import summary
from advisor.i18n import translate
from advisor.plan import edge_gate41, edge_lead44, edge_risks38, gpu_swap44, kv_condition40, kv_replicas42
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import render
from tests.support.planned import advice_plan

LANGS = ["en", "zh_CN"]
Q03, Q10, Q19 = "q03_hospital_private_wan_medical", "q10_128k_document_assistant", "q19_export_controlled_h100_mainland"
Q21, Q35, Q42 = "q21_fast_launch_hk_rule1", "q35_deepseek_v3_h20_internal", "q42_china_market_gpus_mainland"
CUT = "\x00"


def _page1(md: str) -> str:
    head = "\n## 2." if "\n## 2." in md else "\n## 二、"
    return md.split(head, 1)[0]


def _row(md: str, lang: str) -> str:
    label = translate(lang, "memo.key.feasible")
    line = next(x for x in _page1(md).splitlines() if x.startswith(f"| {label} |"))
    return line.split(" | ", 1)[1].removesuffix(" |")


def _first_line(md: str) -> str:
    heads = tuple(translate(lang, k, form=CUT, region=CUT, line=CUT).split(CUT)[0] for lang in LANGS
                  for k in ("memo.rec.summary", "memo.rec.summary_infeasible"))
    return next(line for line in md.splitlines() if line.startswith(heads))


def _conditional(lang: str) -> str:
    return translate(lang, "kvgate41_row.conditional", rest="")


@pytest.mark.parametrize("lang", LANGS)
def test_a_kv_shortfall_on_failover_makes_the_row_conditional_with_its_pressure_test(lang):
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    load = fit.failover_per_replica
    assert r.feasible and kv_condition40.material(fit, load) and kv_condition40.quote_step(r) is None
    md = render_memo_markdown(r, lang)
    row = _row(md, lang)
    assert row.startswith(_conditional(lang)), row
    # s40-kvfail42: the pressure test is the numbered go/no-go step (kv_replicas42), named by its number; beside the
    # memory condition it points to, the row does not restate its figures (rep44, review 35: q35 "said four times")
    clause = render(lang, "rep44.row.kv_gate", {
        "when": {"tr": "kvgate41_row.down"}, "context": f"{fit.context:,}", "load": f"{load:,}",
        "full": f"{fit.at_full:,}", "where": {"tr": "kvgate41_row.where_kv"}, "m": kv_replicas42.number(r)})
    assert _bare(clause, lang) in row  # its own numbered condition (vrd44, review 35)
    # the memory condition it points to is on page 1, with the same figures
    assert kv_condition40.head(fit, load, True, lang) in _page1(md)
    assert edge_gate41.reasons(r) == ["kv"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_quote_that_removes_the_shortfall_is_the_first_lines_rule(lang):
    r = advice_plan(Q42)
    g, n = r.gpu_choice, kv_condition40.quote_step(r)
    q = g.quote_switch
    assert n is not None and q and r.next_steps[n - 1].params["per_card"] == f"{q['per_card']:,}"
    md = render_memo_markdown(r, lang)
    first = _first_line(md)
    rule = render(lang, "kvgate41_rule.line", {"n_alt": q["n"], "gpu": q["gpu"], "per_card": f"{q['per_card']:,}",
                                              "currency": g.currency, "n_chosen": g.chosen.gpus,
                                              "chosen": g.chosen.gpu_name, "step": n})
    assert first.endswith(rule) and f"{q['per_card']:,}" in first
    assert g.chosen.gpus == r.hardware.total_gpus and q["n"] < g.chosen.gpus
    row = _row(md, lang)
    fit = r.capacity.kv_fit
    assert row.startswith(_conditional(lang))
    # s40-kvp42 (review 33): the fifth L20 that holds the failover at the full context is in the plan (kv_plan42), so
    # the quote step says no replicas to sign with and the row no KV clause; the rule's count is the plan's own
    assert r.next_steps[n - 1].otherwise is None and kv_replicas42.number(r) is None
    assert not fit.load_over_full and f"{fit.context:,}" not in row
    # the first token inside the predictor's error stays the row's own first condition
    assert "ttft" in edge_gate41.reasons(r)


def _bare(clause: str, lang: str) -> str:
    """A clause of the row's chain as the numbered list says it: without the "; and …" that tied it on (vrd44)."""
    clause = clause.removeprefix(translate(lang, "vrd44.feasible.sep_in"))
    leads = [w for w in translate(lang, "vrd44.feasible.leads").split("|") if w]
    while any(clause.startswith(w) for w in leads):
        clause = clause[len(next(w for w in leads if clause.startswith(w))):]
    return clause


@pytest.mark.parametrize("lang", LANGS)
def test_an_infeasible_plans_closest_option_says_the_rule_and_the_row_stays_no(lang):
    r = advice_plan(Q19)
    assert not r.feasible and kv_condition40.quote_step(r) is not None
    md = render_memo_markdown(r, lang)
    assert _first_line(md).endswith(edge_gate41.rule(r, lang)) and edge_gate41.rule(r, lang)
    # not a conditional: "not on the H100 asked; yes on 5 × L20", never a bare "no" (vrd44, review 35: q19)
    assert _row(md, lang) == gpu_swap44.feasible_text(r, lang) and not _row(md, lang).startswith(_conditional(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_no_headroom_and_no_spare_reads_conditional_beside_the_risks_line(lang):
    r = advice_plan(Q10)
    assert r.feasible and r.capacity.headroom == 0
    assert edge_gate41.reasons(r) == ["headroom", "ttft"]
    md = render_memo_markdown(r, lang)
    row = _row(md, lang)
    assert row.startswith(_conditional(lang))
    peak = r.capacity.peak_concurrency
    assert _bare(render(lang, "kvgate41_row.headroom_above", {
        "peak": peak, "one": {"tr": "plan.capacity16.unit.server"}}), lang) in row
    # the risks the row points to, on page 1 as their own list under the pilot-and-sign rule (vrd44, review 35: q10)
    assert edge_lead44.line(r, lang) and edge_lead44.line(r, lang) in _page1(md)
    assert translate(lang, "vrd44.edge.risks") in _page1(md)


def test_without_the_risks_line_the_headroom_clause_names_its_commitments():
    r = advice_plan(Q10)
    text = edge_gate41.feasible_text(r, "en", translate("en", "memo.yes"))
    assert text.startswith(_conditional("en"))
    found = [x for x in edge_risks38.risks(r) if str(x["tr"]).rsplit(".", 1)[1] in ("headroom", "no_spare")]
    for c in edge_risks38.conditions(r, found):
        assert render("en", str(c["tr"]), {k: v for k, v in c.items() if k != "tr"}) in text


@pytest.mark.parametrize("lang", LANGS)
def test_a_budget_the_range_straddles_does_not_decide_the_size(lang):
    r = advice_plan(Q10)
    assert any(f.id == "cost.budget_straddles" for f in r.findings)
    b = r.binding_constraint
    assert b.kind != "budget"
    budget = translate(lang, "plan.binding.budget_sized", cost_high=CUT, currency="", budget="", size="")
    assert budget.split(CUT)[0] not in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_a_pilot_in_the_headline_is_the_rows_first_token_condition(lang):
    r = advice_plan(Q03)
    assert edge_gate41.reasons(r) == ["ttft"]
    row = _row(render_memo_markdown(r, lang), lang)
    target = f"{r.latency_curve.slo_ttft_p99_ms / 1000:g}"
    # its own numbered condition, without the "; and only if" that chained it (vrd44, review 35)
    pilot = translate(lang, "kvgate41_row.ttft_pilot", target=target)
    pilot = pilot.split("only if " if lang == "en" else "并且", 1)[1]
    assert row.startswith(_conditional(lang)) and pilot in row


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q01_office_lan_capex_contracts", "q05_filed_finetune_mainland_sg",
                                  "q18_us_fleet_32_h100", "q24_us_saas_rent", Q21])
def test_clean_plans_and_an_api_led_fallback_keep_their_row(name, lang):
    """No edge by the plan's own numbers (q24's FP8 cache holds its failover load; q21's KV shortfall is the
    fallback's, behind a hosted-API lead, and said in section 2)."""
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    assert not _row(md, lang).startswith(_conditional(lang))
    assert edge_gate41.rule(r, lang) == ""


@pytest.mark.parametrize("lang", LANGS)
def test_cli_summary_reads_conditional_too(lang):
    r = advice_plan(Q35)
    text = summary(r, lang)
    assert _conditional(lang) in text
    assert translate(lang, "kvgate41_row.where_kv") not in text  # no memory paragraph to point to there
