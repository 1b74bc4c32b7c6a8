"""Building Quantization A/B pages alone for a test: one builder for every A/B page test that does not need the
whole window (test_ab_quality, test_ab_judge_page, test_ab_task_dataset, test_polish14).

A plain module beside the tests, not a fixture in tests/ui/conftest.py (test_thread_guard copies that conftest
into a bare folder, so it imports nothing local) nor in tests/support (Qt-free: test_layering)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import ui.widgets.ab_quality as quality_widget
from advisor.i18n import set_language
from advisor.sim.launcher import SimLaunchSpec
from tests.support.sims import ab_specs, running_sims
from ui.pages.ab import AbPage
from ui.workers import TaskRunner


@contextmanager
def ab_pages(qtbot: Any, tmp_path: Any) -> Iterator[Callable[[], Any]]:
    """A factory of A/B pages on their own: one worker and one database (``tmp_path``) for all of them; each page
    collects its errors in ``page.errors`` instead of a dialog. On exit the pages stop (simulated servers, a run),
    the worker shuts down and the language is English again."""
    runner = TaskRunner()
    made: list[Any] = []

    def make() -> Any:
        page: Any = AbPage(runner, db_path=tmp_path / "bench.sqlite3")
        qtbot.addWidget(page)
        page.errors = []
        page.show_error = lambda title, text: page.errors.append(text)
        page.show()
        made.append(page)
        return page

    try:
        yield make
    finally:
        for page in made:
            page.stop()
        runner.shutdown()
        set_language("en")


def pretend_the_eval_extra_is_installed(monkeypatch: Any) -> None:
    """Pages built after this see the [eval] extra (EvalScope) installed: its presence is patched where the page's
    widget reads it, so the task fields' tests run with or without EvalScope."""
    monkeypatch.setattr(quality_widget, "available", lambda: True)


@contextmanager
def eval_ab_pages(qtbot: Any, tmp_path: Any, monkeypatch: Any) -> Iterator[Callable[[], Any]]:
    """``ab_pages`` whose pages see the [eval] extra installed (the EvalScope task fields shown)."""
    pretend_the_eval_extra_is_installed(monkeypatch)
    with ab_pages(qtbot, tmp_path) as make:
        yield make


def sim_specs(*, b_answer_error_rate: float | None = None) -> list[SimLaunchSpec]:
    """A (BF16) and B (AWQ int4) of one model on an L4, 20 times faster than real time (tests/support/sims.py);
    B may answer a stated share of the built-in scored samples wrong (None: its format's own share)."""
    a, b = ab_specs()
    return [a, replace(b, answer_error_rate=b_answer_error_rate)]


@contextmanager
def simulated_sides(page: Any, specs: list[SimLaunchSpec] | None = None, *,
                    labels: bool = False) -> Iterator[list[str]]:  # fmt: skip
    """Two simulated servers on loopback (``sim_specs()`` unless given), their URLs and model filled into the page's
    A and B (and their weight formats as labels when ``labels``); stopped on exit, whatever the test did."""
    specs = specs or sim_specs()
    with running_sims(*specs) as urls:
        for name, url, spec in zip("AB", urls, specs, strict=True):
            page.sides[name]["url"].setText(url)
            page.sides[name]["model"].setText(spec.model)
            if labels:
                page.sides[name]["label"].setText(spec.weights)
        yield urls


def run_to_result(page: Any, qtbot: Any, *, timeout_ms: int = 120_000) -> Any:
    """Start the A/B from the form (it must start) and wait for its result."""
    with qtbot.waitSignal(page.finished, timeout=timeout_ms) as blocker:
        assert page.start()
    return blocker.args[0]


def record_compare_task(monkeypatch: Any) -> dict[str, Any]:
    """Replace ``compare_task`` (where EvalScope would start) with one that scores ``limit`` samples equal on both
    sides; returns the dict its task name and keyword arguments land in, as the page's run handed them over."""
    import advisor.bench.quality.evalscope_task as task
    from advisor.bench.quality.report import QualityItem, summarise

    seen: dict[str, Any] = {}

    def fake_compare_task(a: Any, b: Any, name: str, **kwargs: Any) -> Any:
        seen.update(kwargs, task=name)
        group = kwargs.get("subset") or "default"
        items = [QualityItem(index=i, id=f"{name}/{group}/{i}", scorer="evalscope:Rouge-L-R", prompt=f"q{i}",
                             expected="4", a_score=1.0, b_score=1.0) for i in range(kwargs["limit"])]
        return summarise(items, seed=kwargs["seed"], drop=kwargs["drop"], source=f"evalscope:{name}")

    monkeypatch.setattr(task, "compare_task", fake_compare_task)
    return seen
