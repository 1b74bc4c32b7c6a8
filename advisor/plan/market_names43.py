"""Market codes said as place names in the memo (blind review 34, q13/q34/q37: "所列市场：SEA" left the answer's code
untranslated). The answers keep the codes ("SEA", "VN"); the memo's reader sees 东南亚 / South-East Asia."""

from __future__ import annotations

from advisor.i18n import catalog, translate


def market_name(lang: str, code: str) -> str:
    """One market's name in ``lang`` (``zc43.market.<code>``, lower-cased), or the code itself where none is written."""
    key = f"zc43.market.{code.lower()}"
    return translate(lang, key) if key in catalog(lang) else code


def markets_text(lang: str, markets: str) -> str:
    """A rule's "VN, ID" as the memo says it: "越南、印度尼西亚" / "Vietnam, Indonesia"."""
    names = [market_name(lang, m.strip()) for m in markets.split(",") if m.strip()]
    return translate(lang, "answers.list_sep").join(names)


__all__ = ["market_name", "markets_text"]
