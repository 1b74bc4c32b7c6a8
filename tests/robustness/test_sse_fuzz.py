"""Property-based fuzzing of the SSE parser and the record builder: whatever bytes arrive, in whatever pieces,
nothing raises, the bounds hold, and nothing malformed is counted as a success."""

from __future__ import annotations

import json
import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.bench.client import _Exchange, build_record
from advisor.bench.protocol import MAX_LINE_BYTES, SseParser

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
keys = st.sampled_from(["choices", "delta", "content", "usage", "completion_tokens", "prompt_tokens", "finish_reason",
                        "text", "reasoning_content", "reasoning", "tool_calls", "error", "object", "message", "timings"])


@st.composite
def chunk_objects(draw):
    """Chunks shaped like OpenAI's, with any value in any place."""
    delta = draw(st.dictionaries(keys, json_values, max_size=3) | json_values)
    choice = draw(st.dictionaries(keys, json_values, max_size=3) | json_values)
    if isinstance(choice, dict) and draw(st.booleans()):
        choice["delta"] = delta
    obj = draw(st.dictionaries(keys, json_values, max_size=3))
    if draw(st.booleans()):
        obj["choices"] = draw(st.lists(st.just(choice) | json_values, max_size=2))
    if draw(st.booleans()):
        obj["usage"] = draw(st.dictionaries(keys, json_values, max_size=2) | json_values)
    return obj


@st.composite
def bodies(draw):
    events = draw(st.lists(chunk_objects(), max_size=6))
    parts = [b"data: " + json.dumps(e).encode() + b"\n\n" for e in events]
    parts += draw(st.lists(st.binary(max_size=40) | st.sampled_from(
        [b"data: [DONE]\n\n", b": ping\n\n", b"data: {\n\n", b"event: error\n", b"error: {}\n\n", b"\r\n", b"data:",
         b"<html>\n", b'data: {"x": NaN}\n\n']), max_size=4))
    draw(st.randoms()).shuffle(parts)
    return b"".join(parts)


def _feed(body: bytes, cuts: list[int]):
    parser = SseParser(max_token_events=40)
    pos, t = 0, 1.0
    for cut in sorted(set(c % (len(body) + 1) for c in cuts)) + [len(body)]:
        parser.feed(body[pos:cut], t)
        pos = cut
        t += 0.01
    return parser.finish(t)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=bodies(), cuts=st.lists(st.integers(0, 10_000), max_size=8))
def test_the_parser_never_raises_and_the_record_is_consistent(body, cuts):
    r = _feed(body, cuts)
    assert r.token_times == sorted(r.token_times)
    assert len(r.token_times) <= 40 + 1
    if r.usage_completion_tokens is not None:
        assert isinstance(r.usage_completion_tokens, int) and r.usage_completion_tokens >= 0
    ex = _Exchange(t_intended=0.5, t_start=0.5, t_send=0.5, t_headers=0.9, t_end=2.0, status=200, result=r,
                   complete=True)
    rec = build_record(ex, seq=0, max_tokens=8)
    if rec.ok:  # a success has tokens, a finish reason, no protocol error, sane counts
        assert rec.token_times and rec.finish_reason and r.invalid is None and r.error is None
        assert rec.output_tokens is not None and 0 <= rec.output_tokens <= 4 * 8 + 32
    for value in (rec.ttft_ms, rec.tpot_ms, rec.e2e_ms):
        assert value is None or (math.isfinite(value) and value >= 0)


@settings(max_examples=60, deadline=None)
@given(body=st.binary(max_size=2000), cuts=st.lists(st.integers(0, 3000), max_size=6))
def test_random_bytes_never_raise(body, cuts):
    r = _feed(body, cuts)
    ex = _Exchange(t_intended=0.0, t_start=0.0, t_end=1.0, status=200, result=r, complete=True)
    build_record(ex, seq=0, max_tokens=8)


def test_a_line_longer_than_the_bound_aborts_and_frees_its_buffer():
    parser = SseParser()
    for _ in range(MAX_LINE_BYTES // 65536 + 2):
        parser.feed(b"x" * 65536, 1.0)
    r = parser.finish(2.0)
    assert parser.abort == "line_too_long" and r.invalid_kind == "line_too_long"
