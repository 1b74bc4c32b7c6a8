"""No space between two Chinese characters (s42-zhx, review 35, q29: "用模型 API 服务 完成任务"): a template joins a
value ending in Chinese to Chinese words with a space, right in English and wrong in Chinese. A leaf module: the
plan's render and the memo's tidy both use it."""

from __future__ import annotations

import re

_CJK = "\u4e00-\u9fff"
HAN_GAP = re.compile(f"(?<=[{_CJK}]) +(?=[{_CJK}])")


def no_han_gap(text: str) -> str:
    """``text`` without a space between two Chinese characters."""
    return HAN_GAP.sub("", text)


__all__ = ["HAN_GAP", "no_han_gap"]
