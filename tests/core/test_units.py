"""advisor.units: the one way numbers get their units (Qt-free; lives here because the UI owns the module —
it can move to tests/core/test_units.py)."""

import math

import pytest

from advisor import units


@pytest.mark.parametrize(
    ("fn", "value", "text"),
    [
        (units.format_bytes, 15 * 1024**3, "15.0 GiB"),
        (units.format_bytes, 57344, "56.0 KiB"),
        (units.format_bytes, 512, "512 B"),
        (units.format_bytes, -2 * 1024**2, "-2.0 MiB"),
        (units.format_gib, 536870912, "0.5 GiB"),
        (units.format_count, 12345.4, "12,345"),
        (units.format_tokens, 32768, "32,768 tokens"),
        (units.format_context, 32768, "32k"),
        (units.format_context, 131072, "128k"),
        (units.format_context, 1000, "1,000"),
        (units.format_ms, 0.42, "0.42 ms"),
        (units.format_ms, 7.25, "7.2 ms"),
        (units.format_ms, 87.3, "87 ms"),
        (units.format_ms, 12345, "12.3 s"),
        (units.format_tokens_per_s, 45.67, "45.7 tok/s"),
        (units.format_tokens_per_s, 1234.5, "1,234 tok/s"),
        (units.format_params, 7_615_616_512, "7.62 B"),
        (units.format_params, 671e9, "671.00 B"),
        (units.format_bandwidth, 3.35e12, "3.35 TB/s"),
        (units.format_bandwidth, 936e9, "936 GB/s"),
        (units.format_tflops, 989.4, "989 TFLOP/s"),
        (units.format_percent, 0.9, "90%"),
    ],
)
def test_formats(fn, value, text):
    assert fn(value) == text


@pytest.mark.parametrize("bad", [None, math.nan, math.inf])
def test_missing_values_show_a_dash_not_nan(bad):
    for fn in (units.format_bytes, units.format_ms, units.format_tokens_per_s, units.format_count, units.format_context):
        assert fn(bad) == "—"
