"""Spaces a Chinese memo never sets (s18-zhpolish, zh reviewer: "a few missing spaces or ASCII commas"): sentences
and clauses are joined in code with a space, which is right in English and wrong after Chinese full-width
punctuation ("…（bf16，每小时约 0.54 USD） 是…", "…替换这些数字。 这里的…"). Chinese sets no space after 。，；：、）」
before a Chinese character; the space between a Chinese character and a Latin word or a number stays (the
catalogs' convention: "4 张 GPU")."""

from __future__ import annotations

import re

from advisor.plan.han_gap import no_han_gap

_CJK = "\u4e00-\u9fff"
_AFTER_PUNCT = re.compile(f"(?<=[。，；：、）」』】！？]) +(?=[{_CJK}（「])")
# a Latin word set against a Chinese character, as a placeholder's value may leave it ("提供{line}的" with
# "CN2 GIA 线路"); digits are left (document numbers: "〔2007〕43号")
_LATIN_GAP = re.compile(f"(?<=[{_CJK}])(?=[A-Za-z])|(?<=[A-Za-z])(?=[{_CJK}])")
_QUOTED = re.compile(r"(《[^》]*》|“[^”]*”|「[^」]*」)")  # titles and quoted terms as written ("ICP备")


def tidy(text: str) -> str:
    """``text`` (Chinese prose) without the spaces Chinese punctuation does not take, and with the space between a
    Chinese character and a Latin word the catalogs set ("4 张 GPU"); titles and quoted terms as written."""
    parts = _QUOTED.split(no_han_gap(_AFTER_PUNCT.sub("", text)))  # "服务 完成" → "服务完成"
    return "".join(p if i % 2 else _LATIN_GAP.sub(" ", p) for i, p in enumerate(parts))


def tidy_memo(markdown: str, lang: str, sources_heading: str) -> str:
    """A Chinese memo's prose tidied (code, link targets and the sources list as written); other languages as is."""
    if lang != "zh_CN":
        return markdown
    from advisor.plan.memo_text15 import rewrite_prose

    return rewrite_prose(markdown, sources_heading, tidy)


__all__ = ["tidy", "tidy_memo"]
