"""Every hosted-API price row's source has a Chinese title (round 13: q34's zh memo cited the Singapore row as
"外文资料：[Qwen2.5-14B-Instruct list price at Alibaba Cloud Model Studio International …]", 480 characters of English
that pushed it to a sixth page). ``test_memo_wording_s15`` reads the rules' ``title`` fields; a price row names its
source in ``source``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from advisor.plan.memo import render_memo_markdown
from tests.support.planned import advice_plan

ROOT = Path(__file__).parents[2]
PRICES = json.loads((ROOT / "resources" / "plan" / "hosted_api_prices.json").read_text(encoding="utf-8"))
TITLES = json.loads((ROOT / "resources" / "plan" / "source_titles_zh.json").read_text(encoding="utf-8"))["titles"]


@pytest.mark.parametrize("row", PRICES["models"] + PRICES["tiers"], ids=lambda r: r["id"])
def test_a_hosted_price_row_has_a_chinese_title(row):
    assert row["source"] in TITLES, row["id"]


def test_q34_cites_the_singapore_list_in_chinese():
    memo = render_memo_markdown(advice_plan("q34_mixed_users_split"), "zh_CN")
    assert "阿里云百炼国际站（新加坡地域）" in memo and "Alibaba Cloud Model Studio International (Singapore" not in memo
