"""Live output throughput: the rate of the runner's cumulative token count over a fixed window.

The runner's progress events carry every token-bearing event received so far, counted as it arrived
(``output_tokens``, with the event's clock ``t``). The rate over the last few seconds is the count's growth over
that span. Counting tokens when a request *finishes* (as the plot once did) reads a server streaming 8 × 25
tokens/s with 2,000-token answers as 6 tokens/s: a finished answer's tokens are mostly older than the window.
"""

from __future__ import annotations

from collections import deque

WINDOW_S = 5.0


class LiveRate:
    """Tokens per second over the last ``window_s`` of (time, cumulative count) samples; bounded memory."""

    def __init__(self, window_s: float = WINDOW_S, max_samples: int = 4096) -> None:
        self.window_s = window_s
        self._samples: deque[tuple[float, int]] = deque(maxlen=max_samples)

    def add(self, t: float, count: int) -> None:
        if self._samples and t <= self._samples[-1][0]:
            return  # one sample per instant, in clock order
        self._samples.append((t, count))
        while len(self._samples) > 2 and self._samples[1][0] <= t - self.window_s:
            self._samples.popleft()  # keep one sample at or before the window's start

    def rate(self) -> float | None:
        """Tokens/s from the last sample at or before the window's start to the newest (None before two)."""
        if len(self._samples) < 2:
            return None
        (t0, c0), (t1, c1) = self._samples[0], self._samples[-1]
        return (c1 - c0) / (t1 - t0) if t1 > t0 else None
