"""Each point said once, where it decides (issue 25, blind review 35: "memos repeat the same point in several
sections"). Two checks over every scenario memo in both languages catch a sentence-level repeat: the same claim word
for word in two places of the memo's prose, and the same figures claimed in two findings. The behaviours behind them
(q35's KV condition, q03's PIPL findings and KV counts, q01's second server, q43's hosted-API paragraph) are tested on
the plans the reviewers read; the app and ``--json`` keep every sentence in full."""

from __future__ import annotations

import collections
import re

import pytest

from advisor.i18n import translate
from advisor.plan import page_one_once44, pi_said_once44
from advisor.plan.kv_replicas42 import GATE_KEY
from advisor.plan.kv_said_once44 import STEP_KEY
from advisor.plan.memo import render_memo_markdown
from tests.support.planned import ADVICE_SCENARIOS, advice_plan

NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
LANGS = ("en", "zh_CN")
Q01, Q03, Q35, Q43 = ("q01_office_lan_capex_contracts", "q03_hospital_private_wan_medical",
                      "q35_deepseek_v3_h20_internal", "q43_us_team_mainland_low_latency")

# --- the detectors -------------------------------------------------------------------------------------------------

_TITLE = re.compile(r"^(?:- |\d+\. )?(\*\*[^*]+\*\*)(?: \([^)]*\))?(?:（[^）]*）)?(?: ⚠)?[.:：。]?\s*")
_CITE = re.compile(r"\s*\[\d[\d,–\s\u00a0]*\]")
_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?(?:\s*[–-]\s*\d[\d,]*(?:\.\d+)?)?")
CLAIM_BYTES = 80  # a sentence this long (UTF-8: about 27 Chinese characters) is a claim, not a stock phrase


def _sections(memo: str) -> list[str]:
    return memo.split("\n## ")


def _prose(memo: str) -> list[str]:
    """The memo's prose lines (paragraphs, list items' text), less tables, code, headings, the bold titles a reason
    list shares with its finding by design, citations, and the sources section (the last)."""
    out, code = [], False
    for sec in _sections(memo)[:-1]:
        for line in sec.splitlines():
            if line.startswith("```"):
                code = not code
                continue
            if code or line.lstrip().startswith("|") or line.startswith("#") or not line.strip():
                continue
            out.append(_CITE.sub("", _TITLE.sub("", line.strip())))
    return out


def _pieces(line: str) -> list[str]:
    """A line's sentences and clauses (split at . ; : and their Chinese forms)."""
    return [s.strip() for s in re.split(r"(?<=[.;:])\s+|(?<=[。；：])", line) if s.strip()]


def said_twice(memo: str) -> dict[str, list[int]]:
    """Sentences (or clauses) of at least CLAIM_BYTES said word for word in two places of the memo's prose."""
    seen: dict[str, set[int]] = collections.defaultdict(set)
    for i, line in enumerate(_prose(memo)):
        for piece in _pieces(line):
            norm = re.sub(r"\s+", " ", piece).strip(" .;:。；：⚠")
            if len(norm.encode()) >= CLAIM_BYTES:
                seen[norm].add(i)
    return {k: sorted(v) for k, v in seen.items() if len(v) > 1}


def _figures(s: str) -> frozenset[str]:
    return frozenset(x for n in _NUM.findall(s) if len(re.sub(r"\D", "", x := re.sub(r"\s", "", n))) >= 3)


def _findings(memo: str) -> list[tuple[str, str]]:
    """Section 7's findings as (title, text)."""
    sec = next((s for s in _sections(memo) if s.startswith(("7.", "七"))), "")
    out = []
    for line in sec.splitlines():
        if line.startswith("- "):
            m = _TITLE.match(line)
            out.append((m.group(1), line[m.end():]) if m else ("", line))
    return out


def figures_twice(memo: str) -> list[tuple[int, int, str]]:
    """A finding's sentence whose figures (two or more, of three digits or more) another finding claims too."""
    found = _findings(memo)
    said = [[_figures(p) for p in _pieces(t) + _pieces(b)] for t, b in found]
    out = []
    for i, (_, text) in enumerate(found):
        for piece in _pieces(text):
            figs = _figures(piece)
            if len(figs) >= 2:
                out += [(i, j, piece) for j, other in enumerate(said) if j != i and figs in other]
    return out


def test_the_detectors_catch_a_repeat():
    """Both detectors fail on the before-state's repeats (q43: the Singapore API's round trip on page 1 and in its
    finding; q01: the second server's figures beside the plan's own cost finding), and pass on plain text."""
    trip = ("An API served from Singapore misses your target here: from the mainland its round trip is 38–60 ms "
            "(published route tests, grade C), and at the slow end 60 + 94 = 154 ms, over your 150 ms target.")
    memo = (f"# T\n\n## 1. Decision\n\n**Why not:** {trip}\n\n## 7. Findings\n\n- **An API** ⚠. Take it if. {trip} [9]"
            "\n\n## 10. Sources\n\n1. x\n")
    assert said_twice(memo)
    assert not said_twice(memo.replace(f"Take it if. {trip}", "Take it if."))
    cost = ("# T\n\n## 7. Findings\n\n- **One server**. A second server of the same kind costs about ¥66–¥467 a month more "
            "to run, after ¥34,929–¥55,886 to buy; add it.\n- **Buy one server: ¥34,929–¥55,886 once, then about "
            "¥66–¥467 a month to run** ⚠. Power.\n\n## 8. Answers\n")
    assert figures_twice(cost)
    assert not figures_twice(cost.replace("costs about ¥66–¥467 a month more to run, after ¥34,929–¥55,886 to buy",
                                          "costs as much again as this one"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_no_memo_says_the_same_claim_twice(name, lang):
    memo = render_memo_markdown(advice_plan(name), lang)
    assert said_twice(memo) == {}, name
    assert figures_twice(memo) == [], name


# --- q35: the KV condition, once in full -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_kv_condition_is_said_in_full_once_and_pointed_to_elsewhere(lang):
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    memo = render_memo_markdown(r, lang)
    gib = f"{fit.kv_gib_per_gpu:g} GiB"
    page_one = _sections(memo)[1]
    assert page_one.count(gib) == 1 and memo.count(gib) <= 2  # page 1's condition (and section 2's remedy: "from 2.2")
    box = next(line for line in page_one.splitlines() if gib in line)
    assert f"{fit.context:,}" in box and f" {fit.at_full} " in box  # said in full there
    feasible = next(line for line in page_one.splitlines() if line.startswith(f"| {translate(lang, 'memo.key.feasible')} |"))
    assert gib not in feasible and f"{fit.context:,}" not in feasible  # the row points to it
    [step] = [s for s in r.next_steps if s.key == GATE_KEY]
    full = step.text_in(lang)  # the app keeps the step in full
    assert f"{fit.context:,}" in full
    short = step.model_copy(update={"key": STEP_KEY}).text_in(lang)
    assert short in page_one and full not in page_one and f"{fit.context:,}" not in short
    sizing = _sections(memo)[2]
    assert f"{fit.context:,}-token" not in sizing.split("\n\n")[1] if lang == "en" else True
    assert translate(lang, "rep44.tight_said", load=fit.peak_per_replica, longest="x").split("：" if lang == "zh_CN"
                                                                                            else ":")[0] in sizing


@pytest.mark.parametrize("lang", LANGS)
def test_the_go_no_go_names_the_memory_flag_with_what_it_gains(lang):
    """Review 35 (q35 zh): "raising --gpu-memory-utilization to 0.95 roughly triples the KV room": the step names it
    with the plan's own memory estimate at 0.95, and section 2 lists it first among the remedies."""
    r = advice_plan(Q35)
    fit = r.capacity.kv_fit
    raised = next(x for x in fit.remedies if x.kind == "memory_utilization")
    assert raised.utilization == 0.95 and raised.utilization_was == 0.9
    assert raised.kv_gib > 2.5 * fit.kv_gib_per_gpu and raised.full_fit > fit.at_full  # 2.2 → 7 GiB, 8 → 25
    [step] = [s for s in r.next_steps if s.key == GATE_KEY]
    text = step.text_in(lang)
    assert "--gpu-memory-utilization" in text and "0.95" in text and f"{raised.full_fit}" in text
    assert translate(lang, "kvfail42.opts.dp", sglang="", vllm="") not in text
    sizing = _sections(render_memo_markdown(r, lang))[2]
    assert "--gpu-memory-utilization" in sizing and "0.95" in sizing


# --- q03, q06, q14: the PIPL notice inside the sensitive-information finding -----------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [Q03, "q06_l20_batch_72h_claims", "q14_medical_followup_mainland"])
def test_the_pipl_notice_is_said_inside_the_sensitive_information_finding(name, lang):
    r = advice_plan(name)
    notice = next(f for f in r.findings if f.title_key == pi_said_once44.NOTICE_TITLE)  # the plan keeps both
    host = next(f for f in r.findings if f.id == pi_said_once44.SENSITIVE)
    memo = render_memo_markdown(r, lang)
    assert notice.title_in(lang) not in memo
    line = next(x for x in memo.splitlines() if x.startswith(f"- **{host.title_in(lang)}**"))
    assert translate(lang, pi_said_once44.FOLDED) in line and ("13" if lang == "en" else "第十三条") in line  # Art. 13's bases, once
    merged = next(f for f in pi_said_once44.findings(list(r.findings)) if f.id == pi_said_once44.SENSITIVE)
    assert all(s in merged.sources for s in notice.sources)  # its sources cited still


# --- q03: the KV counts agree ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_served_context_line_gives_the_sizing_tables_full_context_count(lang):
    """Review 35 (q03): "22 at the full 8,192" in the sizing table beside "the KV cache holds the 12 run at once
    there" in section 8: both now give 22, with the 12 as what a replica runs at once."""
    r = advice_plan(Q03)
    fit = r.capacity.kv_fit
    memo = render_memo_markdown(r, lang)
    row = next(x for x in memo.splitlines() if x.startswith(f"| {translate(lang, 'memo.cap.memory_max')} |"))
    assert f"{fit.at_full} " in row.split(";")[1] if lang == "en" else f"{fit.at_full} " in row
    served = next(a for a in r.assumptions if a.key.startswith("dsv3cmd38_assume.context_raised"))
    text = served.text_in(lang)
    assert text in memo and f" {fit.at_full} " in text and f" {fit.max_num_seqs} " in text


# --- q01: a second server that costs what the plan does --------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_second_server_is_costed_as_the_same_again_not_with_the_plans_figures(lang):
    r = advice_plan(Q01)
    f = next(x for x in r.findings if x.id == "sizing.single_point")
    detail = f.detail_in(lang)
    assert translate(lang, "rep44.second.same_bought") in detail and f.params["monthly"] not in detail
    # added to the plan (q35: half the plan's month), its own figures stay
    added = next(x for x in advice_plan(Q35).findings if x.id == "sizing.single_point")
    assert added.params["monthly"] in added.detail_in(lang)


# --- q43: page 1's paragraph is not repeated in its finding ----------------------------------------------------------


def test_a_clause_page_one_says_is_left_out_of_the_finding_and_the_rest_kept():
    page = ["**Why not:** you asked which of the A / B / C cards to run on, so the answer is the self-hosted setup "
            "on the one chosen."]
    text = ("At this volume a hosted API would cost ¥176 (input ¥1; list prices (2026, grade C): confirm). This plan "
            "is kept: you asked which of the A / B / C cards to run on, so the answer is the self-hosted setup on the "
            "one chosen; on cost alone the API would win.")
    out = page_one_once44.detail(text, page, "en")
    assert out == ("At this volume a hosted API would cost ¥176 (input ¥1; list prices (2026, grade C): confirm). "
                   "This plan is kept: on cost alone the API would win.")
    only = text.replace("; on cost alone the API would win.", ".")
    assert page_one_once44.detail(only, page, "en").endswith("confirm).")  # the lead-in goes with it
    assert page_one_once44.detail(text, [""], "en") == text


@pytest.mark.parametrize("lang", LANGS)
def test_q43s_singapore_round_trip_is_said_once(lang):
    memo = render_memo_markdown(advice_plan(Q43), lang)
    trip = "60 + 94 = 154"
    assert memo.count(trip) == 1 and trip in _sections(memo)[1]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q14_medical_followup_mainland", "q32_filed_public_chatbot_fast"])
def test_the_bgp_line_is_one_finding(name, lang):
    """Review 35 (q14: "BGP appears in two findings"; q32: "merge the two BGP findings"): the line's bandwidth and
    price are said in the BGP finding, not as a finding of their own; the plan keeps both."""
    r = advice_plan(name)
    line = next(f for f in r.findings if f.id == pi_said_once44.LINE)
    width = next(f for f in r.findings if f.id == pi_said_once44.BANDWIDTH)
    findings = _findings(render_memo_markdown(r, lang))
    assert not any(t == f"**{width.title_in(lang)}**" for t, _ in findings)
    [(_, text)] = [(t, b) for t, b in findings if t == f"**{line.title_in(lang)}**"]
    assert width.title_in(lang) in text and width.detail_in(lang) in text
