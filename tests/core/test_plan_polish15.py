"""Loose ends of issue 25 after session 15's merges (s15-polish): a batch job's KV cache in FP8 when FP8 is accepted,
batch memos judged by throughput, per-node token splits of a two-node plan, and one name for an on-premises site."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan import answers_from_dict, sizing
from advisor.plan.context import resolve
from advisor.plan.data import gpus_by_id
from advisor.plan.engine import plan
from advisor.plan.memo import render_memo_markdown

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"


def _answers(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["answers"]


def _plan(answers: dict):
    return plan(answers_from_dict(answers), check_fixes=False)


Q28 = _answers("q28_bank_backfill_batch_48h")
Q29 = _answers("q29_batch_impossible_budget")


@pytest.fixture(scope="module")
def q28():
    return _plan(Q28)


# --- 1. an offline batch with FP8 accepted runs its KV cache in FP8 ------------------------------------------------


def test_a_batch_with_fp8_accepted_sizes_an_fp8_kv_cache_and_the_command_says_so(q28):
    hw = q28.hardware
    assert hw.weights == "fp8" and hw.kv_dtype == "fp8", (hw.weights, hw.kv_dtype)
    assert "--kv-cache-dtype fp8" in hw.engine_flags
    for lang in ("en", "zh_CN"):
        memo = render_memo_markdown(q28, lang)
        serve = next(line for line in memo.splitlines() if "vllm serve" in line)
        assert "--kv-cache-dtype fp8" in serve, (lang, serve)
    # on the same replica a BF16 KV cache holds about half the sequences (the sizing core's own memory figures)
    ctx = resolve(answers_from_dict(Q28))
    gpu = gpus_by_id()[hw.gpu]
    engine = sizing._engine(ctx, gpu)
    fp8, bf16 = (sizing._memory(ctx, gpu, hw.weights, kv, hw.tp, engine).kv_tokens for kv in ("fp8", "bf16"))
    assert 1.9 <= fp8 / bf16 <= 2.1, (fp8, bf16)
    avg = ctx.prompt_avg + ctx.output_avg
    assert q28.capacity.memory_max_concurrency == fp8 // avg > bf16 // avg
    # quantization refused: the job keeps a BF16 KV cache and no FP8 flag
    no = _plan({**Q28, "quantization_acceptable": "no"})
    assert no.hardware.kv_dtype == "bf16" and "--kv-cache-dtype fp8" not in no.hardware.engine_flags


def test_the_fp8_kv_cache_is_checked_for_quality_and_not_offered_again_as_what_would_raise_the_batch(q28):
    f = next(x for x in q28.findings if x.id == "sizing.quantized")
    assert "FP8 KV cache" in f.title_in("en") and "FP8 KV Cache" in f.title_in("zh_CN")
    ab = next(s for s in q28.next_steps if s.id == "quant_ab")
    assert ab.key == "plan.next.quant_ab_kv" and "--label fp8-kv-fp8" in (ab.command or "")
    r = _plan(Q29)
    assert r.binding_constraint is not None
    small = next((p for p in r.binding_constraint.then if p["tr"] == "plan.batch15.small_batch"), None)
    if small is not None:  # the plan already runs the FP8 KV cache: only wider replicas can hold more
        assert all(m["tr"] != "plan.batch15.more.fp8_kv" for m in small["more"]), small


def test_an_interactive_service_under_fp8_only_keeps_a_bf16_kv_cache():
    r = _plan(_answers("q14_medical_followup_mainland"))
    assert r.hardware.kv_dtype in (None, "bf16", "fp16"), r.hardware.kv_dtype
    assert "--kv-cache-dtype fp8" not in (r.hardware.engine_flags or [])


# --- 2. a batch memo is judged by throughput and hours, not by an interactive latency target -----------------------


def _section(memo: str, start: str, end: str) -> str:
    return memo[memo.index(start) : memo.index(end, memo.index(start))]


def test_a_batch_memo_shows_throughput_and_job_hours_not_latency_rows(q28):
    cap, hw = q28.capacity, q28.hardware
    en = _section(render_memo_markdown(q28, "en"), "## 2.", "## 3.")
    zh = _section(render_memo_markdown(q28, "zh_CN"), "## 二、", "## 三、")
    table_en = [line for line in en.splitlines() if line.startswith("|")]
    table_zh = [line for line in zh.splitlines() if line.startswith("|")]
    for bad in ("TTFT", "TPOT", "P99", "within the target", "Peak concurrency"):
        assert not any(bad in line for line in table_en), (bad, table_en)
    for bad in ("TTFT", "TPOT", "P99", "峰值并发"):
        assert not any(bad in line for line in table_zh), (bad, table_zh)
    gpu_hours = round(cap.batch_hours * hw.total_gpus)
    per_hour = round(Q28["total_requests"] / cap.batch_hours)
    assert any(f"{gpu_hours:,} GPU-hours" in line and "48-hour deadline" in line for line in table_en), table_en
    assert any(f"{per_hour:,} requests an hour" in line for line in table_en), table_en
    assert any(f"{gpu_hours:,} GPU 小时" in line and "时限 48 小时" in line for line in table_zh), table_zh
    assert any(f"{cap.concurrency_per_replica} a replica" in line for line in table_en), table_en


def test_batch_next_steps_measure_throughput_on_a_sample_of_the_job(q28):
    ids = [s.id for s in q28.next_steps]
    assert "batch_throughput" in ids and not {"ramp", "soak"} & set(ids), ids
    step = next(s for s in q28.next_steps if s.id == "batch_throughput")
    n = q28.capacity.concurrency_per_replica
    assert f"--concurrency {n} " in step.command and "--dataset YOUR_JOB_SAMPLE.jsonl" in step.command, step.command
    assert "--prompt-tokens" not in step.command and "--ramp" not in step.command
    en, zh = step.text_in("en"), step.text_in("zh_CN")
    # the rate to compare with, and the hours it gives: the capacity table's figures
    per_replica = round(q28.capacity.output_tokens_per_s_per_replica)
    assert "sample" in en and f"{q28.capacity.batch_hours:.3g} hours" in en and f"{per_replica} output tokens/s" in en, en
    assert "样本" in zh and "不需要并发阶梯压测或长稳压测" in zh, zh
    # the quality check runs the same sample at the job's load, not a one-user-to-peak ramp
    ab = next(s for s in q28.next_steps if s.id == "quant_ab")
    assert f"--concurrency {n} " in ab.command and "1," not in ab.command and "YOUR_JOB_SAMPLE.jsonl" in ab.command
    # a job no setup runs still measures on a sample, without figures it does not have
    r = _plan(Q29)
    step = next(s for s in r.next_steps if s.id == "batch_throughput")
    assert step.key == "plan.next.batch_sample_no_setup" and "--dataset YOUR_JOB_SAMPLE.jsonl" in step.command


# --- 4. a mainland + overseas plan splits each node's cost by its own prefill share --------------------------------


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_two_nodes_split_the_cost_per_million_tokens_node_by_node(monkeypatch):
    from advisor.plan import two_nodes
    from advisor.plan.memo_text15 import per_million_split
    from advisor.plan.token_split import prefill_share

    seen: list = []
    real = two_nodes.node_row
    monkeypatch.setattr(two_nodes, "node_row", lambda node, command=None: seen.append(node) or real(node, command))
    r = _plan(_answers("q05_filed_finetune_mainland_sg"))
    assert r.region == "mainland_plus_overseas" and len(r.nodes) == 2 and len(seen) == 2
    shares = [prefill_share(n.ctx, n.cand) for n in seen]
    costs = [sum(n.out.cloud_usd) / 2 for n in seen]
    # an L20 node and an L4 node (Google Cloud's Singapore row since s18-prices: the personal data leaves RunPod's
    # out, s18-rows) split their GPU time differently: one node's share is not the plan's
    assert {n.cand.gpu.id for n in seen} == {"l20-48g", "l4"} and abs(shares[0] - shares[1]) > 0.02, shares
    expected = sum(s * c for s, c in zip(shares, costs, strict=True)) / sum(costs)
    assert r.costs.prefill_gpu_share == pytest.approx(expected, abs=0.001)
    assert abs(r.costs.prefill_gpu_share - shares[0]) > 0.01  # was the mainland node's share for both
    # input cost = Σ each node's cost × its share over all input tokens (the memo's figure, at the range's middle)
    (in_lo, in_hi), (out_lo, out_hi) = per_million_split(r.costs)
    conv = seen[0].out.conv
    from advisor.plan.capacity_per_million import basis_tokens

    basis = basis_tokens(r.costs)  # the tokens the figures divide: the setup's capacity × utilisation (s20-costtoken20)
    assert basis is not None
    tin, tout = basis
    middle_in = sum(s * c for s, c in zip(shares, costs, strict=True)) * conv * 1e6 / tin
    assert in_lo <= middle_in * 1.02 and middle_in <= in_hi * 1.02, (in_lo, middle_in, in_hi)
    assert (in_lo * tin + out_lo * tout) == pytest.approx(r.costs.cost_per_million_output_tokens.low * tout, rel=0.01)
    # q05's memo leaves the row out since s33-rows34 (a free public app: office_token_rows.prices_tokens); the row a
    # two-node plan prints where its tokens are priced is read with that rule set aside
    from advisor.plan import office_token_rows

    monkeypatch.setattr(office_token_rows, "prices_tokens", lambda result: True)
    en, zh = (render_memo_markdown(r, lang) for lang in ("en", "zh_CN"))
    # since s25-usage25 the row's first figure is the month's tokens' (issue 25). misc32 (re-argued, wave 2 q34: the
    # two-node row was the only one without its split): the row states the plan's split, named as both nodes'
    # weighted by their cost so that it does not read as one replica's (q05 and q34 keep their 5 pages)
    row_en = next(line for line in en.splitlines() if line.startswith("| Cost per million tokens"))
    row_zh = next(line for line in zh.splitlines() if line.startswith("| 每百万 token 成本"))
    pct = f"prefill {r.costs.prefill_gpu_share * 100:.0f} %"
    assert "the two nodes weighted by their monthly cost" in row_en and pct in row_en
    assert "两个节点按各自月成本加权" in row_zh
    assert "input" in row_en and "输入" in row_zh  # the input and output figures themselves are there


# --- 5. one word for where the team's own servers stand ------------------------------------------------------------


def _site_lines(memo: str) -> dict[str, str]:
    lines = memo.splitlines()
    return {
        "headline": next(x for x in lines if x.startswith(("**建议**", "**Recommendation**"))),
        "row": next(x for x in lines if x.startswith(("| 自有服务器所在", "| Owned servers stand"))),
    }


def test_a_fleet_on_a_private_network_stands_in_the_server_room_everywhere():
    r = _plan(_answers("q08_ascend_fleet_internal"))
    assert r.deployment_form == "on_premises"
    zh = render_memo_markdown(r, "zh_CN")
    where = _site_lines(zh)
    assert all("自有机房" in v for v in where.values()), where
    assert "办公室或机房" not in zh
    fleet = next(f for f in r.findings if f.id == "cost.fleet")
    assert "自有机房" in fleet.detail_in("zh_CN") and "server room" in fleet.detail_in("en")
    en = _site_lines(render_memo_markdown(r, "en"))
    assert all("server room" in v and "office" not in v for v in en.values()), en


def test_a_bought_server_follows_the_answers_site_in_the_headline_row_and_finding():
    base = _answers("q17_capex_only_university_lab")  # reached over the lab's private network
    for reach, zh_word, en_word in (("private_network", "自有机房", "server room"), ("lan", "办公室", "office")):
        r = _plan({**base, "reach": reach})
        assert r.deployment_form == "on_premises", reach
        f = next(x for x in r.findings if x.id == "cost.on_premises")
        zh, en = render_memo_markdown(r, "zh_CN"), render_memo_markdown(r, "en")
        assert all(zh_word in v for v in _site_lines(zh).values()), (reach, _site_lines(zh))
        assert zh_word in f.title_in("zh_CN") and zh_word in f.detail_in("zh_CN"), f.title_in("zh_CN")
        assert en_word in f.title_in("en") and all(en_word in v for v in _site_lines(en).values())
        assert "办公室或机房" not in zh and "office or server room" not in en
    # reach not answered (assumed from an internal audience): the answers do not say, nor does the memo
    r = _plan({k: v for k, v in base.items() if k != "reach"})
    assert r.deployment_form == "on_premises" and any(a.field == "reach" for a in r.assumptions)
    f = next(x for x in r.findings if x.id == "cost.on_premises")
    assert "办公室或机房" in f.title_in("zh_CN")
    assert all("办公室或机房" in v for v in _site_lines(render_memo_markdown(r, "zh_CN")).values())


def test_the_site_word_follows_reach_and_an_owned_fleet():
    from advisor.plan.site_words import EITHER, OFFICE, SERVER_ROOM, owned_site

    assert owned_site("lan", fleet=True) == OFFICE
    assert owned_site("private_network", fleet=False) == SERVER_ROOM
    assert owned_site(None, fleet=True) == owned_site("internet", fleet=True) == SERVER_ROOM
    assert owned_site(None, fleet=False) == owned_site("internet", fleet=False) == EITHER
