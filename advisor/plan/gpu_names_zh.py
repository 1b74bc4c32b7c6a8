"""GPU names as Chinese text writes them (s18-zhpolish: "Huawei Ascend 910B" left in English in a Chinese memo).

The plan keeps each GPU's catalog name (``GpuSpec.name``) in its parameters, the same in every language; a catalog
row with a Chinese name (``GpuSpec.name_zh``, set only where Chinese text uses another name: 华为昇腾 910B) is shown
under it in Chinese text (``result.render``; a memo's own tables and charts: ``memo_text15.memo_gpu_names``). Ids,
commands and cited document titles stay as written."""

from __future__ import annotations

import re
from functools import cache

ZH = "zh_CN"


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"


@cache
def _names_zh() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(the catalog name, its Chinese name), longest name first; the space a Latin name had after a Chinese word
    goes with it when the Chinese name starts with a Chinese character ("4 张 Huawei …" → "4 张华为昇腾 …")."""
    from advisor.catalog import load_gpus

    pairs = {g.name: g.name_zh for g in load_gpus() if g.name_zh}
    out = []
    for en, zh in sorted(pairs.items(), key=lambda kv: -len(kv[0])):
        joins = re.match(f"[{_CJK}]", zh) is not None
        out.append((re.compile((f"(?:(?<=[{_CJK}]) )?" if joins else "") + re.escape(en)), zh))
    return tuple(out)


def gpu_name(name: str, lang: str) -> str:
    """``name`` (a catalog GPU name, or text holding it) with each GPU named as ``lang`` writes it."""
    if lang != ZH:
        return name
    for pattern, zh in _names_zh():
        name = pattern.sub(zh, name)
    return name


__all__ = ["gpu_name"]
