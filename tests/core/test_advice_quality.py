"""bench/advice_quality.py: the 40+ expert scenarios are well-formed data, and the scorer counts what it says.

No test here asserts the engine's score on the scenarios: the bench measures the engine, the tests check the
bench (its data and its arithmetic) with fabricated plans.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "advice_quality.py"


@pytest.fixture(scope="module")
def aq():
    spec = importlib.util.spec_from_file_location("advice_quality_under_test", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being defined
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


@pytest.fixture(scope="module")
def scenarios(aq):
    return aq.load_scenarios()


def test_there_are_at_least_forty_scenarios_with_unique_ids(scenarios):
    assert len(scenarios) >= 40
    assert len({s.id for s in scenarios}) == len(scenarios)


def test_every_scenario_validates(aq, scenarios):
    """Answers parse (or only use the announced keys, with the right shape), every expected value is a legal
    enum, both situations are written, at least three must-mention items, every check is well-formed."""
    problems = [p for s in scenarios for p in aq.validate_scenario(s)]
    assert problems == []


def test_scenarios_needing_new_answers_are_flagged_not_refused(aq, scenarios):
    pending = [s for s in scenarios if s.unsupported_keys]
    for s in pending:
        assert set(s.unsupported_keys) <= set(aq.NEW_ANSWER_KEYS)
        out = aq.run_scenario(s)
        assert out.status == "needs_answers"
        assert out.message == "needs answers not yet supported: " + ", ".join(s.unsupported_keys)


def test_the_coverage_the_brief_asks_for_is_there(scenarios):
    """LAN tools, private WANs, batch jobs, fleets, hosted APIs, capex-only teams and six regions are covered."""
    answers = [s.answers for s in scenarios]
    regions = {r for s in scenarios for r in (s.expected["region"] if isinstance(s.expected["region"], list)
                                                else [s.expected["region"]])}
    assert {"mainland", "hong_kong", "singapore", "japan", "europe"} <= regions
    assert regions & {"us_west", "us_east"}
    assert sum(a.get("reach") == "lan" for a in answers) >= 2
    assert sum(a.get("reach") == "private_network" for a in answers) >= 2
    assert sum(a.get("use_case") == "offline_batch" for a in answers) >= 2
    assert sum("current_fleet" in a for a in answers) >= 4
    assert sum("capex_budget" in a for a in answers) >= 2
    assert sum(a.get("model_customisation") == "fine_tuned" for a in answers) >= 3
    assert sum(s.expected["deployment_form"] == "hosted_api" for s in scenarios) >= 2
    assert {"filed", "none"} <= {a.get("genai_filing") for a in answers}


def test_an_illegal_expectation_is_reported(aq, scenarios):
    bad = copy.deepcopy(scenarios[0])
    bad.expected["region"] = "moon"
    bad.expected["feasible"] = "yes"
    bad.must_mention = bad.must_mention[:2]
    problems = aq.validate_scenario(bad)
    assert any("expected.region = 'moon'" in p for p in problems)
    assert any("expected.feasible = 'yes'" in p for p in problems)
    assert any("at least 3" in p for p in problems)


def test_an_unknown_answer_key_is_a_problem_not_a_pending_key(aq, scenarios):
    bad = copy.deepcopy(scenarios[0])
    bad.answers["colour"] = "blue"
    bad.answers["genai_filing"] = "maybe"
    problems = aq.validate_scenario(bad)
    assert any(p.startswith(f"{bad.path.name}: answers: colour") for p in problems), problems
    if "genai_filing" in bad.unsupported_keys:  # before the key exists, the bench checks its shape itself
        assert any("genai_filing: expected one of" in p for p in problems), problems


def _plan(**over):
    """A fabricated `advisor plan --json` result: only what the scorer reads."""
    plan = {"deployment_form": "cloud", "region": "mainland", "line": "bgp", "feasible": True,
            "hardware": {"gpu": "h20-96g", "replicas": 2, "total_gpus": 2, "command": "vllm serve X"},
            "findings": [{"id": "icp.required", "title": "ICP filing", "detail": "needed"}],
            "next_steps": [{"id": "ramp", "text": "ramp", "command": "advisor bench"}],
            "timeline": {"items": [{"id": "icp_filing", "label": "ICP filing"}]}}
    plan.update(over)
    return plan


def _scenario(aq, **expected):
    exp = {"deployment_form": "cloud", "region": "mainland", "line": "bgp", "feasible": True, **expected}
    return aq.Scenario(
        id="t", situation={"en": "x", "zh_CN": "x"}, answers={}, expected=exp,
        must_mention=[{"id": "m1", "text": "ICP", "check": {"finding": "icp.required"}},
                      {"id": "m2", "text": "N+1", "check": {"field": "hardware.replicas", "gte": 2}},
                      {"id": "m3", "text": "why", "check": None}],
        must_not=[{"id": "n1", "text": "no ICP", "check": {"finding": "icp.not_needed"}},
                  {"id": "n2", "text": "soak", "check": {"next_step": "soak"}}])


def test_a_disagreement_counts_as_one(aq):
    sc = _scenario(aq)
    agree = aq.Outcome(sc, "ran", plan=_plan())
    agree.score = aq.score_plan(sc, agree.plan)
    wrong = aq.Outcome(sc, "ran", plan=_plan(deployment_form="hosted_api", region="hong_kong"))
    wrong.score = aq.score_plan(sc, wrong.plan)
    skipped = aq.Outcome(sc, "needs_answers", "needs answers not yet supported: capex_budget")
    t = aq.totals([agree, wrong, skipped])
    assert (t["scenarios"], t["ran"], t["needs_answers"]) == (3, 2, 1)
    assert t["decisions_agree"] == 1  # two wrong fields in one scenario are still one disagreement
    assert t["field_agree"] == {"deployment_form": 1, "region": 1, "line": 2, "feasible": 2}
    assert wrong.score["decisions"]["deployment_form"] == {"expected": "cloud", "got": "hosted_api", "agree": False}


def test_a_list_is_any_of_and_null_is_not_scored(aq):
    sc = _scenario(aq, region=["hong_kong", "singapore"], line=None)
    s = aq.score_plan(sc, _plan(region="singapore", line="ordinary"))
    assert s["decision_agrees"] is True
    assert s["decisions"]["line"]["agree"] is None
    assert aq.score_plan(sc, _plan(region="mainland"))["decision_agrees"] is False


def test_machine_checks_count_mentions_and_violations(aq):
    sc = _scenario(aq)
    plan = _plan(hardware={"gpu": "h20-96g", "replicas": 1},
                 findings=[{"id": "icp.not_needed", "title": "no ICP", "detail": ""}],
                 next_steps=[{"id": "soak", "text": "soak", "command": None}])
    out = aq.Outcome(sc, "ran", plan=plan)
    out.score = aq.score_plan(sc, plan)
    assert [m["met"] for m in out.score["must_mention"]] == [False, False, None]
    assert [n["violated"] for n in out.score["must_not"]] == [True, True]
    t = aq.totals([out])
    assert (t["must_mention_checked"], t["must_mention_met"], t["machine_coverage"]) == (2, 0, 0.0)
    assert (t["must_not_checked"], t["must_not_violations"], t["reviewer_items"]) == (2, 2, 1)


def test_field_checks_on_absent_values_never_hold(aq):
    plan = _plan(hardware={"gpu": None, "total_gpus": 11})
    assert not aq.check_holds({"field": "hardware.gpu", "not_in": ["h100-sxm-80g"]}, plan, "")
    assert not aq.check_holds({"field": "hardware.replicas", "lte": 1}, plan, "")
    assert aq.check_holds({"field": "hardware.total_gpus", "not_multiple_of": 8}, plan, "")
    assert aq.check_holds({"field": "binding_constraint", "present": False}, plan, "")
    assert aq.check_holds({"text": "b25"}, plan, "an operating licence (B25) is needed")
    assert aq.check_holds({"timeline_item": "icp_filing"}, plan, "")


def test_reviewer_packets_carry_no_expected_answers_or_rule_ids(aq, scenarios):
    for sc in scenarios[:10]:
        for lang in ("en", "zh_CN"):
            text = aq.reviewer_packet(sc, lang, "MEMO TEXT")
            assert sc.situation[lang] in text and text.rstrip().endswith("MEMO TEXT")
            key = "text" if lang == "en" else "text_zh_CN"
            assert all(i[key] in text for i in sc.must_mention + sc.must_not)
            if lang == "zh_CN":  # one language per packet: no English statement beside the Chinese memo
                assert not any(i["text"] in text for i in sc.must_mention + sc.must_not)
            checks = [i["check"] for i in sc.must_mention + sc.must_not if i.get("check")]
            rule_ids = [c["finding"] for c in checks if "finding" in c]
            rule_ids += [i for c in checks for i in c.get("finding_any", [])]
            assert [i for i in rule_ids if i in text] == [], sc.id  # e.g. "icp.required"
            assert '"check"' not in text and "field" not in text
            assert "expected" not in text.lower().replace("unexpected", "")
            assert sc.notes not in text


def test_reviews_merge_into_coverage_and_bad_verdicts_are_named(aq, scenarios):
    sc = scenarios[0]
    mm = {m["id"]: "missing" for m in sc.must_mention}
    ids = list(mm)
    mm[ids[0]], mm[ids[1]] = "full", "partial"
    review = {"scenario": sc.id, "lang": "en", "reviewer": "r1", "must_mention": mm,
              "must_not": {sc.must_not[0]["id"]: "present"}}
    merged = aq.score_reviews({"reviews": [review]}, scenarios)
    cov = merged["coverage"]["en"]
    n = len(sc.must_mention)
    assert (cov["full"], cov["partial"], cov["items"]) == (1, 1, n)
    assert cov["full_share"] == pytest.approx(1 / n) and cov["full_or_partial_share"] == pytest.approx(2 / n)
    assert cov["must_not_present"] == 1
    assert merged["scenarios"][sc.id]["missing"] == sorted(ids[2:])
    bad = json.loads(json.dumps(review))
    bad["must_mention"][ids[0]] = "mostly"
    with pytest.raises(aq.BenchInputError, match=rf"must_mention\.{ids[0]}: 'mostly' is not full, partial or missing"):
        aq.score_reviews([bad], scenarios)
    with pytest.raises(aq.BenchInputError, match="unknown scenario"):
        aq.score_reviews([{**review, "scenario": "nope"}], scenarios)
