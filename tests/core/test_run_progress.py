"""The time left follows what the runner will actually run (issue #26: "about 2,563 s left" for a ~210 s ramp)."""

import pytest

from advisor.bench.progress import seconds_left, steps_left

LEVELS = [1, 2, 4, 8, 16, 32, 64]


def test_nothing_to_go_by_before_a_step_finishes():
    assert seconds_left(LEVELS, 0, 5.0, []) is None


def test_each_remaining_step_takes_about_as_long_as_the_recent_ones():
    # steps of ~30 s (both a ramp step's requests and the throughput serving them grow with concurrency):
    # step 3 of 7 is 10 s in, so 20 s for it and 4 more steps of 30 s
    assert seconds_left(LEVELS, 2, 10.0, [28.0, 32.0]) == pytest.approx(20.0 + 4 * 30.0)


def test_a_confirmed_knee_caps_the_steps_left():
    # the default ramp stops two steps past a confirmed knee at 4 (index 2): steps 8 and 16 are the last
    assert steps_left(LEVELS, 2, knee_index=2) == 2
    assert steps_left(LEVELS, 2, knee_index=2, continue_past_knee=True) == 4
    assert seconds_left(LEVELS, 3, 0.0, [30.0, 30.0, 30.0], knee_index=2) == pytest.approx(30.0 + 30.0)
