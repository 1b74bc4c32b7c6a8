"""Unknown stays unknown: leaving any optional answer empty never yields a stated exemption, a zero, or a default
presented as fact — in the plan, its JSON and its memo, in both languages.

For every optional answer key of the public answers format (``advisor.plan.answers``: every top-level field, and
the sub-answers that may be left out on their own), the key is left empty in complete scenarios where it is
given, and the plan is compared with the plans for the key's other answers:

- an exemption the plan states (no ICP filing needed, cross-border personal information exempt) holds for every
  answer the key could have: otherwise it rested on the unknown;
- when another answer would change the decision (form, region, line, feasibility, findings, hardware), the plan
  says what it assumed for the key (``assumptions``) or asks it (``open_questions``), and the memo shows it;
- no finding says "0 people" (or any count) of a count nobody gave.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.answers import FIELDS
from advisor.plan.api_path43 import self_host_only
from advisor.plan.memo import QUANT_ASSUMED, render_memo_markdown
from advisor.plan.memo_lead_once import not_in_appendix
from advisor.plan.question_lead import without_lead
from advisor.plan.result import PlanResult

LANGS = ("en", "zh_CN")
# sub-answers that may be left out on their own (the others are required parts of their answer: a budget's
# amount, a range's low and high, a mix's shares)
OPTIONAL_SUBKEYS = (
    "latency_slo.ttft_p99_ms", "latency_slo.tpot_p99_ms", "latency_slo.min_output_tok_s_per_user",
    "prompt_tokens.avg", "prompt_tokens.p95", "output_tokens.avg", "output_tokens.p95",
    "data_sensitivity.level", "data_sensitivity.personal_info", "data_sensitivity.pi_subjects_per_year",
    "data_sensitivity.sensitive_pi_subjects_per_year", "data_sensitivity.sector",
)  # fmt: skip
KEYS = (*FIELDS, *OPTIONAL_SUBKEYS)

# the other answers each key is tried with (every choice of a choice; a value per tier of a count)
ALTERNATIVES: dict[str, tuple] = {
    "use_case": ("interactive", "api", "offline_batch"),
    "latency_slo": ({"ttft_p99_ms": 500.0, "tpot_p99_ms": 30.0}, {"ttft_p99_ms": 10000.0, "tpot_p99_ms": 200.0}),
    "latency_slo.ttft_p99_ms": (300.0, 20000.0),
    "latency_slo.tpot_p99_ms": (20.0, 300.0),
    "latency_slo.min_output_tok_s_per_user": (60.0,),
    "peak_concurrency": (1, 200),
    "requests_per_day": (1000, {"low": 10_000, "high": 2_000_000}),
    "prompt_tokens": ({"avg": 200, "p95": 400}, {"avg": 8000, "p95": 16000}),
    "prompt_tokens.avg": (100, 1500),
    "prompt_tokens.p95": (1600, 30000),
    "output_tokens": ({"avg": 50, "p95": 100}, {"avg": 2000, "p95": 4000}),
    "output_tokens.avg": (20, 700),
    "output_tokens.p95": (800, 8000),
    "max_context_tokens": (4096, 32768),
    "model": ("qwen2.5-7b-instruct", "qwen2.5-72b-instruct"),
    "model_customisation": ("none", "fine_tuned"),
    "quantization_acceptable": ("no", "fp8_only", "yes"),
    "user_location": ("mainland", "hk_tw", "overseas", "mixed"),
    "user_mix": ({"mainland": 0.9, "overseas": 0.1}, {"mainland": 0.1, "overseas": 0.9}),
    "overseas_markets": (["US"], ["SEA"], ["EU"]),
    "mainland_carriers": ("telecom", "all_three"),
    "icp_status": ("none", "in_progress", "filed"),
    "mainland_entity": (True, False),
    "launch_deadline_days": (7, 60, 400),
    "data_sensitivity": ({"personal_info": True, "pi_subjects_per_year": 5_000_000, "sector": "medical"},
                         {"personal_info": False, "level": "low", "sector": "general"}),
    "data_sensitivity.level": ("low", "high"),
    "data_sensitivity.personal_info": (True, False),
    "data_sensitivity.pi_subjects_per_year": (10_000, 500_000, 5_000_000),
    "data_sensitivity.sensitive_pi_subjects_per_year": (0, 5_000, 50_000),
    "data_sensitivity.sector": ("general", "medical"),
    "public_genai_in_mainland": (True, False),
    "charges_users": (True, False),
    "monthly_budget": ({"amount": 1000.0, "currency": "CNY"}, {"amount": 10_000_000.0, "currency": "CNY"}),
    "ops_capability": ("none", "basic", "strong"),
    "expected_duration_months": (3, 48),
    "load_pattern": ("stable", "diurnal", "bursty"),
    "measured_utilisation": (0.1, 0.95),
    "gpu_constraint": (["h100-sxm-80g"], ["l4"]),
    "total_requests": (1000, 5_000_000),
    "batch_deadline_hours": (2.0, 240.0),
    "audience": ("internal", "business", "public"),
    "reach": ("lan", "private_network", "internet"),
    "genai_filing": ("none", "in_progress", "registered", "filed"),
    "hosting_move": (True, False),
    "current_fleet": ({"gpu": "h100-sxm-80g", "count": 32}, {"gpu": "mi300x", "count": 16}),
    # forms and fine-tuned models (s12-forms)
    "capex_budget": ({"amount": 1000.0, "currency": "CNY"}, {"amount": 10_000_000.0, "currency": "CNY"}),
    "model_name": ("acme-legal-7b",),
    "checkpoint": ("/data/ckpt/acme-legal-7b", "acme/legal-7b"),
    "minors": (True, False),  # minors (s13-duties)
    # bursty loads (s15-burst): when the bursts come
    "burst_schedule": ({"per_year": 3, "days_each": 21, "known_in_advance": True},
                       {"per_year": 12, "days_each": 2, "known_in_advance": False}),
    "users": (5, 500),  # s18-volume: a staff tool's people, for its month of tokens
    "open_signup": (True, False),  # s18-genai3: any business can sign up, or customers under contract only
    # s19-engine19: the team's engine; unknown, the plan serves with vLLM (its own choice, printed as a command)
    "serving_engine": ("vllm", "sglang", "ollama"),
    "usage_kind": ("office", "contact_centre"),  # s19-volume19: office staff now and then, or agents every contact
}
# an empty answer that means "no such constraint" rather than an unknown fact: the plan chooses freely and says
# what it chose (which GPU; the TPOT target alone sets each user's speed)
NO_CONSTRAINT = {"gpu_constraint", "latency_slo.min_output_tok_s_per_user"}

# complete scenarios: every key in one of them, and in a setting where it matters
BASES: dict[str, dict] = {
    # mainland and overseas users, no mainland company: a Hong Kong node carrying mainland personal information
    "offshore_pi": {
        "use_case": "interactive", "latency_slo": {"ttft_p99_ms": 2000.0, "tpot_p99_ms": 80.0,
                                                   "min_output_tok_s_per_user": 15.0},
        "peak_concurrency": 16, "requests_per_day": 20_000,
        "prompt_tokens": {"avg": 800, "p95": 2000}, "output_tokens": {"avg": 300, "p95": 700},
        "max_context_tokens": 8192, "model": "qwen2.5-7b-instruct", "model_customisation": "none",
        "quantization_acceptable": "fp8_only", "user_location": "mixed",
        "user_mix": {"mainland": 0.5, "overseas": 0.5}, "overseas_markets": ["SEA"], "mainland_carriers": "all_three",
        "icp_status": "none", "mainland_entity": False, "launch_deadline_days": 90,
        "data_sensitivity": {"level": "medium", "personal_info": True, "pi_subjects_per_year": 50_000,
                             "sensitive_pi_subjects_per_year": 0, "sector": "general"},
        "public_genai_in_mainland": False, "charges_users": True, "monthly_budget": {"amount": 80_000.0, "currency": "CNY"},
        "ops_capability": "basic", "expected_duration_months": 24, "load_pattern": "diurnal",
        "measured_utilisation": 0.5, "audience": "business", "reach": "internet",
        "current_fleet": {"gpu": "l40s", "count": 4},
        "capex_budget": {"amount": 500_000.0, "currency": "CNY"},
        "users": 120,
        "open_signup": False,  # s18-genai3: customers under contract (empty: asked, the other reading a caveat)
        "serving_engine": "vllm",  # s19-engine19: empty, the plan's own vLLM (the same plan)
        "usage_kind": "office",  # s19-volume19
    },
    # mainland public service from a mainland node
    "mainland_public": {
        "use_case": "api", "latency_slo": {"ttft_p99_ms": 3000.0, "tpot_p99_ms": 100.0},
        "peak_concurrency": 8, "prompt_tokens": {"avg": 1000, "p95": 2500}, "output_tokens": {"avg": 300, "p95": 750},
        "model": "qwen2.5-7b-instruct", "model_customisation": "none", "quantization_acceptable": "no",
        "user_location": "mainland", "mainland_carriers": "all_three", "icp_status": "filed", "mainland_entity": True,
        "launch_deadline_days": 120,
        "data_sensitivity": {"level": "low", "personal_info": True, "pi_subjects_per_year": 20_000,
                             "sensitive_pi_subjects_per_year": 0, "sector": "general"},
        "public_genai_in_mainland": True, "charges_users": False, "ops_capability": "none",
        "expected_duration_months": 12, "load_pattern": "stable", "audience": "public", "reach": "internet",
        "genai_filing": "none", "hosting_move": False, "minors": False,
        "burst_schedule": {"per_year": 4, "days_each": 3, "known_in_advance": True},
    },
    # an offline batch job
    "batch": {
        "use_case": "offline_batch", "prompt_tokens": {"avg": 600, "p95": 1200}, "output_tokens": {"avg": 200, "p95": 400},
        "model": "qwen2.5-7b-instruct", "user_location": "mainland", "total_requests": 200_000,
        "batch_deadline_hours": 24.0, "gpu_constraint": ["l40s"], "ops_capability": "basic",
        "model_name": "acme-batch-7b", "checkpoint": "/data/ckpt/acme-batch-7b",
        "data_sensitivity": {"level": "low", "personal_info": True, "pi_subjects_per_year": 20_000,
                             "sensitive_pi_subjects_per_year": 0, "sector": "finance"},
    },
}  # fmt: skip

EXEMPTIONS = ("pi.export_exempt", "icp.not_needed", "icp.offshore_not_needed")
ZERO_PEOPLE = re.compile(r"(?<![\d,.])0 (people|with)|(?<![\d,.])0 ?人")


def _get(data: dict, path: str):
    head, _, rest = path.partition(".")
    value = data.get(head)
    return value.get(rest) if rest and isinstance(value, dict) else (None if rest else value)


def _set(data: dict, path: str, value) -> dict:
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in data.items()}
    head, _, rest = path.partition(".")
    if rest:
        part = dict(out.get(head) or {})
        if value is None:
            part.pop(rest, None)
        else:
            part[rest] = value
        out[head] = part
    elif value is None:
        out.pop(head, None)
    else:
        out[head] = value
    return out


@cache
def _plan_of(frozen: str) -> PlanResult:
    import json

    return make_plan(answers_from_dict(json.loads(frozen)))


def plan(data: dict) -> PlanResult:
    import json

    return _plan_of(json.dumps(data, sort_keys=True))


def decision(r: PlanResult) -> tuple:
    return (r.deployment_form, r.region, r.line, r.feasible, tuple(sorted(r.finding_ids)), r.hardware.gpu,
            r.hardware.total_gpus, r.hardware.weights)  # fmt: skip


def _covers(field: str, key: str) -> bool:
    """An assumption or question on ``field`` speaks for answer ``key`` (a part, or the whole, of the same)."""
    return field == key or field.startswith(key + ".") or key.startswith(field + ".")


CASES = [(key, base) for key in KEYS for base, data in BASES.items() if _get(data, key) is not None]


def test_every_optional_answer_key_is_tried_in_a_scenario_where_it_is_given():
    assert set(ALTERNATIVES) == set(KEYS), "a new answer key needs its other answers listed here"
    missing = [k for k in KEYS if not any(_get(b, k) is not None for b in BASES.values())]
    assert missing == []
    for data in BASES.values():
        answers_from_dict(data)  # each scenario is a valid, complete set of answers


@pytest.mark.parametrize(("key", "base"), CASES, ids=[f"{b}-{k}" for k, b in CASES])
def test_an_empty_answer_is_never_a_fact(key, base):
    given = BASES[base]
    empty = _set(given, key, None)
    r = plan(empty)
    others = []
    for value in ALTERNATIVES[key]:
        try:
            others.append(plan(_set(given, key, value)))
        except ValueError:  # an answer the format refuses in this scenario (e.g. a p95 below the average)
            continue
    assert others, key

    said = [a.field for a in r.assumptions] + [q.field for q in r.open_questions]
    accounted = any(_covers(f, key) for f in said)
    # 1. an exemption stated with the answer empty holds whatever the answer is, or rests on a stated assumption
    for exemption in EXEMPTIONS:
        if exemption in r.finding_ids and not all(exemption in o.finding_ids for o in others):
            assert accounted, (key, exemption, said)

    # 2. when another answer changes the decision, the plan says what it assumed, or asks
    if key not in NO_CONSTRAINT and any(decision(o) != decision(r) for o in others):
        changed = next(decision(o) for o in others if decision(o) != decision(r))
        assert accounted, (key, said, decision(r), changed)

    # 3. in both languages: the assumption is in the memo, no count nobody gave is printed as 0
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        for a in r.assumptions:
            # an assumption nothing of this plan rests on ("time for the filings" where the timeline has no filing)
            # is left to --json, and the assumed utilisation is said by the cost table's row with its load
            # (s21-pages21, memo_lead_once.not_in_appendix); every other one is in the memo as written
            # a hosted API's plan leaves out what only a server of its own reads (api43: quantization, context)
            if _covers(a.field, key) and not not_in_appendix(a, r) and not self_host_only(r.deployment_form, a.key):
                # on page 1 under its question, without the "… not given:" lead that repeats it (s22-pages22)
                text = a.text_in(lang)
                if a.key == QUANT_ASSUMED and not r.fixes:  # no fix to propose it: said without "a fix may" (s33)
                    text = translate(lang, "steps34.assume.quantization_no_fix")
                assert text in memo or without_lead(text, lang) in memo, (key, lang, text)
            elif _covers(a.field, key) and a.key == "plan.assume.utilisation":
                assert f"{r.costs.utilisation * 100:.0f} %" in memo, (key, lang)
        for q in r.open_questions:
            if _covers(q.field, key) and q.changes_decision:
                assert q.text_in(lang) in memo, (key, lang)
        texts = " ".join(f"{f.title_in(lang)} {f.detail_in(lang)}" for f in r.findings)
        assert not ZERO_PEOPLE.search(texts), (key, lang, ZERO_PEOPLE.search(texts))
        assert "None" not in texts, (key, lang)
        data = r.to_json(lang)
        assert [q["field"] for q in data["open_questions"]] == [q.field for q in r.open_questions]


@pytest.mark.parametrize("lang", LANGS)
def test_an_unknown_count_of_people_is_never_an_exemption(lang):
    # the reported trap: personal information yes, how many people not said → "about 0 people … exempt"
    data = _set(_set(BASES["offshore_pi"], "data_sensitivity.pi_subjects_per_year", None),
                "data_sensitivity.sensitive_pi_subjects_per_year", None)
    r = plan(data)
    assert r.region == "hong_kong"
    assert "pi.export_exempt" not in r.finding_ids and "pi.export_unknown" in r.finding_ids
    memo = render_memo_markdown(r, lang)
    assert translate(lang, "plan.rule.pi.export_exempt.title") not in memo
    assert not ZERO_PEOPLE.search(memo)
    asked = [q.field for q in r.open_questions]
    assert "data_sensitivity.pi_subjects_per_year" in asked
    # answered, the exemption is stated
    known = plan(_set(data, "data_sensitivity.pi_subjects_per_year", 50_000))
    assert "pi.export_unknown" in known.finding_ids  # still: the sensitive count is unknown
    both = plan(_set(_set(data, "data_sensitivity.pi_subjects_per_year", 50_000),
                     "data_sensitivity.sensitive_pi_subjects_per_year", 0))
    assert "pi.export_exempt" in both.finding_ids


def test_unset_audience_and_reach_are_stated_in_the_headline_and_asked_first():
    data = _set(_set(BASES["mainland_public"], "audience", None), "reach", None)
    data = _set(_set(data, "public_genai_in_mainland", None), "ops_capability", "basic")  # self-hosted
    r = plan(data)
    fields = [q.field for q in r.open_questions]
    assert "reach" in fields and "audience" in fields
    deciding = [q.changes_decision for q in r.open_questions]
    assert deciding == sorted(deciding, reverse=True), "questions that change the decision come first"
    for lang in LANGS:
        head = render_memo_markdown(r, lang).split("\n## ")[1]  # the recommendation section
        assert translate(lang, "memo.open.heading") in head
        for q in r.open_questions:
            if q.field in ("reach", "audience"):
                assert q.text_in(lang) in head
        assert without_lead(translate(lang, "plan.assume.reach", value=translate(lang, "memo.value.reach.internet")),
                            lang) in head  # under its question, without the lead that repeats it (s22-pages22)
    js = r.to_json("en")["open_questions"]
    assert js[0]["changes_decision"] and {"reach", "audience"} <= {q["field"] for q in js}
    # an office tool on the LAN: no ICP filing, no premium line, nothing asked about reach
    lan = plan(_set(_set(data, "reach", "lan"), "audience", "internal"))
    assert "icp.required" not in lan.finding_ids and lan.line == "any"
    assert "reach" not in [q.field for q in lan.open_questions]


@pytest.mark.parametrize("lang", LANGS)
def test_carriers_not_applicable_with_mainland_users_is_an_assumption_not_all_three(lang):
    data = _set(BASES["offshore_pi"], "mainland_carriers", "n/a")
    r = plan(data)
    said = [a for a in r.assumptions if a.field == "mainland_carriers"]
    assert said and said[0].key == "plan.assume.mainland_carriers_na"
    assert "mainland_carriers" in [q.field for q in r.open_questions]
    assert said[0].text_in(lang) in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_plan_json_lists_the_questions_that_would_change_the_decision_first(tmp_path, capsys, lang):
    import json

    from advisor.cli import main

    path = tmp_path / "answers.json"
    path.write_text(json.dumps({"model": "qwen2.5-7b-instruct", "data_sensitivity": {"personal_info": True}}),
                    encoding="utf-8")
    assert main(["plan", "--answers", str(path), "--json", "--lang", lang]) == 0
    data = json.loads(capsys.readouterr().out)
    questions = data["open_questions"]
    flags = [q["changes_decision"] for q in questions]
    assert flags[0] and flags == sorted(flags, reverse=True)
    fields = [q["field"] for q in questions]
    assert {"reach", "audience", "user_location"} <= set(fields)
    for q in questions:
        assert q["question"] and q["text"] and not q["question"].startswith("plan.")
    # the text summary says them before the reasons
    assert main(["plan", "--answers", str(path), "--lang", lang]) == 0
    text = capsys.readouterr().out
    assert text.index(translate(lang, "plan.cli.open_questions")) < text.index(translate(lang, "plan.cli.why"))
