"""Scores of both sides of an A/B on the same samples → accuracy per side, the paired difference with its
95 % interval, McNemar's exact test, the sample-size hint and a verdict in words.

One entry point, :func:`compare_scores`, used by ``advisor ab`` (and ``--json``), the Quantization A/B page and
the stored History entry. Pairs where either side failed to answer (an HTTP error, a timeout) are left out of
the paired figures and counted, never scored as wrong.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field

from advisor.bench.quality.samples import ScoredSample
from advisor.bench.quality.scorers import JUDGED, Score, score
from advisor.bench.quality.stats import (
    DEFAULT_DISCORDANCE,
    DEFAULT_RESAMPLES,
    bootstrap_diff_ci,
    detectable_drop,
    mcnemar_exact_p,
    paired_counts,
    samples_needed,
)
from advisor.i18n import tr

MIN_PAIRS_FOR_MEASURED_DISCORDANCE = 20
SIGNIFICANCE = 0.05  # the level of the 95 % interval, and of McNemar's test beside it
# The simulated server's stated error rates (advisor.sim.answers.ERROR_RATES), repeated in words in the verdict.
CI_METHOD = "paired bootstrap (percentile), {resamples} resamples, seed {seed}"


class QualityItem(BaseModel):
    index: int  # position in the A/B's pairs
    id: str
    scorer: str
    prompt: str
    expected: str
    a_score: float | None = None  # None: that side did not answer
    b_score: float | None = None
    a_read: str | None = Field(None, description="what the scorer read from A's answer (letter, number, ...)")
    b_read: str | None = None
    disagree: bool = False


class QualityResult(BaseModel):
    samples: int = Field(description="scored samples")
    compared: int = Field(description="scored samples both sides answered")
    a_unanswered: int = 0
    b_unanswered: int = 0
    a_correct: float = 0.0
    b_correct: float = 0.0
    a_accuracy: float | None = None
    b_accuracy: float | None = None
    difference: float | None = Field(None, description="B − A accuracy (−0.03 = B three points worse)")
    ci_low: float | None = None
    ci_high: float | None = None
    ci_level: float = 0.95
    ci_method: str = ""
    binary: bool = True
    both_right: int = 0
    only_a: int = Field(0, description="right on A only")
    only_b: int = Field(0, description="right on B only")
    both_wrong: int = 0
    mcnemar_p: float | None = None
    excludes_zero: bool | None = Field(None, description="the interval excludes 'no difference'")
    significant: bool | None = Field(None, description="the difference is shown: the interval excludes 'no "
                                     "difference' and, for right/wrong scores, McNemar's exact test agrees (p < 0.05)")
    drop: float = Field(0.03, description="the drop the sample-size hint is for")
    samples_needed: int | None = None
    discordance: float = DEFAULT_DISCORDANCE
    discordance_measured: bool = False
    detectable_drop: float | None = None
    too_small: bool = False
    simulated: bool = False
    source: str = Field("samples", description="samples (our scorers) or evalscope:<task> (EvalScope's scores)")
    metric: str | None = Field(None, description="EvalScope's per-sample metric (e.g. AverageAccuracy, Rouge-L-R)")
    judge: str | None = Field(None, description="the judge model that scored rubric samples (model @ URL)")
    judge_prompt: str | None = Field(None, description="the judge's prompt, with placeholders, as sent")
    unjudged: int = Field(0, description="rubric samples left unscored: no judge named, or the judge failed")
    undecided: int = Field(0, description="rubric answers whose judge reply held no verdict (not scored)")
    judge_error: str | None = None
    verdict_lines: list[str] = Field(default_factory=list)
    items: list[QualityItem] = Field(default_factory=list, description="disagreements first")


def _pts(value: float | None, sign: bool = True) -> str:
    if value is None:
        return "–"
    return f"{value * 100:+.1f}" if sign else f"{value * 100:.1f}"


def compare_scores(samples: list[ScoredSample], answers_a: list[Any], answers_b: list[Any], *, seed: int = 0,
                   drop: float = 0.03, resamples: int = DEFAULT_RESAMPLES, simulated: bool = False,
                   indexes: list[int] | None = None, judged: dict[tuple[str, int], Score] | None = None,
                   judge: str | None = None, judge_prompt: str | None = None,
                   judge_error: str | None = None) -> QualityResult:
    """Score both sides' answers (objects with ``ok`` and ``text``, or None when not run) on the scored samples.
    Rubric samples take the judge's verdicts ``judged`` ({("A" | "B", position): Score}, NaN: no verdict); without
    a judge they are counted in ``unjudged`` and left out, never scored as a pass or a fail."""
    items: list[QualityItem] = []
    unjudged = undecided = 0
    for pos, sample in enumerate(samples):
        if not sample.scored:
            continue
        if sample.scorer in JUDGED and judged is None:
            unjudged += 1
            continue
        item = QualityItem(index=indexes[pos] if indexes else pos, id=sample.id, scorer=sample.scorer or "",
                           prompt=sample.prompt, expected=sample.expected())
        for side, ans in (("a", answers_a[pos] if pos < len(answers_a) else None),
                          ("b", answers_b[pos] if pos < len(answers_b) else None)):
            if ans is None or not ans.ok:
                continue
            s = judged.get((side.upper(), pos)) if judged is not None and sample.scorer in JUDGED else None
            if sample.scorer in JUDGED and (s is None or math.isnan(s.value)):
                undecided += 1
                continue
            s = s or score(ans.text, sample)
            setattr(item, f"{side}_score", s.value)
            setattr(item, f"{side}_read", s.extracted)
        item.disagree = item.a_score is not None and item.b_score is not None and item.a_score != item.b_score
        items.append(item)
    q = summarise(items, seed=seed, drop=drop, resamples=resamples, simulated=simulated)
    q.judge, q.judge_prompt, q.judge_error = judge, judge_prompt, judge_error
    q.unjudged, q.undecided = unjudged, undecided
    q.samples += unjudged
    q.verdict_lines = verdict_lines(q)
    return q


def summarise(items: list[QualityItem], *, seed: int = 0, drop: float = 0.03, resamples: int = DEFAULT_RESAMPLES,
              simulated: bool = False, source: str = "samples", metric: str | None = None) -> QualityResult:
    """The paired figures over scored items (from our scorers, or per-sample scores of an EvalScope task)."""
    both = [it for it in items if it.a_score is not None and it.b_score is not None]
    a = [float(it.a_score) for it in both if it.a_score is not None]
    b = [float(it.b_score) for it in both if it.b_score is not None]
    q = QualityResult(samples=len(items), compared=len(both), drop=drop, simulated=simulated, source=source,
                      metric=metric,
                      a_unanswered=sum(1 for it in items if it.a_score is None),
                      b_unanswered=sum(1 for it in items if it.b_score is None),
                      ci_method=CI_METHOD.format(resamples=f"{resamples:,}", seed=seed))
    q.items = sorted(items, key=lambda it: (not it.disagree, it.index))
    if both:
        n = len(both)
        q.a_correct, q.b_correct = sum(a), sum(b)
        q.a_accuracy, q.b_accuracy = q.a_correct / n, q.b_correct / n
        q.difference = q.b_accuracy - q.a_accuracy
        q.ci_low, q.ci_high = bootstrap_diff_ci(a, b, resamples=resamples, seed=seed)
        q.excludes_zero = q.ci_low > 0 or q.ci_high < 0
        q.binary = all(x in (0.0, 1.0) for x in a + b)
        counts = paired_counts(a, b)
        q.both_right, q.only_a, q.only_b, q.both_wrong = (counts.both_right, counts.only_a, counts.only_b,
                                                         counts.both_wrong)
        if q.binary:
            q.mcnemar_p = mcnemar_exact_p(counts.only_a, counts.only_b)
        # With few discordant pairs the percentile bootstrap is too narrow (4 of 50 samples all one way: its
        # interval excludes 0 while the exact test gives p = 0.125): a difference is called shown only when the
        # exact test agrees.
        q.significant = q.excludes_zero and (q.mcnemar_p is None or q.mcnemar_p < SIGNIFICANCE)
        if n >= MIN_PAIRS_FOR_MEASURED_DISCORDANCE and counts.discordant:
            q.discordance, q.discordance_measured = counts.discordant / n, True
    q.samples_needed = samples_needed(drop, discordance=q.discordance)
    q.detectable_drop = detectable_drop(q.compared, discordance=q.discordance) if q.compared else None
    # too small to tell: no difference shown, and fewer samples than a drop of ``drop`` needs (a difference the
    # interval already shows needs no warning)
    q.too_small = not q.significant and q.compared < q.samples_needed
    q.verdict_lines = verdict_lines(q)
    return q


def verdict_lines(q: QualityResult) -> list[str]:
    """The quality verdict in the current language: accuracies, the interval, what it means, how sure."""
    lines: list[str] = []
    if not q.compared:
        lines.append(tr("quality.verdict.none", samples=q.samples))
        return lines + judge_lines(q)
    n = q.compared
    if q.source.startswith("evalscope:"):
        lines.append(tr("quality.task.source", task=q.source.split(":", 1)[1], metric=q.metric or "?"))
    lines.append(tr("quality.verdict.accuracy", n=n, a_right=f"{q.a_correct:g}", b_right=f"{q.b_correct:g}",
                    a_pct=_pts(q.a_accuracy, False), b_pct=_pts(q.b_accuracy, False)))
    lines.append(tr("quality.verdict.difference", diff=_pts(q.difference), low=_pts(q.ci_low), high=_pts(q.ci_high),
                    n=n, method=q.ci_method))
    if q.mcnemar_p is not None:
        lines.append(tr("quality.verdict.mcnemar", only_a=q.only_a, only_b=q.only_b, p=f"{q.mcnemar_p:.3g}"))
    lines.append(conclusion(q))
    lines.append(sample_size_line(q))
    if q.a_unanswered or q.b_unanswered:
        lines.append(tr("quality.verdict.unanswered", a=q.a_unanswered, b=q.b_unanswered))
    if q.simulated:
        lines.append(tr("quality.verdict.simulated"))
    return lines + judge_lines(q)


def judge_lines(q: QualityResult) -> list[str]:
    """Who judged the rubric samples, and which were left unscored and why."""
    lines = []
    if q.judge:
        lines.append(tr("quality.judge.by", judge=q.judge))
    if q.judge_error:
        lines.append(tr("quality.judge.failed", error=q.judge_error))
    if q.unjudged:
        lines.append(tr("quality.judge.unjudged", n=q.unjudged))
    if q.undecided:
        lines.append(tr("quality.judge.undecided", n=q.undecided))
    return lines


def conclusion(q: QualityResult) -> str:
    """The one sentence that answers "does B answer worse?": worse, better, or no difference shown."""
    if not q.compared:
        return tr("quality.verdict.none", samples=q.samples)
    n = q.compared
    if q.significant and (q.difference or 0) < 0:
        return tr("quality.verdict.worse", n=n, diff=_pts(-(q.difference or 0), False))
    if q.significant:
        return tr("quality.verdict.better", n=n, diff=_pts(q.difference, False))
    if q.excludes_zero:  # the interval alone would call it, the exact test does not: too few samples differ
        return tr("quality.verdict.few_discordant", n=n, differ=q.only_a + q.only_b, p=f"{q.mcnemar_p:.3g}",
                  worst=_pts(max(0.0, -(q.ci_low or 0.0)), False))
    return tr("quality.verdict.no_difference", n=n, worst=_pts(max(0.0, -(q.ci_low or 0.0)), False))


def sample_size_line(q: QualityResult) -> str:
    """The sample-size hint (a warning when this run is too small to tell a drop of ``q.drop``)."""
    source = tr("quality.discordance.measured" if q.discordance_measured else "quality.discordance.assumed")
    key = "quality.size.too_small" if q.too_small else "quality.size.enough"
    return tr(key, n=q.compared, drop=_pts(q.drop, False), needed=q.samples_needed,
              detectable=_pts(q.detectable_drop, False), psi=_pts(q.discordance, False), source=source)


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")[:80]


def quality_markdown(q: QualityResult) -> list[str]:
    """The scored section of the A/B's Markdown: the verdict, then the samples where the sides disagree."""
    lines = [f"## {tr('quality.md.title')}", ""] + [f"- {line}" for line in q.verdict_lines] + [""]
    disagree = [it for it in q.items if it.disagree]
    if disagree:
        lines += [f"### {tr('quality.md.disagree')}", "",
                  "| " + " | ".join([tr("quality.col.sample"), tr("quality.col.scorer"), tr("quality.col.expected"),
                                      tr("quality.col.a"), tr("quality.col.b")]) + " |", "|---|---|---|---|---|"]
        for it in disagree:
            lines.append(f"| {_cell(it.prompt)} | {it.scorer} | {_cell(it.expected)} | {_mark(it.a_score, it.a_read)} "
                         f"| {_mark(it.b_score, it.b_read)} |")
        lines.append("")
    if q.judge_prompt:
        lines += [f"### {tr('quality.md.judge_prompt')}", "", "```", q.judge_prompt, "```", ""]
    return lines


def _mark(value: float | None, read: str | None) -> str:
    if value is None:
        return tr("quality.not_answered")
    word = tr("quality.right" if value >= 0.5 else "quality.wrong")
    return _cell(f"{word} ({read})") if read else word


def planning_hint(drop: float, discordance: float = DEFAULT_DISCORDANCE) -> str:
    """Before a run: how many samples a drop of ``drop`` needs (the page's hint beside the drop field)."""
    return tr("quality.size.plan", drop=_pts(drop, False), needed=samples_needed(drop, discordance=discordance),
              psi=_pts(discordance, False))
