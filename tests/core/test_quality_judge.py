"""The model-graded rubric (issue #30): a judge model the user names scores answers no rule can, its prompt is shown,
a reply without a verdict scores nothing, and without a judge rubric samples are counted as not scored.

The judge here is a real OpenAI-compatible HTTP server on loopback whose "model" passes an answer when it names the
refund deadline: what a real judge would be asked by the sample's rubric."""

from __future__ import annotations

import json

import pytest

from advisor.bench.ab import AbAnswer, AbConfig, run_ab, to_markdown
from advisor.bench.quality.judge import Judge, JudgeError, judge_answers, judge_prompt, parse_verdict
from advisor.bench.quality.report import compare_scores, quality_markdown
from advisor.bench.quality.samples import SampleError, load_samples, sample_from_row
from advisor.cli import main as cli_main
from tests.support.judge_server import RUBRIC, JudgeHandler, judge_server
from tests.support.sims import ab_specs, running_sims


@pytest.fixture
def judge_url():
    with judge_server() as url:
        yield url


def _answer(text: str) -> AbAnswer:
    return AbAnswer(ok=True, text=text)


def test_the_last_score_line_is_the_verdict():
    assert parse_verdict("reasoning … SCORE: 0 would be harsh.\nSCORE: 1") == 1.0
    assert parse_verdict("理由……\n分数：0") == 0.0
    assert parse_verdict("score=1") == 1.0
    assert parse_verdict("The answer is fine.") is None
    assert parse_verdict("SCORE: 10") is None  # not a 0/1 verdict


def test_a_rubric_sample_needs_its_rubric(tmp_path):
    with pytest.raises(SampleError, match="rubric"):
        p = tmp_path / "s.jsonl"
        p.write_text(json.dumps({"prompt": "x", "scorer": "rubric"}), encoding="utf-8")
        load_samples(p)
    sample = sample_from_row(RUBRIC, "1")
    assert sample.scorer == "rubric" and sample.expected() == RUBRIC["rubric"]


def test_the_judge_scores_each_side_and_its_prompt_is_shown(judge_url):
    samples = [sample_from_row(RUBRIC, "r1"), sample_from_row({"prompt": "2+2?", "reference": "4"}, "n1")]
    answers = {"A": [_answer("You have 30 days to return it. Thank you!"), _answer("4")],
               "B": [_answer("Please contact support."), _answer("4")]}
    judge = Judge(judge_url, "judge-7b", api_key="sk-judge-secret")
    verdicts = judge_answers(judge, samples, answers)
    assert {k: v.value for k, v in verdicts.items()} == {("A", 0): 1.0, ("B", 0): 0.0}  # rule-scored rows not sent
    sent = JudgeHandler.seen[0]
    assert sent["path"] == "/v1/chat/completions" and sent["auth"] == "Bearer sk-judge-secret"
    assert sent["body"]["temperature"] == 0 and sent["body"]["messages"][0]["content"] == judge_prompt(
        samples[0], answers["A"][0].text, "en")

    q = compare_scores(samples, answers["A"], answers["B"], judged=verdicts, judge=judge.described(),
                       judge_prompt="THE PROMPT {answer}")
    assert (q.compared, q.a_correct, q.b_correct, q.unjudged, q.undecided) == (2, 2.0, 1.0, 0, 0)
    assert q.items[0].disagree and q.items[0].scorer == "rubric"
    text = "\n".join(quality_markdown(q))
    assert "judge-7b" in text and "THE PROMPT {answer}" in text
    assert "sk-judge-secret" not in q.model_dump_json()


def test_no_verdict_is_no_score_and_no_judge_is_not_scored(judge_url):
    samples = [sample_from_row(RUBRIC, "r1")]
    answers = {"A": [_answer("??? maybe")], "B": [_answer("You have 30 days.")]}
    verdicts = judge_answers(Judge(judge_url, "judge-7b"), samples, answers)
    q = compare_scores(samples, answers["A"], answers["B"], judged=verdicts)
    assert q.undecided == 1 and q.compared == 0 and q.items[0].a_score is None and q.items[0].b_score == 1.0

    q = compare_scores(samples, answers["A"], answers["B"])  # no judge named
    assert (q.unjudged, q.compared, q.items) == (1, 0, [])
    assert any("--judge-url" in line for line in q.verdict_lines)


def test_an_unreachable_judge_is_a_clear_error():
    with pytest.raises(JudgeError, match="did not answer"):
        judge_answers(Judge("http://127.0.0.1:9/v1", "j"), [sample_from_row(RUBRIC, "r")], {"A": [_answer("x")]})


def test_a_judge_needs_its_url_and_its_model():
    with pytest.raises(ValueError, match="judge"):
        AbConfig.model_validate({"a": {"url": "http://a/v1", "model": "m"}, "b": {"url": "http://b/v1", "model": "m"},
                                 "judge_url": "http://j/v1"})


@pytest.fixture(scope="module")
def sims():
    with running_sims(*ab_specs()) as urls:
        yield urls


def test_an_ab_with_a_judge_scores_its_rubric_samples(sims, judge_url, tmp_path, capsys, monkeypatch):
    """End to end: two simulated servers answer, the loopback judge scores, the report shows who judged and how."""
    p = tmp_path / "support.jsonl"
    p.write_text("\n".join(json.dumps(r) for r in [RUBRIC, {"prompt": "What is 17 × 23? Answer with the number only.",
                                                             "reference": "391"}]), encoding="utf-8")
    config = AbConfig.model_validate({"a": {"url": sims[0], "model": "qwen2.5-7b-instruct", "label": "bf16"},
                                      "b": {"url": sims[1], "model": "qwen2.5-7b-instruct", "label": "awq-int4"},
                                      "prompts_file": str(p), "requests": 2, "concurrency": [1], "max_tokens": 32,
                                      "judge_url": judge_url, "judge_model": "judge-7b"})
    result = run_ab(config, store=False)
    q = result.quality
    assert q.judge == f"judge-7b @ {judge_url}" and q.unjudged == 0
    assert len(JudgeHandler.seen) == 2  # one rubric sample, both sides
    assert "SCORE: 1" in to_markdown(result)  # the judge's prompt, as sent

    monkeypatch.setenv("JUDGE_KEY", "sk-cli-judge")
    code = cli_main(["ab", "--a-url", sims[0], "--a-model", "qwen2.5-7b-instruct", "--b-url", sims[1],
                     "--b-model", "qwen2.5-7b-instruct", "--prompts", str(p), "--requests", "2", "--concurrency", "1",
                     "--max-tokens", "32", "--no-store", "--judge-url", judge_url, "--judge-model", "judge-7b",
                     "--judge-key-env", "JUDGE_KEY", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "judge-7b" in err and json.loads(out)["quality"]["judge"].startswith("judge-7b")
    assert JudgeHandler.seen[-1]["auth"] == "Bearer sk-cli-judge" and "sk-cli-judge" not in out + err
