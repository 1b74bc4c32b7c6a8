"""An offline batch job's memo in a batch job's words, and q29's fix rows agreeing with the text (issue 25, blind
review 27: q06, q28, q29).

q28/q06: "上线之前" and "用户都在大陆" fit an online service; for a batch say "开工之前" and data subjects; the
outsourcing review and the PIA gate the job's start (its clock starts after them); "the service is to be reached
only on your own network" does not belong in a batch job. q29: the relaxed-deadline row's hours against the cost
sentence's (the gap is margin), the hosted API's row needs a rate-limit caveat, the batch API's row its completion
window, and a row over the budget says how much more it needs.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, batch_rate, batch_words, memo_fixes36
from advisor.plan.engine import plan
from advisor.plan.memo import render_memo_markdown
from advisor.resources import load_json
from tests.support.page_one import next_step_line, page_one

SCENARIOS = Path(__file__).resolve().parents[2] / "bench" / "advice_scenarios"
LANGS = ("en", "zh_CN")
LAUNCH = {"en": "before launch", "zh_CN": "上线"}
STARTS = {"en": "Before the job starts", "zh_CN": "开工之前"}
USERS = {"en": "Your users", "zh_CN": "用户都在大陆"}
OWN_NETWORK = {"en": "reached only on your own network", "zh_CN": "服务只供你们自己网络内访问"}


def _answers(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["answers"]


@pytest.fixture(scope="module")
def batches():
    return {n: plan(answers_from_dict(_answers(n)))
            for n in ("q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h")}


@pytest.fixture(scope="module")
def q29():
    return plan(answers_from_dict(_answers("q29_batch_impossible_budget")))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h"])
def test_a_batch_waits_before_the_job_starts_and_its_clock_after_the_duties(batches, name, lang):
    r = batches[name]
    memo = render_memo_markdown(r, lang)
    deadline = f"{r.answers['batch_deadline_hours']:,.0f}"
    step = next_step_line(memo, 1, lang)
    # the duties of unknown length the job waits on, said before it starts, with the clock that starts after them
    assert step.startswith(f"1. {STARTS[lang]}"), step
    assert r.timeline.untimed and ("PIPL Art. 55" if lang == "en" else "第五十五条") in step, step
    # its clock read both ways (blind review 34, bt43): counted from the hand-over after them, or already running
    clock = (f"if the {deadline} hours run from the data's hand-over after them", "calendar deadline already running") \
        if lang == "en" else (f"若 {deadline} 小时从这些事项办完、数据交付时起算", "已在计时的日历期限")
    assert all(c in step for c in clock), step
    # no online service's words anywhere in the memo
    assert LAUNCH[lang] not in memo, [ln for ln in memo.splitlines() if LAUNCH[lang] in ln]
    assert USERS[lang] not in memo and OWN_NETWORK[lang] not in memo
    assert f"| {translate(lang, 'batchword38_timeline.blocking')} |" in memo
    # the mainland finding speaks of the files on a mainland node and the data subjects
    f = r.finding("pi.keep_in_mainland")
    assert f is not None and f.detail_key == "batchword38_pi.mainland_only.detail"
    assert ("data subjects" if lang == "en" else "数据主体") in f.detail_in(lang)
    assert step in page_one(memo)


def test_the_batch_keys_follow_the_use_case_and_the_online_wording_stays():
    assert batch_words.clock({"use_case": "chat"}) is None
    assert batch_words.clock({"use_case": "offline_batch"}) == {"key": "batchword38_next.waits", "params": {}}
    assert batch_words.clock({"use_case": "offline_batch", "batch_deadline_hours": 48})["params"] == {"deadline": "48"}
    assert batch_words.blocking_head({"use_case": "chat"}) == "memo.timeline.blocking"
    assert batch_words.blocking_head({"use_case": "offline_batch"}) == "batchword38_timeline.blocking"
    for lang in LANGS:  # the batch variants say the same thing but the launch: every {placeholder} kept
        for online, batch in batch_words._DETAILS.items():
            a, b = translate(lang, online), translate(lang, batch)
            assert set(re.findall(r"{\w+}", a)) == set(re.findall(r"{\w+}", b)), (online, lang)
            assert LAUNCH[lang] not in b and (lang != "zh_CN" or "开工" in b or "大陆节点" in b), b


def _table(r, lang):
    got = memo_fixes36.table(r, lang)
    assert got is not None
    return got["rows"]


def _row(rows, starts):
    return next(x for x in rows if x["change"].startswith(starts))


@pytest.mark.parametrize("lang", LANGS)
def test_q29_the_relaxed_deadline_is_the_work_hours_plus_the_named_margin(q29, lang):
    memo = render_memo_markdown(q29, lang)
    # the cost sentence's hours: "× 124.2–125.7 h (the work and the setup)" / "× 124.2–125.7 小时（运行加准备）"
    m = re.search(r"× ([\d.]+)–([\d.]+) (?:h \(the work and the setup\)|小时（运行加准备）)", memo)
    assert m, "the cost sentence's hours"
    longer = next(f for f in q29.fixes if f.id == "longer_batch")
    hours = float(longer.params["hours"])
    row = _row(_table(q29, lang), f"A {hours:,.0f}-hour" if lang == "en" else "批处理放宽到")
    assert f"{m.group(1)}–{m.group(2)}" in row["change"], row  # the same hours as the text
    margin = f"{batch_rate.DEADLINE_MARGIN * 100:.0f} %"
    assert margin in row["change"] and ("margin" in row["change"] or "余量" in row["change"])
    # the deadline is those hours with the margin kept free, rounded up to the hour
    assert hours == math.ceil(float(m.group(2)) / (1 - batch_rate.DEADLINE_MARGIN))


@pytest.mark.parametrize("lang", LANGS)
def test_q29_the_hosted_api_row_carries_its_rate_limit_and_the_batch_api_its_window(q29, lang):
    rows = _table(q29, lang)
    a = q29.answers
    tokens = a["total_requests"] * (a["prompt_tokens"]["avg"] + a["output_tokens"]["avg"])
    api = _row(rows, "A hosted API" if lang == "en" else "模型 API 服务")
    assert f"{tokens:,.0f}" in api["change"] and ("rate limits" in api["change"] or "速率上限" in api["change"])
    rps = a["total_requests"] / (a["batch_deadline_hours"] * 3600)
    assert f"{rps:,.0f}" in api["change"]
    window = load_json("plan", "batch_api17.json")["window"]
    assert a["batch_deadline_hours"] < window["hours"]
    batch = _row(rows, "Send the job" if lang == "en" else "把任务改交")
    assert (f"commonly {window['hours']} hours" if lang == "en" else f"通常为 {window['hours']} 小时") in batch["change"]
    assert window["sources"][0]["url"] in batch["change"]


@pytest.mark.parametrize("lang", LANGS)
def test_q29_every_row_over_the_budget_says_the_budget_it_needs(q29, lang):
    budget = q29.answers["monthly_budget"]["amount"]
    for row in _table(q29, lang):
        low = float(re.search(r"([\d,]+)", row["cost"]).group(1).replace(",", ""))
        if low > budget:
            assert row["needs"] != "—", row
