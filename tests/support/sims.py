"""Simulated servers for a test: ``advisor sim`` child processes on loopback, started together and always stopped
(tests/core's A/B and judge tests, tests/ui/ab_page_helpers.py). Qt-free."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from advisor.sim.launcher import SimLauncher, SimLaunchSpec

AB_MODEL = "qwen2.5-7b-instruct"


def ab_specs(*, time_scale: float = 0.05, gpu: str = "l4", model: str = AB_MODEL) -> list[SimLaunchSpec]:
    """The usual A/B pair: one model on one GPU as BF16 (A) and as AWQ int4 (B), sped up by ``time_scale``."""
    return [SimLaunchSpec(model=model, gpu=gpu, weights=w, time_scale=time_scale) for w in ("bf16", "awq-int4")]


@contextmanager
def running_sims(*specs: SimLaunchSpec) -> Iterator[list[str]]:
    """The servers of ``specs``, started in order; their base URLs; every one stopped on exit, whatever happened."""
    launchers = [SimLauncher(spec) for spec in specs]
    try:
        yield [launcher.start() for launcher in launchers]
    finally:
        for launcher in launchers:
            launcher.stop()
