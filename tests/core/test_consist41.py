"""Numbers that agree with each other (issue 25; blind review 31).

q01/q03/q06: the Hardware row named the GPUs twice ("1 server of 2 × 4090 D; 2 × 4090 D: 1 replica of 2 GPUs").
q22/q07: "4 of these 5 reasons rest on facts no official source confirms" under nine listed reasons, naming none.
q26: "7 the peak needs with the planned headroom" and "the 6 the peak needs" for the replicas a third server leaves.
q32: "at 25 … 51.9 ms" beside a latency table whose 51.9 stands under 26. q16: "a mostly idle GPU" priced as 2 × H20.
q25/q19: "pays back only in the best case" beside "after about 14.6 months at mid-range prices"; "below the ~49 % at
which owning pays" beside "after about 12.9 months in the best case".
"""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import burstbill37, consist41_hardware
from advisor.plan.memo import render_memo_markdown
from tests.support.page_one import page_one
from tests.support.planned import ADVICE_SCENARIOS, advice_plan

LANGS = ("en", "zh_CN")
NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("*.json"))
REASON = re.compile(r"^(\d+)\. \*\*.+\*\*( ⚠)?$")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_the_hardware_row_names_the_gpus_once_with_the_units_they_come_in(name: str, lang: str) -> None:
    r = advice_plan(name)
    hw = r.hardware
    said = consist41_hardware.row(r, lang, burstbill37.event_split(r))
    if said is None or r.nodes or r.deployment_form == "hosted_api":
        return
    lay = hw.layout
    assert lay is not None and lay.units * lay.unit_gpus == hw.total_gpus
    units = lay.text_in(lang, str(hw.gpu_name))
    # the row that says the units (page 1 may lead with a hosted API, or give hardware and cost in one row)
    row = next((x for x in page_one(render_memo_markdown(r, lang)).splitlines() if x.startswith("| ") and units in x), None)
    if row is None:
        return
    assert said in row, row
    assert f"{units}{translate(lang, 'memo.key.hardware_sep')}{hw.total_gpus} " not in row  # the old "…; 8 × L20: …"
    # the GPUs once, their count there (in the units, or said in all), the replicas after them
    assert said.count(str(hw.gpu_name)) == 1, said
    assert str(hw.total_gpus) in said and str(hw.replicas) in said and str(hw.weights) in said, said
    assert lay.text_in(lang, str(hw.gpu_name)) in said


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_the_unconfirmed_reasons_note_counts_and_names_the_reasons_shown(name: str, lang: str) -> None:
    page = page_one(render_memo_markdown(advice_plan(name), lang))
    lists: list[list[bool]] = []  # page 1's numbered reason lists, each item: marked ⚠ or not
    for line in page.splitlines():
        m = REASON.match(line)
        if m is None:
            continue
        if m.group(1) == "1":
            lists.append([])
        lists[-1].append(bool(m.group(2)))
    marked, total = sum(sum(x) for x in lists), sum(len(x) for x in lists)
    notes = [x for x in page.splitlines() if "⚠" in x and not REASON.match(x) and (
        ("officially confirmed" in x) if lang == "en" else ("官方来源" in x))]
    if not marked:
        assert not notes, notes
        return
    assert len(notes) == 1, notes
    note = notes[0]
    if len(lists) == 1:  # one list: the note names the marked reasons by their numbers
        numbers = [str(i + 1) for i, v in enumerate(lists[0]) if v]
        assert re.findall(r"\d+", note.split("(")[0].split("（")[0])[:len(numbers)] == numbers or \
            (marked == total and str(total) in note), note
    else:  # several: the count of the marked over every reason shown
        assert (f"{marked} of the {total} reasons" in note) if lang == "en" else \
            (f"以上 {total} 条理由中有 {marked} 条" in note), note


@pytest.mark.parametrize("name", NAMES)
def test_a_third_servers_replicas_are_weighed_against_the_count_said_before(name: str) -> None:
    f = next((x for x in advice_plan(name).findings if x.id == "sizing.redundancy"
              and str(x.detail_key).endswith((".repair_parts.detail", ".repair_unsure.detail"))), None)
    if f is None:
        return
    words = f.params["need_words"]
    if words["tr"] == "consist41.need.headroom":  # the same figure the finding gave a sentence before
        assert words["n"] == f.params["load"] and f.params["left_more"] >= f.params["load"]
    else:  # the peak's own count, related to it
        assert words["load"] == f.params["load"] and words["n"] < f.params["load"]
    for lang in LANGS:
        assert str(f.params["load"]) in f.detail_in(lang)


def test_q26s_replicas_for_the_peak_are_one_figure() -> None:
    f = next(x for x in advice_plan("q26_steady_3y_strong_ops_buy").findings if x.id == "sizing.redundancy")
    load = f.params["load"]
    for lang, needs in (("en", "the peak needs"), ("zh_CN", "所需的")):
        text = f.detail_in(lang)
        said = {int(n) for n in re.findall(rf"(\d+) {needs}" if lang == "en" else rf"{needs} (\d+) 个", text)}
        assert said == {load}, text


@pytest.mark.parametrize("name", NAMES)
def test_a_capped_level_is_named_by_the_latency_tables_own_column(name: str) -> None:
    r = advice_plan(name)
    b = r.binding_constraint
    near = [p for p in (b.then if b is not None else []) if isinstance(p, dict)
            and p.get("tr") in ("consist41.binding.capped_near", "sizenums22.binding.capped_table")]
    shown = {p.concurrency: p for p in r.latency_curve.points}
    for p in near:
        col = p.get("col", p["at"])
        assert col in shown, (col, sorted(shown))
        v = shown[col].tpot_p99_ms
        assert p["tpot_ms"] == (round(v) if v >= 100 else round(v, 1))  # as the table prints it


@pytest.mark.parametrize("lang", LANGS)
def test_q32_says_the_table_column_its_figure_stands_under(lang: str) -> None:
    r = advice_plan("q32_filed_public_chatbot_fast")
    memo = render_memo_markdown(r, lang)
    b = r.binding_constraint
    p = next(x for x in b.then if isinstance(x, dict) and x.get("tr") == "consist41.binding.capped_near")
    assert p["col"] != p["at"] and (f"table's {p['col']} column" if lang == "en" else f"延迟表并发 {p['col']} 那一列") in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_hosted_apis_self_host_month_names_the_gpus_it_prices(lang: str) -> None:
    r = advice_plan("q16_hosted_api_mainland_registration")
    f = next(x for x in r.findings if x.id == "cost.hosted_api")
    text = f.detail_in(lang)
    gpus, name = r.costs.gpus, f.params["gpus"]["gpu"]
    assert f.params["gpus"]["n"] == gpus and gpus > 1
    assert (f"{gpus} × {name}" if lang == "en" else f"{gpus} 张大部分时间闲着的 {name}") in text
    assert ("a mostly idle GPU" not in text) if lang == "en" else ("一台大部分时间闲着的 GPU" not in text)


@pytest.mark.parametrize("name", NAMES)
def test_a_mid_range_payback_is_never_called_best_case_only(name: str) -> None:
    r = advice_plan(name)
    be = r.costs.break_even_months if r.costs is not None else None
    f = next((x for x in r.findings if x.id == "cost.rent"), None)
    if f is None or be is None or be.mid is None:
        return
    assert "only in the best case" not in f.detail_in("en") and "只有在最好情况下" not in f.detail_in("zh_CN")
    assert "not in the worst case" in f.detail_in("en") and "最坏情况下不能" in f.detail_in("zh_CN")


@pytest.mark.parametrize("lang", LANGS)
def test_q19_relates_the_busy_hours_break_even_to_the_every_hour_rents_payback(lang: str) -> None:
    f = next(x for x in advice_plan("q19_export_controlled_h100_mainland").findings if x.id == "cost.rent")
    # trim42 (blind review 32, q19: "the owning-vs-renting break-even paragraph is irrelevant to a rent decision"):
    # owning pays back only in the best case, so one sentence says so, neither the share nor the months
    assert f.detail_key == "trim42.rent.best_case_only"
    text = f.detail_in(lang)
    assert "12.9" not in text and "49 %" not in text, text
