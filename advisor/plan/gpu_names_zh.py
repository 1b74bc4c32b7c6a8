"""GPU names as Chinese text writes them (s18-zhpolish: "Huawei Ascend 910B" left in English in a Chinese memo).

The plan keeps each GPU's catalog name (``GpuSpec.name``) in its parameters, the same in every language; a catalog
row with a Chinese name (``GpuSpec.name_zh``, set only where Chinese text uses another name: 华为昇腾 910B) is shown
under it in a Chinese memo and its charts. Ids, commands and cited document titles stay as written."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

ZH = "zh_CN"


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"


@cache
def _names_zh() -> tuple[tuple[re.Pattern[str], str], ...]:
    """(the catalog name, its Chinese name), longest name first; the space a Latin name had after a Chinese word
    goes with it when the Chinese name starts with a Chinese character ("4 张 Huawei …" → "4 张华为昇腾 …")."""
    from advisor.plan.data import gpus_by_id

    pairs = {g.name: g.name_zh for g in gpus_by_id().values() if g.name_zh}
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


def memo_names(markdown: str, lang: str, sources_heading: str) -> str:
    """A memo's prose with GPU names in ``lang``; code, link targets and the sources list are left as written."""
    if lang != ZH or not _names_zh():
        return markdown
    from advisor.plan.memo_text15 import rewrite_prose

    return rewrite_prose(markdown, sources_heading, lambda text: gpu_name(text, lang))


def chart_names(chart: Any, lang: str) -> Any:
    """A chart's title, caption, series and markers with GPU names in ``lang``."""
    if lang != ZH:
        return chart
    return chart.model_copy(update={
        "title": gpu_name(chart.title, lang), "caption": gpu_name(chart.caption, lang),
        "series": [s.model_copy(update={"label": gpu_name(s.label, lang)}) for s in chart.series],
        "markers": [m.model_copy(update={"label": gpu_name(m.label, lang)}) for m in chart.markers]})


__all__ = ["chart_names", "gpu_name", "memo_names"]
