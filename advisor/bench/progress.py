"""How far a run is and how long it has left, as the runner will actually run it.

A ramp's steps end early once their figures are stable and the ramp stops two steps past a confirmed knee, so the
old estimate (elapsed ÷ the share of levels begun) said "about 2,563 s left" for a ramp that finished in ~210 s. Here
each remaining step is expected to take about as long as the steps already finished (in a ramp both the requests a
step sends and the throughput that serves them grow with its concurrency), the current step its remainder, and a
confirmed knee caps the steps left.
"""

from __future__ import annotations

from collections.abc import Sequence

STEPS_PAST_KNEE = 2  # the runner's default ramp stops two steps past a confirmed knee ("past_knee")


def steps_left(levels: Sequence[int], current_index: int, *, knee_index: int | None = None,
               continue_past_knee: bool = False) -> int:
    """Steps after the current one that the runner will still run."""
    last = len(levels) - 1
    if knee_index is not None and not continue_past_knee:
        last = min(last, knee_index + STEPS_PAST_KNEE)
    return max(0, last - current_index)


def seconds_left(levels: Sequence[int], current_index: int, elapsed_in_step_s: float,
                 finished_step_durations: Sequence[float], *, knee_index: int | None = None,
                 continue_past_knee: bool = False) -> float | None:
    """Expected seconds until the run ends; None before any step has finished (nothing to go by yet)."""
    done = [d for d in finished_step_durations if d and d > 0]
    if not done:
        return None
    per_step = sum(done[-3:]) / len(done[-3:])  # the recent steps: the load grows step by step
    current = max(0.0, per_step - elapsed_in_step_s)
    return current + per_step * steps_left(levels, current_index, knee_index=knee_index,
                                            continue_past_knee=continue_past_knee)
