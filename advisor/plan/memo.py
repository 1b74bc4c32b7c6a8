"""The decision memo (决策备忘录): one Markdown document rendered from a PlanResult, in English or Chinese.

One source, many renderings: the Markdown comes from one template (``resources/templates/memo.md.j2``)
whose every sentence is an i18n key (``resources/i18n/<lang>/memo.json``), so both languages share one
structure. The core makes a :class:`MemoDocument` (the Markdown for any chart paths, the Qt-free chart data of
:mod:`advisor.plan.charts`, a title); turning it into PNG charts and a PDF is ``ui/`` work
(``ui/memo_export.py``), handed in as a :class:`MemoPainter`. This module never loads Qt, not even by name.

- :func:`memo_document` — the memo as a document (Markdown + charts + metadata);
- :func:`render_memo_markdown` — the Markdown text (charts referenced by the paths given, else left out);
- :func:`write_memo` — ``.md`` (Markdown + ``<stem>_files/*.png`` beside it when a painter is given) or
  ``.pdf`` (needs a painter), written atomically.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import jinja2

from advisor import __version__
from advisor.atomic import check_target, write_text_atomic
from advisor.bench.quality.memo import quality_memo_lines
from advisor.i18n import LANGUAGES, catalog, translate
from advisor.plan import (
    api_cost_brief42,
    api_even,
    api_fallback_split,
    api_first_why,
    api_gap44,
    api_led_brief40,
    api_path43,
    api_title44,
    api_top38,
    batch_job37,
    batch_words,
    blocked_brief39,
    budget_basis,
    budget_words,
    burst_bill,
    burst_order40,
    burst_steps41,
    burstbill37,
    buy_quote38,
    capex_only_rows,
    capex_unknown,
    chat_speed37,
    closest_api,
    cloud_price_labels,
    cloud_row44,
    consist41_hardware,
    consist41_why,
    context_refusal37,
    e2e_gate43,
    edge_first42,
    edge_gate41,
    edge_lead44,
    edge_risks38,
    eu_zone42,
    event_reserve43,
    feasible_gate,
    feasible_list44,
    field_labels,
    filedwait38,
    fixtab39,
    fleet_choice43,
    fleet_said_once,
    fleet_where,
    floor_assume38,
    fork42,
    gate_lead41,
    gpu_swap44,
    headline25,
    hybrid_path43,
    in_region_fallback,
    indicative44,
    kv_cap_note38,
    kv_page_one37,
    kv_said_once44,
    launch_order44,
    launch_paths42,
    lawful_fix43,
    layout_headline40,
    line_total,
    memo_api_only,
    memo_api_rows,
    memo_batch,
    memo_batch_slow,
    memo_carried,
    memo_chat_rows,
    memo_condition_once,
    memo_cost_formula,
    memo_curve_reading,
    memo_fixes36,
    memo_forms,
    memo_gate_once,
    memo_headings,
    memo_job_split,
    memo_launch_line,
    memo_lead_once,
    memo_likely,
    memo_one_server,
    memo_per_million,
    memo_quantized_once,
    memo_quote_once,
    memo_rows_needed,
    memo_self_host_rows,
    memo_speed36,
    memo_steps_once,
    memo_text15,
    memo_ttft_free,
    memo_volume_once,
    moe39,
    move_to,
    node_context,
    office_token_rows,
    own_rent_verdict,
    owned_capital37,
    owned_rent_rows,
    page_one_once44,
    peak_reserve_rules,
    people_volume,
    phased_cost,
    pi_said_once44,
    power_tariff,
    prefix_cache_note,
    quote_lead35,
    quote_lead39,
    quote_room_once44,
    registration_route37,
    rent_count,
    rent_fallback,
    rent_first27,
    rent_row_label,
    rent_ruled_out39,
    rent_until_covered,
    reserved_floor,
    reserved_price,
    sales_deadline,
    served_context38,
    server_down_once39,
    server_size_price,
    set_aside,
    spare_kept,
    stand_in43,
    step_refs44,
    step_where40,
    supply_lead,
    sure_fallback,
    ttft_free_question39,
    ttft_server42,
    unbought_rows,
    unit_first,
    vm_payback_words,
    volume_peak,
    volume_range,
    when_bought,
    zh_spacing,
)
from advisor.plan.burst_gpu import hardware_text, rented_of
from advisor.plan.charts import ChartData, cost_chart, memo_charts, repeats_table
from advisor.plan.commands import hugging_face_only, reupload_in
from advisor.plan.data import factor_range
from advisor.plan.evidence import RunEvidence, plan_evidence
from advisor.plan.fine_tune_placeholder import (
    FINETUNE_VAR,
    SERVED_NAME_WORD,
    SERVED_VAR,
    local_copy_in,
    variable_in,
)
from advisor.plan.fleet_signoff import signoff_clause
from advisor.plan.knee_cap import knee_is_cap, knee_key
from advisor.plan.market_names43 import market_name
from advisor.plan.memo_node_curves import blocks as node_curve_blocks
from advisor.plan.memo_node_curves import main_label as node_curve_main_label
from advisor.plan.memo_node_curves import no_curve_key
from advisor.plan.money_text import money_range as _money
from advisor.plan.money_text import number_text
from advisor.plan.money_text import round_money as _round_money
from advisor.plan.reasons import deciding, duty_in_freed_place
from advisor.plan.result import (
    PRECEDES,
    SEVERITY_ORDER,
    Finding,
    MoneyRange,
    NextStep,
    PlanResult,
    Source,
    alternative_text,
    lead_text,
    render,
)
from advisor.resources import resource_path

TEMPLATE = "memo.md.j2"
NO_MAINLAND_RULES = "region.no_mainland_rules"  # the finding: no mainland user or company, served offshore
FORMATS = (".md", ".pdf")
CHART_IDS = ("latency", "cost")  # the PNGs a Markdown memo keeps in <stem>_files/


class MemoError(RuntimeError):
    """The memo could not be written as asked (unknown format, no Qt for a PDF, …); the message says why."""


# ---- small formatters the template uses ---------------------------------------------------------------
_num = number_text


def _range(lo: float | None, hi: float | None, unit: str = "") -> str:
    if lo is None or hi is None:
        return "—"
    a, b = _num(lo, 1), _num(hi, 1)
    text = a if a == b else f"{a}–{b}"
    return f"{text} {unit}".strip()


def _gib(v: int | float | None) -> str:
    return "—" if v is None else f"{v / 2**30:,.1f} GiB"


def _cell(text: Any) -> str:
    """One Markdown table cell: no pipes or line breaks inside."""
    return str(text).replace("|", "\\|").replace("\n", " ").strip() or "—"


# ---- what the template gets -----------------------------------------------------------------------------
def _t(lang: str):
    def t(key: str, **params: Any) -> str:
        return translate(lang, key, **params)

    return t


def _has(lang: str, key: str) -> bool:
    return key in catalog(lang)


def _catalog_name(field: str, value: str) -> str:
    """A catalog id the user picked ("l20-48g", "qwen2.5-14b-instruct") by its name, as every other part of the memo
    names it; anything else (a path, a custom id) as given."""
    from advisor.plan.data import gpus_by_id

    if field in ("gpu_constraint", "gpu"):
        gpu = gpus_by_id().get(value)
        return gpu.name if gpu else value
    if field in ("model", "baseline_model"):
        from advisor.catalog import CatalogError, get_model

        try:
            return get_model(value).name
        except CatalogError:
            return value
    return value


def _value_text(lang: str, field: str, value: Any) -> str:
    if value is None:
        return translate(lang, "memo.answers.unknown")
    if isinstance(value, bool):
        return translate(lang, "memo.yes" if value else "memo.no")
    if isinstance(value, str):
        if value == "n/a":
            return translate(lang, "memo.value.not_applicable")
        if field == "overseas_markets":  # "SEA" said 东南亚 / South-East Asia (r34, q13/q34)
            return market_name(lang, value)
        key = f"memo.value.{field}.{value}"
        if _has(lang, key):
            return translate(lang, key)
        return _catalog_name(field, value)
    if field == "measured_utilisation" and isinstance(value, int | float) and 0 <= value <= 1:
        return f"{_num(value * 100)} %"  # a share the user gave as 0.3 reads "30 %"
    if isinstance(value, int | float):
        return _num(value, 2)
    if isinstance(value, list):
        # "H20、L20" in Chinese, never an ASCII comma between Chinese or model names (s42-zhx, q04/q20/q42)
        return translate(lang, "answers.list_sep").join(_value_text(lang, field, v) for v in value) or "—"
    if isinstance(value, dict):
        if field in ("monthly_budget", "capex_budget") and value.get("amount") is not None:
            return f"{_round_money(float(value['amount']))} {value.get('currency') or 'CNY'}"
        if field == "current_fleet" and value.get("gpu"):  # "16 × NVIDIA H20 96GB", never "gpu h20-96g; count 16"
            from advisor.plan.data import gpus_by_id

            def one(v: dict) -> str:
                gpu = gpus_by_id().get(str(v["gpu"]))
                return f"{_num(v.get('count'))} × {gpu.name if gpu else v['gpu']}"

            # every type the team runs: "16 × NVIDIA H20 96GB, 16 × NVIDIA L20 48GB" (s14-plan)
            return translate(lang, "answers.list_sep").join(one(v) for v in [value, *(value.get("others") or [])])
        parts = []
        for k, v in value.items():
            if v is None or str(k).startswith("_"):
                continue
            label_key = f"memo.sub.{k}"
            text = _value_text(lang, k, v)
            parts.append(translate(lang, label_key, v=text) if _has(lang, label_key) else f"{k} {text}")
        return translate(lang, "memo.list_sep").join(parts) or translate(lang, "memo.answers.unknown")
    return str(value)


def _answer_rows(result: PlanResult, lang: str, shown: set[str] | frozenset[str] = frozenset()
                 ) -> list[dict[str, str]]:
    """Each question answered or assumed: the answer given, and what was assumed where none was (an assumption
    whose text is in ``shown``, page 1's open questions, is left out here)."""
    from advisor.plan.answers import FIELDS, SUBFIELDS

    parent_of = {sub: parent for parent, subs in SUBFIELDS.items() for sub in subs if sub not in FIELDS}
    assumed: dict[str, list[str]] = {}
    in_cost = memo_lead_once.utilisation_in_cost_table(result)
    for a in result.assumptions:
        if memo_text15.quiet_assumption(result, a.field):
            continue  # a public-internet assumption (carriers, B25) for a service its LAN or private network reaches
        if api_path43.self_host_only(result.deployment_form, a.key):
            continue  # the quantization, the context a server refuses past: no server on an API's plan (api43)
        if memo_lead_once.moot(a, result) or (a.key == memo_lead_once.UTILISATION_ASSUMED and in_cost):
            continue  # "time for the filings" where the timeline has none; the utilisation the cost table says
        field = a.field.split(".")[0]
        field = field if field in FIELDS else parent_of.get(field, field)  # personal_info → data_sensitivity
        text = floor_assume38.text(result.costs, a, lang)  # the month read from the peak: that one basis
        if a.key == QUANT_ASSUMED and not result.fixes:  # no fix to propose it: "a fix may propose it" is jargon
            text = translate(lang, "steps34.assume.quantization_no_fix")  # (blind review 23, q15)
        if text not in shown:
            assumed.setdefault(field, []).append(text)
    rows = []
    given = result.answers or {}
    for field in FIELDS:
        value = given.get(field)
        if value is None and field not in assumed:
            continue  # neither answered nor needed
        label_key = field_labels.label_key(field, given, f"plan.field.{field}.label")  # a job's budget: "for the job"
        rows.append({
            "question": translate(lang, label_key) if _has(lang, label_key) else field,
            "answer": _cell(_value_text(lang, field, value)),
            "given": value is not None,
            "assumed": _cell(_sentences(assumed.get(field, []), lang) or "—"),
        })
    return rows


def _serve_said(step: NextStep, result: PlanResult) -> bool:
    """A later step that starts a replica with section 2's own command: it points there, the command not printed
    twice (s33-steps: a job's quota and data steps moved the start into section 9, its command block a repeat)."""
    return step.id == "serve" and step.key == "plan.next.serve" and bool(step.command) \
        and step.command == result.hardware.command


QUANT_ASSUMED = "plan.assume.quantization_acceptable"  # "planned without it; a fix may propose it"


def _fixes_intro(result: PlanResult) -> str:
    """The fixes' heading claims only what they do: "any one alone" when each does; "none alone" when every one
    needs what it names beside it (it read "any one alone is enough" over fixes that each needed more budget)."""
    combined = [f.with_budget is not None or bool(f.with_deadline_hours) for f in result.fixes]
    if not any(combined):
        return _alone_intro(len(result.fixes))
    return "memo.rec.fixes_intro_none_alone" if all(combined) else "memo.rec.fixes_intro_combined"


def _alone_intro(n: int) -> str:
    """"Any one of these" over a list of one read oddly (blind review 27, q30 zh: "做出以下任意一项调整" above a
    single change): one change is "this change"."""
    return "filedwait38_fixes.one" if n == 1 else "memo.rec.fixes_intro"


def _needs_more(f: Any) -> bool:
    """A fix that needs more than the change itself: a budget or a deadline beside it, or the budget it raises."""
    return f.with_budget is not None or bool(f.with_deadline_hours) or f.id == "more_budget"


def _fix_groups(result: PlanResult, lang: str) -> list[dict[str, Any]]:
    """The fixes under their headings: one heading where all work alone or none does (as ``_fixes_intro`` says);
    else those that work alone first, then those that need what they name, each under its own heading (s33-numbers1,
    blind review 23 q40). The engine orders them so (``engine._closeness``)."""
    cur = result.costs.currency

    def row(f: Any) -> dict[str, Any]:
        out = {"text": f.text_in(lang), "monthly": _money(f.monthly_cost, cur) if f.monthly_cost else "",
               "per_job": f.per_job}
        if f.id == "extend_deadline" and out["monthly"]:  # the servers' month from launch, not the wait's (q30)
            out["monthly_key"] = filedwait38.COST_FROM_LAUNCH
        elif out["monthly"] and not f.per_job and stand_in43.same_month(result, f.monthly_cost):
            # blind review 34 (q20): the fix's month is the plan's stand-in price: said so, short (stand_in43)
            out["monthly_key"] = stand_in43.fix_key(result)
            if out["monthly_key"] == "pb43.fix.cost_market":  # a marketplace's floor: the priced option beside it
                out["monthly_key"], out["priced"] = "prc44.fix.cost_market", stand_in43.priced_clause(result, lang)
        return out

    def rows(fs: Sequence[Any]) -> list[dict[str, Any]]:
        # a batch API priced for the job follows the hosted API's fix on its own line (``batch_api_line``, q29)
        out = []
        for f in fs:
            out.append(row(f))
            extra = f.params.get("batch_line")
            if extra:
                cost = MoneyRange(low=extra["low"], high=extra["high"])
                out.append({"text": render(lang, extra["tr"], extra), "monthly": _money(cost, cur), "per_job": True})
        return out

    if not result.fixes:
        return []
    alone = [f for f in result.fixes if not _needs_more(f)]
    more = [f for f in result.fixes if _needs_more(f)]
    if not alone or not more:
        key = _alone_intro(len(result.fixes)) if not more else "memo.rec.fixes_intro_none_alone"
        return [{"intro": translate(lang, key), "fixes": rows(result.fixes)}]
    return [{"intro": moe39.alone_intro(alone, lang) or render(lang, "numbers1_34.fixes.alone", {"n": len(alone)}),
             "fixes": rows(alone)},
            {"intro": render(lang, "numbers1_34.fixes.needs_more", {"n": len(more)}), "fixes": rows(more)}]


def _fixes_table(result: PlanResult, lang: str) -> dict[str, Any] | None:
    """The one change within the budget (its full text, its checks in it) and the others as table rows, where
    ``memo_fixes36`` applies (review 25, q40: "put the API first with its two checks and collapse the rest")."""
    got = memo_fixes36.table(result, lang)
    if got is None:
        return None
    one = got["one"]
    intro = moe39.alone_intro([one], lang) or render(lang, "numbers1_34.fixes.alone", {"n": 1})
    if got["lead"]:  # an MoE near the budget follows as the trade-off (review 29, q29; fixtab39): the far smaller
        # model comes first as what fits every constraint, its deadline named (review 30, q29: "lead with what fits
        # both"; zh: "does not say outright that it meets the 12-hour deadline")
        hours = result.answers.get("batch_deadline_hours") if getattr(result.costs, "per_job", False) else None
        intro = translate(lang, "med40_fixes.fits_both", hours=f"{float(hours):g}") if hours \
            else translate(lang, "med40_fixes.fits_all")
    others = ""
    if got["last"]:  # the far smaller model after the changes closer in quality, its warning first (review 34, q29)
        hours = result.answers.get("batch_deadline_hours") if getattr(result.costs, "per_job", False) else None
        hw = result.hardware
        model = _model_words(result, lang, hw.model_name or hw.model or str(result.answers.get("model") or "—"))
        key = "fo43_fixes.closest_first_job" if hours else "fo43_fixes.closest_first"
        if not got.get("api_row"):  # no API row in the table: none named in its order
            key = key.replace("fo43_fixes", "api44.fixes")  # (blind review 35, q40)
        others = translate(lang, key, model=model,
                           hours=f"{float(hours):g}" if hours else "")
        intro = translate(lang, "fo43_fixes.last_job" if hours else "fo43_fixes.last",
                          hours=f"{float(hours):g}" if hours else "")
    return {"intro": intro, "rows": got["rows"], "over": got["over"], "lead": got["lead"], "last": got["last"],
            "others": others,
            "one": {"text": one.text_in(lang), "per_job": one.per_job,
                    "monthly": _money(one.monthly_cost, result.costs.currency) if one.monthly_cost else ""}}


def _sentences(parts: Sequence[str], lang: str) -> str:
    """Sentences one after another: a sentence that ends in its own full stop takes no list separator after it."""
    out = ""
    for part in parts:
        if out:
            out += ("" if lang == "zh_CN" else " ") if out.endswith((".", "。")) else translate(lang, "memo.list_sep")
        out += part
    return out


def _other_assumptions(result: PlanResult, lang: str) -> list[str]:
    """Assumptions about figures that are not answers (the utilisation the cost model uses, …)."""
    from advisor.plan.answers import FIELDS, SUBFIELDS

    known = set(FIELDS) | {sub for subs in SUBFIELDS.values() for sub in subs}
    return [a.text_in(lang) for a in result.assumptions if a.field.split(".")[0] not in known]


def _sources(f: Finding) -> list[dict[str, str]]:
    out = []
    for s in f.sources:
        link = f"[{s.title}]({s.url})" if s.url else s.title
        out.append({"link": link, "date": s.date, "grade": s.grade, "verify": s.needs_verify})
    return out


def _finding(f: Finding, lang: str, numbers: Mapping[tuple[str, str], int] | None = None) -> dict[str, Any]:
    refs = sorted({numbers[(s.title, s.url or "")] for s in f.sources} if numbers else set())
    return {
        "id": f.id, "severity": f.severity, "title": f.title_in(lang), "detail": f.detail_in(lang),
        "detail_key": f.detail_key,
        "sources": _sources(f), "verify": f.verify or any(s.needs_verify for s in f.sources),
        "severity_text": translate(lang, f"memo.severity.{f.severity}"),
        "refs": _cited(refs),
    }


NO_BREAK = ",\u00a0"  # a comma and a no-break space


def _cited(numbers: Sequence[int]) -> str:
    """The source numbers a finding cites, in a report's numeric form: one bracket, runs as ranges ("[7–9]",
    "[1, 10, 11]"); "[7] [8] [9]" took a line of its own at a line's end (session 22, issue 25)."""
    runs: list[list[int]] = []
    for n in sorted(numbers):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [p for r in runs for p in ([f"{r[0]}–{r[-1]}"] if len(r) > 2 else [str(n) for n in r])]
    return f"[{NO_BREAK.join(parts)}]" if parts else ""  # one word to the line breaker


# The plain "N × (GPUs) meets the target at the peak" findings: every figure of their text (load per replica, most
# within the target, headroom, predicted P99 TTFT and TPOT) is a row of section 2's table, which the memo prints.
# A two-node plan's (q05, q34) says the mainland node's, which is the table's node (its rows say "mainland node").
SIZED_IN_TABLE = frozenset({"plan.rule.sizing.plan.detail", "plan.rule.sizing.plan.room.detail",
                            "plan.rule.sizing.plan.room_node.detail"})


def _figures_said_in_sizing(rendered: list[dict[str, Any]], hardware: Sequence[tuple[str, str]], lang: str) -> None:
    """Issue 25 (each figure once, a typical memo in 4 pages): a sizing finding whose figures are all rows of the
    memo's hardware table points there instead of saying them again. Its title (page 1's reason) stays, and the
    finding keeps its full text in the app and in ``--json``."""
    labels = {label for label, _ in hardware}
    needed = {_cell(translate(lang, key)) for key in ("memo.cap.max_per_replica", "memo.cap.ttft", "memo.cap.tpot",
                                                       "memo.cap.headroom")}
    if not needed <= labels:
        return
    for f in rendered:
        if f["detail_key"] in SIZED_IN_TABLE:
            f["detail"] = translate(lang, "pages17.sized_in_table")


def _numbered_sources(findings: Sequence[Finding], lang: str = "en", page1: Sequence[Source] = ()
                      ) -> tuple[dict[tuple[str, str], int], list[dict[str, Any]]]:
    """Every source once, numbered in the order the findings cite them (a price list cited by four findings is
    one entry, not four), then ``page1``'s, the sources only page 1 cites: the number of each (title, url), and the
    list the memo ends with."""
    numbers: dict[tuple[str, str], int] = {}
    listed: list[dict[str, Any]] = []
    titles: dict[str, str] = {}  # the title listed for each link so far
    for cited in [f.sources for f in findings] + [list(page1)]:
        for s in cited:
            key, url = (s.title, s.url or ""), s.url or ""
            if key in numbers:
                continue
            same = _same_page(titles.get(url), s.title) if url else False
            if same:  # one page cited under a title and that title extended: one entry, the longer title (q13's
                # ICP page cited twice, s21-pages21)
                n = numbers[(titles[url], url)]
                numbers[key] = n
                if len(s.title) > len(titles[url]):
                    listed[n - 1]["link"] = memo_text15.source_link(s.title, url, lang)
                    listed[n - 1]["dated"] = _dated_in_title(s.date, memo_text15.source_title(s.title, lang))
                    titles[url] = s.title
                continue
            numbers[key] = len(listed) + 1
            titles.setdefault(url, s.title)
            listed.append({"n": numbers[key], "link": memo_text15.source_link(s.title, url, lang),
                           "date": s.date, "grade": s.grade, "verify": s.needs_verify,
                           # a title that gives its own date ("… (CAC, 2024-03-22): …") is not followed by it again
                           "dated": _dated_in_title(s.date, memo_text15.source_title(s.title, lang))})
    return numbers, listed


def _dated_in_title(date: str | None, title: str) -> bool:
    """A title that states the source's own month or day ("… (CAC, 2024-03-22): …"): the list does not follow it with
    the date again. A year alone is not taken for it (a law's year in its name, "2025-04-01" when the page is of 2025)."""
    if not date or len(date) < 7:
        return False
    return re.search(rf"(?<![\d-]){re.escape(date)}(?![\d-])", title) is not None


def _same_page(listed: str | None, title: str) -> bool:
    """Two titles of one link where one extends the other ("…需进行ICP备案)" and "…需进行ICP备案); servers in Hong
    Kong … need none")."""
    return listed is not None and (title.startswith(listed) or listed.startswith(title))


def _answers_given(rows: Sequence[dict[str, Any]], lang: str) -> list[str]:
    """The answered questions as "question: answer" items (one line of the memo's appendix, not a table row)."""
    colon = "：" if lang == "zh_CN" else ": "
    return [f"{r['question']}{colon}{r['answer']}" for r in rows if r["given"]]


def _hardware_rows(result: PlanResult, lang: str) -> list[tuple[str, str]]:
    hw, cap = result.hardware, result.capacity
    t = _t(lang)
    rows: list[tuple[str, str]] = []
    # the model is the title's; the verdict on the target is page 1's and the latency table's: not repeated here
    formats = t("memo.hw.formats_value", weights=hw.weights or "—", kv=hw.kv_dtype or "—") \
        if hw.weights or hw.kv_dtype else ""
    # two nodes sized apart (page 1 names both): the rows below are the mainland node's, its label says so
    if hw.gpu:  # which GPU, how many and in what formats in one row (a memo keeps to 4 pages)
        gpus = t("memo4.hw.gpus_value", gpu=hw.gpu_name or hw.gpu, per=hw.gpus_per_replica, replicas=hw.replicas,
                 total=hw.total_gpus, tp=hw.tp or hw.gpus_per_replica)
        rented = rented_of(result.costs, result.deployment_form)
        path = hybrid_path43.gpus_row(result, lang)  # the owned base, the API overflow, the fallback (review 35)
        if path is not None:
            gpus = path
        elif rented is not None and result.costs.hybrid is not None:  # the bursts' part, as page 1 names it
            gpus += t("burst24.hw.rented", plan=rented["plan"], owned=result.costs.hybrid.gpus_owned, n=rented["n"],
                      other=rented["gpu"])
        rows.append((t("memo.hw.layout_mainland" if result.nodes else "memo.hw.layout"),
                     gpus + (t("memo.list_sep") + formats if formats else "")))
        # what is bought or rented (whole servers or VMs, spare for N+1 included) is page 1's hardware row; a hosted
        # API's page 1 says none is, so the servers it would take are said here
        if hw.layout is not None and result.deployment_form == "hosted_api":
            rows.append((t("memo.hw.units"), hw.layout.text_in(lang, hw.gpu_name or hw.gpu)))
    elif formats:
        rows.append((t("memo.hw.formats"), formats))
    # the serve command printed under the table sets these two: said there, not in a row as well
    command = hw.command or ""
    if hw.max_model_len and not any(f"{flag} {hw.max_model_len}" in command
                                    for flag in ("--max-model-len", "--context-length")):
        rows.append((t("memo.hw.max_model_len"), t("memo.unit.tokens", n=_num(hw.max_model_len))))
    if hw.max_num_seqs and not any(f"{flag} {hw.max_num_seqs}" in command
                                   for flag in ("--max-num-seqs", "--max-running-requests")):
        rows.append((t("memo.hw.max_num_seqs"), _num(hw.max_num_seqs)))
    batch = (result.answers or {}).get("use_case") == "offline_batch"
    if batch and hw.gpu:  # a job: what runs at once, its throughput and hours; no latency target (memo_batch)
        rows += memo_batch.batch_capacity_rows(result, t, _num)
        return [(_cell(a), _cell(b)) for a, b in rows]
    if not (batch and not hw.gpu):  # a batch no setup runs has no peak ("planned for 1" read as a figure)
        rows.append((t("memo.cap.peak"), _peak_value(result, t)))
    if cap.max_concurrency_per_replica is not None:
        claim, curve = cap.max_concurrency_per_replica, cap.curve_max_per_replica
        rows.append((t("memo.cap.max_per_replica"),
                     t("burst40_cap.row", claim=_num(claim), curve=_num(curve))  # one cap, the plan (s38-burst40)
                     if curve is not None and curve > claim else _num(claim)))
    if cap.memory_max_concurrency is not None:
        fit = cap.kv_fit  # the full-context count beside the average one (s32-kvfit33): the cap rests on the latter
        rows.append((t("memo.cap.memory_max"), _num(cap.memory_max_concurrency) if fit is None else
                     t("kvfit33.cap.memory_max", typical=_num(fit.at_typical), avg=_num(fit.typical_tokens),
                       full_fit=_num(fit.at_full), context=_num(fit.context))
                     + kv_cap_note38.row_clause(fit, hw.command, lang,
                                                fallback=bool(lead_text(result.start_with, lang)))))  # fmt: skip
    likely, lc = cap.likely, result.latency_curve
    # trim42 (issue 25, blind review 32, q30: "TTFT at the peak … P99 541 ms" is the 20-a-replica figure while the
    # latency table shows 746 ms at 40, one replica down): where the peak row gives both loads, the rows say which
    up = t("trim42.cap.all_up", per=_num(cap.concurrency_per_replica)) if _one_down_said(result) else ""
    for key, p50, p99, span, target, rtt in (
            ("memo.cap.ttft", cap.ttft_p50_ms, cap.ttft_p99_ms, likely and likely.ttft_ms,
             lc.slo_ttft_p99_ms if lc else None, ttft_server42.round_trip_ms(result)),
            ("memo.cap.tpot", cap.tpot_p50_ms, cap.tpot_p99_ms, likely and likely.tpot_ms,
             lc.slo_tpot_p99_ms if lc else None, None)):
        first = up if key == "memo.cap.ttft" else ""  # said once, on the first of the two rows (pages: q07, 06)
        if p50 is not None and p99 is not None and span and likely:  # the range is the P50's: said beside it (#25)
            rows.append((t(key), first + memo_likely.p50_likely_p99(p50, p99, span, likely.regime, t, _num, target,
                                                                    rtt)))
        elif p50 is not None and p99 is not None:
            rows.append((t(key), first + t("memo.cap.p50_p99", p50=_num(p50, 1), p99=_num(p99, 1))))
        elif p99 is not None or p50 is not None:  # say only what is known, never "P50 — ms"
            rows.append((t(key), first + t("memo.cap.p99_only" if p99 is not None else "memo.cap.p50_only",
                                        ms=_num(p99 if p99 is not None else p50, 1))))
    user, total = cap.output_tokens_per_s_per_user, cap.output_tokens_per_s_total
    stream = result.line_cost.output_tokens_per_s if result.line_cost is not None else None
    peak = cap.peak_concurrency
    quoted = (result.costs.volume_basis or {}).get(volume_range.PEAK_RATE) if result.costs is not None else None
    # s21-util21b (q23: "5,920 drawn against 5,932" read as no margin beside "20 % headroom"): the planned load is
    # the peak spread over every replica, so the two nearly match by construction; the most the replicas but the
    # spare take within the target (the headroom row's) is said beside it
    head = cap.headroom if cap.headroom_measured is None else None
    most = round(peak * (1 + head)) if peak and head is not None and head > 0 else None
    # the speed row speaks of a spare only where the plan led keeps one (s32-headline33, q10: one server, no spare)
    spare = spare_kept.in_result(result)
    drawn_said = bool(user is not None and total is not None and (stream or quoted) and peak and not batch)
    if drawn_said and user is not None and total is not None and peak:  # (drawn_said says these; mypy reads it so)
        # s19-reserve19 (q36: 8,018 tokens/s here, 4,674 in the line's finding), s20-fleet20 (q04: "the peak's 721
        # tokens/s" in the tokens row beside 945 here), s25-numbers25 (q32: a different per-request rate unsaid):
        # the peak's output in all and the peak's draw the line is sized on / the month's tokens start from, each
        # with its per-user rate; s34-rows36 (review 25, q30/q18: one run-on sentence) says them in two clauses
        if stream:
            # s20-costtoken20: the stream the prediction gives at the planned load where the cautious figure exceeds it
            sim = result.line_cost is not None and result.line_cost.stream_simulated
            why = "sim" if sim else "slow"
            basis = "both" if quoted and abs(quoted - stream) <= 0.005 * stream else "line"
            drawn, drawn_text = stream, t("memo.unit.tok_s", n=_num(stream))
        else:
            assert quoted is not None
            why, basis = "cautious", "tokens"
            # the tokens row's own figure, rounded once from the unrounded rate (its 0.1-rounded copy read 1,180
            # beside the row's 1,179: q20, s33)
            drawn = quoted
            drawn_text = t("memo.unit.tok_s", n=(result.costs.volume_basis or {}).get("rate") or _num(quoted))
        rows.append((t("memo4.cap.speed"), memo_speed36.speed_text(
            t, user=t("memo.unit.tok_s", n=_num(user, 1)), total=total, total_text=t("memo.unit.tok_s", n=_num(total)),
            stream=drawn, stream_text=drawn_text, each=t("memo.unit.tok_s", n=_num(drawn / peak, 1)), peak=_num(peak),
            why=why, basis=basis)))
    elif user is not None and total is not None:
        rows.append((t("memo4.cap.speed"), t("memo4.cap.speed_value", user=t("memo.unit.tok_s", n=_num(user, 1)),
                                             total=t("memo.unit.tok_s", n=_num(total)))))
    elif user is not None:
        rows.append((t("memo.cap.per_user"), t("memo.unit.tok_s", n=_num(user, 1))))
    elif total is not None:
        rows.append((t("memo.cap.total"), t("memo.unit.tok_s", n=_num(total))))
    if cap.headroom is not None and cap.headroom_measured is not None:  # sized on the fleet's measured load (q39)
        # one figure, the one the plan is sized on, gated on counting the requests in flight (round 14, q39: "stated
        # headroom is 20 % versus 96 %"); the curve's reading is the deciding reason's, which names step 1
        rows.append((t("memo.cap.headroom"), t("consist25.cap.headroom_measured",
                                               measured=f"{cap.headroom_measured * 100:.0f}")))
    elif cap.headroom is not None:
        # the most within the target beside its percent where the speed row gives the peak's draw (s21-util21b, q23:
        # a total beside the draw read as no margin; moved here from the speed row by s34-rows36)
        rows.append((t("memo.cap.headroom"), memo_speed36.headroom_text(
            t, head=cap.headroom, most=most if drawn_said else None, peak=peak or 0,
            spare=spare, num=_num)))
    if cap.batch_hours is not None:
        rows.append((t("memo.cap.batch_hours"), t("memo.unit.hours", n=_num(cap.batch_hours, 1))))
    return [(_cell(a), _cell(b)) for a, b in rows]


def _cost_rows(result: PlanResult, lang: str, refs: Mapping[tuple[str, str], int] | None = None
               ) -> list[tuple[str, str]]:
    """The cost table. Related figures share a row (the cloud's three prices, a purchase and what owning costs a
    month after it), and what page 1's table already says (the recommended option's cost, the budget) is not
    repeated: a memo keeps to 4 pages. ``refs``: the source numbers of the memo's list, for the line's price."""
    c = result.costs
    t = _t(lang)
    cur = c.currency
    job = c.per_job  # a batch: one job's total, never labelled per month
    owning = memo_forms.chosen_owned(result) is not None
    owned_only = owned_rent_rows.owns_it_all(result)  # on the team's own GPUs alone: no rent rows (owned_rent_rows)
    rows = _node_cost_rows(result, lang)
    uplift = "—"
    if c.region_uplift is not None:
        u = c.region_uplift
        uplift = t("memo.cost.region_uplift_value" if u.low != u.high else "prices16.cost.region_uplift_one",
                   low=f"{u.low:g}", high=f"{u.high:g}", source=memo_text15.price_source(u.source, lang),
                   date=u.date, grade=u.grade)  # fmt: skip
    tokens = "—"
    if c.output_tokens_per_month:
        # a month derived from the peak's rate prints as an estimate (two figures, wave 2 q11), the label too
        tokens = f"{volume_range.volume_text(c.volume_basis, c.input_tokens_per_month or 0)} / " \
            f"{volume_range.volume_text(c.volume_basis, c.output_tokens_per_month)}"
        # a month raised to its busiest hour's floor: the row is the figure the costs use, its line, and the
        # estimate from the answers as a clause saying why not (onebasis36, review 25: q09/q34 "pick one"), one row
        one_row = "" if job else volume_peak.floor_sentence(c, lang, result.deployment_form == "hosted_api")
        if one_row:
            tokens = one_row
        elif c.volume_basis and not job:  # s15-burst: say how the volume was counted (requests a day, or rate × duty)
            basis = {k: v for k, v in c.volume_basis.items() if k != "tr"}
            tokens = t("memo.burst15.tokens_value", tokens=tokens,
                       basis=render(lang, str(c.volume_basis["tr"]), basis))
    # the cloud's prices in one row; monthly/reserved is a monthly price, so a job (billed whole) keeps it apart
    # a hybrid rents only for its peaks: a monthly commitment on every GPU of the peak means nothing there (q39)
    reserved = not job and result.deployment_form != "hybrid"
    # s18-apiweigh: on demand scaled to the load and a commitment on every GPU, each named by what it bills
    cloud = [(t(key, cost=_money(r, cur), **cloud_price_labels.label_params(c)) if key else
              reserved_floor.cost_label(c, lang, _money(r, cur)), r) for key, r in (
        (cloud_price_labels.on_demand_key(c), c.cloud_on_demand_monthly),
        # s19-reserve19: the always-on floor reserved, the burst replicas on demand (labelled by reserved_floor)
        ("" if c.cloud_reserved_floor else cloud_price_labels.reserved_key(c), c.cloud_monthly if reserved else None),
        ("memo4.cost.spot", c.cloud_spot_monthly)) if r is not None]
    # the plan's own month first, the others after it in one short clause with why not (cst44, q07/q09)
    cloud_text = cloud_row44.arrange(c, lang, cloud, lambda r: _money(r, cur))
    # an owning form shows its own purchase and running costs below; a basic-ops team renting is not offered the
    # buy-and-colocate row (s23-pages23, memo_rows_needed)
    capex, monthly = (("—", "—") if owning or not memo_rows_needed.bare_metal_row_needed(result)
                      else (_money(c.bare_metal_capex, cur), _money(c.bare_metal_monthly, cur)))
    per_million = "—"
    out_m, all_m = _money(c.cost_per_million_output_tokens, cur), _money(c.cost_per_million_tokens, cur)
    split = memo_text15.per_million_split(c)
    if split is not None:  # input and output apart, the GPU time split between prefill and decode (s15-text)
        (in_lo, in_hi), (o_lo, o_hi) = split
        share = c.prefill_gpu_share or 0.0
        value_key = "memo.polish15.cost.per_million_nodes_value" if result.nodes else "memo.text15.cost.per_million_value"
        job_h = memo_job_split.job_gpu_hours(result) if job else None
        if job_h is not None:  # a job: its GPU-hours split as the sizing reason's floor reads them (batch_split)
            value_key = memo_job_split.value_key(share)
        per_million = t(value_key, input=_money(MoneyRange(low=in_lo, high=in_hi), cur),
                        output=_money(MoneyRange(low=o_lo, high=o_hi), cur), prefill=f"{share * 100:.0f}",
                        decode=f"{(1 - share) * 100:.0f}", **memo_job_split.hours(job_h, share, _num))
    elif out_m != "—" and all_m != "—":
        per_million = t("memo4.cost.per_million_value", output=out_m, all=all_m)
    note = people_volume.per_million_note(None if job else c.volume_basis)
    # s20-costtoken20: the figures' basis (the setup's capacity × utilisation) and, where answered, the volume's;
    # s18-apiweigh's per-person note only where a figure still divides an assumed month
    # a hosted API's rates beside the figure only where one is weighed (not on cards the team owns alone)
    per_million = memo_per_million.with_basis(per_million, c, lang,
                                              lambda: render(lang, str(note["tr"]), note) if note else "",
                                              hosted=not owned_only and not result.nodes,
                                              api_led=split is not None and (result.deployment_form == "hosted_api"
                                                                             or office_token_rows.api_led_sold(result)))
    if per_million != "—":  # a paid API on owned cards: the figure with their capital beside it (review 26, q18)
        per_million += owned_capital37.clause(result, lang)
    if c.output_tokens_per_month:
        # the month far below what its own peak implies: said, with a hosted API's month at the other reading
        # (s26-volume26); never a second per-million figure (s31-permillion31: the per-million row's is the one)
        disagree = volume_peak.sentence(c, result.deployment_form == "hosted_api", lang)
        tokens = f"{tokens} {disagree}" if disagree else tokens
    hosted = _money(c.hosted_api_monthly, cur)
    if hosted != "—" and c.hosted_api_input_per_million and c.hosted_api_output_per_million:
        # another model's list prices the figure: named beside it (s19-prices: q29's Llama-3.3-70B on Qwen's lists)
        hosted = t("memo.prices19.cost.hosted_other" if c.hosted_api_priced_on else "memo4.cost.hosted_value",
                   cost=hosted, input=_money(c.hosted_api_input_per_million, cur),
                   output=_money(c.hosted_api_output_per_million, cur), priced_on=c.hosted_api_priced_on or "")
        # a public chat priced as chats: the row leads with page 1's month, the single-request one in brackets once
        chats = memo_chat_rows.hosted_row(result, lang, _money(c.hosted_api_monthly, cur),
                                          _money(c.hosted_api_input_per_million, cur),
                                          _money(c.hosted_api_output_per_million, cur))
        hosted = chats or hosted
        # review 25 (q20): an API at about the plan's month, not below it: said so, and what decides instead
        hosted += api_even.note(result, lang, _money(c.recommended_monthly, cur))
    if tokens != "—":  # a public chat priced as chats: the row leads with the chats' month (s34-volume36, q16)
        tokens = memo_chat_rows.tokens_value(result, lang) or tokens
    # a purchase deferred until a quote meets the covered gate: its rows read as that purchase's (s32-headline33, q26)
    if_bought = when_bought.applies(result.deployment_form, c)
    for key, value in (
        ("memo.cost.cloud_per_gpu_hour", _money(c.cloud_per_gpu_hour, f"{cur}/GPU·h")),
        ("memo.cost.region_uplift", uplift),
        ("prices16.cost.basis", c.price_basis.text_in(lang, quote_asked=_quote_asked(result))
         if c.price_basis is not None else "—"),
        ("memo.cost.billed_hours", _money(c.billed_hours, "h")),
        ("memo4.cost.cloud_job" if job else "memo4.cost.cloud_monthly", cloud_text or "—"),
        ("memo.cost.cloud_monthly", _money(c.cloud_monthly, cur) if job else "—"),
        ("memo4.cost.bare_metal", t("memo.owncost20.cost.bare_metal_value", capex=capex, monthly=monthly,
                                    months=c.horizon_months, hidden=_hidden_capex_text())
         + server_size_price.text(c, lang) + _repair_rent(c, lang, cur) if "—" not in (capex, monthly) else "—"),
        ("memo.cost.bare_metal_capex", capex if monthly == "—" else "—"),
        ("memo.cost.bare_metal_monthly", monthly if capex == "—" else "—"),
        # a plan that waits months on the filing: a purchase is weighed once it is done (blind review 27, q30 zh)
        # trim42 (blind review 32, q19/q21): a purchase the rent finding calls far off is said there in one sentence,
        # its months not again here
        ("plan.breakeven.months.label", "—" if filedwait38.waits(result) or _purchase_far_off(result) else
         _break_even(c, lang, "months", getattr(result, "answers", None))),
        ("plan.breakeven.utilisation.label", "—" if filedwait38.waits(result) else _break_even(c, lang, "utilisation")),
        ("memo.cost.tokens_job" if job else "memo.cost.tokens", tokens),
        ("memo4.cost.per_million" if split is None else "memo.text15.cost.per_million_self"
         if result.deployment_form == "hosted_api" or office_token_rows.api_led_sold(result)
         else "memo.text15.cost.per_million", per_million),
        ("memo.cost.per_million_tokens", out_m if per_million == "—" else "—"),
        ("memo.cost.per_million_all", all_m if per_million == "—" else "—"),
        ("memo.cost.hosted_job" if job else "memo.cost.hosted_monthly", hosted),
    ):
        if owned_only and key in owned_rent_rows.RENT_ROWS:
            continue  # an owned fleet's cost is not rent (blind review 18, q18/q33): its rent rows are never added
        if value != "—":
            rows.append((t(IF_BOUGHT.get(key, key) if if_bought else key), value))
        if key in ("memo4.cost.cloud_job", "memo4.cost.cloud_monthly") and value != "—" and not owned_only:
            # every factor of the product, the uplift sourced
            formula = memo_cost_formula.formula_row(c, lang, reserved=result.deployment_form != "hybrid",
                                                     hybrid=result.deployment_form == "hybrid")
            if formula is not None:
                rows.append((formula[0], formula[1] + rent_count.note(result, lang)))  # renting's count, why (q08)
    if c.phased is not None:  # launched offshore, then the mainland node: each phase and the first year (q21)
        rows.append(phased_cost.cost_row(c.phased, cur, lang))
    # the finding on the line states its bandwidth, price per Mbps and month in its title, and whether page 1's total
    # holds it: the row would be the third time (page 1, the finding) (s21-pages21; before, only an unpriced line)
    line_said = result.line_cost is not None and any(f.id == LINE_FINDING for f in result.findings)
    if result.line_cost is not None and not line_said:  # the line at the plan's own bandwidth; unknown price said so
        rows.append((t("memo.cost.line"), _line_cost_text(result, lang, refs or {})))
    rows.extend(hybrid_path43.cost_rows(result, lang, memo_forms.cost_rows(result, lang)))  # the path (review 34)
    if (result.answers or {}).get("use_case") != "offline_batch":  # a job is priced whole, not by month or use
        # "measured" where the figure is the service's own answered duty (q26's 80 %), else "assumed" (s20-consist20)
        # the tokens row's share of the capacity is said once: in the per-million row where that row prints it
        busy_said = per_million != "—" and bool(memo_per_million.volume_clause(c, lang)) and \
            not office_token_rows.drops_per_million(result)
        value = memo_per_million.utilisation_value(c, lang, busy_said=busy_said)
        value += office_token_rows.split_clause(result, lang)  # the GPU-time split, where no per-million row says it
        rows.append((t("memo.consist20.cost.measured" if c.utilisation_measured else
                       "usage25.cost.label" if c.usage_from_tokens else "memo4.cost.assumed"),
                     memo_lead_once.utilisation_value(result, lang, value)))
    if memo_rows_needed.fx_row_needed(result):  # not under a memo of US dollars only (s23-pages23)
        rows.append((t("memo.cost.fx"), t("memo.cost.fx_value", rate=f"{c.fx_rate:.2f}", date=c.fx_date,
                                          source=memo_text15.price_source(c.fx_source, lang))))
    if result.deployment_form == "hosted_api":  # what the plan pays first; the GPU rows after it are the comparison
        label = t("memo.cost.hosted_job" if job else "memo.cost.hosted_monthly")
        rows.sort(key=lambda r: r[0] != label)
    # a purchase on a one-off budget alone: no rent to weigh, its rows left out (ninth blind review, s33-rows34)
    # the months at the plan's one utilisation (s23-util23); _said_once drops the row where the rent finding holds
    # the months word for word
    rows = _said_once(rows, result, lang)
    rows = capex_only_rows.fold(rows, result, lang)  # no rent to weigh on a one-off budget alone (s33-rows34)
    rows = rent_ruled_out39.fold(rows, result, lang)  # a rent the data rules out: one line (review 28, q03)
    rows = office_token_rows.fold(rows, result, lang)  # a small office tool's token rows in one line (round 10)
    rows = rent_row_label.relabel(rows, result, lang)  # a marketplace's rent named as such (s33-tokens33, q02)
    rows = burst_order40.fold_rows(rows, result, {t(k) for k in PER_MILLION_ROWS})  # a hybrid's bursts (review 30)
    return [(_cell(a), _cell(b)) for a, b in rows]


# the cost table's per-million rows, one of which a memo prints (s31-permillion31's test reads them)
PER_MILLION_ROWS = ("memo4.cost.per_million", "memo.text15.cost.per_million", "memo.text15.cost.per_million_self",
                    "memo.cost.per_million_tokens", "memo.cost.per_million_all")


def _said_once(rows: list[tuple[str, str]], result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """The cost rows less what the memo's findings say in full with the same figures (issue 25: each figure once,
    a typical memo in 4 pages): a value a finding's text holds word for word (the break-even utilisation), the
    hosted API's month and rates where the finding weighing it against this plan gives both, and the GPU-hour
    price where the worked-out cloud cost multiplies it."""
    t = _t(lang)
    details = [f.detail_in(lang) for f in result.findings]
    labels = {label for label, _ in rows}
    hosted_weighed = result.deployment_form != "hosted_api" and any(f.id == HOSTED_FINDING for f in result.findings)
    # on cards the team already owns, a dearer hosted API is no alternative to weigh: its row read as filler (ninth
    # blind review, q04, q08, q18, q33: "the hosted-API comparison is meaningless for cards already owned")
    drop = {t("memo.cost.hosted_monthly"), t("memo.cost.hosted_job")} if hosted_weighed or on_owned_cards(result) \
        else set()
    if t("memo.batchcost15.formula_label") in labels:
        drop.add(t("memo.cost.cloud_per_gpu_hour"))
    rows = _month_worked_out(rows, result, lang)
    return [(label, value) for label, value in rows
            if label not in drop and not (len(value) >= 24 and any(value in d for d in details))]


def _month_worked_out(rows: list[tuple[str, str]], result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """The cloud's month row with its worked-out product as its value, the product's own row gone, where the
    product ends in every total the month row lists (s22-pages22, issue 25: each figure once)."""
    t = _t(lang)
    month, worked = t("memo4.cost.cloud_monthly"), t("memo.batchcost15.formula_label")
    values = dict(rows)
    if month not in values or worked not in values or not _totals_in_formula(result, values[month], values[worked]):
        return rows
    return [(label, values[worked] if label == month else value) for label, value in rows if label != worked]


def on_owned_cards(result: PlanResult) -> bool:
    """The plan runs on the team's own fleet (its layout laid out on the cards the answers say they own)."""
    layout = result.hardware.layout
    return result.deployment_form != "hosted_api" and layout is not None and layout.basis == "fleet"


HOSTED_FINDING = "cost.hosted_weighed"  # a hosted API of the same model weighed against the plan: its cost and rates


def _line_cost_text(result: PlanResult, lang: str, refs: Mapping[tuple[str, str], int]) -> str:
    """The line's bandwidth and monthly price, short: the finding on the line (same figures) says how the
    bandwidth is counted and cites the sources, whose numbers follow; without that finding, the engine's full
    text."""
    lc = result.line_cost
    assert lc is not None
    if lc.monthly is None or lc.per_mbps_month is None:
        return translate(lang, "memo4.cost.line_unpriced", mbps=f"{lc.mbps:,.0f}")
    line_finding = next((f for f in result.findings if f.id == LINE_FINDING), None)
    numbers = sorted({refs[(s.title, s.url or "")] for s in line_finding.sources if (s.title, s.url or "") in refs}
                     ) if line_finding is not None else []
    if not numbers:
        return lc.text_in(lang)

    def money(r: MoneyRange) -> str:
        return f"{r.low:,.0f}" if r.low == r.high else f"{r.low:,.0f}–{r.high:,.0f}"

    return translate(lang, "memo4.cost.line_priced", mbps=f"{lc.mbps:,.0f}", rate=money(lc.per_mbps_month),
                     cost=money(lc.monthly), currency=lc.currency, ref=" " + " ".join(f"[{n}]" for n in numbers))


LINE_FINDING = "cost.line_bandwidth"  # the finding that gives the line's figures with their derivation and sources


def _budget_verdict(c: Any, t: Any, stand_in: str | None = None) -> str:
    """Within (the whole range), straddling (the low end within, the high end over), over the budget, or unknown
    (no cost to compare). ``stand_in``: the verdict said where the month rests on a stand-in price and no part priced
    in the region meets the target within the budget, so "within" holds at that price until a quote (review 30, q25)."""
    if c.within_budget is None:
        return t("memo.cost.unknown")
    if c.budget_straddles:
        return t("memo.cost.straddles")
    if c.within_budget and stand_in:
        return stand_in
    return t("memo.cost.within" if c.within_budget else "memo.cost.over")


def _repair_rent(c: Any, lang: str, cur: str) -> str:
    """The repair-day rent in the owning month, said where no spare server is bought (s28-own28, ``own_like``)."""
    rep = c.bare_metal_repair_monthly
    if rep is None:
        return ""
    from advisor.plan.server_repair import repair_facts

    f, d = repair_facts()["failures_per_gpu_year"], repair_facts()["repair_days"]
    return translate(lang, "own28.cost.repair_rent", cost=_money(rep, cur), low=f"{f['low']:g}", high=f"{f['high']:g}",
                     days_low=d["low"], days_high=d["high"], grade=f["grade"], days_grade=d["grade"])


def _hidden_capex_text() -> str:
    """The factor the colocated purchase carries over the cards' listed price (re-check 12b: q07's and q11's purchase
    read 10–15 % above cards × unit price, unexplained)."""
    lo, hi = factor_range("hidden_capex")
    return f"{lo:g}–{hi:g}"


# the cost rows of a purchase the plan defers (``when_bought``): labelled as the conditional purchase's
IF_BOUGHT = {"memo4.cost.bare_metal": "headline33.cost.bare_metal_if_bought",
             "plan.breakeven.months.label": "headline33.cost.breakeven_if_bought"}


def _break_even(c: Any, lang: str, unit: Any, answers: dict[str, Any] | None = None) -> str:
    """Months until owning pays off / the utilisation above which it is cheaper, in words where there is none
    (never "999 months" nor a utilisation of 482 %)."""
    r = c.break_even_months if unit == "months" else c.break_even_utilisation
    if r is None:
        return "—"
    if unit != "months":
        return r.text(lang, unit)
    # the always-on VM it is paid back against, named, where that is not the printed rent (s30-payback31)
    said = vm_payback_words.table_row(c, lang, r.text(lang, unit), answers)
    # blind review 27 (q03): against a rent the plan rules out (the data must stay on the team's own network) the
    # payback is for reference only, said so
    if rent_fallback.data_stays_inside(answers or {}):
        said = translate(lang, "buyprice38_payback.reference_only", said=said)
    return said


def _offer_with_gpu(offer: str, gpu: str) -> str:
    """The offer as the price table names it: with its GPU where the offer's own name does not say it
    ("AWS Capacity Blocks p5.48xlarge · NVIDIA H100 SXM 80GB"); the table has no GPU column of its own."""
    if not gpu or gpu == "*":
        return offer
    from advisor.plan.data import gpus_by_id

    def squeeze(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    if squeeze(gpu.split("-")[0]) in squeeze(offer):
        return offer
    known = gpus_by_id().get(gpu)
    return f"{offer} · {known.name if known else gpu}"


def _price_rows(result: PlanResult, lang: str) -> list[dict[str, str]]:
    out = []
    c = result.costs  # no purchase row for cards nothing buys (s38-burst40)
    for p in unbought_rows.shown(c.prices, result.deployment_form, c, result.answers, result.hardware.gpu):
        low, high = _round_money(p.low), _round_money(p.high)
        out.append({
            # another region's power tariff said as the stand-in it is (s33-tokens33, q01/q02)
            "offer": _cell(_offer_with_gpu(memo_text15.price_offer(p, lang), p.gpu)
                           + power_tariff.offer_note(p, str(result.region), lang, result.costs.prices)), "gpu": _cell(p.gpu),
            "kind": _cell(_value_text(lang, "price_kind", p.kind)),
            "price": _cell((low if low == high else f"{low}–{high}") + f" {memo_text15.price_unit(p.unit, lang)}"),
            "date": _cell(p.date), "source": _cell(f"[{memo_text15.price_source(p.source, lang, p.id)}]({p.url})" if p.url
                                                   else memo_text15.price_source(p.source, lang, p.id)),
            "grade": p.grade + (" ⚠" if p.grade in ("C", "U") else "") + (" ★" if p.user_quote else ""),
        })
    return out


def _curve_rows(result: PlanResult, lang: str) -> list[dict[str, str]]:
    """The latency table's levels; one past the serve command's cap (--max-num-seqs) is labelled as queued past the
    cap, in its own cell (a note under the table pushed q07's English onto a sixth page): its first-token time holds
    the wait for a seat (s36-longctx; review 27, q03: "the 20-column 'TTFT P99 30,279 ms' needs a clear label as
    queueing past the cap, or it will alarm readers")."""
    cap = result.hardware.max_num_seqs
    return [{"c": translate(lang, "longctx38_curve.queued", c=_num(p.concurrency)) if cap and p.concurrency > cap
             else _num(p.concurrency), "ttft": _num(p.ttft_p99_ms, 1), "tpot": _num(p.tpot_p99_ms, 1),
             "tps": _num(p.output_tokens_per_s)} for p in result.latency_curve.points]


def _evidence_row(e: RunEvidence, lang: str) -> dict[str, str]:
    """One measured run as the memo's table shows it (a real server: its figures as measured)."""
    t = _t(lang)
    knee = t("memo.evidence.knee_at", c=e.knee_concurrency) if e.knee_concurrency else t("memo.evidence.no_knee")
    if e.slo_ttft_ms is None:
        at_slo = t("memo.evidence.no_slo")
    elif e.max_concurrency_within_slo is None:
        at_slo = t("memo.evidence.none_within", ms=_num(e.slo_ttft_ms))
    else:
        at_slo = t("memo.evidence.at_slo", c=e.max_concurrency_within_slo, ms=_num(e.ttft_p99_at_slo_ms, 1),
                   target=_num(e.slo_ttft_ms))
    memory = t("memo.evidence.no_gpu") if e.peak_gpu_memory_bytes is None else (
        _gib(e.peak_gpu_memory_bytes) + (f" / {_gib(e.gpu_memory_total_bytes)}" if e.gpu_memory_total_bytes
                                         else ""))
    if e.gpu_names:
        memory += f" ({', '.join(e.gpu_names)})"
    return {"run": _cell(e.label or e.run_id), "date": e.date, "model": _cell(e.model or "—"),
            "knee": _cell(knee), "at_slo": _cell(at_slo), "memory": _cell(memory), "status": _cell(e.status),
            "tps": _cell(t("memo.unit.tok_s", n=_num(e.output_tokens_per_s_at_slo)))
            if e.output_tokens_per_s_at_slo is not None else "—"}


def _simulated_row(e: RunEvidence, lang: str) -> dict[str, str]:
    """A simulated run: what the simulator gave at the simulated GPU's own speed (the time scale undone), or no
    speed at all when the run did not record its time scale."""
    t = _t(lang)
    ok = [lv for lv in e.levels if lv.status == "ok"]
    scale = e.time_scale
    if scale is None:
        scale_text = t("evidence.sim.scale_unknown")
        speed = t("evidence.sim.speed_unknown")
    else:
        scale_text = t("evidence.sim.scale", k=f"{scale:g}")
        top = max(ok, key=lambda lv: lv.concurrency) if ok else None
        if top is None:
            speed = "—"
        else:  # durations ran × scale, rates ÷ scale: undo both
            speed = t("evidence.sim.speed", c=top.concurrency,
                      ttft=_num(top.ttft_p99_ms / scale if top.ttft_p99_ms is not None else None, 1),
                      tps=_num(top.output_tokens_per_s * scale))
    return {"run": _cell(e.label or e.run_id), "date": e.date, "gpu": _cell(e.sim_gpu or ", ".join(e.gpu_names) or "—"),
            "scale": _cell(scale_text), "speed": _cell(speed)}


def _evidence(evidence: Sequence[RunEvidence], lang: str, result: PlanResult) -> dict[str, Any]:
    """The evidence section: measured runs for this plan, simulated ones apart, the rest with why they are not
    evidence, and the command that would measure the plan when nothing real has."""
    report = plan_evidence(result, list(evidence))
    t = _t(lang)
    hw = result.hardware
    excluded = []
    for x in report.excluded[:8]:
        excluded.append(t("evidence.excluded_item", run=x.run.label or x.run.run_id,
                          why=t(f"evidence.reason.{x.reason}", **x.params)))
    return {
        "measured": [_evidence_row(e, lang) for e in report.measured],
        "simulated": [_simulated_row(e, lang) for e in report.simulated],
        "excluded": excluded,
        "excluded_more": max(0, len(report.excluded) - 8),
        "command": report.bench_command,
        "none": t("evidence.none_for_plan"),  # nothing measured: said before ``for_plan`` (``memo_api_only`` words it)
        "for_plan": t(_for_plan_key(result), model=_model_words(result, lang, hw.model_name or hw.model or "—"),
                      gpu=hw.gpu_name or hw.gpu or ""),
    }


def _for_plan_key(result: PlanResult) -> str:
    """What the evidence section says the plan runs on: a hosted-API plan calls the provider's API, and its GPU is
    the self-hosted comparison's (zh reviewer: "hosted-API memos still say 'runs on an RTX 4090 / L20'")."""
    hw = result.hardware
    if not (hw.gpu_name or hw.gpu):
        return "evidence.for_plan_no_gpu"
    return "wording18.evidence.for_plan_hosted" if result.deployment_form == "hosted_api" else "evidence.for_plan"


def _fine_tune_unplaced(result: PlanResult) -> bool:
    """A fine-tuned model whose checkpoint the answers do not give (no command can load it)."""
    a = result.answers or {}
    return a.get("model_customisation") == "fine_tuned" and not a.get("checkpoint")


def _checkpoint_placeholder(result: PlanResult, command: str | None, lang: str) -> str:
    """Under a command that reads a fine-tune's checkpoint from a shell variable (not given, q41): it stops until the
    variable is set (a next step says to what), and the name it is served under is theirs to keep or change."""
    var = variable_in(command)
    repo = local_copy_in(command)
    if var is not None and repo is not None:  # the team's own checkpoint from a local copy on a mainland node (q30)
        return _t(lang)("models24.memo.local_copy", var=f"`{var}`", repo=f"`{repo}`")
    if var is not None and f"--served-model-name {SERVED_NAME_WORD}" in (command or ""):
        # no name given: the team's SERVED_NAME, else the checkpoint folder's name, never one made up (round 13, q41)
        return _t(lang)("models24.memo.served_name_variable", var=f"`{var}`", served=f"`{SERVED_VAR}`",
                        folder=f"`{FINETUNE_VAR}`")  # fmt: skip
    name = re.search(r"--served-model-name (\S+)", command or "")
    if var is None or name is None:
        return ""
    return _t(lang)("finetune23.memo.checkpoint_variable", var=f"`{var}`", name=f"`{name.group(1)}`")


def _model_words(result: PlanResult, lang: str, base: str) -> str:
    """The model as titles name it: a fine-tune with neither a name nor a checkpoint is "your fine-tune of <base>"
    (never a placeholder such as YOUR_FINE_TUNED_MODEL, which reads as a name)."""
    a = result.answers or {}
    if _fine_tune_unplaced(result) and not a.get("model_name"):
        return _t(lang)("memo.model.own_fine_tune", base=base)
    return base


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resource_path("templates"))),
        autoescape=False,  # Markdown, not HTML
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _kept(result: PlanResult) -> bool:
    """The plan is kept on its own GPUs although a hosted API costs less (its one reason is said under the headline)."""
    return result.start_with is not None and result.start_with.form == "this_plan"


def _page_one_step(step: NextStep, result: PlanResult, lang: str) -> str:
    """A next step as page 1 prints it: less what the rows or the headline above it say (session 26)."""
    step = memo_quote_once.page_one_step(step, result)  # the stand-in price: the cost row's
    step = quote_lead35.page_one_step(step, result, lang)  # what a failed server leaves: the headline's (review 28)
    return memo_condition_once.page_one_step(step, result, lang).text_in(lang)  # the buy's condition: the headline's


def memo_title(lang: str, model: str) -> str:
    """The memo's title; in Chinese no space between a model named in Chinese words ("你们基于 … 的微调模型") and the
    "的" after it (sixth blind review, q41: "微调模型 的部署方案"), as Chinese sets none between two Chinese words."""
    cjk = lang == "zh_CN" and bool(model) and "\u4e00" <= model[-1] <= "\u9fff"
    return translate(lang, "memo.inputs17.title_cjk" if cjk else "memo.title", model=model)


def far_from_mainland(f: Any) -> bool:
    """"No mainland China rules apply" for a team with no users and no company there and a node in Europe or the US
    (the rule's ``near_mainland`` False): nobody reading the memo weighed mainland rules, so the memo does not say it
    (blind review 28, q18: "the 'No mainland China rules apply' finding is noise for a US-only company"; review 25,
    q09: "irrelevant to a German team"). Near the mainland (Hong Kong, Singapore, Japan) it stays a reason; the
    finding stays in the plan (``--json``) and the disclaimer still reads it (``memo28.disclaimer``)."""
    return f.id == NO_MAINLAND_RULES and f.params.get("near_mainland") is False


def memo_context(
    result: PlanResult, lang: str, *, evidence: Sequence[RunEvidence] | None = None,
    chart_paths: Mapping[str, str] | None = None, charts_note: str = "",
) -> dict[str, Any]:
    """Everything the template shows, already in ``lang`` (the template itself holds only structure)."""
    t = _t(lang)
    every = sorted(result.findings, key=lambda f: (SEVERITY_ORDER[f.severity], f.id))
    every = quote_room_once44.findings(every, result)  # the budget's room: the recommendation's (review 35, q03)
    every = pi_said_once44.findings(every)  # the notice and legal basis: inside the sensitive-information finding (review 35)
    every = server_down_once39.findings(every, result, lang)  # one server down: the hardware row's (review 28)
    as_asked = as_asked_only(result)
    # section 7 and its sources: less a finding a next step says whole (the plain quantization check)
    findings = memo_steps_once.findings_for_section(every, result, deciding(every, as_asked))
    findings = memo_api_only.findings(findings, result)  # an API far cheaper: the comparison's sizing in one line
    findings = api_led_brief40.findings(findings, result)  # an API lead: page 1's cost row says why all are reserved
    findings = fleet_said_once.findings(findings, every)  # "Your fleet" folded into "Runs on 6 of your 8" (review 27)
    findings = [f for f in findings if not far_from_mainland(f)]
    # page 1 states what each unanswered question that decides was assumed as; the appendix does not say it again
    open_questions = [q for q in result.open_questions if q.changes_decision]
    # the lead's break-even in tokens points at the request-count question that says it in requests (s26)
    start = memo_volume_once.start_with(result.start_with, open_questions)
    lead = lead_text(start, lang, markdown=True) if result.feasible else ""
    findings = memo_lead_once.next_generation_said(findings, lead)  # page 1 starts on the next generation
    findings = memo_lead_once.stopgap_said(findings, result)  # page 1's stopgap paragraph: not again (review 34)
    led = memo_lead_once.led_sources(result) if lead else []  # its list, numbered as every figure's (s32-permil33)
    numbers, sources = _numbered_sources(findings, lang, led)
    if led:  # page 1 cites that list by its number
        lead = lead_text(memo_lead_once.cite_led_source(start, numbers, led), lang, markdown=True)
    # a replica's KV cache short of its load at the full context: page 1's one line (review 26, q35), said in full
    # there and pointed to elsewhere (kv_said_once44, review 35)
    # (not under an API lead: the self-hosted plan is then the fallback, its sizing said in section 2)
    kv_box = "" if lead else kv_page_one37.line(result, lang)
    kv_said = bool(kv_box) and kv_said_once44.condition_printed(result, bool(lead))
    rendered = [_finding(f, lang, numbers) for f in findings]
    _figures_said_in_sizing(rendered, _hardware_rows(result, lang), lang)
    memo_lead_once.point_to_lead(rendered, findings, lead, lang,
                                 api_leads=start is not None and start.form == "hosted_api")
    memo_steps_once.point_to_step(rendered, findings, result, lang)  # the quality check: the step that runs it
    memo_lead_once.sea_in_sources(rendered, findings, lang)  # the laws' texts as read: the source list's
    shown = {text for q in open_questions if (text := q.assumption_in(lang))}
    refusal = context_refusal37.line(result, lang)  # a paid API's assumed context cap: page 1's (review 26, q18)
    if refusal is not None:
        shown.add(refusal[1])
    answers = _answer_rows(result, lang, shown=shown)
    evidence_context = _evidence(evidence or [], lang, result)
    hw = result.hardware
    shown_elsewhere = {c for c in (hw.command, evidence_context.get("command")) if c}
    curve = result.latency_curve
    model = _model_words(result, lang, hw.model_name or hw.model or str((result.answers or {}).get("model") or "—"))
    # the hosted API as a cheaper alternative is said under the headline, not as a reason against it
    # far cheaper and nothing rules it out: the Decision starts on the hosted API, this plan what to move to (an
    # infeasible plan keeps its blockers first: the API is then said under the closest option)
    alternative = alternative_text(findings, lang, markdown=True,
                                   start=result.start_with if result.feasible or _kept(result) else None)
    # an infeasible plan blocked by the filing's months: the filed model's API and its registration beside the
    # closest option, said there and not again in section 7 (s35-duties, review 26 q07: "buried in a finding")
    route = "" if lead or alternative else registration_route37.line(result, lang)
    set_aside_line = "" if lead or alternative else set_aside.text(every, lang, markdown=True)
    # self-hosting kept for a reason the page states (the "why not a hosted API" line, or the hosted-API paragraph
    # keeping this plan): the far-cheaper API is an option weighed after it, not the page's lead (review 36, q14/q35)
    gap_tail = api_gap44.sentence(result, lang, considered=True, tail=True) if set_aside_line else ""
    gap_weighed = bool(set_aside_line or (alternative and result.start_with is not None
                                          and result.start_with.form == "this_plan"))
    registration_route37.said_once(rendered, findings, route, lang)
    memo_lead_once.yardstick_on_page1(rendered, findings, alternative, lang)  # the other region's list: page 1's
    # page 1's hosted-API paragraph is that reason said in full: not listed again under "What decides it"
    paragraph = bool(lead or alternative)
    # the place that reason held goes to the company's own duties where they come next, not to filler (blind
    # review 27, q22/q43: four reasons, and the PIPL reach with its representative below the line)
    why = memo_lead_once.reasons_past_paragraph([_finding(f, lang) for f in duty_in_freed_place(
        deciding(every, as_asked), every, paragraph)], paragraph)
    unit = unit_first.text(result, every, lang)  # tokens sold below their cost: said first (review 25, q11)
    why = unit_first.past(why, unit)
    # one server within a straddled budget: page 1's choice, the budget finding's plain title then (s31-bigctx32)
    one_server = memo_one_server.paragraph(result, lang) if result.feasible else ""
    memo_one_server.said_once(rendered, findings, why, lang, one_server)
    # several edge risks at once: named together on page 1 (s36-longctx), labelled conditional where the plan holds
    # only at the edge (review 31, q10: "Lead with a conditional yes … Put the conditions next to it")
    # led by the pilot-and-sign rule, the risks listed apart (vrd44, review 35: q10); the one line elsewhere
    edge = edge_lead44.line(result, lang) or edge_risks38.line(result, lang, edge_gate41.edge_key(result))
    if not one_server and result.feasible:  # the spare left out for the budget: the upgrade said (s31-q10lead32)
        one_server = memo_one_server.upgrade_paragraph(result, lang, lean=bool(edge))
        memo_one_server.upgrade_said_once(rendered, findings, lang, one_server)
    # what page 1's paragraphs say, section 7 does not say again word for word (review 35: q43, q07, q39)
    page_one_once44.said_once(rendered, [lead, alternative, route, one_server, edge, kv_box], lang)
    fix_setup = next((f.text_in(lang) for f in result.fixes if f.key in lawful_fix43.SETUP_KEYS), "")
    layouts = _layouts_sentence(result, lang, as_asked)
    memo_quantized_once.gain_in_sizing(rendered, findings, result, layouts, lang)  # the gain's figures: section 2's
    memo_quantized_once.kv_check_in_step(rendered, findings, result, lang)  # the FP8 KV check: the step that runs it
    step_where40.said_where(rendered, lang, FIRST_STEPS)  # a step past page 1's: its section said (review 29, q28)
    memo_batch.margin_said_once(rendered, findings, result, lang)  # a job's sizing finding: its margin, said once
    api_why = api_first_why.reasons(result, lang) if api_first_why.applies(result, lead) else []
    return _closest_api(memo_api_only.apply({
        "self_host_line": "",
        # review 29 (q33, q08): the machine-proof layout on the owner's cards, under the recommendation line
        "layout_head": layout_headline40.head_clause(result, lang) if result.feasible else "",
        "unit_first": unit,
        "as_asked": _as_asked_note(result, lang, fix_setup) if as_asked else "",
        "alternative": alternative,
        # the blockers the registration leaves in place, by their numbers above it (s36-apiplace, review 27 q07)
        "registration_route": registration_route37.line(result, lang, why) if route else "",
        "one_server": one_server,
        "edge_risks": edge,
        "lead": lead,
        # under an API lead the API's own reasons first, the fallback's labelled (s35-apihead: ``api_first_why``)
        "api_why": api_why,
        # under it, the reasons that hold on the API path too (region, line, compliance) are said as such, the
        # fallback keeping only its own (s36-apiplace, review 27: q12, q13)
        "why_both": api_fallback_split.split(why)[0] if api_why else [],
        # the fallback's "rent" reason says why not buy where the reader sees it (s37-owner, review 28, q24)
        "why": api_fallback_split.with_rent_why(api_fallback_split.split(why)[1], result, lang) if api_why else why,
        "fallback_gpus": api_fallback_split.gpus(result, lang) if api_why else "",
        # a cheaper hosted API set aside: one line after the reasons, not one of them (review 24, q31, q32)
        # inside the "why not a hosted API" paragraph where there is one; else a paragraph after the kept-plan one
        "set_aside": set_aside_line + ((" " if lang == "en" else "") + gap_tail if set_aside_line and gap_tail else ""),
        # counted over every reason page 1 lists, those resting on unconfirmed facts named (blind review 31, q22/q07)
        "why_note": consist41_why.note([api_why, *(api_fallback_split.split(why) if api_why else [why])], lang),
        # a filing sets the date: the first line says it; that filing planned on the memo's reading against the
        # answer: the answer's own date too (review 32, q11), both in one line (review 34, q11: ``launch_paths42.both``)
        # the two dates as two bullets under the recommendation, the margin line after them (vrd44, review 35: q11)
        "launch_paths": launch_order44.paths(result, lang),
        "launch_paths_intro": launch_order44.intro(lang),
        "launch_line": ("" if launch_order44.paths(result, lang) else launch_paths42.both(result, lang)
                        or memo_launch_line.clause(result, lang) + launch_paths42.clause(result, lang))
        + budget_basis.decision_clause(result.costs, lang)  # within only on a commitment: so is the first line
        # the other part's quote removes the KV shortfall: the choice as one rule (review 31, q42, q19)
        + edge_gate41.rule(result, lang)
        # a hosted API's test that would replace part of the plan: the one fork, in the first line (review 32, q34)
        + fork42.clause(result, lang),
        # a far cheaper hosted API on a mainland self-hosted page: in the recommendation, its conditions and who
        # signs it off (s42-api, review 35: q14, q19, q35)
        # where the page keeps self-hosting for a reason it states (its "why not a hosted API" line, or "as you asked"), the gap is an
        # option weighed after those reasons, both ends of the API's volume (s42-apif, review 36: q14, q35)
        "api_gap": "" if gap_weighed else api_gap44.sentence(result, lang),
        "api_gap_weighed": api_gap44.sentence(result, lang, considered=True) if gap_weighed and not set_aside_line
        else "",
        "key_rows": _key_rows(result, lang),
        # a replica's KV cache short of its load at the full context: page 1's one line (review 26, q35)
        # (not under an API lead: the self-hosted plan is then the fallback, its sizing said in section 2)
        "kv_risk": kv_box,
        # an assumed TPOT target under a consumer chat's users: what they see, said once (s35-chatspeed, review 26)
        "chat_speed": chat_speed37.sentence(result, lang),
        # under an API lead every row is the self-hosted plan's, and its column says so (s27-apilead27: q21, q35)
        "key_value_heading": memo_self_host_rows.value_heading(result, lang),
        # a command printed in the sizing or evidence section is not printed again on page 1
        "first_steps": [{"text": _page_one_step(quote_room_once44.page_one_step(
                             kv_said_once44.page_one_step(s, kv_said), result), result, lang),
                         "command": s.command if s.command not in shown_elsewhere else None}
                        for s in result.next_steps[:FIRST_STEPS]],
        "t": t,
        "lang": lang,
        "sep": "" if lang == "zh_CN" else " ",  # between sentences: Chinese sets none
        "verify_mark": " " + t("memo.verify_mark"),
        "title": api_title44.title(result, lang, model) or memo_title(lang, model),  # the API said (review 35)
        # s28-memo28 (review 17, q24 zh): a memo no mainland rule touches says no "filing" rules in its caveat
        "disclaimer": t("memo28.disclaimer" if NO_MAINLAND_RULES in result.finding_ids else "memo.disclaimer"),
        "date": result.generated_at.strftime("%Y-%m-%d"),
        "version": result.app_version or __version__,
        "prices_date": result.prices_date,
        "feasible": result.feasible,
        # blocked only by the GPU asked, the memo's setup the fix: "Not on H100 (…); feasible on 5 × L20" (vrd44, q19)
        "infeasible_head": gpu_swap44.headline(result, lang),
        # a rule may forbid the service outright (双减): sections 2–4 said to be indicative until it is answered (q07)
        "indicative_note": indicative44.section_note(blocked_brief39.blocker(result), lang),
        # s25-headline25 (round 15): the form with the condition the plan's own numbers set (q26/q31, q39)
        # s27-ownrent27b (review 17): where the middle favours renting, page 1 leads with renting, the purchase its condition
        # review 28 (q04): an assumed first-token target raised to fit the free cards is the owner's decision, first
        # a plan at the edge: "pilot and measure before any commitment" first (blind review 32, q10)
        "form": edge_first42.form(result, lang, headline_form(result, lang)),
        # the engine's words, as in the CLI and the UI; under an API lead, a plan that moves to the mainland after its
        # ICP filing is moved to there (s26-polish26, q21: ``move_to``)
        # an EU plan: an EU region named, with the zone the cost's low end comes from (reg42, review 32: q09, q38)
        "region": move_to.region_text(result, lang, fleet_where.region_text(result, lang, eu_zone42.region_text(
            result, lang, t(f"plan.region.{result.region}")))),
        "line": move_to.line_text(result, lang, memo_text15.line_text(result, lang) or t(f"plan.line.{result.line}")),
        "monthly": _money(result.costs.recommended_monthly, result.costs.currency),
        "summary_key": _summary_key(result),
        "per_job": result.costs.per_job,
        "binding": api_led_brief40.binding_text(result, lang, kv_said=kv_said),  # an API lead's fallback: its limit only (review 29)
        # far over the budget whichever part: its opening sentence only (review 29, q40; fixtab39)
        "gpu_choice": fixtab39.gpu_why(result, lang) or api_led_brief40.gpu_why(result, lang)
        or supply_lead.choice_text(result, lang),  # the part to quote beside it (s34-supply36)
        "layouts": layouts,
        "past_knee": _knee_sentences(result, t, lang),
        "carried": _curve_reading(result, t, lang),
        "findings": rendered,
        "blockers": [f for f in rendered if f["severity"] == "blocker"],
        "risks": [f for f in rendered if f["severity"] == "warning"],
        "verify": [f for f in rendered if f["verify"]],
        # "any one of these makes it feasible" only when each does so alone; a fix offered together with a budget or
        # a deadline is a combination, and the intro says so (it read "any one" above "alone it still costs more")
        "fixes_intro": _fixes_intro(result),
        "fixes": [{"text": f.text_in(lang), "monthly": _money(f.monthly_cost, result.costs.currency)
                   if f.monthly_cost else "", "per_job": f.per_job} for f in result.fixes],
        # the changes that work alone under one heading, those that need more budget or time under another (review
        # 23, q40: "单独一项即可" above a list where all but the API said "alone it still costs more")
        "fix_groups": _fix_groups(result, lang),
        # one change within the budget and others that need more: that one first, the rest a short table (s34-rows36)
        "fixes_table": _fixes_table(result, lang),
        # changes tried that cost no less than the plan as asked (q40's 4-bit weights): said once, apart
        "fixes_no_saving": [{"text": f.text_in(lang), "monthly": _money(f.monthly_cost, result.costs.currency)
                             if f.monthly_cost else "", "per_job": f.per_job} for f in result.fixes_no_saving],
        "answers": answers,
        "answers_given": _answers_given(answers, lang),
        "assumed": [r for r in answers if r["assumed"] != "—"],
        "sources": sources,
        "other_assumptions": _other_assumptions(result, lang),
        # the unanswered questions another answer to which changes the decision: in the headline, not the appendix
        # the assumed target's question short where page 1 opens on that decision (review 28, q04)
        "open_questions": [vm_payback_words.open_question(q, result, lang) or ttft_free_question39.question_text(q, result, lang)
                           or q.text_in(lang) for q in open_questions]
        + ([refusal[0]] if refusal is not None else []),
        "hardware": _hardware_rows(result, lang),
        # never a start command for GPUs that cannot be had, nor in a hosted API's memo (nothing of its own to start:
        # the sizing there is a comparison, q15 "the leftover 'Start one replica' clutters a hosted-API memo")
        "command": hw.command if not as_asked and result.deployment_form != "hosted_api" else None,
        "hardware_heading": t("memo.hosted16.h.hardware" if result.deployment_form == "hosted_api"
                              else "memo.h.hardware"),
        # a two-node plan: the mainland node's command above, each other node's (its own GPU and model source) below
        "command_intro": t("memo.hw.node_command_intro", where=_node_where(result.nodes[0], lang))
        if result.nodes else t("memo.hw.command_intro"),
        "command_source": " ".join(x for x in (_command_source(hw.command, result.region, lang),
                                               _command_stack(result, lang), prefix_cache_note.note(result, lang),
                                               _checkpoint_placeholder(result, hw.command, lang),
                                               # a longer limit than the sized context: why, beside it (review 29, q40)
                                               served_context38.command_note(result.assumptions, lang)) if x),
        "node_commands": [{"intro": t("memo.hw.node_command_intro", where=_node_where(n, lang)), "command": n.command}
                          for n in result.nodes[1:] if n.command],
        # the nodes' commands refuse at different lengths: why, under them (review 36, q05)
        "node_context": node_context.note(result.nodes, [hw.command, *(n.command for n in result.nodes[1:])],
                                          lambda n: _node_where(n, lang, lower=True), lang)
        if result.nodes and not as_asked else "",
        # a job: how to run it on its shards, the same engine flags (q06: "never says how the 2 M documents are
        # sharded across 8 VMs, retried and checkpointed")
        "batch_run": batch_job37.run_block(result, lang, hw.command) if not as_asked else None,
        # a fine-tune whose checkpoint is not given: no serve command, and the memo says why in words
        "command_waits": bool(hw.gpu and not hw.command and not hw.by_hand and _fine_tune_unplaced(result)),
        # an engine whose flags the plan does not map (llama.cpp, Ollama, TGI, LMDeploy): its settings in words
        "command_by_hand": render(lang, "engine19.by_hand", hw.by_hand) if hw.gpu and hw.by_hand and not as_asked
        and result.deployment_form != "hosted_api" else "",
        "engine_flags": hw.engine_flags,
        "curve": _curve_rows(result, lang),
        "node_curves": node_curve_blocks(result, lang),  # a two-node plan's other node (q34)
        "node_main_label": node_curve_main_label(result, lang),
        "no_curve_key": no_curve_key(result),
        "CURVE_ACROSS": CURVE_ACROSS,
        "knee": curve.knee_concurrency,
        "knee_key": knee_key(result),  # the engine cap's words where the knee is only --max-num-seqs (q39)
        "slo_ttft": _num(curve.slo_ttft_p99_ms) if curve.slo_ttft_p99_ms else None,
        "simulated": curve.simulated,
        # a hosted API's memo: the curve is of the setup it would take to serve it yourselves (the comparison)
        "latency_intro": "memo.hosted16.latency.intro" if result.deployment_form == "hosted_api"
        else "memo.latency.intro_simulated" if curve.simulated else "memo.latency.intro",
        "costs": _cost_rows(result, lang, numbers),
        "prices": _price_rows(result, lang),
        "timeline": [{"label": _cell(i.label_in(lang)), "days": _cell(i.days_with_shorter(lang)),
                      "blocking": sales_deadline.blocking_cell(result, i, lang)
                      or (t("seq39_timeline.before_node", region=t(f"plan.region.{i.node}")) if i.blocking and i.node
                          else t("seq39_timeline.before_launch_within" if i.blocking and i.within
                                 else "memo.yes" if i.blocking else "memo.no"))} for i in result.timeline.items],
        "timeline_head": batch_words.blocking_head(result.answers),  # "before the job starts" for a batch (review 27)
        "launch": _range(result.timeline.launch_days_low, result.timeline.launch_days_high),
        "deadline": result.timeline.deadline_days,
        "meets_deadline": result.timeline.meets_deadline,
        "evidence": evidence_context,
        "quality": quality_memo_lines([q for e in evidence or [] for q in e.quality], lang),
        "next_steps": [{"text": s.text_in(lang), "command": s.command} for s in result.next_steps],
        # the pressure test's command is section 6's: a later step that runs it points there (q19, q25: three
        # lines of the same command twice, session 22)
        "later_steps": [{"n": i + 1 + FIRST_STEPS, "text": _step_text(s.text_in(lang), s.command,
                                                                      evidence_context.get("command"), lang),
                         "command": s.command if s.command != evidence_context.get("command") else None}
                        if not _serve_said(s, result) else
                        {"n": i + 1 + FIRST_STEPS, "command": None, "text": translate(
                            lang, "steps34.next.serve_above", tp=s.params.get("tp"), gpu=s.params.get("gpu"))}
                        for i, s in enumerate(result.next_steps[FIRST_STEPS:])],
        "charts": dict(chart_paths or {}),
        "charts_note": charts_note,
        "cost_caption": _cost_caption(result, lang) if "cost" in (chart_paths or {}) else "",
    }, result, lang, _money), result, lang)  # a hosted API far cheaper than its comparison: sections 2–3 in one line (s25-dates25)


def headline_form(result: PlanResult, lang: str) -> str:
    """Page 1's recommendation: the form with the condition the plan's own numbers set (s25-headline25, round 15:
    q26/q31, q39). Also read by the feasibility row, which leaves to it a pilot it already says (s37-fleet39)."""
    t = _t(lang)
    # s27-ownrent27b (review 17): where the middle favours renting, page 1 leads with renting, the purchase its condition
    # review 28 (q04): an assumed first-token target raised to fit the free cards is the owner's decision, first
    return memo_ttft_free.decision_first(result, lang, rent_until_covered.headline(result, lang)  # s31-ctb32: rent until a quote pays with the cover
        or rent_first27.headline(result, lang, t(memo_text15.form_key(result, rent_first27.own_form_key(
            result, memo_forms.form_key(result)))))
        # s34-quotelead (review 24, q26): the quote gate leads, not "Own"; review 31: "Get quotes, then decide" first
        # review 34 (q26): the threshold line itself is the first sentence, no "Get quotes, then decide." before it
        or quote_lead35.own_gate(result, lang)
        # review 31 (q31): the break-even against renting as the one buy rule, the estimate after it
        or gate_lead41.own_line(result, lang, quote_lead39.form_text(result, lang, burst_steps41.form_key(
            result, memo_text15.form_key(result, memo_forms.form_key(result)))))
        # review 34: a straddled one-off budget's threshold line after the form, no "Get quotes, then decide." first
        or (quote_lead39.form_text(result, lang, burst_steps41.form_key(
            result, memo_text15.form_key(result, memo_forms.form_key(result)))) + headline25.headline_clause(result, lang)
            + buy_quote38.clause(result, lang)))  # review 27 (q03, q31): the quote ceiling a server, the estimate's bias


def _summary_key(result: PlanResult) -> str:
    """The recommendation line's key: a hosted API is served from the provider's endpoint, so "Network line: any
    line" and a bare region say nothing there (r35, q15/q27); a plan of its own names its region and line."""
    if result.deployment_form != "hosted_api" or result.region == "mainland_plus_overseas":
        return "memo.rec.summary"
    return "ctx44.rec.summary_api_mainland" if result.region == "mainland" else "ctx44.rec.summary_api"


def _closest_api(ctx: dict[str, Any], result: PlanResult, lang: str) -> dict[str, Any]:
    """``ctx`` with page 1's closest option naming the hosted API where it is the one fix within the budget, the
    self-hosted setup then what to fall back to (s32-permil33, q40)."""
    first = bool(ctx.get("fixes_table"))  # said first, above the other changes' table: not "the one change above"
    # the recommendation's form with the margin's verdict before it (review 27, q11): the bold line only
    ctx["rec_form"] = unit_first.verdict(result, result.findings, lang, ctx.get("unit_first", ""), ctx["form"])
    if ctx.get("launch_paths"):  # the margin test is said below the recommendation now: "below", not "that cost"
        ctx["rec_form"] = launch_order44.rec_form(lang, ctx["rec_form"], ctx["form"])
    ctx["closest_api"] = closest_api.line(result, lang, ctx["form"], ctx["region"], ctx["line"],
                                          wording="rows36.closest_api_first" if first else closest_api.KEY)
    if ctx["closest_api"] and first:  # the API said first with its checks: not again below
        ctx["alternative"] = ""  # (s34-rows36, review 25 q40: the same API paragraph twice on page 1)
    return ctx


def _step_text(text: str, command: str | None, evidence_command: str | None, lang: str) -> str:
    """A remaining step's text, pointing to section 6 where its command is the one printed there."""
    if not command or command != evidence_command:
        return text
    return text + ("" if lang == "zh_CN" else " ") + translate(lang, "pages22b.step.command_in_evidence")


def _cost_caption(result: PlanResult, lang: str) -> str:
    """The line under the cost chart: what its lines say where they do not cross (renting or owning stays cheaper,
    one form only). Where they cross, the legend's "Break-even ≈ month N" marker says it (s22-pages22: the memo
    printed "Where the lines cross, owning becomes cheaper" under every cost chart, lines that never meet too)."""
    chart = cost_chart(result, lang)
    return "" if chart is None or chart.markers else chart.caption


CURVE_ACROSS = 10  # up to this many predicted levels, the latency table has a column per level (four rows)
FIRST_STEPS = 3  # page 1's next steps; the rest close the memo


def _layouts_sentence(result: PlanResult, lang: str, as_asked: bool) -> str:
    """The "Layouts tried" sentence, when it tells the reader something: a layout that was sized and missed or needed
    more. Where every other layout was ruled out only because it needs at least as many GPUs (TP2/4/8 beside a TP1
    plan), the sentence is left to ``--json``: it lengthened every memo by a line of the obvious (06: six pages)."""
    found = result.layouts_tried
    if found is None or as_asked or all(t.outcome in ("chosen", "more") and not t.missed for t in found.tries):
        return ""
    if not result.feasible:  # a blocked plan's setup is a sketch (binding.py's ``sketch``; blind review 22, q07):
        return ""  # the layouts it tried stay in ``--json``
    # said, the layouts that tell something; "TP4 fp8 would need at least 4 GPUs" beside them is the same obvious
    # line (s21-pages21: q34's sentence listed TP2, TP4 and TP8 so; ``--json`` keeps every try); one on fewer cards
    # a replica is said with what stops it (blind review 20, q17: why TP2 where the weights fit one card)
    # the tensor-parallel size just below the chosen one is said with why it lost even where that is only "more GPUs"
    # (blind review 29, q37: "TP2 not shown under 'Layouts tried'"), and the one just above where the chosen
    # replica's KV cache is short at the full context, which a larger TP would ease (q42: "TP2 on L20 was not tried")
    fit = result.capacity.kv_fit if result.capacity is not None else None
    near = _next_tps(found, above=bool(fit is not None and fit.load_over_full))
    return found.model_copy(update={"tries": [t for t in found.tries if t.outcome != "more" or t.missed
                                              or (t.tp, t.weights) in near]}).text_in(
        lang, chosen_said=_batch_chosen_said(result))


def _next_tps(found: Any, above: bool) -> set[tuple[int, str]]:
    """(tp, weights) of the layouts of the chosen precision at the nearest tensor-parallel size below the chosen
    one's, and above it where ``above``; empty without a chosen layout."""
    chosen = found.chosen
    if chosen is None:
        return set()
    sizes = sorted({t.tp for t in found.tries if t.weights == chosen.weights and t.tp != chosen.tp})
    below = [tp for tp in sizes if tp < chosen.tp][-1:]
    up = [tp for tp in sizes if tp > chosen.tp][:1] if above else []
    return {(tp, chosen.weights) for tp in below + up}


def _batch_chosen_said(result: PlanResult) -> bool:
    """Section 2's "what decides the size" names the chosen batch layout's replicas, what each holds at once and
    finishes an hour: "Layouts tried" then names the layout and its GPUs only (q06, q28; session 30)."""
    b, found = result.binding_constraint, result.layouts_tried
    chosen = found.chosen if found is not None else None
    if b is None or chosen is None or not found.batch or b.variant not in ("floors", "batch"):
        return False
    f = b.figures
    return (f.get("seqs"), f.get("per_hour"), f.get("tp")) == (chosen.seqs, round(chosen.requests_per_hour or 0),
                                                               chosen.tp)


def _command_stack(result: PlanResult, lang: str) -> str:
    """A `vllm serve` command on Huawei Ascend runs under vLLM-Ascend (the vllm-ascend plugin on CANN), not the CUDA
    build the command reads like (q08, fifth blind review: "a standard NVIDIA vLLM command for an Ascend fleet")."""
    if not result.hardware.command or result.finding("gpu.domestic") is None:
        return ""
    # the versions to check named (s36-fleet38, review 27, q08 en: "Name the CANN/vllm-ascend versions to check,
    # since support is model- and version-specific"): which release lists the model, and the CANN it requires
    return _t(lang)("fleet38_hw.ascend_stack")


def _command_source(command: str | None, region: str, lang: str) -> str:
    """Where a mainland node's command downloads the weights from, when that is not the publisher's own mirror: a
    ModelScope re-upload (named as such, to check against the release), or Hugging Face, which the node cannot reach
    (a reviewer: "its launch command pulls gated meta-llama weights from Hugging Face on a mainland node")."""
    found = reupload_in(command)
    if found is not None:
        return _t(lang)("memo.hw.modelscope_reupload", repo=found[0], release=found[1])
    hf = hugging_face_only(command, region)
    return _t(lang)("memo.hw.hugging_face_unreachable", repo=hf) if hf else ""


def _deciding_reasons(findings: Sequence[Finding], lang: str, as_asked: bool = False) -> list[dict[str, Any]]:
    """Page 1's short list: the findings that decide the plan first, caveats after, at most five. ``as_asked``: the
    GPUs asked for cannot be had there, so "meets the target at the peak" on them is no reason."""
    return [_finding(f, lang) for f in deciding(findings, as_asked)]


UNAVAILABLE = ("gpu.not_in_region", "gpu.not_offered_offshore")  # blockers: the GPUs asked for are not had there


def as_asked_only(result: PlanResult) -> bool:
    """The sizing is for GPUs that cannot be had where the plan runs (H100 on the mainland): the memo labels it
    "as asked, not possible" and points to the fix's setup instead of presenting it as the plan."""
    if result.feasible or not any(f.id in UNAVAILABLE and f.severity == "blocker" for f in result.findings):
        return False
    # the sizing is of a part the user asked for; where the engine already planned on a part sold there (China-
    # market parts asked for on a Singapore node: the L4 of the fix), the body is the fix, not "as asked" (q20
    # read "NVIDIA L4 cannot be had there" beside the fix that recommends it)
    asked = (result.answers or {}).get("gpu_constraint") or []
    return not asked or result.hardware.gpu in asked


def _as_asked_note(result: PlanResult, lang: str, fix_setup: str) -> str:
    """The sizing section's first line when its GPUs cannot be had there: as asked, for comparison; the fix's setup."""
    t = _t(lang)
    hw = result.hardware
    note = t("memo.hw.as_asked", gpu=hw.gpu_name or hw.gpu or "—")
    return note + (("" if lang == "zh_CN" else " ") + t("memo.hw.as_asked_fix", fix=fix_setup) if fix_setup else "")


def burst_days_note(result: PlanResult, lang: str) -> str:
    """" (the burst replicas billed for 2–6 event days a month, assumed)" after page 1's cost where the bursts' share
    is an assumed range of event days and the recommended cost is the rented one it spans (s19-cost19)."""
    c = result.costs
    rng = next((a for a in result.assumptions if a.key == "cost19.assume.burst_days"), None)
    # on demand, or the always-on floor reserved and the bursts on demand (s19-reserve19): both span the event days
    spans = reserved_price.same(c.recommended_monthly, c.cloud_on_demand_monthly) or (
        c.cloud_reserved_floor is not None and reserved_price.same(c.recommended_monthly, c.cloud_monthly))
    if rng is None or c.cloud_billed_gpus_range is None or not spans:
        return ""
    return _t(lang)("cost19.key.burst_days", low=rng.params["low"], high=rng.params["high"])


def _budget_said_by_api_reason(result: PlanResult) -> bool:
    """Page 1's "Why the API first" says the API path's whole month is within the budget (``api_first_why``), and the
    self-hosted fallback's month is within it too: the Budget row would say it a third time (q12's page 1, s35)."""
    sw, c = result.start_with, result.costs
    if sw is None or c.budget_monthly is None or c.within_budget is not True or c.budget_straddles:
        return False
    return memo_self_host_rows.api_leads(result) and api_first_why.within_budget(sw.params) is not None


def _key_rows(result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """Hardware, cost against the budget, launch and feasibility in one table on page 1 (the decision itself is
    the sentence above it)."""
    t = _t(lang)
    c, hw = result.costs, result.hardware
    if not hw.gpu:
        hardware = t(memo_forms.no_hardware_key(result, "memo.key.no_hardware"))
    elif result.deployment_form == "hosted_api":
        # the hosted API alone: self-hosting's GPUs, not planned, are section 2's reference (s36-apiplace; review
        # 27, q16: "take it out of the headline Hardware row: a newcomer will read it as part of the plan")
        hardware = t("apiplace38_key.hardware_hosted")
    else:
        hardware = t("memo.key.hardware_value", total=hw.total_gpus, gpu=hw.gpu_name or hw.gpu, per=hw.gpus_per_replica,
                     replicas=hw.replicas, weights=hw.weights or "—")
        split = burstbill37.hardware_value(result, lang)  # "(2 always on + 4 for events)" (s35-burstbill, q23)
        hardware = split or hardware
        both = hardware_text(result, lang)  # the bursts rent another part (s24-burst24): both parts named
        if both is not None:
            hardware = both
        elif hw.layout is not None and hw.layout.fleet_count is not None:  # on the team's own fleet: used of owned
            # once, the replicas beside it (blind review 16, q08: "12 of your 16 × 910B; 12 × 910B: 3 replicas …")
            hardware = t("memo.fleet26.hardware", fleet=hw.layout.text_in(lang, hw.gpu_name or hw.gpu),
                         replicas=hw.replicas, per=hw.gpus_per_replica, weights=hw.weights or "—")
        elif hw.layout is not None:  # as it is bought or rented: "1 server of 8 × H20", the GPUs named once (r31)
            hardware = consist41_hardware.row(result, lang, burstbill37.event_split(result)) or \
                f"{hw.layout.text_in(lang, hw.gpu_name or hw.gpu)}{t('memo.key.hardware_sep')}{hardware}"
    if hw.gpu and result.deployment_form != "hosted_api":  # what the findings add to it (round 15, q08/q33, q39)
        # review 29 (q33, q08): where page 1 recommends the machine-proof layout, the row points to it (said once)
        hardware += (layout_headline40.row_clause(result, lang) or headline25.more_replica_clause(result, lang)) \
            + signoff_clause(result, lang)
        first = headline25.measure_first(result, lang)
        if not first or headline25.headline_clause(result, lang) != first:  # else the headline says the count
            hardware += headline25.measured_clause(result, lang)  # decides, two lines above (s27: said once)
    if result.nodes:  # two nodes sized and priced apart: each one, and the GPUs of both
        hardware = t("memo.key.hardware_nodes", nodes=t("memo.key.hardware_sep").join(n.text_in(lang)
                                                                                    for n in result.nodes),
                     total=sum(n.total_gpus for n in result.nodes))
    # form, region and line are the sentence right above this table ("Recommendation: …"): not a row again
    as_asked = as_asked_only(result)
    # a part no provider there is known to sell: unconfirmed until one quotes, the step with plan B named (review 23)
    hardware += in_region_fallback.hardware_clause(result, lang, FIRST_STEPS)
    hardware += supply_lead.hardware_clause(result, lang, FIRST_STEPS)  # sized on the part had there (s34-supply36)
    rows = [(t("memo.key.hardware_as_asked" if as_asked and hw.gpu else "memo.key.hardware"), hardware)]
    asked = result.as_asked_hardware  # sized on the fix's part: the setup asked for, beside it, for comparison
    if asked is not None and asked.gpu:
        rows.insert(0, (t("memo.key.hardware_as_asked"), t(
            "memo.key.hardware_value", total=asked.total_gpus, gpu=asked.gpu_name or asked.gpu,
            per=asked.gpus_per_replica, replicas=asked.replicas, weights=asked.weights or "—")))
    monthly = _money(c.recommended_monthly, c.currency)
    # the price the figure stands on, the on-demand one beside it (q35: the reserved price, unsaid)
    basis_phrase = reserved_price.phrase(c, lambda r: _money(r, c.currency),
                                         audience=(result.answers or {}).get("audience"))
    if memo_api_rows.applies(result):  # the fallback's one basis, section 4 the others (s40-pages, q13: 6 pages)
        basis_phrase = api_cost_brief42.basis(basis_phrase)
    basis = render(lang, "plan.basis16.with_cost", {"cost": "", "basis": basis_phrase})
    if c.price_basis is not None and c.price_basis.stand_in_where:  # s18-rows: a stand-in is never shown as the price
        gone = next((n for n in c.price_basis.not_offered if n.region == c.price_basis.stand_in_where), None)
        # the provider sells no such instance there: said on page 1, where the figure is (s25-prices25, q25/q34/q37:
        # "a US AWS row × uplift for an instance AWS does not sell in Hong Kong", found only in section 5)
        if memo_api_rows.applies(result):  # the fallback's stand-in said short, section 4's "which prices" in full
            basis += t(api_cost_brief42.STAND_IN_ROW, region=t(f"plan.region.{c.price_basis.stand_in_where}"))
        else:
            basis += t("prices25.key.not_offered", provider=gone.provider, gpu=gone.gpu_name, instance=gone.instance,
                       region=t(f"plan.region.{gone.region}")) if gone is not None else \
                t("rows18.key.stand_in", region=t(f"plan.region.{c.price_basis.stand_in_where}"))
        basis += in_region_fallback.cost_clause(result, lang, FIRST_STEPS)  # plan B's own price there (q25, r27)
    basis += line_total.key_clause(result, lang)  # the premium line: in the total, or said left out (s20, q43)
    # owning about the same as renting: said (q26, s22); the buy's threshold left to the headline where it says it
    basis += own_rent_verdict.page_one_clause(result, lang,
                                              threshold=not memo_condition_once.said_in_headline(result, lang))
    owning = memo_forms.key_rows(result, lang)  # the one-off purchase and the monthly cost, each named
    premises_line = line_total.key_clause(result, lang) if owning else ""
    premises_line += burst_bill.cost_note(result, lang) if owning else ""  # the bursts' rent averaged: said (review 28)
    # the hosted API leads the bursts: the row's month is that path's, the rented bursts' the fallback's (review 28)
    # (on cards already owned, nothing bought: a purchase's spread month is not re-worded here)
    own = memo_forms.chosen_owned(result) if owning else None
    led = burst_bill.api_led_cost(result, lang, own.running_monthly) \
        if own is not None and own.fleet_gpus and not own.gpus_bought else ""
    if led:
        owning = [(k, led if k == t("memo.key.cost") else v) for k, v in owning]
    elif premises_line:  # an office box's line on the premises' own connection, said left out (s22-rentbasis22b)
        owning = [(k, v + premises_line if k == t("memo.key.cost") else v) for k, v in owning]
    # on the team's own cards, their purchase spread over the months beside the running month (review 28, q18)
    capital = memo_forms.capital_clause(result, lang, c.monthly_with_line if premises_line else None)
    if capital:
        owning = [(k, v + capital if k == t("memo.key.cost") else v) for k, v in owning]
    rows.extend(owning)
    if monthly != "—" and not owning and result.nodes:  # the total and what each node adds to it
        parts = t("memo.list_sep").join(t("memo.key.cost_node_part", where=_node_where(n, lang, lower=True),
                                          cost=_money(n.monthly, c.currency)) for n in result.nodes)
        rows.append((t("memo.key.cost"), t("memo.key.cost_nodes", cost=monthly, parts=parts) + basis
                     + peak_reserve_rules.key_clause(result, lang)))  # both nodes' peak on on-demand stock (cst44)
    elif monthly != "—" and not owning:
        moved = phased_cost.key_text(c.phased, c.currency, lang) if c.phased is not None else ""
        moved += burst_days_note(result, lang)  # the bursts' assumed event days the range spans (q36)
        moved += peak_reserve_rules.key_clause(result, lang)  # a public peak on on-demand stock (review 27, q32)
        moved += api_top38.clause(result, lang)  # an API's month at its volume's high end (review 27, q27)
        moved += event_reserve43.clause(result, lang)  # the event GPUs held in a reservation (review 34, q23)
        if filedwait38.waits(result):  # the month is paid from launch, not during the filing (review 27, q30)
            moved += t(filedwait38.COST_ROW)
        value = t("memo.key.cost_job" if c.per_job else "memo.key.cost_value", cost=monthly)
        value += memo_batch_slow.key_clause(result, lang)  # the job's own slow end beside it (review 22, q06)
        # a public chat's month led by its figure as chats of a few turns (blind review 18, q16; s25-dates25)
        chats = memo_api_only.cost_text(result, lang, monthly)
        moved += "" if chats else memo_api_only.turns_clause(result, lang)
        rows.append((t("memo.key.cost"), (chats or value) + basis + moved))  # launched offshore then moved (q21)
    sure = sure_fallback.key_row(result, lang)  # a placeholder-priced part of unsure supply: what to rent instead
    if sure is not None:  # (blind review 26, q19/q42)
        rows.append(sure)
    if c.budget_monthly is not None and not _budget_said_by_api_reason(result):
        # a hybrid's month without a burst, not the year's average that spreads the bursts over it (review 28, q39)
        verdict = (burst_bill.budget_head(result, lang) or _budget_verdict(c, t, supply_lead.stand_in_budget_text(result, lang))
                   ) + line_total.budget_clause(result, lang)
        verdict += burst_steps41.budget_clause(result, lang, burst_bill.budget_clause(result, lang))  # a hybrid's
        # month with a burst in it (s23-burst23, q39), after step 1's count where it gates the bursts (review 31)
        verdict += budget_basis.reserved_only_clause(c, lang)  # within only at the committed price (review 19, q38)
        owned = capex_unknown.bought(result, memo_forms.chosen_owned(result))
        monthly_for_purchase = capex_unknown.budget_row(result, owned, lang, verdict)  # a purchase judged on it: said so
        rows.append((t("memo.key.budget"), (monthly_for_purchase or f"{_round_money(c.budget_monthly)} {c.currency}{verdict}")
                     + capex_unknown.one_off(result, lang)))  # bare metal's purchase, a one-off sum (round 13, q26)
    launch = _range(result.timeline.launch_days_low, result.timeline.launch_days_high)
    # page 1's next step that starts the steps the launch waits for, where it names them all: the rows point at it
    gate_step = memo_gate_once.step_number(result, [s.text_in(lang) for s in result.next_steps[:FIRST_STEPS]], lang)
    if launch != "—":
        # as asked it never launches: the days are those of the setup once the blockers are solved
        after_fix = as_asked or result.as_asked_hardware is not None
        # infeasible with only the set-up to wait for: "in 1–5 days" read as a launch next week for a plan that
        # cannot launch as asked (twelfth blind review, q20/q29/q40; s22-duties22c): the days follow the blockers
        tl = result.timeline
        after_fix = after_fix or (not result.feasible and tl.gate is None and not tl.untimed)
        if after_fix:  # the closest option's part delivered through the cloud's sales: said beside (q19, review 26)
            text = sure_fallback.launch_after_fix(result, lang, launch) or gpu_swap44.launch_text(result, lang, launch) \
                or t("memo.key.launch_after_fix", days=launch)  # the days on the swapped GPU (vrd44, review 35: q19)
            text += result.timeline.gate_text(lang)  # the step that sets the date (q14: the filing, not the approval)
            waits = result.timeline.waits_text(lang)
            if waits:  # an approval whose length nothing here states: said beside the days, never counted as 0
                text += ("；" if lang == "zh_CN" else "; ") + waits
        elif gate_step is not None:  # what it waits for is named once on page 1: in the step that starts it (s26)
            text = memo_gate_once.launch_text(result, lang, launch, gate_step)
            text += batch_job37.start_setter(result, lang)  # a job: the review, not the GPUs, sets its start (q28)
        else:  # what the launch waits for first, then the days (q25: the HKMA's review, then 1–5 days to set up)
            # a part no provider in the region is known to sell waits on its quote and supply (q43, review 26)
            text = sure_fallback.launch_after_quote(result, lang, launch, FIRST_STEPS) or \
                result.timeline.launch_text(lang, launch)
        start_now = sales_deadline.launch_text(result, lang, launch)  # the on-demand part within the deadline (q32)
        if start_now is not None:
            text = start_now
        elif result.timeline.deadline_days is not None:
            verdict = result.timeline.deadline_key()  # "if": met only if a sales delivery comes in time (q32)
            text += ("；" if lang == "zh_CN" else "; ") + t(
                {"ok": "memo.key.deadline_ok", "missed": "memo.key.deadline_missed", "if": "supply34.key.deadline_if"}[
                    verdict], days=result.timeline.deadline_days, slack=result.timeline.deadline_slack_days)
        rows.append((batch_job37.launch_label(result, lang), text))  # a job starts, it is not launched (q06 zh)
    # "no" beside a complete GPU swap read as a rejection: "not on H100; yes on 5 × L20" (vrd44, review 35: q19/q20)
    feasible = gpu_swap44.feasible_text(result, lang) or budget_words.feasible_text(result, lang)
    untimed = result.timeline.untimed
    if result.feasible and untimed and gate_step is not None and not budget_words.conditional(result):
        feasible = memo_gate_once.feasible_text(gate_step, lang, result)  # the step names them (s26, say once)
    elif result.feasible and untimed:  # "yes" beside a launch that waits on an approval of unknown length (q14)
        gate = result.timeline.gate  # the longest timed step first: it, not the approval, gates the launch (q14)
        steps = ([gate] if gate is not None else []) + untimed
        if gate is not None and all(PRECEDES.get(i.id) == gate.id for i in untimed):
            steps = untimed + [gate]  # end to end, in their order (the procurement process, then the order: s34)
        once = t("memo.key.feasible_once" if len(steps) == 1 else "memo.key.feasible_once_all",
                 steps=t("memo.list_sep").join(i.label_in(lang, clause=True) + (t("plan.timeline.step_days", days=i.days_in(lang)) if i.length_known else "")
                                               for i in steps))
        feasible = once if not budget_words.conditional(result) else \
            buy_quote38.feasible_split(result, lang, once) or f"{feasible}{t('memo.list_sep')}{once}"
    elif budget_words.conditional(result):  # budget, capacity and schedule apart (review 27, q17)
        feasible = buy_quote38.feasible_split(result, lang, None) or feasible
    feasible = burst_order40.feasible_text(result, lang, feasible)  # API overflow only in budget (review 30)
    feasible = sales_deadline.feasible_text(result, lang) or feasible  # launched on the on-demand part (q32)
    feasible = supply_lead.feasible_text(result, lang, feasible)  # on a part no one there is known to sell (q43)
    # a first token inside the error (q10, r26); not again where the headline pilots one server on it (review 28, q03)
    pilot = quote_lead39.pilot(result, lang, quote_lead39.servers_bought(result)).lstrip("; ；")
    piloted = bool(pilot) and pilot in headline_form(result, lang)
    # the measured end-to-end first token gates the commitment (gt43, review 34): its own clause, not this one again
    feasible = feasible_gate.feasible_text(result, lang, feasible, said=piloted or e2e_gate43.applies(result))
    # a plan at the edge by its own numbers reads "conditional", each condition with its test (review 31: q10, q35)
    feasible = edge_gate41.feasible_text(result, lang, feasible, api_led=memo_api_rows.applies(result),
                                         edge_said=bool(edge_risks38.line(result, lang)), pilot_said=piloted)
    feasible = e2e_gate43.feasible_text(result, lang, feasible)  # "sign the rent only if" the measured P99 holds
    if result.feasible and any(f.id == "cost.token_margin" for f in result.findings):
        # s25-apikept25 (review 15, q11): "yes" beside tokens each sold below their cost read as a go
        # on a placeholder price a margin risk, not a loss (issue #25, review 29, q11: ``unit_first.placeholder``)
        risk = unit_first.placeholder(unit_first.margin(result.findings))
        feasible += t(unit_first.FEASIBLE_RISK if risk else "memo.apikept25.feasible_at_loss")
    head = memo_ttft_free.form_clause(result, lang)  # said on the recommendation line where it leads (review 27)
    if not head or head not in headline25.headline_clause(result, lang):
        feasible += memo_ttft_free.key_clause(result, lang)  # an assumed target raised to fit the free cards (q04, r26)
    # the chain of conditions as numbered short ones, not one run-on sentence (vrd44, review 35: q10, q25)
    rows.append((t("memo.key.feasible"), feasible_list44.tidy(result, lang, rent_first27.feasible(result, lang, feasible))))
    if memo_api_rows.applies(result):  # the led API first, this plan as the fallback (s35-apipage, review 24)
        api_rows = {t("memo.key.hardware"): memo_api_rows.hardware, t("memo.key.cost"): memo_api_rows.cost}
        rows = [(k, api_rows[k](result, lang, v) if k in api_rows else v) for k, v in rows]
    # the rows that describe the purchase, marked as the headline's condition where it leads with renting (review 17)
    bought = {t("memo.key.hardware"), t("memo.key.cost"), t("memo.key.launch"), t("batchjob37_key.start")}
    if result.deployment_form == "cloud_then_bare_metal":  # s28-own28: the cost and launch rows are the rent's
        bought = {t("memo.key.hardware")}
    rows = [(k, rent_first27.if_bought(result, lang, v) if k in bought else v) for k, v in rows]
    rows = blocked_brief39.shrink(result, lang, rows)  # 双减 may forbid it: setup and month in one line (review 28)
    rows = hybrid_path43.rows(result, lang, rows)  # the API overflow the path, rented GPUs the fallback (review 34)
    return [(_cell(a), _cell(b)) for a, b in rows]


def _node_where(node: Any, lang: str, *, lower: bool = False) -> str:
    """"Mainland node" / "Node in Singapore" ("mainland node" inside a sentence: ``lower``)."""
    from advisor.plan.result import render

    if node.region == "mainland":
        text = render(lang, "plan.node.mainland")
    else:
        text = render(lang, "plan.node.overseas", {"region": {"tr": f"plan.region.{node.region}"}})
    return text[:1].lower() + text[1:] if lower else text


def _quote_asked(result: PlanResult) -> bool:
    """A next step asks the stand-in region's hosts for a quote (``price_rows.quote_steps``)."""
    return any(s.id == "quotes" and s.key in QUOTE_STEP_KEYS for s in result.next_steps)


QUOTE_STEP_KEYS = ("rows18.next.quotes_region", "prices16.next.quotes_line_host")


def _totals_in_formula(result: PlanResult, totals: str, worked: str) -> bool:
    """Issue 25 (each figure once): the cloud's month row ("on demand X; monthly/reserved Y; spot Z") says again
    the totals its worked-out product ends in. Where each plain total is there, the product is the row. Not where a
    label says more than "on demand"/"monthly/reserved" (scaled to the load, a reserved floor), nor for a job."""
    c = result.costs
    hybrid = result.deployment_form == "hybrid"  # its month row shows no monthly/reserved figure (_cost_rows)
    if c.per_job or (c.cloud_reserved_floor and not hybrid):
        return False
    cur = c.currency
    figures = [_money(r, cur) for r in (c.cloud_on_demand_monthly, None if hybrid else c.cloud_monthly,
                                        c.cloud_spot_monthly) if r is not None]
    if cloud_price_labels.scaled(c):
        # a hybrid's row is on demand alone now that a service shows no spot price (s41-spot, blind review 34): its
        # product names the GPUs billed on average as the label does ("13.59 GPUs billed × …"), so it is the row
        if not hybrid or len(figures) != 1 or f"{cloud_price_labels.billed_text(c)} " not in worked:
            return False
    shown = [f for f in figures if f in totals]
    return bool(shown) and len(shown) == len(figures) and all(f.removesuffix(f" {cur}") in worked for f in shown)


def _node_cost_rows(result: PlanResult, lang: str) -> list[tuple[str, str]]:
    """A two-node plan's cost per node (its GPUs at its region's price): they add up to the total on page 1."""
    t = _t(lang)
    cur = result.costs.currency
    rows = []
    for n in result.nodes:
        if n.monthly is None or n.per_gpu_hour is None:
            value = t("memo.cost.node_unpriced", n=n.total_gpus, gpu=n.gpu_name)
        else:
            rate = _money(n.per_gpu_hour, f"{cur}/GPU·h")
            formula = memo_cost_formula.node_formula(n.cost_factors, cur, lang)
            # the rate once: the formula that follows names it (s22-pages22: q34 said each node's twice in a cell)
            # (the formula may print the rate a digit finer than ``rate``, printed_factors: still named once)
            key = "pages22.cost.node_value" if "/GPU·h" in formula else "memo.cost.node_value"
            value = t(key, n=n.total_gpus, gpu=n.gpu_name, rate=rate, cost=_money(n.monthly, cur)) + formula
        rows.append((t("memo.cost.node", where=_node_where(n, lang)), value))
    return rows


def render_memo_markdown(
    result: PlanResult, lang: str, *, evidence: Sequence[RunEvidence] | None = None,
    chart_paths: dict[str, str] | None = None, charts_note: str = "",
) -> str:
    """The memo as Markdown in ``lang`` (``en`` or ``zh_CN``).

    ``chart_paths`` maps a chart id (``latency``, ``cost``) to the image reference to write (a path relative
    to the Markdown file); charts not in it are left out. ``evidence``: :func:`evidence_from_runs` output."""
    if lang not in LANGUAGES:
        raise MemoError(f"unknown memo language {lang!r}; use one of {', '.join(LANGUAGES)}")
    template = _environment().get_template(TEMPLATE)
    text = template.render(**memo_context(result, lang, evidence=evidence, chart_paths=chart_paths,
                                          charts_note=charts_note))
    text = "\n".join(line.rstrip() for line in text.splitlines())
    if memo_text15.is_npu(result):  # an Ascend plan's hardware is an accelerator / NPU, not a GPU (s15-text)
        text = memo_text15.npu_words(text, lang, translate(lang, "memo.h.sources"))
    text = memo_text15.memo_gpu_names(text, lang, translate(lang, "memo.h.sources"))  # 华为昇腾 910B in Chinese
    text = zh_spacing.tidy_memo(text, lang, translate(lang, "memo.h.sources"))  # "） 是" → "）是"
    text = memo_headings.headings_apart(text)  # a section whose last part is left out ends in a paragraph
    # "next step 7" where page 1 lists 3: "step 7 in section 9", the list it is in (s42-zhx, q23)
    text = step_refs44.point_at_lists(text, lang, min(FIRST_STEPS, len(result.next_steps)))
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text.strip() + "\n"


# ---- the document and its writing --------------------------------------------------------------------------
@dataclass(frozen=True)
class MemoDocument:
    """One memo ready to render: its Markdown (for whatever chart paths the writer chooses), the chart data,
    and the metadata a renderer needs (language, title)."""

    result: PlanResult
    lang: str
    title: str
    charts: Mapping[str, ChartData]
    evidence: tuple[RunEvidence, ...] = ()

    @property
    def printed_charts(self) -> dict[str, ChartData]:
        """The charts a PDF prints: all but one whose every point is a table of the memo (``repeats_table``)."""
        return {key: chart for key, chart in self.charts.items() if not repeats_table(chart)}

    def markdown(self, chart_paths: Mapping[str, str] | None = None, charts_note: str = "") -> str:
        return render_memo_markdown(self.result, self.lang, evidence=self.evidence,
                                    chart_paths=dict(chart_paths or {}), charts_note=charts_note)


def memo_document(result: PlanResult, lang: str, *, evidence: Sequence[RunEvidence] | None = None) -> MemoDocument:
    if lang not in LANGUAGES:
        raise MemoError(f"unknown memo language {lang!r}; use one of {', '.join(LANGUAGES)}")
    return MemoDocument(result=result, lang=lang, title=translate(lang, "memo.pdf.title"),
                        charts=memo_charts(result, lang, measured=evidence or []), evidence=tuple(evidence or ()))


class MemoPainter(Protocol):
    """What a renderer with a GUI toolkit supplies (``ui.memo_export.QtMemoPainter``): charts as PNG files and
    the Markdown printed to PDF. Each write is atomic; a failure raises :class:`MemoError`."""

    def write_chart_png(self, chart: ChartData, path: Path) -> None: ...

    def write_pdf(self, document: MemoDocument, out: Path, images: Mapping[str, str]) -> None: ...


def write_memo(
    result: PlanResult, out: Path, lang: str, *, evidence: Sequence[RunEvidence] | None = None,
    overwrite: bool = True, painter: MemoPainter | None = None,
) -> Path:
    """Write the memo to ``out``: ``.md`` (charts as PNGs in ``<stem>_files/``) or ``.pdf``. Returns ``out``.

    Without a ``painter`` (no Qt, as on a headless GPU server) a Markdown memo is written without its charts and
    says so, and a PDF is refused with a message naming what to install.
    Atomic: a temp file then a rename, for the Markdown, every chart and the PDF; a failure leaves what was
    there before. ``overwrite=False`` raises FileExistsError when ``out`` exists (the UI asks first)."""
    out = Path(out)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise MemoError(translate(lang, "memo.error.format", path=str(out)))
    document = memo_document(result, lang, evidence=evidence)
    if out.exists() and not overwrite:
        raise FileExistsError(translate(lang, "memo.error.exists", path=str(out)))
    if out.is_dir():
        raise MemoError(translate(lang, "memo.error.is_dir", path=str(out)))
    if suffix == ".pdf":
        check_target(out)
        if painter is None:
            raise MemoError(translate(lang, "memo.error.no_qt"))
        with tempfile.TemporaryDirectory(prefix="memo-charts-") as tmp:
            images = {}
            for key, chart in document.printed_charts.items():
                png = Path(tmp) / f"{key}.png"
                painter.write_chart_png(chart, png)
                images[png.name] = str(png)
            painter.write_pdf(document, out, images)
        return out

    check_target(out)  # a missing folder, a link, a read-only memo: refused before any chart is drawn
    folder = out.with_name(f"{out.stem}_files")
    chart_paths: dict[str, str] = {}
    note = ""
    if document.charts and painter is None:
        note = translate(lang, "memo.charts.no_qt")
    elif document.charts:
        folder.mkdir(exist_ok=True)  # the memo's own chart folder, beside it (its parent was checked above)
        for key, chart in document.charts.items():
            png = folder / f"{key}.png"
            painter.write_chart_png(chart, png)  # atomic, one file at a time
            chart_paths[key] = f"{folder.name}/{png.name}"
    write_text_atomic(out, document.markdown(chart_paths, note))
    for key in CHART_IDS:  # a chart an earlier export of this memo had, and this plan has not
        stale = folder / f"{key}.png"
        if key not in chart_paths and stale.is_file():
            stale.unlink()
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    return out


def _curve_reading(result: PlanResult, t, lang: str) -> str:
    """Under the latency table: a repeated P99 (``memo_carried``), then a flat first-token row, the jump past the
    engine's cap and a throughput dip, each said for what it is (``memo_curve_reading``)."""
    carried = memo_carried.carried_sentence(result, t)
    more = memo_curve_reading.reading_sentences(result, t, _num, bool(carried), lang)
    return ("" if lang == "zh_CN" else " ").join(x for x in (carried, more) if x)


def _peak_value(result: PlanResult, t) -> str:
    """The peak and the load per replica: with every replica up and, where the plan keeps an N+1 spare, on the
    replicas left with one unit down (round 10: q03 read "5 per replica" beside a headroom over the 2 replicas that
    carry the load, q23 "25 per replica" beside "5 carry the peak plus 1 spare"). Both figures are the plan's own
    (``Capacity.concurrency_per_replica``, ``Capacity.load_per_serving_replica``)."""
    cap, hw = result.capacity, result.hardware
    owned_api = hybrid_path43.peak_row(result, t)  # the owned base and the hosted API's overflow (review 35, q39)
    if owned_api is not None:
        return owned_api
    if not cap.concurrency_per_replica:
        return _num(cap.peak_concurrency)
    down, serving = cap.load_per_serving_replica, cap.serving_replicas
    if down is None or not serving or not hw.replicas or serving >= hw.replicas:
        return t("memo4.cap.peak_value", peak=_num(cap.peak_concurrency), per=_num(cap.concurrency_per_replica))
    key = "replica21.cap.peak_spare_one" if hw.replicas == 2 and serving == 1 else \
        "replica21.cap.peak_spare_server" if hw.replicas - serving > 1 else "replica21.cap.peak_spare_replica"
    if key == "replica21.cap.peak_spare_server" and _fleet_pcie(hw):
        key = "lead41.cap.peak_spare_machine"  # PCIe cards in the team's machines (review 31, q33)
    spares = fleet_choice43.spares_not_a_server(hw, serving)
    if key == "replica21.cap.peak_spare_server" and spares:  # not one server's replicas (review 34, q04)
        return t("tc43.cap.peak_spare_replicas", peak=_num(cap.peak_concurrency), per=_num(cap.concurrency_per_replica),
                 replicas=_num(hw.replicas), serving=_num(serving), down=_num(down), spares=spares)
    return t(key, peak=_num(cap.peak_concurrency), per=_num(cap.concurrency_per_replica), replicas=_num(hw.replicas),
             serving=_num(serving), down=_num(down))


def _purchase_far_off(result: PlanResult) -> bool:
    """The rent finding says owning pays back at best only at the best prices, in one sentence (``trim42.rent.*``)."""
    return any(f.id == "cost.rent" and str(f.detail_key).startswith("trim42.") for f in result.findings)


def _one_down_said(result: PlanResult) -> bool:
    """The peak row gives the load per replica with every replica up and with one unit down (``_peak_value``)."""
    cap, hw = result.capacity, result.hardware
    down, serving = cap.load_per_serving_replica, cap.serving_replicas
    return bool(cap.concurrency_per_replica and down is not None and serving and hw.replicas
                and serving < hw.replicas)


def _fleet_pcie(hw: Any) -> bool:
    """The team's own PCIe cards, in machines of unknown shape taken as two halves (``fleet_spread.machine_left``):
    "one machine down", not "one server" (review 31, q33's workstations); servers bought or rented stay servers."""
    lay = getattr(hw, "layout", None)
    return lay is not None and getattr(lay, "basis", None) == "fleet" and \
        getattr(lay, "form_factor", None) not in (None, "sxm", "oam")


def _knee_sentences(result: PlanResult, t, lang: str) -> str:
    """Where the plan's load and its load with one unit down sit against the knee. Where the first sentence names
    the most a replica takes within the target, the second does not name it again (s22-pages22)."""
    past = _past_knee(result, t)
    return (" " if lang != "zh_CN" else "").join(x for x in (past, _one_down_knee(result, t, said_max=bool(past)))
                                                if x)


def _one_down_knee(result: PlanResult, t, said_max: bool = False) -> str:
    """Where the load per replica with one unit down sits against the knee (q23: "with one down it is 30 a replica,
    exactly at the stated knee"): below it, at it, or past it but within the target."""
    cap, knee, hw = result.capacity, result.latency_curve.knee_concurrency, result.hardware
    down, serving = cap.load_per_serving_replica, cap.serving_replicas
    if down is None or not serving or not knee or not cap.max_concurrency_per_replica or not cap.meets_slo:
        return ""
    one = t(("lead41.unit.machine" if _fleet_pcie(hw) else "replica21.unit.server") if (hw.replicas or 0) - serving > 1
            else "replica21.unit.replica")
    spares = fleet_choice43.spares_not_a_server(hw, serving)
    if spares:  # the spares are not one server's replicas (review 34, q04)
        one = t("tc43.unit.replicas", n=spares)
    key = "replica21.knee.down_within" if down < knee else "replica21.knee.down_at" if down == knee else \
        "replica21.knee.down_past"
    if said_max and key != "replica21.knee.down_within":  # the most a replica takes is in the sentence before
        key = key.replace("replica21.knee.", "pages22.knee.")
    if knee_is_cap(result):  # the "knee" is the serve command's --max-num-seqs: said as the cap (s25-numbers25, q39)
        key = "numbers25.cap." + key.rsplit(".", 1)[1]  # down_within | down_at | down_past (pages22's too)
    lead = t("replica21.knee.one_left", down=_num(down)) if serving == 1 and hw.replicas == 2 else \
        t("replica21.knee.lead", one=one, down=_num(down))
    return t(key, lead=lead, c_max=_num(cap.max_concurrency_per_replica))


def _past_knee(result: PlanResult, t) -> str:
    """The plan runs each replica past the predicted knee but within the target: said beside the knee, so the table
    that shows both does not read as a contradiction (q04: "plans 14 per replica, past its own knee at 7")."""
    curve, cap = result.latency_curve, result.capacity
    per, knee = cap.concurrency_per_replica, curve.knee_concurrency
    if not per or not knee or not cap.meets_slo or not cap.max_concurrency_per_replica:
        return ""
    if per <= knee:
        # the plan's load sits at or below the knee, and the most a replica takes within the target lies past it:
        # which figure is which, said (ninth blind review, q23: "180 per replica within target, knee at 75")
        if cap.max_concurrency_per_replica <= knee:
            return ""
        return t("burst23.within_knee", per=_num(per), c_max=_num(cap.max_concurrency_per_replica))
    return t("memo.layout25.past_knee", per=_num(per), c_max=_num(cap.max_concurrency_per_replica))
