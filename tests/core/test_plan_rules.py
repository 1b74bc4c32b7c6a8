"""Each rule alone: a small pure function from the plan's facts to findings, with id, sources and both languages."""

import pytest

from advisor.i18n import catalog
from advisor.plan import answers_from_dict
from advisor.plan.context import resolve
from advisor.plan.data import facts, rule_meta
from advisor.plan.engine import decide_line, decide_region, market_region
from advisor.plan.result import Finding
from advisor.plan.rules import RULES, Facts, run_rules

MAINLAND = {"user_location": "mainland", "mainland_carriers": "all_three", "icp_status": "filed", "mainland_entity": True,
            "audience": "business", "use_case": "api"}  # fmt: skip


def facts_for(answers: dict, **over) -> Facts:
    ctx = resolve(answers_from_dict(answers))
    region, reason = decide_region(ctx)
    f = Facts(ctx=ctx, region=region, line=decide_line(ctx, region, "cloud"), region_reason=reason)
    for k, v in over.items():
        setattr(f, k, v)
    return f


def fire(rule_id: str, f: Facts) -> list[Finding]:
    got = RULES[rule_id].fn(f)
    return [] if got is None else got if isinstance(got, list) else [got]


def test_every_rule_has_metadata_sources_and_texts_in_both_languages():
    en, zh = catalog("en"), catalog("zh_CN")
    assert set(RULES) == set(facts()["rules"]), "rules and resources/plan/facts.json must list the same ids"
    for rid, r in RULES.items():
        meta = rule_meta(rid)
        assert meta["severity"] in ("blocker", "warning", "info") and meta["confidence"] in ("high", "medium", "low")
        assert meta["sources"], rid
        assert r.phase in ("constraint", "sizing", "cost") and r.doc
        for cat in (en, zh):
            assert cat.get(f"plan.rule.{rid}.title") and cat.get(f"plan.rule.{rid}.detail"), rid


def test_icp_deadline_moves_a_fast_launch_offshore():
    f = facts_for({**MAINLAND, "icp_status": "none", "launch_deadline_days": 10})
    assert (f.region, f.region_reason) == ("hong_kong", "icp_deadline")
    [x] = fire("icp.deadline", f)
    assert x.severity == "warning" and x.verify  # filing durations are grade C in practice
    assert "10" in x.title_in("en") and "香港" in x.title_in("zh_CN")
    slow = facts_for({**MAINLAND, "icp_status": "none", "launch_deadline_days": 90})
    assert slow.region == "mainland" and fire("icp.deadline", slow) == []
    assert fire("icp.deadline", facts_for({**MAINLAND, "launch_deadline_days": 3})) == []  # already filed


def test_no_entity_means_offshore_and_a_warning():
    f = facts_for({**MAINLAND, "mainland_entity": False, "icp_status": "none"})
    assert f.region == "hong_kong"
    assert [x.id for x in fire("icp.no_entity", f)] == ["icp.no_entity"]
    assert fire("icp.no_entity", facts_for(MAINLAND)) == []


def test_paid_service_on_mainland_flags_b25_but_not_offshore():
    assert fire("icp.licence_b25", facts_for({**MAINLAND, "charges_users": True}))
    assert not fire("icp.licence_b25", facts_for({**MAINLAND, "charges_users": False}))
    off = facts_for({"user_location": "overseas", "overseas_markets": ["US"], "charges_users": True})
    assert not fire("icp.licence_b25", off)


def test_genai_filing_kind_depends_on_fine_tuning_and_deadline_blocks():
    base = {**MAINLAND, "audience": "public", "public_genai_in_mainland": True}
    [reg] = fire("genai.filing", facts_for(base))
    assert "registration" in reg.title_in("en")
    [fil] = fire("genai.filing", facts_for({**base, "model_customisation": "fine_tuned"}))
    assert "filing" in fil.title_in("en") and "备案" in fil.title_in("zh_CN")
    [blk] = fire("genai.filing_deadline", facts_for({**base, "model_customisation": "fine_tuned", "launch_deadline_days": 60}))
    assert blk.severity == "blocker"
    assert not fire("genai.filing_deadline", facts_for({**base, "launch_deadline_days": 200}))
    assert fire("genai.labelling", facts_for(base)) and not fire("genai.labelling", facts_for(MAINLAND))


@pytest.mark.parametrize(
    ("subjects", "sensitive", "rule"),
    [(50_000, 0, "pi.export_exempt"), (300_000, 0, "pi.export_contract"), (50_000, 5_000, "pi.export_contract"),
     (2_000_000, 0, "pi.export_assessment"), (10_000, 10_000, "pi.export_assessment")],
)  # fmt: skip
def test_cross_border_thresholds(subjects, sensitive, rule):
    ans = {**MAINLAND, "mainland_entity": False, "data_sensitivity": {"personal_info": True, "pi_subjects_per_year": subjects,
           "sensitive_pi_subjects_per_year": sensitive}}  # fmt: skip
    f = facts_for(ans)
    assert f.offshore
    fired = [rid for rid in ("pi.export_exempt", "pi.export_contract", "pi.export_assessment") if fire(rid, f)]
    assert fired == [rule]
    onshore = facts_for({**ans, "mainland_entity": True})
    assert not any(fire(r, onshore) for r in ("pi.export_exempt", "pi.export_contract", "pi.export_assessment"))
    assert fire("pi.keep_in_mainland", onshore)


@pytest.mark.parametrize(
    ("carriers", "line"), [("telecom", "cn2_gia"), ("all_three", "three_network")],
)
def test_carrier_mix_decides_the_offshore_line(carriers, line):
    f = facts_for({**MAINLAND, "mainland_entity": False, "mainland_carriers": carriers})
    assert f.line == line and fire(f"line.{line}", f)
    other = "three_network" if line == "cn2_gia" else "cn2_gia"
    assert not fire(f"line.{other}", f)


def test_lines_on_the_mainland_and_overseas():
    assert facts_for(MAINLAND).line == "bgp"
    assert facts_for({**MAINLAND, "audience": "internal"}).line == "any"
    assert facts_for({"user_location": "overseas", "overseas_markets": ["DE"]}).line == "any"


@pytest.mark.parametrize(
    ("markets", "region"),
    [(["US"], "us_west"), (["DE", "FR"], "europe"), (["SEA"], "singapore"), (["JP"], "japan"), (["SG"], "singapore"),
     (["global"], "us_west"), (["BR"], "us_east")],
)  # fmt: skip
def test_market_region(markets, region):
    assert market_region(markets) == region


def test_us_west_warned_for_tight_ttft_of_mainland_users():
    f = facts_for({**MAINLAND, "latency_slo": {"ttft_p99_ms": 500}}, region="us_west")
    assert fire("latency.us_west_mainland", f)
    assert not fire("latency.us_west_mainland", facts_for({**MAINLAND, "latency_slo": {"ttft_p99_ms": 5000}}, region="us_west"))


class _Cand:
    def __init__(self, gpu_id, tp=1, weights="bf16"):
        from advisor.catalog import get_gpu

        self.gpu, self.tp, self.weights, self.replicas = get_gpu(gpu_id), tp, weights, 1


@pytest.mark.parametrize(
    ("gpu", "rule", "fires"),
    [("a100-sxm-80g", "gpu.no_fp8", True), ("h100-sxm-80g", "gpu.no_fp8", False), ("t4", "gpu.no_bf16", True),
     ("l40s", "gpu.no_bf16", False), ("rtx-4090", "gpu.consumer", True), ("l40s", "gpu.consumer", False),
     ("ascend-910b", "gpu.domestic", True), ("h20-96g", "gpu.domestic", False), ("mi300x", "gpu.rocm", True),
     ("h100-sxm-80g", "gpu.rocm", False)],
)  # fmt: skip
def test_gpu_support_rules(gpu, rule, fires):
    f = facts_for({**MAINLAND, "quantization_acceptable": "fp8_only"}, chosen=_Cand(gpu))
    assert bool(fire(rule, f)) is fires


def test_export_verify_only_for_sensitive_gpus_on_the_mainland():
    assert fire("gpu.export_verify", facts_for(MAINLAND, chosen=_Cand("h20-96g")))
    assert not fire("gpu.export_verify", facts_for(MAINLAND, chosen=_Cand("a10")))
    off = facts_for({"user_location": "overseas", "overseas_markets": ["US"]}, chosen=_Cand("h200-141g"))
    assert not fire("gpu.export_verify", off)


def test_h20_prefill_and_pcie_tp():
    long = facts_for({**MAINLAND, "prompt_tokens": {"avg": 6000}, "gpu_constraint": ["h20-96g"]})
    assert fire("gpu.h20_prefill", long)
    assert not fire("gpu.h20_prefill", facts_for({**MAINLAND, "prompt_tokens": {"avg": 500}, "gpu_constraint": ["h20-96g"]}))
    assert fire("gpu.pcie_tp", facts_for(MAINLAND, chosen=_Cand("l40s", tp=2)))
    assert not fire("gpu.pcie_tp", facts_for(MAINLAND, chosen=_Cand("h100-sxm-80g", tp=2)))


def test_sizing_rules_report_unmet_slo_and_too_big():
    f = facts_for(MAINLAND, fits_anywhere=False, gpu_ids=["l4"])
    [x] = fire("sizing.model_too_big", f)
    assert x.severity == "blocker" and not fire("sizing.slo_unmet", f)
    g = facts_for(MAINLAND, fits_anywhere=True, meets_slo=False)
    assert fire("sizing.slo_unmet", g)[0].severity == "blocker"
    assert fire("sizing.unknown_load", facts_for(MAINLAND)) and not fire("sizing.unknown_load", facts_for({**MAINLAND, "peak_concurrency": 4}))


def test_budget_rule_fires_only_when_over_budget():
    assert not fire("cost.budget_short", facts_for(MAINLAND, within_budget=True))
    assert not fire("cost.budget_short", facts_for(MAINLAND, within_budget=None))
    [x] = fire("cost.budget_short", facts_for({**MAINLAND, "monthly_budget": {"amount": 1000, "currency": "CNY"}},
                                              within_budget=False, budget_needed=5000.0))  # fmt: skip
    assert "¥5,000" in x.title_in("en") and "¥1,000" in x.title_in("zh_CN")


def test_findings_are_ordered_blockers_first():
    f = facts_for({**MAINLAND, "audience": "public", "public_genai_in_mainland": True, "launch_deadline_days": 30},
                  within_budget=False, budget_needed=1.0, fits_anywhere=True, meets_slo=False)  # fmt: skip
    out = run_rules(f)
    sev = [x.severity for x in out]
    assert sev == sorted(sev, key=["blocker", "warning", "info"].index)
    assert {"genai.filing_deadline", "cost.budget_short", "sizing.slo_unmet"} <= {x.id for x in out}


def test_every_enumerated_value_has_a_name_in_both_languages():
    from typing import get_args

    from advisor.plan.answers import LoadPattern
    from advisor.plan.result import DeploymentForm, Line, Region

    en, zh = catalog("en"), catalog("zh_CN")
    keys = [f"plan.region.{v}" for v in get_args(Region)] + [f"plan.line.{v}" for v in get_args(Line)]
    keys += [f"plan.form.{v}" for v in get_args(DeploymentForm)] + [f"plan.load.{v}" for v in get_args(LoadPattern)]
    keys += [f"plan.icp.{v}" for v in ("none", "in_progress", "filed")] + [f"plan.pi.{v}" for v in ("exempt", "contract", "assessment")]
    keys += [f"plan.why.{v}" for v in ("batch", "internal", "hosted", "users", "data", "no_entity", "icp_deadline")]
    for key in keys:
        assert en.get(key) and zh.get(key), key


def test_constrained_gpus_not_offered_on_the_mainland_are_flagged():
    assert fire("gpu.not_in_region", facts_for({**MAINLAND, "gpu_constraint": ["h100-sxm-80g"]}))
    assert not fire("gpu.not_in_region", facts_for({**MAINLAND, "gpu_constraint": ["h20-96g"]}))
    assert not fire("gpu.not_in_region", facts_for({"user_location": "overseas", "gpu_constraint": ["h100-sxm-80g"]}))
