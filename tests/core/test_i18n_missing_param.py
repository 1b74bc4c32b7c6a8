"""A text saved by an older version (a stored plan result) lacks a parameter a newer translation names: the rest
renders with it blank and the miss is logged, rather than the whole sentence showing raw {placeholders}."""

from __future__ import annotations

import logging

from advisor.i18n import translate


def test_a_missing_optional_parameter_renders_blank_and_is_logged(caplog):
    with caplog.at_level(logging.WARNING, logger="advisor.i18n"):
        text = translate("en", "plan.binding.decode_bandwidth", at=3, tpot_ms=5, target_ms=4)
    assert text == "Decode bandwidth decides: at 3 concurrent requests per replica each output token takes 5 ms p99 " \
                   "(target 4 ms)."
    assert any("missing placeholder 'kv'" in r.message for r in caplog.records)
    zh = translate("zh_CN", "plan.binding.decode_bandwidth", at=3, tpot_ms=5, target_ms=4)
    assert "{" not in zh and "3 个并发请求" in zh
