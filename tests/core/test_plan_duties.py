"""Duties the blind reviewers found missing (issue 25, s13-duties), end to end: China-market parts asked for on an
offshore node, an infeasible batch's sizing sentence, and no unrendered placeholder in any scenario's memo."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from advisor.i18n import translate
from advisor.plan import answers_from_dict, api_led_brief40, make_plan, memo_api_only
from advisor.plan.data import gpus_by_id
from advisor.plan.gpu_choice import offered_in
from advisor.plan.memo import render_memo_markdown
from advisor.plan.result import PlanResult
from advisor.plan.sizing import MAX_REPLICAS
from tests.support.planned import scenario_plan as shared_scenario_plan

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "bench" / "advice_scenarios").glob("q*.json"))
LANGS = ("en", "zh_CN")
GPU_IDS = sorted(gpus_by_id())
# a {name} or {name:plural|forms} left by a template, a Python None or NaN, an empty table cell; a shell's own
# "${NAME:?message}" (q41's checkpoint variable, s23-duties23) is a command's text, not a template's leftover
UNRENDERED = re.compile(r"(?<!\$)\{[A-Za-z_][A-Za-z_0-9]*(?::[^{}\n]*)?\}|\bNone\b|\bnan\b|\|[ \t]*\|")


def scenario_plan(path: Path) -> PlanResult:
    return shared_scenario_plan(path)  # planned once per session, shared with the other files that read it


def plan(data: dict[str, Any]) -> PlanResult:
    return make_plan(answers_from_dict(data))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_no_scenario_memo_shows_an_unrendered_placeholder(path, caplog):
    r = scenario_plan(path)
    for lang in LANGS:
        with caplog.at_level("WARNING", logger="advisor.i18n"):
            memo = render_memo_markdown(r, lang)
        # a rule that forgets a parameter its text names renders it blank (old saved results): never a fresh plan
        assert not [x.message for x in caplog.records if "missing placeholder" in x.message], path.stem
        bad = [memo[max(0, m.start() - 60): m.end() + 20] for m in UNRENDERED.finditer(memo)]
        assert bad == [], (path.stem, lang, bad)
        # the line's bandwidth: the finding and the cost table's row say one figure (q34: 6 Mbps beside 4)
        line = r.finding("cost.line_bandwidth")
        if line is not None and r.line_cost is not None:
            assert line.params["mbps"] == r.line_cost.mbps, (path.stem, line.params["mbps"], r.line_cost.mbps)
        # a catalog GPU id ("l20-48g") is an internal key: user text names the GPU ("Verify … rules for l20-48g")
        prose = re.sub(r"```.*?```", "", memo, flags=re.S)
        ids = [g for g in GPU_IDS if re.search(rf"(?<![\w/-]){re.escape(g)}(?![\w-])", prose)]
        assert ids == [], (path.stem, lang, ids)
        # a hosted API far cheaper than its comparison says the self-hosted setup in one line (s25-dates25)
        if r.binding_constraint is not None and not memo_api_only.collapsed(r):
            # under an API lead the fallback's binding stops at its limit (``api_led_brief40``, s39-sgp)
            assert api_led_brief40.binding_text(r, lang) in memo


SG = {"use_case": "interactive", "audience": "public", "reach": "internet", "model": "qwen2.5-7b-instruct",
      "peak_concurrency": 50, "user_location": "overseas", "overseas_markets": ["SG", "SEA"],
      "mainland_entity": False, "gpu_constraint": ["h20-96g", "l20-48g"]}  # fmt: skip


def test_china_market_parts_only_on_a_singapore_node_is_not_feasible_and_the_fix_replans_on_parts_sold_there():
    """H20/L20 only, for a Singapore node: the engine used to swap to other parts silently and call it feasible."""
    r = plan(SG)
    assert r.region == "singapore" and not r.feasible
    x = r.finding("gpu.not_offered_offshore")
    assert x is not None and x.severity == "blocker"
    assert r.hardware.gpu not in ("h20-96g", "l20-48g")
    fix = next(f for f in r.fixes if f.id == "other_gpus")
    fixed = plan({k: v for k, v in SG.items() if k != "gpu_constraint"} | {k: v for k, v in fix.change.items()
                                                                          if v is not None})
    assert fixed.feasible and offered_in("singapore", fixed.hardware.gpu)
    assert "gpu.not_offered_offshore" not in fixed.finding_ids
    # one part sold there among those allowed: that part is planned, no blocker
    both = plan({**SG, "gpu_constraint": ["h20-96g", "l40s"]})
    assert both.hardware.gpu == "l40s" and "gpu.not_offered_offshore" not in both.finding_ids
    # on the mainland the same parts are the in-region ones: nothing to say
    home = plan({**SG, "user_location": "mainland", "mainland_entity": True, "overseas_markets": None,
                 "mainland_carriers": "all_three", "icp_status": "filed"})
    assert "gpu.not_offered_offshore" not in home.finding_ids


@pytest.mark.parametrize("lang", LANGS)
def test_an_impossible_batch_says_what_its_throughput_would_need(lang):
    path = ROOT / "bench" / "advice_scenarios" / "q29_batch_impossible_budget.json"
    r = scenario_plan(path)
    b = r.binding_constraint
    assert b is not None and b.kind == "batch_throughput"
    assert b.figures["prompt_tokens"] == 10_000_000 * 2000 and b.figures["replicas"] > MAX_REPLICAS
    assert b.text_in(lang) in render_memo_markdown(r, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_an_offshore_only_service_says_no_mainland_rule_applies_and_where_its_data_stays(lang):
    for stem, law in (("q37_sg_fintech_public", "sg"), ("q38_eu_internal_hr_assistant", "eu")):
        r = scenario_plan(ROOT / "bench" / "advice_scenarios" / f"{stem}.json")
        memo = render_memo_markdown(r, lang)
        region = translate(lang, f"plan.region.{r.region}")
        # said in the memo near the mainland (Singapore); in Europe or the US the plan keeps it but the memo does
        # not say it (blind review 28, q18: "noise for a US-only company"; tests/core/test_far_from_mainland36.py)
        said = translate(lang, "plan.rule.region.no_mainland_rules.title") in memo
        assert "region.no_mainland_rules" in r.finding_ids and said == (law == "sg"), stem
        x = r.finding("pi.region_residency")
        assert x is not None and x.title_key == f"plan.rule.pi.region_residency.{law}.title", stem
        assert region in x.detail_in(lang)
        assert not {"pi.consent_notice", "pi.export_exempt", "icp.required", "genai.filing"} & set(r.finding_ids)
        # nor does it ask whether the service is offered to the mainland public: its users are all elsewhere
        assert "public_genai_in_mainland" not in [q.field for q in r.open_questions]
    q20 = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q20_china_parts_offshore_sg.json")
    assert "public_genai_in_mainland" not in [q.field for q in q20.open_questions]


@pytest.mark.parametrize("lang", LANGS)
def test_health_records_bring_access_control_and_audit_logs(lang):
    r = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q03_hospital_private_wan_medical.json")
    x = r.finding("pi.sensitive_safeguards")
    assert x is not None and x.title_key.endswith(".health.title")
    memo = render_memo_markdown(r, lang)
    assert x.title_in(lang) in memo
    assert ("Art. 51" in x.detail_in(lang)) if lang == "en" else ("第五十一条" in x.detail_in(lang))


@pytest.mark.parametrize("lang", LANGS)
def test_a_peak_no_setup_carries_says_how_many_replicas_it_would_need(lang):
    """A setup fits and meets the target, but the peak needs more replicas than the plan considers: the sentence
    says so with its figures (it used to read the KV-memory template with its {placeholders} unfilled)."""
    r = plan({"use_case": "interactive", "model": "qwen2.5-7b-instruct", "peak_concurrency": 1_000_000,
              "gpu_constraint": ["l4"], "user_location": "overseas", "overseas_markets": ["US"]})  # fmt: skip
    b = r.binding_constraint
    assert r.hardware.gpu is None and b is not None and b.kind == "replica_limit"
    assert b.figures["replicas"] > MAX_REPLICAS and b.figures["peak"] == 1_000_000
    text = b.text_in(lang)
    assert not UNRENDERED.search(text) and f"{b.figures['replicas']:,}" in text
    assert text in render_memo_markdown(r, lang)


# ---- residency cites the law of the node's region, and no other (review 13: a Hong Kong bank cited Singapore's
# PDPA, the GDPR and MAS; an EU voice agent cited Singapore's law) ------------------------------------------------
FOREIGN_LAW = {"sg": ("Singapore", "PDPA", "MAS"), "eu": ("GDPR",), "hk": ("Hong Kong", "Cap. 486", "HKMA")}


@pytest.mark.parametrize("region_answers, law", [
    ({"overseas_markets": ["HK"], "user_location": "hk_tw"}, "hk"),
    ({"overseas_markets": ["SG", "SEA"]}, "sg"),
    ({"overseas_markets": ["EU"]}, "eu"),
    ({"overseas_markets": ["US"]}, None),
    ({"overseas_markets": ["JP"]}, None),
])  # fmt: skip
def test_residency_cites_the_law_of_the_nodes_region_and_no_other(region_answers, law):
    data = {"user_location": "overseas", "mainland_entity": False, "audience": "public", "use_case": "interactive",
            "reach": "internet", "model": "qwen2.5-7b-instruct", "peak_concurrency": 20, **region_answers,
            "data_sensitivity": {"personal_info": True, "pi_subjects_per_year": 800_000, "sector": "finance"}}
    r = make_plan(answers_from_dict(data))
    x = r.finding("pi.region_residency")
    assert x is not None
    assert x.title_key == "plan.rule.pi.region_residency" + (f".{law}" if law else "") + ".title"
    cited = " ".join(s.title for s in x.sources)
    assert x.sources
    for other, names in FOREIGN_LAW.items():
        if other != law:
            assert not [n for n in names if n in cited], (law, cited)
    for lang in LANGS:
        text = x.detail_in(lang)
        if law == "hk":  # the PDPO by name, and the bank's supervisor named only
            assert ("Cap. 486" in text) if lang == "en" else ("第 486 章" in text)
            assert "HKMA" in text
        for other in ("PDPA", "GDPR", "MAS") if law in ("hk", None) else ():
            assert other not in text


def test_the_hong_kong_bank_scenario_names_the_pdpo_and_no_foreign_law():
    r = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q25_hk_bank_retail.json")
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert "Cap. 486" in memo or "第 486 章" in memo
        assert not [n for n in ("PDPA", "GDPR", "MAS ") if n in memo], lang
        # Singapore only as where the hosted API's nearest price list serves from (s23-apisg23: Hong Kong has no
        # row of its own, so the yardstick is the nearest region's), never as a law that binds the bank
        lines = [ln for ln in memo.splitlines() if "Singapore" in ln or "新加坡" in ln]
        # (its source's zh title since session 23: 阿里云百炼国际站)
        assert all("Model Studio" in ln or "百炼国际站" in ln for ln in lines), (lang, lines)


@pytest.mark.parametrize("lang", LANGS)
def test_a_staff_only_tool_says_no_generative_ai_filing_instead_of_asking(lang):
    # review 13: an insurer's call-centre tool (staff only, internal network) was asked whether it is offered to
    # the mainland public, and its memo printed YOUR_FINE_TUNED_MODEL in the title and the serve command
    r = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q41_finetune_internal_callcentre.json")
    x = r.finding("genai.not_needed")
    assert x is not None and not {"genai.filing", "genai.labelling"} & set(r.finding_ids)
    assert "public_genai_in_mainland" not in [q.field for q in r.open_questions]
    memo = render_memo_markdown(r, lang)
    assert x.title_in(lang) in memo
    assert "YOUR_FINE_TUNED_MODEL" not in memo and "/path/to/" not in memo


@pytest.mark.parametrize("lang", LANGS)
def test_a_tight_ttft_target_names_the_round_trip_that_decides_the_region(lang):
    # review 13: the US team serving mainland users was told only "no mainland entity"; the EU voice agent only GDPR
    q43 = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q43_us_team_mainland_low_latency.json")
    x = q43.finding("region.latency_budget")
    assert x is not None and x.title_key == "plan.rule.region.latency_budget.title"
    text = x.detail_in(lang)
    assert "129–180" in text and "12–45" in text and "105–138" in text  # US West, Hong Kong, what is left of 150
    assert str(round(q43.capacity.ttft_p99_ms)) in text  # the predicted first token against what is left
    q09 = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q09_eu_voice_agent.json")
    y, warm = q09.finding("region.latency_budget"), q09.finding("scaling.warm_replica")
    assert y is not None and y.title_key.endswith(".overseas.title") and "300" in y.title_in(lang)
    # no scale-to-zero on a live call (with the N+1 spare kept on at night where the plan has one: s16-capacity)
    # cons42 (review 32, q09: "Reserve all 4 GPUs … against 'Quiet hours scale down to 2 replicas'"): where every GPU
    # is reserved, every replica stays warm at all hours, one policy with the reservation
    assert warm is not None and warm.title_key.endswith((".live.title", ".live_spare.title", "warm.reserved.title"))
    for r, f in ((q43, x), (q09, y), (q09, warm)):
        assert f.title_in(lang) in render_memo_markdown(r, lang)


def test_icp_reasons_fit_the_setup_and_sector_names_are_words():
    # review 13: a shop's chatbot on its own ICP-filed website was told "no ICP filing: the provider runs the
    # servers"; an office box's reason named a VPN; the Chinese memo read "medical 行业"
    q16 = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q16_hosted_api_mainland_registration.json")
    x = q16.finding("icp.not_needed")
    assert x is not None and x.title_key == "plan.rule.icp.not_needed.hosted_site_filed.title"
    assert "website" in x.detail_in("en") and "网站" in x.detail_in("zh_CN")
    office = make_plan(answers_from_dict({"use_case": "interactive", "audience": "internal", "reach": "lan",
                                          "user_location": "mainland", "mainland_entity": True,
                                          "model": "qwen2.5-7b-instruct", "peak_concurrency": 5}))
    y = office.finding("icp.not_needed")
    assert y is not None and "LAN" in y.detail_in("en") and "VPN" not in y.detail_in("en")
    q14 = scenario_plan(ROOT / "bench" / "advice_scenarios" / "q14_medical_followup_mainland.json")
    z = q14.finding("icp.sector_preapproval")
    assert z is not None and z.title_in("zh_CN").startswith("医疗行业") and "medical" not in z.title_in("zh_CN")


def test_a_batch_job_or_a_staff_tool_is_not_asked_whether_it_serves_the_mainland_public():
    for stem in ("q06_l20_batch_72h_claims", "q28_bank_backfill_batch_48h", "q41_finetune_internal_callcentre",
                 "q01_office_lan_capex_contracts"):
        r = scenario_plan(ROOT / "bench" / "advice_scenarios" / f"{stem}.json")
        assert "public_genai_in_mainland" not in [q.field for q in r.open_questions], stem


@pytest.mark.parametrize("lang", LANGS)
def test_the_overseas_node_runs_on_a_part_sold_there_priced_from_its_rows(lang):
    # review 13: the Singapore node of a mainland + Singapore plan was planned on L20 at mainland rates
    from advisor.plan.data import PriceBook, gpus_by_id
    from advisor.plan.gpu_choice import price_rows
    from advisor.plan.overseas_node import overseas_ctx

    path = ROOT / "bench" / "advice_scenarios" / "q05_filed_finetune_mainland_sg.json"
    r = scenario_plan(path)
    x = r.finding("region.split")
    # s24-gpuchoice24: the own-part variant that also names a faster card priced there (round 13: 71 ms of 100 on
    # the L4s) carries the same title
    # ovs44 (review 35): the node stays on the FP8 L40S at a stand-in price where the part listed there (A100, bf16)
    # costs more than its whole range; the listed part is then plan B, priced from Singapore's own rows
    assert x is not None and x.title_key in ("plan.rule.region.split.own_part.title",
                                             "plan.rule.region.split.own_part_faster.title",
                                             "plan.rule.region.split.own_part_stand_in.title")
    gpu = x.params["gpu"]
    [gid] = [g.id for g in gpus_by_id().values() if g.name == gpu]
    if x.title_key.endswith("stand_in.title"):
        fb = r.in_region_fallback
        assert fb is not None and fb["instead_of"] == gpu and fb["meets"]
        gid = fb["gpu_id"]
    assert offered_in("singapore", gid) and price_rows(PriceBook.build(None), gid, "singapore")
    assert x.params["peak"] == 18 and x.params["monthly"] != "—"  # 30 % of 60, priced
    text = x.detail_in(lang)
    assert "L20" in text and gpu in text and x.params["monthly"] in text
    assert x.title_in(lang) in render_memo_markdown(r, lang)
    ctx = overseas_ctx(make_plan_ctx(path))
    assert ctx.peak == 18 and not ctx.has_mainland_users


def make_plan_ctx(path: Path):
    from advisor.plan.context import resolve

    return resolve(answers_from_dict(json.loads(path.read_text(encoding="utf-8"))["answers"]))
