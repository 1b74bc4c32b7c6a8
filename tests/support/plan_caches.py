"""The planner's process-wide caches (predictor levels, screened setups) kept for the whole test session.

A plan simulates its predictor levels once and keeps them in ``advisor.plan.sizing``'s caches; the app keeps 512
levels, which one test session overran many times over (3,650 different levels in the plan and memo files alone), so
later tests simulated levels again that earlier ones had simulated: 19 s of CPU in those files, on a 2-core machine.
The simulator is deterministic, and ``tests/core/test_plan_cache.py`` checks that a plan made from the cache equals a
cold one byte for byte, so a bigger cache changes no result, only the time.

Tests that need the cold path (an empty cache) use ``caches_set_aside``: the session's caches are put back
afterwards, so one such test does not make every later one simulate again."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

# Levels kept in a test session (the app's LEVEL_CACHE_SIZE is 512): more than one session makes (~4,000), a few KB
# each. Screened setups are already kept by the thousand (SCREEN_CACHE_SIZE).
SESSION_LEVEL_CACHE_SIZE = 16_384


def keep_levels_for_the_session() -> None:
    from advisor.plan import sizing

    sizing.LEVEL_CACHE_SIZE = max(sizing.LEVEL_CACHE_SIZE, SESSION_LEVEL_CACHE_SIZE)


@contextmanager
def caches_set_aside() -> Iterator[None]:
    """Inside: the planner's caches empty, as a fresh process has them (the cold path). After: the session's caches
    as they were, with what was simulated inside added (a level is a pure function of its key)."""
    from advisor.plan import sizing

    with sizing._LEVEL_LOCK, sizing._SCREEN_LOCK:
        saved = (sizing._LEVEL_CACHE.copy(), sizing._SCREEN_CACHE.copy(), sizing._TOKENS.copy())
        setups = (sizing._STEP_COSTS.copy(), sizing._MEMORY.copy())  # a setup's step costs and memory (kept by setup)
    sizing.clear_level_cache()
    try:
        yield
    finally:
        levels, screened, tokens = saved
        with sizing._LEVEL_LOCK, sizing._SCREEN_LOCK:
            sizing._LEVEL_CACHE.update(levels)
            sizing._SCREEN_CACHE.update(screened)
            # a setup screened both before and inside has two tokens: the session's keys use the old one
            sizing._TOKENS.update(tokens)
            sizing._STEP_COSTS.update(setups[0])
            sizing._MEMORY.update(setups[1])
