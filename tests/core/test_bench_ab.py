"""Quantization A/B end to end over real loopback HTTP: two simulated servers of the same model, BF16 (A) and
AWQ-INT4 (B), the same prompts, the existing runner for the load, the two runs stored in the history."""

import json

import pytest

from advisor.bench.ab import AbConfig, AbError, check_side, run_ab, similarity, to_markdown, words
from advisor.bench.history import RunHistory
from advisor.cli import main as cli_main
from advisor.sim.launcher import SimLaunchSpec
from tests.support.sims import running_sims

MODEL = "qwen2.5-7b-instruct"
GPU = "l4"


@pytest.fixture(scope="module")
def sims():
    """A: BF16, B: AWQ-INT4 with the same text seed, C: AWQ-INT4 with another seed (different 'answers')."""
    specs = [SimLaunchSpec(model=MODEL, gpu=GPU, weights="bf16", time_scale=0.1),
             SimLaunchSpec(model=MODEL, gpu=GPU, weights="awq-int4", time_scale=0.1),
             SimLaunchSpec(model=MODEL, gpu=GPU, weights="awq-int4", time_scale=0.1, seed=7)]
    with running_sims(*specs) as urls:
        yield urls


def _config(a, b, **extra):
    return AbConfig.model_validate({"a": {"url": a, "model": MODEL, "label": "bf16"},
                                    "b": {"url": b, "model": MODEL, "label": "awq-int4"},
                                    "answers": 4, "requests": 8, "concurrency": [1, 4], "max_tokens": 32, **extra})


def test_ab_against_two_simulated_servers(sims, tmp_path):
    a, b, _c = sims
    db = tmp_path / "bench.sqlite3"
    events = []
    result = run_ab(_config(a, b), store_path=str(db), on_event=events.append)
    assert result.status == "completed"
    assert result.simulated and result.a.simulated and result.b.simulated
    # speed: INT4 weights halve (or better) the bytes read per decode step on a bandwidth-bound GPU
    assert [lv.concurrency for lv in result.levels] == [1, 4]
    for lv in result.levels:
        assert lv.throughput_ratio is not None and lv.throughput_ratio > 1.3, lv
        assert lv.tpot_ratio is not None and lv.tpot_ratio < 0.8, lv
    # the same text seed and the same prompts: the simulator's placeholder answers are identical
    assert len(result.pairs) == 4
    assert all(p.a.ok and p.b.ok and p.a.text for p in result.pairs)
    assert result.agreement.exact_match_rate == 1.0 and result.agreement.similarity_median == 1.0
    assert result.agreement.length_ratio_median == 1.0
    # the verdict states the speed gain and the differences, and says the answers are simulated
    text = result.verdict
    assert "B produces" in text and "× the output throughput" in text
    assert "4 of 4 identical" in text
    assert "Simulated" in text and "say nothing about the quantized model's quality" in text
    # both load runs are in the history, labelled, with the prompts' lengths
    with RunHistory(db) as h:
        runs = {r.run_id: r for r in h.list()}
    assert set(runs) == {result.a.run_id, result.b.run_id}
    assert runs[result.a.run_id].label == "A/B · A · bf16" and runs[result.b.run_id].label == "A/B · B · awq-int4"
    assert all(r.status in ("completed", "degraded") and r.requests_failed == 0 for r in runs.values())
    kinds = [e.kind for e in events]
    assert kinds.count("answer") == 8 and kinds.count("step") == 4 and kinds[-1] == "finished"
    md = to_markdown(result)
    assert "simulated · 模拟" in md and "| 4 |" in md and md.count("**A**") == 4


def test_different_answers_are_measured_not_hidden(sims):
    a, _b, c = sims
    result = run_ab(_config(a, c, concurrency=[1], requests=4, answers=3), store=False)
    ag = result.agreement
    assert ag.compared == 3 and ag.exact_match_rate == 0.0
    assert ag.similarity_median is not None and ag.similarity_median < 0.9
    assert "0 of 3 identical" in result.verdict
    assert all(p.similarity is not None and p.similarity < 1.0 for p in result.pairs)


def test_a_wrong_model_id_or_a_dead_server_stops_before_any_load(sims):
    a, _b, _c = sims
    with pytest.raises(AbError, match=f"does not serve 'qwen-typo'; it serves: {MODEL}"):
        run_ab(AbConfig.model_validate({"a": {"url": a, "model": MODEL}, "b": {"url": a, "model": "qwen-typo"}}),
               store=False)
    with pytest.raises(AbError, match="cannot reach http://127.0.0.1:9"):
        check_side(AbConfig.model_validate({"a": {"url": "http://127.0.0.1:9", "model": "m"},
                                            "b": {"url": a, "model": MODEL}}).a, "A")


def test_cli_ab_json_and_bad_input(sims, tmp_path, capsys):
    a, b, _c = sims
    out = tmp_path / "ab.md"
    code = cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--answers", "2",
                     "--requests", "4", "--concurrency", "2", "--max-tokens", "16", "--no-store", "--json", "--quiet",
                     "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads(captured.out)
    assert data["status"] == "completed" and data["levels"][0]["concurrency"] == 2
    assert data["agreement"]["similarity_method"].startswith("difflib.SequenceMatcher")
    assert out.read_text(encoding="utf-8").startswith("# Quantization A/B")
    assert cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-model", MODEL]) == 2
    assert "same server and model" in capsys.readouterr().err
    assert cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-model", "x", "--concurrency", "0"]) == 2
    assert "--concurrency" in capsys.readouterr().err
    assert cli_main(["ab", "--a-url", "ftp://x", "--a-model", MODEL, "--b-model", "x"]) == 2
    assert "http://" in capsys.readouterr().err


def test_similarity_is_over_word_tokens():
    assert words("Hello, world 42") == ["hello", ",", "world", "42"]
    assert words("量化模型") == ["量", "化", "模", "型"]
    assert similarity("the cat sat", "the cat sat") == 1.0
    assert similarity("", "") == 1.0
    assert similarity("alpha beta", "gamma delta") == 0.0
    assert 0.0 < similarity("the cat sat on the mat", "the dog sat on the mat") < 1.0
    assert similarity("Paris.", "paris .") == 1.0  # case and spacing are not differences


def test_stop_keeps_what_was_measured(sims, tmp_path):
    from advisor.cancel import CancelToken

    a, b, _c = sims
    cancel = CancelToken()

    def on_event(ev):
        if ev.kind == "step" and ev.data["side"] == "A":
            cancel.cancel()  # stop after A's first load step

    db = tmp_path / "bench.sqlite3"
    result = run_ab(_config(a, b), store_path=str(db), cancel=cancel, on_event=on_event)
    assert result.status == "stopped"
    assert result.a.status == "stopped" and result.b.status == "not_run"
    assert [s["concurrency"] for s in result.a.steps] == [1]
    assert all(p.a.ok for p in result.pairs)  # A's answers were all taken before the load started
    assert "Stopped before the end" in result.verdict
    with RunHistory(db) as h:
        (run,) = h.list()
    assert run.status == "stopped" and run.requests_ok >= 8


def test_one_server_with_two_model_ids(sims):
    """One server, two names (the simulator also serves the model under its Hugging Face id)."""
    import httpx

    a, _b, _c = sims
    ids = [m["id"] for m in httpx.get(a + "/v1/models", timeout=10).json()["data"]]
    other = next(i for i in ids if i != MODEL)
    cfg = AbConfig.model_validate({"a": {"url": a, "model": MODEL}, "b": {"url": a, "model": other},
                                   "answers": 2, "requests": 4, "concurrency": [1], "max_tokens": 16})
    result = run_ab(cfg, store=False)
    assert result.status == "completed"
    assert result.a.served_models == result.b.served_models == ids
    assert result.levels[0].throughput_ratio is not None


def test_stop_during_the_answers_takes_effect_at_once(sims):
    import threading
    import time

    from advisor.cancel import CancelToken

    a, b, _c = sims
    cancel = CancelToken()
    threading.Timer(0.3, cancel.cancel).start()
    t0 = time.monotonic()
    # long answers (2,000 tokens each at the simulated L4's BF16 speed): minutes if Stop waited for them
    result = run_ab(_config(a, b, max_tokens=2000), store=False, cancel=cancel)
    assert time.monotonic() - t0 < 2.0
    assert result.status == "stopped" and result.a.status == "not_run"


def test_cli_ab_links_both_load_runs_to_a_project(sims, tmp_path, capsys):
    from advisor.bench.history import project_key

    a, b, _c = sims
    db, project = tmp_path / "bench.sqlite3", tmp_path / "shop.advisor.json"
    code = cli_main(["ab", "--a-url", a, "--a-model", MODEL, "--b-url", b, "--b-model", MODEL, "--answers", "1",
                     "--requests", "2", "--concurrency", "1", "--max-tokens", "8", "--db", str(db), "--json", "--quiet",
                     "--project", str(project)])
    assert code == 0, capsys.readouterr().err
    with RunHistory(db) as h:
        runs = h.list()
    assert len(runs) == 2 and {r.project_id for r in runs} == {project_key(project)}


def test_each_side_is_probed_and_its_prompt_lengths_counted_by_the_server(sims, tmp_path):
    """The A/B's load runs go through run_benchmark as `advisor bench` does: probed (the A/B used to skip it),
    prompt lengths counted with the server's tokenizer, the typed result stored."""
    from advisor.bench.report import load_result

    a, b, _c = sims
    db = tmp_path / "bench.sqlite3"
    result = run_ab(_config(a, b, answers=2, requests=4, concurrency=[1]), store_path=str(db))
    assert result.status == "completed"
    for side in (result.a, result.b):
        stored = load_result(side.run_id, db)
        assert stored["result_schema"] == 2 and stored["status"] in ("completed", "degraded")
        assert stored["probe"]["ok"] is True and stored["dialect"] == "simulated"
        assert stored["workload"]["prompt_token_counts"] == "tokenizer"
        assert stored["workload"]["dataset_prompts"] == 2
        assert stored["provenance"]["simulated"] is True
