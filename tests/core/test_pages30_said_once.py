"""A one-off batch's memo says each figure once (issue 25, session 30: q06 back to 3 pages in both languages).

q06 and q28 (offline batch jobs) printed a cost chart that was one line from nothing to the job's cost (the cost
table's "the whole job" row), named the chosen layout's per-replica figures in "Layouts tried" right after "What
decides the size" gave them, named the best batch's shape beside the sentence that gave it as the plan's, ended the
FP8 KV finding in the check next step 4 runs with its commands, and opened the job's sizing finding on what
sections 2 and 3 say. Each test checks the fact is said once in the memo and still said in full where the memo's
other place is absent (the app and ``--json`` keep the full text)."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import step_refs44, step_where40
from advisor.plan.charts import ChartData, Series, repeats_table
from advisor.plan.memo import FIRST_STEPS, memo_document, render_memo_markdown
from tests.support.planned import advice_plan

LANGS = ("en", "zh_CN")
Q06, Q28, Q29 = "q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h", "q29_batch_impossible_budget"


def _section(memo: str, n: int) -> str:
    return memo.split("\n## ")[n]


def _cost(points: list[tuple[float, float]], *more: Series) -> ChartData:
    line = Series(label="cloud", points=points, role="primary")
    return ChartData(id="cost", title="", x_label="", y_label="", series=[line, *more], lang="en")


@pytest.mark.parametrize("name", [Q06, Q28])
def test_a_one_off_jobs_cost_chart_is_not_printed_beside_its_whole_job_row(name):
    doc = memo_document(advice_plan(name), "en")
    chart = doc.charts["cost"]
    [line] = chart.series
    assert line.points[0][1] == 0 and len(line.points) == 2
    # the chart's one figure is the cost table's "the whole job" row, printed in the memo
    lo, hi = line.band[-1][1:]
    assert f"{lo:,.0f}–{hi:,.0f}" in render_memo_markdown(doc.result, "en")
    assert "cost" in doc.charts and "cost" not in doc.printed_charts


def test_a_cost_chart_with_a_shape_of_its_own_is_still_printed():
    monthly = [(float(m), 100.0 * m) for m in range(13)]
    assert not repeats_table(_cost(monthly))  # a month's bill over a year: the table gives one month
    assert not repeats_table(_cost([(0.0, 0.0), (1.0, 500.0)], Series(label="own", points=[(0.0, 900.0),
                                                                                          (1.0, 950.0)])))
    assert not repeats_table(_cost([(0.0, 300.0), (1.0, 500.0)]))  # something paid up front
    assert repeats_table(_cost([(0.0, 0.0), (1.0, 500.0)]))


@pytest.mark.parametrize("lang", LANGS)
def test_layouts_tried_names_the_chosen_batch_layout_by_its_gpus_once_section_two_gives_its_figures(lang):
    r = advice_plan(Q06)
    chosen = r.layouts_tried.chosen
    rate = f"{round(chosen.requests_per_hour):,}"
    sizing = _section(render_memo_markdown(r, lang), 2)
    decides, tried = sizing.split("\n\n")[1:3]
    assert f"{chosen.seqs}" in decides and rate in decides  # what decides the size: per replica, said here
    full = r.layouts_tried.text_in(lang)  # the app and --json: the chosen layout's figures in full
    assert full.count(f" {chosen.seqs} ") == 1
    assert f" {chosen.seqs} " not in tried and f"{chosen.gpus}" in tried and "TP1" in tried
    assert tried.count(rate) == 1  # once: as the yardstick beside TP2's per-GPU rate


@pytest.mark.parametrize("lang", LANGS)
def test_the_best_batch_is_called_the_plans_own_where_it_is(lang):
    r = advice_plan(Q06)
    text = r.binding_constraint.text_in(lang)
    seqs = r.layouts_tried.chosen.seqs
    assert text.count(f"{seqs} ") == 1  # "each holding 157 requests at once", not "157 sequences a replica" again
    assert translate(lang, "pages30.best_batch_plan") in text
    # q29 (no plan fits): the best batch is the nearest setup's, named with its shape
    other = advice_plan(Q29).binding_constraint.text_in(lang)
    assert translate(lang, "pages30.best_batch_plan") not in other
    assert ("sequences a replica" if lang == "en" else "个序列") in other


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q06, Q28])
def test_the_fp8_kv_finding_names_the_step_that_runs_its_check(name, lang):
    r = advice_plan(name)
    step = next(i + 1 for i, s in enumerate(r.next_steps) if s.id == "quant_ab")
    finding = next(f for f in r.findings if f.detail_key == "plan.rule.sizing.quantized.kv_fp8.detail")
    memo = render_memo_markdown(r, lang)
    findings = _section(memo, 7)
    assert finding.detail_in(lang) not in findings  # the app's text: the check in full
    said = [{"detail": translate(lang, "pages30.kv_fp8_step", n=step, weights=finding.params["weights"])}]
    step_where40.said_where(said, lang, FIRST_STEPS)  # a step past page 1's says its section (review 29, q28)
    # s42-zhx (review 35, q23): the memo names it in the list it is in ("step 6 in section 9", "第九节第 6 条")
    said[0]["detail"] = step_refs44.repoint(said[0]["detail"], lang, FIRST_STEPS, step_refs44.section_of(memo, lang) or "")
    assert said[0]["detail"] in findings and f"\n{step}. " in memo  # the step it names is listed, with its commands
    assert "--label baseline-bf16" in memo


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q06, Q28])
def test_the_jobs_sizing_finding_keeps_its_margin_and_leaves_the_method_to_sections_two_and_three(name, lang):
    r = advice_plan(name)
    f = next(x for x in r.findings if x.detail_key == "plan.rule.sizing.batch_throughput.margin.detail")
    memo = render_memo_markdown(r, lang)
    findings = _section(memo, 7)
    assert f.detail_in(lang) not in findings
    assert translate(lang, "pages30.batch_margin", margin=f.params["margin"]) in findings
    # what it no longer says is said in sections 2 (the replica runs what its KV cache holds) and 3 (throughput)
    assert translate(lang, "memo.batch15.in_flight") in _section(memo, 2)
    assert f"{r.capacity.concurrency_per_replica:,}" in _section(memo, 2)
