"""Page 1 says each fact once (session 26, issue 25: "a typical memo fits in 4 PDF pages", median 4 and none over 5).

Wave 2 of session 25 added page-1 text that its neighbours already said: the steps a launch waits for in the
earliest-launch row, the feasible row and next step 1; the stand-in GPU price in the cost row and in the quote step;
the break-even volume in the hosted-API lead and in the request-count question; the fleet's count in the headline and
in the hardware row; the other region's API price as a yardstick on page 1 and again in section 7. Each test checks
the fact is said once where it is said, and still said (in full) where the place that now points at it is absent."""

from __future__ import annotations

import re

import pytest

from advisor.i18n import translate
from advisor.plan import (
    batch_clock43,
    budget_words,
    memo_gate_once,
    memo_lead_once,
    sales_deadline,
    step_refs44,
    step_where40,
)
from advisor.plan.charts import ChartData, Series, repeats_table
from advisor.plan.memo import FIRST_STEPS, memo_document, render_memo_markdown
from advisor.plan.memo_gate_once import step_number
from advisor.plan.result import render
from tests.support.former_l20_rent import former_l20_quotes
from tests.support.planned import ADVICE_SCENARIOS, advice_answers, quoted, short_lived, unled

# s38-burst40: q39's bursts now rent a part by the hour; these tests pin the month-booked H20 path, kept on q39's
# answers through ``sales_month`` (the same plan for every other scenario: only a hybrid's burst part is chosen there)
from tests.support.planned import sales_month as planned

pytestmark = pytest.mark.before_ovs44  # its example plans as before ovs44 (tests/conftest.py)

NAMES = sorted(p.stem for p in ADVICE_SCENARIOS.glob("q*.json"))
LANGS = ("en", "zh_CN")


def _page_one(memo: str) -> str:
    """Section 1 of the memo (the Decision, page 1's text)."""
    return memo.split("\n## ", 2)[1]


def _row(memo: str, key: str, lang: str) -> str:
    # a job's launch row is named "Earliest start" (s35-batchjob, q06 zh)
    labels = [translate(lang, k) for k in ([key, "batchjob37_key.start"] if key == "memo.key.launch" else [key])]
    return next(line for line in memo.splitlines() if any(line.startswith(f"| {x} |") for x in labels))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_page_one_names_each_step_the_launch_waits_for_once(name, lang):
    """q38 listed the impact assessment and the works council's agreement three times on page 1 (the launch row, the
    feasible row, step 1). Where a next step on page 1 names them all, each is named once there and both rows point
    to that step by its number; elsewhere the launch row still names each one."""
    r = planned(advice_answers(name))
    waits = r.timeline.untimed
    if not waits or not r.feasible:
        pytest.skip("no step of unknown length, or not feasible as asked")
    if sales_deadline.start_now(r) is not None:  # launched on the on-demand part: the delivery waits no launch
        pytest.skip("a deadline launched on the on-demand part (test_salesdl35)")
    page = _page_one(render_memo_markdown(r, lang))
    labels = [i.label_in(lang, clause=True) for i in waits]
    n = step_number(r, [s.text_in(lang) for s in r.next_steps[:FIRST_STEPS]], lang)
    launch = _row(page, "memo.key.launch", lang)
    if n is None:
        assert all(label in launch for label in labels), (name, launch)
        return
    steps = page.split(translate(lang, "memo.next.first"))[1]
    assert re.search(rf"(?m)^{n}\. ", steps), name  # the step the rows point at is on page 1
    assert not any(label in launch for label in labels), (name, launch)
    feasible = _row(page, "memo.key.feasible", lang)
    if budget_words.conditional(r):  # "only if the quotes come in low; once these are done: …" keeps its list
        assert all(label in feasible for label in labels), name
        return
    # a step that holds only the overseas node says so (s37-seq, q34): that node once it is done
    # a deadline job's clock read both ways (blind review 34, bt43: q06, q28): the condition, pointing at the step
    once = memo_gate_once.feasible_text(n, lang, r)
    plain = r.timeline.node_only is None and batch_clock43.clock_step(r) is None
    assert plain == (once == translate(lang, "pages26.feasible.once_step", n=n)), name
    # in a numbered list of conditions (vrd44, review 35) the step is its own condition: "what next step 1 lists,
    # done first"
    listed = feasible.split("| ")[-1].startswith(translate(lang, "vrd44.feasible.list", items=""))
    assert (translate(lang, "vrd44.feasible.first_step", n=n) if listed and plain else once) in feasible, name
    for label in labels:
        assert page.count(label) == 1, (name, label)


def test_q38_launch_row_points_at_step_one_and_the_json_keeps_the_full_list():
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    page = _page_one(render_memo_markdown(r, "en"))
    assert "after what next step 1 lists (length unknown), then 1–5 days to set up" in _row(page, "memo.key.launch", "en")
    assert _row(page, "memo.key.feasible", "en") == "| Feasible as asked | yes, once what next step 1 lists is done |"
    # the app and --json keep the rows' own text (the timeline's launch text names every step)
    full = r.timeline.launch_text("en", "1–5")
    assert all(i.label_in("en", clause=True) in full for i in r.timeline.untimed)


@pytest.mark.parametrize("name", ["q25_hk_bank_retail", "q34_mixed_users_split", "q09_eu_voice_agent"])
def test_the_stand_in_price_is_said_once_on_page_one(name):
    """The cost row says the region's GPU price is a stand-in; the quote step asks for the quote without saying it
    again in brackets (q25, q34: "the GPU price above is a stand-in: another region's rows times an uplift")."""
    # s39-sgp (issue #25): q34's Singapore node is sized on one L4 a replica at Singapore's own row from the start
    # (no stand-in left to lead); its stand-in L40S node is read on Singapore's L4 priced by the card (``l4_by_card``)
    from tests.support.l4_by_card import unled_by_card

    r = (unled_by_card if name == "q34_mixed_users_split" else unled)(advice_answers(name))
    page = _page_one(render_memo_markdown(r, "en"))
    assert page.count("stand-in") == 1, name
    assert "stand-in" in _row(page, "memo.key.cost", "en")
    assert any(s.key == "rows18.next.quotes_region" for s in r.next_steps[:FIRST_STEPS])  # the step is on page 1
    assert "the GPU price above is a stand-in" in next(s.text_in("en") for s in r.next_steps
                                                        if s.key == "rows18.next.quotes_region")  # --json keeps it


@pytest.mark.parametrize("lang", LANGS)
def test_the_yardstick_price_is_given_once_where_page_one_gives_it(lang):
    """q38: no API serving Europe is priced; page 1 gives the US list as a yardstick against this plan, and section
    7's finding said the same sentence again. Now once, the finding pointing to page 1 and keeping its checks."""
    r = planned(advice_answers("q38_eu_internal_hr_assistant"))
    memo = render_memo_markdown(r, lang)
    f = r.finding("cost.hosted_weighed")
    yardstick = f.params["yardstick"]
    said = render(lang, yardstick["tr"], {k: v for k, v in yardstick.items() if k != "tr"})
    assert memo.count(said) == 1
    assert said in _page_one(memo)
    # review 25 (q38): the US list is not comparable for an EU node's personal data; the pointer says so
    pointer = translate(lang, memo_lead_once.RESIDENCY_SAID)
    assert pointer in memo
    assert "advisor bench" in memo.split(pointer)[1].split("\n")[0]  # the checks


def test_the_yardstick_stays_in_the_finding_where_page_one_has_no_paragraph():
    """q09 keeps its GPUs for a reason (a shared API's first-token tail): no page-1 paragraph, so the finding keeps
    the yardstick."""
    memo = render_memo_markdown(planned(advice_answers("q09_eu_voice_agent")), "en")
    assert translate("en", "pages26.yardstick_on_page1") not in memo
    # review 25: q09's EU node carries callers' personal data, so its clause says the list is not comparable
    assert "is not comparable" in memo and translate("en", memo_lead_once.RESIDENCY_SAID) not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_lead_points_its_break_even_at_the_request_count_question(lang):
    # s31-publicsaas31: run short-lived (``short_lived``): a deprecated hosted model leads no plan of 24 months
    """q12 (an API lead on the plan's estimate): page 1 asks the requests a day first, with the volume that flips
    the choice; the lead's break-even in tokens names that question instead of the price list's title."""
    r = planned(short_lived(advice_answers("q12_hk_saas_pi_contract")))
    page = _page_one(render_memo_markdown(r, lang))
    first = [q for q in r.open_questions if q.changes_decision][0]
    assert first.field == "requests_per_day"
    pointer = {"en": "in requests a day: the first question below)", "zh_CN": "折合每天请求数见下面第一个问题）"}[lang]
    assert page.count(pointer) == 1
    assert pointer not in r.start_with.text_in(lang)  # the app and --json keep the source's title
    # the question it points at is page 1's first, and gives the volume that flips the choice in requests a day
    assert page.index(pointer) < page.index(first.text_in(lang)) and first.assumption_params
    # the price list the break-even rests on is still cited, with its date and grade, beside the API's rates in the
    # findings (section 7)
    findings = render_memo_markdown(r, lang).split("\n## ")[7]
    source = r.start_with.params["be"]["source"]
    cited = {"en": f"list prices of {source['priced_on']} itself", "zh_CN": f"对 {source['priced_on']} 本身的标价"}[lang]
    grade = {"en": f"({source['date']}, grade {source['grade']})", "zh_CN": f"（{source['date']}，可信度 {source['grade']}）"}
    assert cited in findings and grade[lang] in findings


def test_q39_says_the_count_decides_once_on_page_one():
    """The headline says how many GPUs the bursts rent waits on step 1's count; the hardware row said it again."""
    r = planned(advice_answers("q39_hybrid_l20_base_cloud_burst"))
    page = _page_one(render_memo_markdown(r, "en"))
    # re-argued in s33-burst39: the headline decides the size and names the count that changes it
    # s33-numbers1 (review 23): with the API leading the bursts, neither it nor the rent is needed under that count
    # s34-q39h35 (review 24): where the API leads the bursts, the count is the headline's one condition (step 1)
    # s36-hybrid (review 27): the count comes first ("measure first … count vLLM's vllm:num_requests_running")
    assert any(s in page.split("\n")[2] for s in ("none if step 1 counts", "count the requests in flight",
                                                   "count vllm:num_requests_running"))
    assert "step 1's count decides" not in _row(page, "memo.key.hardware", "en")


def test_a_printed_memo_leaves_out_a_latency_chart_its_table_already_gives():
    """Every point of the predicted latency chart is a cell of the latency table printed above it: the PDF prints the
    table and the cost chart (which no table gives); a measured run drawn beside the prediction keeps the chart."""
    doc = memo_document(planned(advice_answers("q38_eu_internal_hr_assistant")), "en")
    assert set(doc.charts) == {"latency", "cost"}
    assert set(doc.printed_charts) == {"cost"}
    latency = doc.charts["latency"]
    measured = latency.model_copy(update={"series": [*latency.series, Series(label="ramp", points=[(1.0, 500.0),
                                                                                                  (2.0, 600.0)],
                                                                               role="measured")]})
    assert not repeats_table(measured)
    assert not repeats_table(ChartData(id="cost", title="", x_label="", y_label="", series=[], lang="en"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_the_lower_precisions_gain_is_given_once_in_section_two(name, lang):
    """q12: section 2's layouts tried give fp8's gain with its figures ("P99 TPOT 38.2 ms against 56.9 ms"), and the
    quality-check finding said the same clause again. Where section 2 gives it, the finding points there (and to the
    next step that runs the check); where it does not, the finding keeps the figures."""
    r = planned(advice_answers(name))
    f = r.finding("sizing.quantized")
    if f is None or f.detail_key != "plan.rule.sizing.quantized.gain.detail":
        pytest.skip("no fp8-for-its-gain finding")
    memo = render_memo_markdown(r, lang)
    why = f.params["why"]
    gain = render(lang, why["tr"], {k: v for k, v in why.items() if k != "tr"})
    assert gain in memo, name  # said somewhere, always
    assert memo.count(gain) == 1, name
    findings = next(part for part in memo.split("\n## ") if part.startswith(translate(lang, "memo.h.findings")))
    assert f.title_in(lang) in findings
    if gain not in findings:  # pointed to section 2, and to the step where one runs the check
        step = next((i + 1 for i, s in enumerate(r.next_steps) if s.id == "quant_ab"), None)
        if step is not None:
            said = [{"detail": translate(lang, "pages26.quantized_gain_and_step", weights=f.params["weights"],
                                         higher=f.params["higher"], n=step)}]
            step_where40.said_where(said, lang, FIRST_STEPS)  # a step past page 1's says its section (s38-misc, q28)
            # s42-zhx (review 35, q23): the memo names it in the list it is in ("step 6 in section 9", "第九节第 6 条")
            said[0]["detail"] = step_refs44.repoint(said[0]["detail"], lang, FIRST_STEPS, step_refs44.section_of(memo, lang) or "")
            assert said[0]["detail"] in findings
            assert re.search(rf"(?m)^{step}\. ", memo), name


# s28-own28 re-argued: q26 bought like for like pays back within its horizon (test_own28): no threshold to state;
# q31 rents now on it (``cloud_then_bare_metal``), so the cost row is the rent's own month and the threshold is said
# by the headline and the quotes step, and kept whole in the cost finding (the app, --json)
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["q31_icp_filed_hosting_move"])
def test_the_buys_threshold_is_stated_once_on_page_one(name, lang):
    """q26/q31: own only if the quotes bring the purchase under a threshold. The headline says it; the cost row keeps
    the two middles it rests on, and step 1 says what to do without repeating that renting costs less."""
    # s29-prices29b: with Alibaba's L20 quote wired in (¥14.63 a GPU-hour against the USD 0.7–1.6 placeholder), q31's
    # rent is dearer than owning at the middle and q31 buys with no threshold to state (test_plan_rows18); the
    # threshold's page 1 is read on q31 at the rent it was written on, given as the user's quote (as test_tie25 does)
    former = former_l20_quotes()
    r = quoted(advice_answers(name), former)
    page = _page_one(render_memo_markdown(r, lang))
    f = next(x for x in r.findings if x.id == "cost.buy" and "max_purchase" in (x.params.get("threshold") or {}))
    amount = re.sub(r"[^\d,]", "", str(f.params["threshold"]["max_purchase"]))  # "3,280,000", as ¥ or as CNY
    headline = page.split("\n")[2]
    assert amount in headline
    assert amount not in _row(page, "memo.key.cost", lang)
    assert page.count(amount) == 2  # the headline's condition and step 1's instruction
    said = {"en": "renting costs less", "zh_CN": "租用更便宜"}[lang]
    assert page.count(said) == 1 and said in headline
    # without the headline's condition (the app, --json), the cost finding keeps the threshold
    from advisor.plan.result import render

    assert amount in re.sub(r"[^\d,]", "", render(lang, f.detail_key, f.params))
