"""The scored quantization A/B end to end over real loopback HTTP: two simulated servers answer the built-in
samples, B a known share wrong (seed-fixed); the report must detect it, say so in words in both languages, in
``advisor ab --json``, and store it with the two load runs in the History."""

import json
import sqlite3

import pytest

from advisor.bench.ab import AbConfig, run_ab, to_markdown
from advisor.bench.history import RunHistory
from advisor.bench.quality.history import load_quality, quality_for_runs
from advisor.bench.store import BenchStore
from advisor.cli import main as cli_main
from advisor.i18n import set_language
from advisor.sim.answers import BuiltinAnswers, error_rate_for, one_token_pieces
from advisor.sim.launcher import SimLaunchSpec
from advisor.sim.text import count_tokens
from tests.support.sims import running_sims

MODEL = "qwen2.5-7b-instruct"
GPU = "l4"
B_WRONG = 0.3  # B answers round(0.3 × 30) = 9 of the 30 samples of each language wrong; A (bf16, 2 %) 1


@pytest.fixture(scope="module")
def sims():
    specs = [SimLaunchSpec(model=MODEL, gpu=GPU, weights="bf16", time_scale=0.05),
             SimLaunchSpec(model=MODEL, gpu=GPU, weights="awq-int4", time_scale=0.05, answer_error_rate=B_WRONG),
             SimLaunchSpec(model=MODEL, gpu=GPU, weights="fp8", time_scale=0.05)]
    with running_sims(*specs) as urls:
        yield urls


def _config(a, b, **extra):
    return AbConfig.model_validate({"a": {"url": a, "model": MODEL, "label": "bf16"},
                                    "b": {"url": b, "model": MODEL, "label": "awq-int4"}, "samples": "builtin",
                                    "requests": 4, "concurrency": [1], "max_tokens": 64, **extra})


def test_the_simulator_answers_a_stated_seeded_share_wrong():
    assert error_rate_for("bf16") == 0.02 and error_rate_for("awq-int4") == 0.08 and error_rate_for("fp8") == 0.03
    low, high = BuiltinAnswers(0.08, seed=0), BuiltinAnswers(0.3, seed=0)
    assert low.wrong_count("en") == 2 and high.wrong_count("en") == 9
    wrong = {p for p, a in high._answers.items() if a != BuiltinAnswers(0.0)._answers[p]}
    wrong_low = {p for p, a in low._answers.items() if a != BuiltinAnswers(0.0)._answers[p]}
    assert len(wrong) == 18 and wrong_low < wrong  # a higher rate keeps the lower rate's mistakes
    assert BuiltinAnswers(0.3, seed=1)._answers != high._answers  # the seed picks which
    assert low.answer("What is the capital of Australia? Answer with the city name only.") in ("Canberra.", "Sydney.")
    assert low.answer("anything else") is None
    for text in ("The trip takes 3 h 25 min, so the answer is 205.", "答案是 B。", '{"sku": "A-100", "in_stock": true}'):
        assert len(one_token_pieces(text)) == count_tokens(text) and "".join(one_token_pieces(text)) == text


def test_the_simulated_server_answers_a_built_in_prompt_and_stops(sims):
    import httpx

    a, _, _ = sims
    prompt = "What is 17 × 23? Answer with the number only."
    body = {"model": MODEL, "messages": [{"role": "user", "content": prompt}], "max_tokens": 50}
    data = httpx.post(a + "/v1/chat/completions", json=body, timeout=30).json()
    choice = data["choices"][0]
    assert choice["message"]["content"] in ("391", "381") and choice["finish_reason"] == "stop"
    assert data["usage"]["completion_tokens"] == 1
    data = httpx.post(a + "/v1/chat/completions", json={**body, "ignore_eos": True}, timeout=30).json()
    assert data["usage"]["completion_tokens"] == 50 and data["choices"][0]["finish_reason"] == "length"
    assert data["choices"][0]["message"]["content"].startswith(("391 ", "381 "))


def test_scored_ab_detects_the_known_drop(sims, tmp_path, capsys):
    a, b, _ = sims
    db = tmp_path / "bench.sqlite3"
    result = run_ab(_config(a, b), store_path=str(db))
    q = result.quality
    assert result.status == "completed" and q is not None and result.simulated
    # A: bf16, 1 of 30 wrong; B: 9 of 30 wrong, A's mistake among them (the same seeded order)
    assert (q.samples, q.compared, q.a_correct, q.b_correct) == (30, 30, 29, 21)
    assert (q.only_a, q.only_b) == (8, 0) and q.difference == pytest.approx(-8 / 30)
    assert q.mcnemar_p == pytest.approx(2 / 2**8)  # exact: every one of 8 discordant pairs favours A
    assert q.excludes_zero and q.ci_high < 0 < q.ci_high + 0.2 and q.ci_low < q.difference
    assert not q.too_small
    assert all(it.disagree for it in q.items[:8]) and not any(it.disagree for it in q.items[8:])  # disagreements first
    text = result.verdict
    assert "A right on 29 (96.7 %), B right on 21 (70.0 %)" in text
    assert "B answers worse than A: the interval excludes \"no difference\"" in text and "30 samples" in text
    assert "McNemar exact test p = 0.00781" in text
    assert "Simulated: the simulated server answers the built-in samples" in text
    md = to_markdown(result)
    assert "## Answer quality (scored)" in md and md.count("| wrong") == 8
    # stored beside the two load runs: History's detail and comparison carry it
    assert result.quality_id and load_quality(db, result.quality_id)["result"]["only_a"] == 8
    with RunHistory(db) as h:
        detail = h.detail(result.b.run_id)
        assert detail["quality"][0]["quality_id"] == result.quality_id
        assert detail["quality"][0]["a_run_id"] == result.a.run_id and detail["quality"][0]["b_accuracy"] == 0.7
        assert h.compare([result.a.run_id, result.b.run_id])["quality"][0]["samples"] == 30
    assert cli_main(["history", "--db", str(db), "--show", result.b.run_id]) == 0
    assert "Answer quality (scored): awq-int4 vs bf16 on 30 samples: 70.0 % vs 96.7 %" in capsys.readouterr().out
    assert cli_main(["history", "--db", str(db), "--compare", result.a.run_id, result.b.run_id]) == 0
    assert "a significant drop" in capsys.readouterr().out
    # and the decision memo says it, in both languages, once for the two runs of the same A/B
    from pathlib import Path

    from advisor.plan.evidence import evidence_from_runs
    from advisor.plan.memo import render_memo_markdown
    from advisor.plan.result import PlanResult

    plan = PlanResult.model_validate_json(
        (Path(__file__).resolve().parents[1] / "fixtures" / "memo" / "plan_result.json").read_text(encoding="utf-8"))
    evidence = evidence_from_runs(db, [result.a.run_id, result.b.run_id])
    en = render_memo_markdown(plan, "en", evidence=evidence)
    line = ("- awq-int4 vs bf16 on 30 samples: 70.0 % vs 96.7 %, difference −26.7 points, 95 % CI "
            f"−{-q.ci_low * 100:.1f} … −{-q.ci_high * 100:.1f}: a significant drop. (simulated server")
    assert en.count(line) == 1, en[en.find("Answer quality"):][:600]
    # in its own quantization subsection of the evidence, after the measured runs and before the findings
    heading = "### Quantization: answer quality"
    assert en.count(heading) == 1 and en.index("## 6. Measured evidence") < en.index(heading) < en.index(line)
    assert en.index(line) < en.index("## 7. Findings")
    zh = render_memo_markdown(plan, "zh_CN", evidence=evidence)
    assert "awq-int4 对比 bf16，30 条样本：70.0 % 对 96.7 %" in zh and "显著下降" in zh
    assert zh.count("### 量化：回答质量") == 1


def test_same_seed_same_report_and_a_small_difference_is_not_called_a_drop(sims):
    a, _, c = sims  # bf16 (1 wrong) vs fp8 (3 % of 30 = 1 wrong): no difference to show
    first = run_ab(_config(a, c, language="zh"), store=False)
    again = run_ab(_config(a, c, language="zh"), store=False)
    q = first.quality
    assert (q.a_correct, q.b_correct) == (29, 29) and q.difference == 0
    assert not q.excludes_zero and q.too_small and q.samples_needed > 30
    assert (q.ci_low, q.ci_high) == (again.quality.ci_low, again.quality.ci_high)
    assert "No significant difference" in first.verdict and "Too few samples to tell" in first.verdict


def test_cli_scored_json_and_chinese_words(sims, tmp_path, capsys):
    a, b, _ = sims
    set_language("zh_CN")
    try:
        code = cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--samples",
                         "builtin", "--language", "zh", "--requests", "4", "--concurrency", "1", "--no-store",
                         "--quiet"])
        out = capsys.readouterr().out
    finally:
        set_language("en")
    assert code == 0
    assert "B 的回答比 A 差：置信区间不包含“无差异”" in out and "30 条样本" in out
    assert "两边结果不同的样本" in out  # the disagreeing samples follow the verdict
    code = cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--samples",
                     "builtin", "--requests", "4", "--concurrency", "1", "--no-store", "--quiet", "--json",
                     "--drop", "5"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    q = data["quality"]
    assert q["a_accuracy"] == pytest.approx(29 / 30) and q["b_accuracy"] == pytest.approx(0.7)
    assert q["excludes_zero"] is True and q["drop"] == 0.05 and q["ci_low"] < q["ci_high"] < 0
    assert q["items"][0]["disagree"] is True and q["items"][0]["a_score"] == 1.0
    assert cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--drop", "0"]) == 2
    assert "--drop" in capsys.readouterr().err


def test_own_sample_file_with_references(sims, tmp_path):
    a, b, _ = sims
    p = tmp_path / "mine.jsonl"
    rows = [{"prompt": "What is 17 × 23? Answer with the number only.", "reference": "391"},
            {"prompt": "Something the simulator does not know", "reference": "42"},
            {"prompt": "a prompt without a reference"}]
    p.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    result = run_ab(_config(a, b, samples="prompts", prompts_file=str(p)), store=False)
    assert len(result.pairs) == 3 and result.quality.samples == 2
    assert result.quality.items[-1].a_score == 0.0  # placeholder text is not 42


def test_an_old_database_opens_and_gains_the_quality_table(sims, tmp_path):
    db = tmp_path / "old.sqlite3"
    BenchStore(db).connection.close()  # a database from before scored A/Bs: runs, requests, steps only
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE IF EXISTS ab_quality")
    with RunHistory(db) as h:
        assert h.list() == [] and h.quality(["x"]) == []
    a, b, _ = sims
    result = run_ab(_config(a, b), store_path=str(db))
    with sqlite3.connect(db) as conn:
        assert len(quality_for_runs(conn, [result.a.run_id])) == 1
