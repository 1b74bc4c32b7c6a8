"""Where the wizard's workload comes from (Qt-free): every figure with its source, never another page's defaults."""

import pytest

from advisor.bench.report import sim_label
from advisor.catalog import get_gpu, get_model
from advisor.domain.sizing import SizingRequest
from advisor.i18n import translate
from advisor.plan.result import render
from advisor.plan.workload import run_source, sizing_source, workload_figures


def _run(**over) -> dict:
    run = {"run_id": "r1", "label": "ramp-l40s", "status": "completed", "created_wall": 1764806400.0,
           "model": "Qwen/Qwen2.5-14B-Instruct", "result": {"dialect": "vllm"},
           "config": {"workload": {"prompt_tokens": {"mean": 1800}, "output_tokens": {"mean": 350}},
                      "slo": {"ttft_ms": 2500}}}
    run.update(over)
    return run


def test_a_real_finished_run_gives_its_workload_with_its_name_and_date():
    source = run_source(_run())
    assert source.values == {"prompt_tokens.avg": 1800, "output_tokens.avg": 350, "latency_slo.ttft_p99_ms": 2500.0}
    assert source.origin_params == {"run": "ramp-l40s", "date": "2025-12-04", "model": "Qwen/Qwen2.5-14B-Instruct"}
    for lang in ("en", "zh_CN"):
        assert "ramp-l40s" in source.choice_in(lang) and "1,800" in source.choice_in(lang)


@pytest.mark.parametrize("over", [
    {"result": {"dialect": "simulated"}, "label": "A/B · B · awq-int4"},  # the A/B page's simulated side
    {"label": sim_label("qwen2.5-14b", "l4", "awq-int4", 1, 0.25), "result": {}},  # the Benchmark page's simulator
    {"status": "interrupted"}, {"status": "failed"}, {"status": "running"},
    {"config": {}},  # no workload recorded
])
def test_simulated_unfinished_or_workload_less_runs_are_never_a_source(over):
    assert run_source(_run(**over)) is None


def test_the_sizing_page_gives_only_what_the_user_set_there():
    request = SizingRequest(model=get_model("qwen2.5-14b"), gpu=get_gpu("l40s"), context=8192, concurrency=20)
    source = sizing_source(request)
    # its prompt/answer lengths were never set: the page's own defaults are not the user's workload
    assert source.values == {"max_context_tokens": 8192, "peak_concurrency": 20}
    both = sizing_source(request.model_copy(update={"prompt_tokens": 3000, "output_tokens": 500}))
    assert both.values["prompt_tokens.avg"] == 3000 and both.values["output_tokens.avg"] == 500
    assert sizing_source(None) is None


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_each_figure_says_where_it_comes_from(lang):
    answers = {"use_case": "interactive", "prompt_tokens": {"avg": 2000}, "peak_concurrency": 20}
    origins = {"peak_concurrency": ("wizard.origin.sizing", {})}
    figures = {f.path: f for f in workload_figures(answers, origins)}
    assert figures["prompt_tokens.avg"].value == 2000 and figures["prompt_tokens.avg"].source == "answer"
    assert figures["prompt_tokens.avg"].source_in(lang) == translate(lang, "workload.source.answer")
    assert figures["peak_concurrency"].source_in(lang) == translate(lang, "wizard.origin.sizing")
    # not answered: the value the plan will assume, said in the plan's own words
    out = figures["output_tokens.avg"]
    assert out.source == "assumed" and out.value == 300
    assert out.source_in(lang) == render(lang, "plan.assume.output_tokens", {"value": 300})
    ttft = figures["latency_slo.ttft_p99_ms"]
    # a 2,000-token average prompt has an assumed p95 of 5,000 tokens: the first token is given 2 s + 0.5 s per
    # 1,000 tokens beyond 2,000 (context.assumed_ttft_ms), said with the prompt it was given for
    assert ttft.source == "assumed" and ttft.value == 3500.0
    assert ttft.source_in(lang) == render(lang, "plan.assume.ttft_long_prompt", {"value": 3500.0, "p95": "5,000"})
