"""Memo wording that depends on the plan rather than on one sentence (issue 25, s15-text).

- who can reach the service: on the office LAN or a private network the memo says no line is needed and leaves out
  the public-internet assumptions (three carriers, a paid service's B25), and an office box stands "in your office";
- an Ascend plan says accelerator / NPU (加速卡 / NPU), never GPU, for its own hardware;
- a Chinese memo names the price rows, their sources and the memo's sources in Chinese (``resources/plan/
  prices_zh.json``, ``source_titles_zh.json``); a title not translated is shown as written, introduced in Chinese;
- the cost per million tokens for input and for output apart, by GPU time (``advisor.plan.token_split``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from advisor.i18n import translate
from advisor.plan import burst_path, office_purchase, site_words
from advisor.plan.answers import OWN_NETWORK_REACH
from advisor.plan.api_price_rows import API_ROW_IDS
from advisor.plan.gpu_names_zh import gpu_name
from advisor.plan.token_cost_split import per_million_split, volume_split
from advisor.resources import load_json

PRIVATE_REACH = OWN_NETWORK_REACH
# assumptions that only matter for a service on the public internet: which carriers its users are on, whether it
# charges (a mainland paid service needs B25), and its ICP filing status
PUBLIC_ONLY_ASSUMPTIONS = ("mainland_carriers", "charges_users", "icp_status")


def reach(result: Any) -> str:
    """Who can reach the service: the answer, else what the plan assumed, else the public internet."""
    given = (result.answers or {}).get("reach")
    if given:
        return str(given)
    assumed = next((a.value for a in result.assumptions if a.field == "reach"), None)
    return str(assumed or "internet")


def private_reach(result: Any) -> bool:
    return reach(result) in PRIVATE_REACH


def quiet_assumption(result: Any, field: str) -> bool:
    """An assumption the memo leaves out: a public-internet one for a service only its LAN or private network
    reaches (q01/q33: "users on all three carriers" for an office tool), or for an offline batch job, which serves
    no users over a carrier and publishes nothing needing an ICP filing (twelfth blind review: the carrier and ICP
    assumptions printed on q06's and q28's batch jobs; s22-duties22c)."""
    return field.split(".")[0] in PUBLIC_ONLY_ASSUMPTIONS and (private_reach(result) or batch_job(result))


def batch_job(result: Any) -> bool:
    """An offline batch job, as answered or assumed."""
    given = (result.answers or {}).get("use_case")
    return (given or next((a.value for a in result.assumptions if a.field == "use_case"), None)) == "offline_batch"


def line_text(result: Any, lang: str) -> str | None:
    """The headline's line for a service reached only on the LAN or a private network (None: the engine's words)."""
    if result.line != "any" or not private_reach(result):
        return None
    return translate(lang, f"memo.text15.line.{reach(result)}")


def form_key(result: Any, key: str) -> str:
    """The on-premises form of an office tool (reached on the office LAN): "in your office", not "server room"; of a
    service reached over a private network: "your server room", as the site row says it (site_words)."""
    if reach(result) == "lan" and result.deployment_form == "on_premises":
        if key == "memo.form.on_premises" and workstation(result):  # one word with the timeline (review 34, q02)
            return "of43.form.workstation"
        lan = {"memo.form.on_premises": "memo.text15.form.on_premises.lan",
               "memo.fleet13.form.on_premises": "memo.text15.fleet.on_premises.lan",
               "memo.fleet13.form.on_premises.buys": "memo.text15.fleet.on_premises.lan.buys"}
        return lan.get(key, key)
    api = {"memo.fleet13.form.hybrid": "numbers1_34.form.hybrid", "memo.fleet13.form.hybrid.buys":
           "numbers1_34.form.hybrid.buys", "memo.form.hybrid": "numbers1_34.form.hybrid.servers"}
    if key in api and burst_path.lead_finding(result) is not None:  # the bursts go to an API, not rented (review 23)
        return api[key]
    if key == "memo.form.on_premises" and site_words.result_site(result) == site_words.SERVER_ROOM:
        return "memo.polish15.form.on_premises.server_room"
    return key


def workstation(result: Any) -> bool:
    """The office box the plan buys is a desk-side workstation (one or two cards, ``office_purchase``), as the
    timeline's purchase step says: the headline and the cost finding call it that too, not "a server"."""
    own = getattr(getattr(result, "costs", None), "owned", None)
    if own is None or getattr(own, "fleet_gpus", None):
        return False
    return office_purchase.is_workstation(str(result.deployment_form), getattr(own, "gpus_owned", None))


def site_key(result: Any, site: str) -> str:
    """The cost table's "owned servers stand" row: the office, the server room or either, as the answers say
    (site_words: one word with the headline and the findings)."""
    if site == "office":
        return site_words.SITE_ROW[site_words.result_site(result)]
    return f"plan.forms.site.{site}"


# ---- Ascend: accelerator / NPU -------------------------------------------------------------------------------
def is_npu(result: Any) -> bool:
    """The plan's own hardware is a Huawei Ascend part (an NPU, not a GPU)."""
    from advisor.plan.data import gpus_by_id

    gpu = gpus_by_id().get(result.hardware.gpu or "")
    return gpu is not None and (gpu.vendor.lower() == "huawei" or gpu.id.startswith("ascend"))


_CJK = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef"
_WORDS = {
    "zh_CN": ((re.compile(r"云 ?GPU"), "云 NPU"), (re.compile(r"GPU ?物理机"), "NPU 物理机"),
              (re.compile(r"GPU·h"), "NPU·h"), (re.compile(r"GPU-hour"), "NPU-hour"), (re.compile(r"GPU-h\b"), "NPU-h"),
              # Chinese sets no space between its own words: "4 张 GPU，" → "4 张加速卡，", "| GPU 数量" → "| 加速卡数量"
              (re.compile(f"(?<=[{_CJK}]) GPU"), "GPU"), (re.compile(f"GPU (?=[{_CJK}])"), "GPU"),
              (re.compile(r"GPU"), "加速卡")),
    "en": ((re.compile(r"\bcloud GPU"), "cloud NPU"), (re.compile(r"\bCloud GPU"), "Cloud NPU"),
           (re.compile(r"GPU·h"), "NPU·h"), (re.compile(r"GPU-hour"), "NPU-hour"), (re.compile(r"GPU-h\b"), "NPU-h"),
           (re.compile(r"\b[Aa] GPU\b"), "an accelerator"),
           (re.compile(r"(^|\| |\. )GPUs\b"), r"\1Accelerators"), (re.compile(r"(^|\| |\. )GPU\b"), r"\1Accelerator"),
           (re.compile(r"\bGPUs\b"), "accelerators"), (re.compile(r"\bGPU\b"), "accelerator")),
}
_PROTECTED = re.compile(r"`[^`]*`|\]\([^)]*\)|https?://\S+")  # inline code, link targets, bare URLs


def npu_words(markdown: str, lang: str, sources_heading: str) -> str:
    """The memo's prose with GPU said as accelerator / NPU (加速卡 / NPU); code blocks, inline code, link targets
    and the sources list (titles of documents) are left as written."""
    return rewrite_prose(markdown, sources_heading, lambda text: _plain(text, lang))


def rewrite_prose(markdown: str, sources_heading: str, plain: Callable[[str], str]) -> str:
    """``markdown`` with ``plain`` applied to its prose only: code blocks, inline code, link targets and the
    sources list (titles of documents) are left as written."""
    out: list[str] = []
    fenced = in_sources = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif line.startswith("## "):
            in_sources = line == f"## {sources_heading}"
        if fenced or in_sources or line.lstrip().startswith("```"):
            out.append(line)
            continue
        out.append(_swap(line, plain))
    return "\n".join(out)


def npu_chart(chart: Any, lang: str) -> Any:
    """A chart's title, axes, series and markers with GPU said as accelerator / NPU."""
    return chart.model_copy(update={
        "title": _plain(chart.title, lang), "x_label": _plain(chart.x_label, lang),
        "y_label": _plain(chart.y_label, lang), "caption": _plain(chart.caption, lang),
        "series": [s.model_copy(update={"label": _plain(s.label, lang)}) for s in chart.series],
        "markers": [m.model_copy(update={"label": _plain(m.label, lang)}) for m in chart.markers]})


def _swap(line: str, plain: Callable[[str], str]) -> str:
    parts, last = [], 0
    for m in _PROTECTED.finditer(line):
        parts.append(plain(line[last:m.start()]))
        parts.append(m.group(0))
        last = m.end()
    parts.append(plain(line[last:]))
    return "".join(parts)


def _plain(text: str, lang: str) -> str:
    for pattern, word in _WORDS.get(lang, _WORDS["en"]):
        text = pattern.sub(word, text)
    return text


# ---- GPU names in Chinese (s18-zhpolish: 华为昇腾 910B, not "Huawei Ascend 910B") ----------------------------------
def memo_gpu_names(markdown: str, lang: str, sources_heading: str) -> str:
    """A memo's prose with GPU names in ``lang`` (``gpu_names_zh``); code, link targets and the sources list are
    left as written."""
    if lang != "zh_CN":
        return markdown
    return rewrite_prose(markdown, sources_heading, lambda text: gpu_name(text, lang))


def chart_gpu_names(chart: Any, lang: str) -> Any:
    """A chart's title, caption, series and markers with GPU names in ``lang``."""
    if lang != "zh_CN":
        return chart
    return chart.model_copy(update={
        "title": gpu_name(chart.title, lang), "caption": gpu_name(chart.caption, lang),
        "series": [s.model_copy(update={"label": gpu_name(s.label, lang)}) for s in chart.series],
        "markers": [m.model_copy(update={"label": gpu_name(m.label, lang)}) for m in chart.markers]})


# ---- Chinese names of prices and sources ---------------------------------------------------------------------
@cache
def _prices_zh() -> dict[str, dict[str, str]]:
    data = load_json("plan", "prices_zh.json")
    # a row since retired from prices.json keeps its name apart, for a plan saved with it (s30-prices30)
    retired = {k: v for k, v in data.get("retired_offers", {}).items() if not k.startswith("_")}
    return {"offers": {**retired, **data["offers"]}, "sources": dict(data["sources"]), "units": dict(data["units"])}


@cache
def _titles_zh() -> dict[str, str]:
    return dict(load_json("plan", "source_titles_zh.json")["titles"])


def price_offer(row: Any, lang: str) -> str:
    """A built-in price row's name in ``lang`` (a user's own quote as the user wrote it)."""
    if str(row.id) in API_ROW_IDS:  # the hosted API's list: named in the reader's language (s25-prices25)
        return translate(lang, f"prices25.offer.{str(row.id).split('.')[1]}", model=row.offer)
    if lang != "zh_CN" or row.user_quote:
        return str(row.offer)
    return _prices_zh()["offers"].get(row.id, str(row.offer))


def price_unit(unit: str, lang: str) -> str:
    """A price's unit in ``lang`` ("USD/GPU-hour" → "USD/卡·小时")."""
    api = re.fullmatch(r"(\w+)/million (input|output) tokens", unit)
    if api is not None:  # the hosted API's rows (s25-prices25)
        return translate(lang, "prices25.unit.per_million", currency=api.group(1))
    return _prices_zh()["units"].get(unit, unit) if lang == "zh_CN" else unit


def price_source(text: str, lang: str, row_id: str = "") -> str:
    """A price's (or the exchange rate's) source in ``lang``; the hosted API's list said short (its whole title is
    in the source list: two long titles made the table a page longer, s25-prices25)."""
    if row_id in API_ROW_IDS:
        return translate(lang, "prices25.source.list")
    return _prices_zh()["sources"].get(text, text) if lang == "zh_CN" else text


def source_title(title: str, lang: str) -> str:
    """A cited source's title as the memo in ``lang`` shows it (its own title where no translation is kept)."""
    return _titles_zh().get(title, title) if lang == "zh_CN" else title


def source_link(title: str, url: str, lang: str) -> str:
    """One entry of the memo's source list: in Chinese where translated; else its own title, introduced in Chinese."""
    shown = _titles_zh().get(title) if lang == "zh_CN" else None
    link = f"[{shown or title}]({url})" if url else (shown or title)
    if lang == "zh_CN" and shown is None:
        return translate(lang, "memo.text15.source_foreign", link=link)
    return link


__all__ = ["chart_gpu_names", "form_key", "is_npu", "memo_gpu_names", "line_text", "npu_chart", "npu_words", "per_million_split", "volume_split", "price_offer", "price_source", "price_unit",
           "private_reach", "quiet_assumption", "reach", "rewrite_prose", "site_key", "source_link", "source_title"]
