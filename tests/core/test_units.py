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


@pytest.mark.parametrize(
    ("value", "zh", "en"),
    [
        (0, "0", "0"),
        (-0.0, "0", "0"),
        (12.5, "12.5", "12.5"),
        (9_999, "9,999", "9,999"),  # four digits stay whole in both languages
        (9_999.6, "1万", "10k"),  # shown rounded: never "10,000" beside "2万"
        (10_000, "1万", "10k"),
        (15_000, "1.5万", "15k"),
        (12_500, "1.25万", "12.5k"),
        (200_000, "20万", "200k"),
        (1_234_567, "123万", "1.23M"),
        (12_345_678, "1,235万", "12.3M"),  # whole digits are never dropped
        (99_994_999, "9,999万", "100M"),
        (99_995_000, "1亿", "100M"),  # rounds into the next unit
        (100_000_000, "1亿", "100M"),
        (150_000_000, "1.5亿", "150M"),
        (-15_000, "-1.5万", "-15k"),
    ],
)
def test_compact_numbers_count_in_wan_and_yi_in_chinese_and_k_m_in_english(value, zh, en):
    assert units.format_compact(value, "zh_CN") == zh
    assert units.format_compact(value, "en") == en


def test_compact_money_puts_the_symbol_first_and_an_unknown_code_after():
    assert units.format_compact(200_000, "zh_CN", currency="CNY") == "¥20万"
    assert units.format_compact(200_000, "en", currency="CNY") == "¥200k"
    assert units.format_compact(-1_500, "en", currency="USD") == "-$1,500"
    assert units.format_compact(15_000, "zh_CN", currency="USD") == "$1.5万"
    assert units.format_compact(15_000, "en", currency="EUR") == "15k EUR"
    assert units.format_compact(0, "zh_CN", currency="CNY") == "¥0"


@pytest.mark.parametrize("bad", [None, math.nan, math.inf, -math.inf])
def test_compact_without_a_number_is_a_dash(bad):
    assert units.format_compact(bad, "zh_CN") == "—"
    assert units.format_compact(bad, "en", currency="USD") == "—"
