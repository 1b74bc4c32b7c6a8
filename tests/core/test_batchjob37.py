"""An offline batch job's memo (s35-batchjob, issue #25, blind review 26 q06/q28): page 1 says "Earliest start",
not launch, and that the reviews of unknown length set the start, not the GPUs; section 2 runs the job with
``vllm run-batch``, one shard a replica; no soak-test source; no sales quote for a runner-up part on a one-off job of
a day or two whose part is rented now. The rules: ``advisor.plan.batch_job37`` and ``supply_lead``."""

from __future__ import annotations

import re
import shlex

import pytest

from advisor.i18n import translate
from advisor.plan import batch_job37, supply_lead
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import advice_plan

LANGS = ["en", "zh_CN"]
Q06, Q28 = "q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h"
LIVE = "q01_office_lan_capex_contracts"


def _row(md: str, lang: str, key: str) -> str | None:
    label = translate(lang, key)
    return next((x for x in page_one(md).splitlines() if x.startswith(f"| {label} |")), None)


def _code_blocks(md: str) -> list[str]:
    return re.findall(r"```\n(.*?)\n```", md, flags=re.S)


@pytest.mark.parametrize("name", [Q06, Q28])
@pytest.mark.parametrize("lang", LANGS)
def test_a_job_starts_and_its_reviews_set_the_date(name, lang):
    r = advice_plan(name)
    assert r.timeline.gate is None and r.timeline.untimed  # waits on steps of unknown length only
    md = render_memo_markdown(r, lang)
    assert _row(md, lang, "memo.key.launch") is None  # a job is not launched
    row = _row(md, lang, "batchjob37_key.start")
    assert row is not None and translate(lang, "batchjob37_key.start_set_by") in row


@pytest.mark.parametrize("lang", LANGS)
def test_a_live_service_keeps_its_launch_row(lang):
    md = render_memo_markdown(advice_plan(LIVE), lang)
    assert _row(md, lang, "memo.key.launch") is not None and _row(md, lang, "batchjob37_key.start") is None
    assert "run-batch" not in md


@pytest.mark.parametrize("name", [Q06, Q28])
@pytest.mark.parametrize("lang", LANGS)
def test_the_job_runs_with_run_batch_one_shard_a_replica_same_engine_flags(name, lang):
    r = advice_plan(name)
    md = render_memo_markdown(r, lang)
    serve = next(b for b in _code_blocks(md) if " vllm serve " in f" {b} ")
    run = next(b for b in _code_blocks(md) if "vllm run-batch" in b)
    s, w = shlex.split(serve), shlex.split(run)
    model = s[s.index("serve") + 1]
    assert w[w.index("--model") + 1] == model and "-i" in w and "-o" in w
    flags = s[s.index("serve") + 2:]
    assert w[-len(flags):] == flags  # the plan's engine flags, unchanged: the rate it was sized on
    intro = md[:md.index(run)].rstrip().rsplit("\n\n", 2)[-2]
    assert str(r.hardware.replicas) in intro and "custom_id" in intro  # one shard a replica, in the batch format


def test_server_only_flags_are_not_passed_to_run_batch():
    r = advice_plan(Q06)
    run = batch_job37.run_command(r, "vllm serve m --port 8000 --host=0.0.0.0 --max-num-seqs 4")
    assert run is not None and "--port" not in run and "--host" not in run and "--max-num-seqs 4" in run
    assert batch_job37.run_command(advice_plan(LIVE), "vllm serve m") is None
    assert batch_job37.run_command(r, "llama-server -m m") is None


@pytest.mark.parametrize("name", [Q06, Q28])
@pytest.mark.parametrize("lang", LANGS)
def test_a_job_cites_no_soak_source(name, lang):
    r = advice_plan(name)
    f = r.finding("sizing.quantized")
    assert f is not None
    assert not any(s.title.startswith(batch_job37.SOAK_SOURCE_PREFIX) for s in f.sources)
    assert any(s.title == batch_job37.JOB_METHOD_SOURCE for s in f.sources)
    sources = render_memo_markdown(r, lang).split("\n## ")[-1]
    assert ("soak" if lang == "en" else "长稳压测") not in sources


def test_a_live_service_keeps_its_soak_source():
    f = advice_plan(LIVE).finding("sizing.quantized")
    assert f is not None and not any(s.title == batch_job37.JOB_METHOD_SOURCE for s in f.sources)
    assert any(s.title.startswith(batch_job37.SOAK_SOURCE_PREFIX) for s in f.sources)


@pytest.mark.parametrize("lang", LANGS)
def test_a_short_one_off_job_asks_no_sales_quote_for_the_runner_up(lang):
    r = advice_plan(Q28)
    s = r.supply_switch
    assert s is not None and s["kind"] == "sales" and s["per_job"]  # a sales-only part set aside for one on demand
    assert r.costs.billed_hours.high <= batch_job37.SHORT_JOB_HOURS and s["quiet"]
    assert all(x.id != supply_lead.STEP_ID for x in r.next_steps)
    row = _row(render_memo_markdown(r, lang), lang, "memo.key.hardware")
    assert row is not None and s["gpu"] not in row and r.hardware.gpu_name in row


def test_a_longer_job_keeps_the_quote():
    class Hours:
        high = batch_job37.SHORT_JOB_HOURS + 1

    class Costs:
        per_job, billed_hours = True, Hours()

    assert not batch_job37.short_job(Costs())
    Hours.high = batch_job37.SHORT_JOB_HOURS
    assert batch_job37.short_job(Costs())
    Costs.per_job = False
    assert not batch_job37.short_job(Costs())
