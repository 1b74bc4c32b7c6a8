"""The weak-price count a memo's title says, read back as (weak, total) in either language (s42-zhx wording:
"the one price used is", "both prices used are", "all 3 prices used are", "2 of 5 prices used are"; 所用的唯一一个
价格、所用的两个价格都、所用的 3 个价格都、所用 5 个价格中有 2 个)."""

from __future__ import annotations

import re

_FORMS = {
    "en": [(re.compile(r"(\d+) of (\d+) prices used are grade C"), lambda m: (int(m[1]), int(m[2]))),
           (re.compile(r"all (\d+) prices used are grade C"), lambda m: (int(m[1]), int(m[1]))),
           (re.compile(r"both prices used are grade C"), lambda m: (2, 2)),
           (re.compile(r"the one price used is grade C"), lambda m: (1, 1))],
    "zh_CN": [(re.compile(r"所用 (\d+) 个价格中有 (\d+) 个是转述价"), lambda m: (int(m[2]), int(m[1]))),
              (re.compile(r"所用的 (\d+) 个价格都是转述价"), lambda m: (int(m[1]), int(m[1]))),
              (re.compile(r"所用的两个价格都是转述价"), lambda m: (2, 2)),
              (re.compile(r"所用的唯一一个价格是转述价"), lambda m: (1, 1))],
}


def weak_count(memo: str, lang: str) -> tuple[int, int, str] | None:
    """(weak prices, all prices, the words said) from the memo's count, or None where it says none."""
    for pattern, read in _FORMS[lang]:
        m = pattern.search(memo)
        if m:
            weak, total = read(m)
            return weak, total, m.group(0)
    return None
