"""The verdict in words against the textbook tests: a difference is called shown only when the 95 % interval
excludes "no difference" and, for right/wrong scores, McNemar's exact test agrees. With few discordant pairs the
percentile bootstrap alone is too narrow (all of 4 differing samples one way: interval −16 … −2 points, exact
p = 2 · 2⁻⁴ = 0.125), so such a run must not be called a drop, in the verdict, the sample-size line or the memo."""

import pytest

from advisor.bench.quality.memo import quality_memo_lines
from advisor.bench.quality.report import QualityItem, conclusion, summarise
from advisor.i18n import set_language


def _items(n: int, only_a: int, only_b: int = 0) -> list[QualityItem]:
    """n samples: only_a right on A only, only_b right on B only, the rest right on both."""
    out = []
    for i in range(n):
        a = 0.0 if only_a <= i < only_a + only_b else 1.0
        b = 0.0 if i < only_a else 1.0
        out.append(QualityItem(index=i, id=str(i), scorer="numeric", prompt="p", expected="1", a_score=a, b_score=b,
                               disagree=a != b))
    return out


def _memo_row(q):
    return {"quality_id": "q", "samples": q.compared, "a_label": "bf16", "b_label": "awq-int4",
            "a_accuracy": q.a_accuracy, "b_accuracy": q.b_accuracy, "difference": q.difference, "ci_low": q.ci_low,
            "ci_high": q.ci_high, "simulated": False, "result": q.model_dump(mode="json")}


def test_four_differing_samples_are_too_few_even_when_the_bootstrap_excludes_zero():
    q = summarise(_items(50, only_a=4))
    assert q.mcnemar_p == pytest.approx(2 / 2**4)  # 0.125
    assert q.ci_high < 0 and q.excludes_zero  # the percentile interval alone would call it
    assert q.significant is False and q.too_small
    text = conclusion(q)
    assert text.startswith("No significant difference") and "only 4 of the 50 samples" in text
    assert "p = 0.125" in text and "B answers worse" not in " ".join(q.verdict_lines)
    assert "Too few samples to tell" in " ".join(q.verdict_lines)
    assert quality_memo_lines([_memo_row(q)], "en")[0].endswith(": no significant drop.")
    set_language("zh_CN")
    assert conclusion(q).startswith("没有显著差异") and "只有 4 条两边结果不同" in conclusion(q)


def test_six_differing_samples_all_one_way_are_a_drop():
    q = summarise(_items(30, only_a=6))
    assert q.mcnemar_p == pytest.approx(2 / 2**6) and q.excludes_zero and q.significant  # 0.03125 < 0.05
    assert conclusion(q).startswith("B answers worse than A") and not q.too_small
    assert quality_memo_lines([_memo_row(q)], "en")[0].endswith(": a significant drop.")


def test_ten_against_two_is_a_drop_and_a_stored_row_without_the_flag_keeps_its_interval():
    q = summarise(_items(100, only_a=10, only_b=2))
    assert q.mcnemar_p == pytest.approx(2 * 79 / 4096) and q.significant  # 0.0386, as worked out by hand
    row = _memo_row(q)
    del row["result"]["significant"]  # a scored A/B stored before this field: its interval decides, as before
    assert quality_memo_lines([row], "en")[0].endswith(": a significant drop.")


def test_scores_that_are_not_right_or_wrong_follow_the_interval():
    items = _items(40, only_a=0)
    for it in items[:20]:
        it.b_score = 0.5  # e.g. an EvalScope Rouge recall: no McNemar test
    q = summarise(items)
    assert q.mcnemar_p is None and q.excludes_zero and q.significant and conclusion(q).startswith("B answers worse")
