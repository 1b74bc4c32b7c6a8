"""The owning forms (on-premises, hybrid), the one-off hardware budget, fine-tuned models by name, and ModelScope
ids on mainland nodes: what the plan decides, what it costs and what the memo and the commands say."""

from __future__ import annotations

import pytest

from advisor.i18n import translate
from advisor.plan import AnswersError, answers_from_dict, make_plan
from advisor.plan.charts import cost_chart
from advisor.plan.data import PriceBook, factor_range
from advisor.plan.memo import memo_title, render_memo_markdown

LANGS = ("en", "zh_CN")

# an internal tool on the office LAN of a mainland company, with a one-off budget for a box
OFFICE = {
    "use_case": "interactive", "audience": "internal", "reach": "lan", "peak_concurrency": 10,
    "model": "qwen2.5-14b-instruct", "user_location": "mainland", "ops_capability": "basic",
    "expected_duration_months": 36, "monthly_budget": {"amount": 3000.0, "currency": "CNY"},
    "capex_budget": {"amount": 300_000.0, "currency": "CNY"},
}  # fmt: skip
# a paid API for US customers whose load bursts above a steady base, run by a strong ops team for three years
BURSTY_API = {
    "use_case": "api", "audience": "business", "reach": "internet", "peak_concurrency": 4000,
    "model": "qwen2.5-7b-instruct", "user_location": "overseas", "overseas_markets": ["US"],
    "ops_capability": "strong", "expected_duration_months": 36, "load_pattern": "bursty", "charges_users": True,
    "latency_slo": {"ttft_p99_ms": 2000.0, "tpot_p99_ms": 50.0}, "gpu_constraint": ["h100-sxm-80g"],
    # Bursts for 12 × 11 days a year (36 % of the hours). Since s25-numbers25 an unscheduled burst is billed at the
    # bursty utilisation's 20 % (it was 35 %), and since s25-prices25 AWS's support share no longer lands on other
    # rows: at 20 % renting the whole peak wins, so the owned base only pays where the bursts run longer; the
    # schedule says so instead of leaning on the old assumed share.
    "burst_schedule": {"per_year": 12, "days_each": 11},
}  # fmt: skip


def plan(data: dict, quotes: list | None = None):
    return make_plan(answers_from_dict(data), quotes=quotes)


# ---- on-premises -------------------------------------------------------------------------------------------------
def test_an_office_lan_tool_with_a_capex_budget_buys_one_server_with_its_one_off_and_monthly_costs():
    r = plan(OFFICE)
    assert r.deployment_form == "on_premises" and r.feasible
    o = r.costs.owned
    assert o is not None and o.site == "office" and o.gpus_owned == r.hardware.total_gpus <= 8
    # the one-off purchase is the GPU's purchase rows × GPUs, in the answers' currency (no data-centre extras)
    book = PriceBook.build()
    rows = book.find(r.hardware.gpu, "capex")
    # a row in USD is converted at the plan's rate; a row already in the answers' CNY is not (s19-prices19's L20 card)
    def in_cny(x):
        return 1.0 if x.unit.startswith("CNY") else r.costs.fx_rate

    assert o.capex.low == pytest.approx(min(x.low * in_cny(x) for x in rows) * o.gpus_owned, rel=1e-3)
    assert o.capex.high == pytest.approx(max(x.high * in_cny(x) for x in rows) * o.gpus_owned, rel=1e-3)
    assert o.capex_within_budget is True and o.capex_budget == 300_000
    # spread over the horizon, no resale counted
    assert o.amortised_monthly.high == pytest.approx(o.capex.high / 36, rel=1e-3)
    # power: kWh from the GPUs' TDP × the server factor × the stated PUE; no colocation; the ops staff run it
    pue = factor_range("office_pue")
    assert (o.pue.low, o.pue.high) == pue and o.colo_monthly is None
    assert o.energy_kwh_monthly.low > 0 and o.power_monthly.low > 0
    assert not o.staff_counted and o.staff_monthly.high == 0
    assert o.running_monthly.high == pytest.approx(o.power_monthly.high, rel=1e-3)
    # the budget check: the one-off budget pays the purchase; the monthly budget is judged on the running costs
    assert r.costs.recommended_monthly.high == pytest.approx(o.running_monthly.high, rel=1e-3)
    assert r.costs.within_budget is True
    assert "cost.on_premises" in r.finding_ids
    labels = [i.label_key for i in r.timeline.items]  # bought and installed, not rented
    bought = "procurement_workstation" if o.gpus_owned <= 2 else "procurement_office"  # one box from stock (s19)
    # the box the purchase buys is the box the engine is installed on: a workstation, or a server (review 34, q02)
    setup = "plan.timeline.of43.setup_workstation" if o.gpus_owned <= 2 else "plan.timeline.setup_office"
    assert f"plan.timeline.{bought}" in labels and setup in labels
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        # on the office LAN: in the office (s15); one or two cards: a workstation there (review 34)
        form = "of43.form.workstation" if o.gpus_owned <= 2 else "memo.text15.form.on_premises.lan"
        assert translate(lang, form) in memo
        assert translate(lang, "memo.forms.key.capex") in memo and translate(lang, "memo.forms.cost.power") in memo
        assert r.finding("cost.on_premises").title_in(lang) in memo
        # the cost chart draws the bought server: the purchase at month 0, then its running costs
        [line] = [x for x in cost_chart(r, lang).series if x.label == translate(lang, "memo.chart.cost.on_premises")]
        assert line.points[0][1] == pytest.approx((o.capex.low + o.capex.high) / 2)
        assert line.band[-1][2] == pytest.approx(o.capex.high + 36 * o.running_monthly.high)


def test_an_office_box_counts_an_engineers_share_only_when_the_team_has_no_ops_staff():
    r = plan({**OFFICE, "ops_capability": "none", "monthly_budget": {"amount": 60_000.0, "currency": "CNY"}})
    assert r.deployment_form == "on_premises"
    assert r.costs.owned.staff_counted and r.costs.owned.staff_monthly.low > 0
    # half an engineer's time is more than the monthly budget, while renting fits it: the box is not bought
    tight = plan({**OFFICE, "ops_capability": "none"})
    assert tight.deployment_form != "on_premises" and tight.costs.owned.running_monthly.low > 3000


def test_a_purchase_over_the_one_off_budget_is_not_bought_and_says_so():
    r = plan({**OFFICE, "capex_budget": {"amount": 5_000.0, "currency": "CNY"}})
    assert r.deployment_form != "on_premises"
    assert r.costs.owned.capex_within_budget is False
    [x] = [f for f in r.findings if f.id == "cost.capex_over"]
    assert "5,000" in x.title_in("en") and "一次性预算" in x.title_in("zh_CN")


def test_without_a_one_off_budget_the_lan_tool_is_still_bought_and_the_budget_is_asked():
    r = plan({k: v for k, v in OFFICE.items() if k != "capex_budget"})
    assert r.deployment_form == "on_premises"
    # no one-off budget: the monthly budget is judged on the purchase spread over the horizon + running costs
    assert r.costs.recommended_monthly.high == pytest.approx(r.costs.owned.monthly.high, rel=1e-3)
    assert "capex_budget" in [q.field for q in r.open_questions if q.changes_decision]


def test_a_rented_plan_over_the_monthly_budget_that_an_owned_box_would_fit_says_so():
    data = {**BURSTY_API, "peak_concurrency": 800, "load_pattern": "stable", "ops_capability": "basic",
            "measured_utilisation": 0.3,
            "monthly_budget": {"amount": 100_000.0, "currency": "CNY"},
            "capex_budget": {"amount": 7_000_000.0, "currency": "CNY"}}  # fmt: skip
    r = plan(data)
    assert r.deployment_form == "cloud" and r.costs.within_budget is False
    # s23-uplift23: a peak of 800, not 400, and 100,000 CNY, not 85,500: with the uplift by component (storage,
    # support, egress instead of the flat 30-50 %) the 3 VMs of a 400 peak rent for 25,722-73,647 CNY, under the owned
    # pair's running cost (84,750 at the high end), so no budget was over the rent and not the running cost; at 800
    # the rent is 5 VMs (43,045-123,395) and the owned pair is still the same 16 GPUs.
    # rented: 4 × 1-GPU H100 VMs carry the peak, + 1 VM for N+1 (users pay). Bought, the same plan is two whole
    # 8-GPU H100 servers in colocation: SXM parts only come as 8-GPU servers, so one server holds the load, and the
    # plan's own redundancy rule (a paid service survives one failed server) adds a second. Until session 13 the
    # owned figure was one server (8 GPUs, the 3 rented GPUs rounded up): buying looked as if it fitted a 4,000,000
    # CNY budget by quietly dropping the spare the rented plan carries (budgets raised here to keep the case; the monthly
    # budget set between the owned running cost and the rent's high end since the commitment discount became sourced).
    assert r.hardware.layout.unit == "vm" and r.hardware.layout.spare_units == 1
    o = r.costs.owned
    assert o.gpus_owned == 16 and o.purchase_unit == 8
    assert o.capex.high <= 7_000_000 and o.running_monthly.high <= 100_000
    [x] = [f for f in r.findings if f.id == "cost.owned_fits_capex"]
    assert "7,000,000" in x.title_in("en") and "100,000" in x.detail_in("en") and "一次性预算" in x.title_in("zh_CN")
    # the old budget does not buy the redundant pair: nothing is said
    r0 = plan({**data, "capex_budget": {"amount": 4_000_000.0, "currency": "CNY"}})
    assert r0.costs.owned.capex_within_budget is False and "cost.owned_fits_capex" not in r0.finding_ids
    # a one-off budget too small for the purchase: nothing is said
    r2 = plan({**data, "capex_budget": {"amount": 10_000.0, "currency": "CNY"}})
    assert "cost.owned_fits_capex" not in r2.finding_ids


def test_an_internal_tool_over_the_monthly_budget_is_offered_buying_the_server_with_a_one_off_budget():
    data = {**OFFICE, "reach": "private_network", "expected_duration_months": 12,
            "monthly_budget": {"amount": 1_500.0, "currency": "CNY"}}  # fmt: skip
    data.pop("capex_budget")
    r = plan(data)
    assert not r.feasible and "cost.budget_short" in r.finding_ids
    [fix] = [x for x in r.fixes if x.id == "buy_server"]
    amount = fix.change["capex_budget"]["amount"]
    assert amount >= r.costs.owned.capex.high and fix.with_budget is None  # alone it is enough
    again = plan({**data, **fix.change})
    assert again.feasible and again.deployment_form == "on_premises" and again.costs.within_budget
    assert f"{amount:,.0f}" in fix.text_in("en") and "一次性硬件预算" in fix.text_in("zh_CN")


@pytest.mark.usefixtures("at_loose_tpot")  # its example is the plan at 100 ms (s36-chat50)
def test_a_public_service_bought_carries_a_spare_server_and_a_one_replica_load_has_no_peak_to_rent(monkeypatch):
    # a public service whose peak one L40S carries; the plan's redundancy rule adds one unit (N+1)
    data = {"use_case": "interactive", "audience": "public", "model": "qwen2.5-14b-instruct", "peak_concurrency": 60,
            "prompt_tokens": {"avg": 800, "p95": 2000}, "quantization_acceptable": "fp8_only",
            "user_location": "hk_tw", "overseas_markets": ["HK"], "mainland_entity": False, "ops_capability": "strong",
            "expected_duration_months": 36, "load_pattern": "diurnal", "gpu_constraint": ["l40s"]}  # fmt: skip
    r = plan(data)
    lay = r.hardware.layout
    assert lay.load_units == 1 and lay.spare_units == 1 and lay.redundancy == "public"
    o = r.costs.owned  # bought: the card that carries the load in one server, the spare card in a second one
    assert o.site == "colocation" and o.gpus_owned == lay.load_gpus + lay.unit_gpus
    # the engineer's share is per server: two servers, twice one server's share
    with monkeypatch.context() as m:  # the same service without the spare (every external service has one now)
        m.setattr("advisor.plan.gpu_choice.redundancy_reason", lambda c: None)
        one = plan(data).costs.owned
    assert one.gpus_owned == lay.load_gpus and o.staff_monthly.high == pytest.approx(2 * one.staff_monthly.high, rel=0.01)
    # the spare is redundancy, not a peak above a base: no hybrid ("own one card, rent the spare at peak hours")
    assert r.costs.hybrid is None and r.deployment_form != "hybrid"


# ---- hybrid ------------------------------------------------------------------------------------------------------
HYPERSCALER = [{"gpu": "h100-sxm-80g", "kind": "on_demand", "low": 4.0, "high": 5.0}]  # the user's quote, USD/GPU-h


def test_a_bursty_paid_api_owns_its_base_and_rents_the_peak_when_that_is_cheaper():
    r = plan(BURSTY_API, HYPERSCALER)
    assert r.deployment_form == "hybrid" and r.feasible
    h = r.costs.hybrid
    # SXM GPUs come as whole 8-GPU servers: the base is one such server, the rest of the peak is rented
    assert h.site == "colocation" and h.purchase_unit == 8 and h.gpus_owned == 8 and h.gpus_burst >= 1
    assert h.gpus_owned + h.gpus_burst >= r.hardware.total_gpus
    assert h.burst_monthly.low > 0 and h.colo_monthly.low > 0
    cloud = r.costs.cloud_on_demand_monthly
    assert (h.monthly.low + h.monthly.high) < (cloud.low + cloud.high)
    assert "cost.hybrid" in r.finding_ids
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert translate(lang, "memo.form.hybrid") in memo and translate(lang, "memo.forms.cost.burst") in memo
    # not otherwise: renting cheaper (a cheap quote), a steady load, a short horizon, nobody to run servers. (The
    # built-in specialty-cloud rows were on this list while renting billed one warm replica every hour and the rest
    # for 35 % of it; with the steady base's replicas billed every hour, as the memo keeps them warm (s15-burst),
    # owning that base pays at those rows too.)
    cheap_cloud = [{"gpu": "h100-sxm-80g", "kind": "on_demand", "low": 0.8, "high": 0.9}]
    for other in (plan(BURSTY_API, cheap_cloud),):
        assert other.deployment_form == "cloud"
        h, cloud = other.costs.hybrid, other.costs.cloud_on_demand_monthly
        assert h is not None and h.monthly.low + h.monthly.high > cloud.low + cloud.high
    assert plan({**BURSTY_API, "load_pattern": "stable"}, HYPERSCALER).deployment_form != "hybrid"
    assert plan({**BURSTY_API, "expected_duration_months": 12}, HYPERSCALER).deployment_form != "hybrid"
    assert plan({**BURSTY_API, "ops_capability": "none"}, HYPERSCALER).deployment_form != "hybrid"


# ---- the new answers ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("data", "field"), [
    ({"model_name": "line one\nline two"}, "model_name"),
    ({"checkpoint": "   "}, "checkpoint"),
    ({"checkpoint": "https://me:s3cret@models.example.com/acme"}, "checkpoint"),
    ({"capex_budget": {"amount": -1}}, "capex_budget.amount"),
    ({"capex_budget": {"amount": 1000, "currency": "EUR"}}, "capex_budget.currency"),
])  # fmt: skip
def test_bad_new_answers_are_refused_at_their_field_in_both_languages(data, field):
    good = answers_from_dict({"model_name": " acme-7b ", "checkpoint": "acme/7b", "capex_budget": {"amount": 1e5}})
    assert (good.model_name, good.checkpoint, good.capex_budget.currency) == ("acme-7b", "acme/7b", "CNY")
    with pytest.raises(AnswersError) as info:
        answers_from_dict(data)
    [problem] = info.value.issues
    assert problem.field == field
    for lang in LANGS:
        text = problem.text_in(lang)
        assert text and "{" not in text and "Traceback" not in text and "s3cret" not in text


# ---- fine-tuned models by name -----------------------------------------------------------------------------------
FINE_TUNE = {**OFFICE, "model_customisation": "fine_tuned", "model_name": "acme-legal-14b",
             "checkpoint": "/data/ckpt/acme legal 14b"}  # fmt: skip


def test_a_fine_tuned_model_is_named_in_the_title_and_served_from_its_checkpoint():
    r = plan(FINE_TUNE)
    cmd = r.hardware.command
    assert cmd.startswith("vllm serve '/data/ckpt/acme legal 14b' --served-model-name acme-legal-14b ")
    assert "Qwen/" not in cmd
    bench = [s.command for s in r.next_steps if s.id in ("ramp", "soak")]
    assert bench and all("--model acme-legal-14b " in b for b in bench)
    assert not [q for q in r.open_questions if q.field in ("model_name", "checkpoint")]
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert memo.splitlines()[0] == "# " + translate(lang, "memo.title", model="acme-legal-14b")
        assert "YOUR_FINE_TUNED_MODEL" not in memo and "/path/to/" not in memo


def test_an_unnamed_fine_tune_reads_its_checkpoint_from_a_variable_a_step_sets_and_asks_in_words():
    # review 13: YOUR_FINE_TUNED_MODEL and /path/to/… read as values to copy; s19-engine19 (q41): no command at all
    # left the serve, ramp and soak steps without theirs; round 12 (q41): an angle-bracket path placeholder cannot
    # run as written. The command reads the fine-tune (never the base model's weights) from a shell variable that
    # stops it until set; a step before the serve step says what to set it to. Round 13 (q41): the name it was served
    # under ("qwen2.5-14b-instruct-finetune") was made up: now the team's SERVED_NAME, else the checkpoint folder's
    # name, one shell word the serve command and every client command share.
    data = {k: v for k, v in FINE_TUNE.items() if k not in ("model_name", "checkpoint")}
    r = plan(data)
    cmd = r.hardware.command
    name = '"${SERVED_NAME:-$(basename "$FINETUNE_DIR")}"'
    assert cmd.startswith('vllm serve "${FINETUNE_DIR:?set FINETUNE_DIR to your merged fine-tune checkpoint}" '
                          f"--served-model-name {name} ")  # fmt: skip
    assert "Qwen/" not in cmd and "<" not in cmd and "finetune " not in cmd  # the base model's weights, a made-up name
    bench = [s.command for s in r.next_steps if s.id in ("ramp", "soak")]
    assert bench and all(f"--model {name} " in b for b in bench)
    ids = [s.id for s in r.next_steps]
    assert ids.index("finetune_checkpoint") == ids.index("serve") - 1  # set first, then start
    asked = {q.field: q for q in r.open_questions}
    assert {"model_name", "checkpoint"} <= set(asked) and asked["model_name"].changes_decision
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert asked["model_name"].text_in(lang) in memo and asked["checkpoint"].text_in(lang) in memo
        assert translate(lang, "memo.hw.command_waits") not in memo
        assert translate(lang, "models24.memo.served_name_variable", var="`FINETUNE_DIR`", served="`SERVED_NAME`",
                         folder="`FINETUNE_DIR`") in memo  # fmt: skip
        assert memo.splitlines()[0] == "# " + memo_title(lang, translate(
            lang, "memo.model.own_fine_tune", base=r.hardware.model_name))
        assert "YOUR_FINE_TUNED_MODEL" not in memo and "/path/to/" not in memo


def test_a_fine_tune_named_by_its_checkpoint_alone_is_served_from_it():
    data = {k: v for k, v in FINE_TUNE.items() if k != "model_name"}
    r = plan(data)
    assert r.hardware.command.startswith("vllm serve '/data/ckpt/acme legal 14b' ")
    bench = [s.command for s in r.next_steps if s.id == "ramp"]
    assert bench and "--model '/data/ckpt/acme legal 14b' " in bench[0]  # quoted: the path holds spaces
    assert "model_name" in {q.field for q in r.open_questions}


def test_a_fine_tune_quantized_ahead_of_time_needs_its_own_quantized_checkpoint():
    # 14B on one 24 GB A10: only 4-bit weights fit, a format quantized ahead of time: its own variable, whose
    # message names the checkpoint it is quantized from, set by the step before the serve step
    r = plan({**FINE_TUNE, "quantization_acceptable": "yes", "gpu_constraint": ["a10"], "peak_concurrency": 2})
    assert r.hardware.weights in ("awq-int4", "gptq-int4")
    var = "FINETUNE_AWQ_INT4_DIR" if r.hardware.weights == "awq-int4" else "FINETUNE_GPTQ_INT4_DIR"
    assert r.hardware.command.startswith(f'vllm serve "${{{var}:?set {var} to the ')
    assert "--served-model-name acme-legal-14b " in r.hardware.command and "<" not in r.hardware.command
    assert "Qwen/" not in r.hardware.command  # never the publisher's quantized base model
    step = next(s for s in r.next_steps if s.id == "finetune_checkpoint")
    assert step.key == "finetune23.next.set_quantized_checkpoint" and step.params["var"] == var
    # a path a shell would not read as plain words is left out of the message, never quoted into it
    assert "quantized from" not in r.hardware.command  # "/data/ckpt/acme legal 14b" holds spaces
    plain = plan({**FINE_TUNE, "checkpoint": "/data/ckpt/acme-legal-14b", "quantization_acceptable": "yes",
                  "gpu_constraint": ["a10"], "peak_concurrency": 2})  # fmt: skip
    assert "quantized from /data/ckpt/acme-legal-14b}" in plain.hardware.command


# ---- mainland nodes download from ModelScope ---------------------------------------------------------------------
MAINLAND_PUBLIC = {
    "use_case": "interactive", "audience": "public", "reach": "internet", "peak_concurrency": 20,
    "user_location": "mainland", "icp_status": "filed", "mainland_entity": True, "ops_capability": "basic",
    "public_genai_in_mainland": False,
}  # fmt: skip


def test_a_mainland_node_serves_the_publishers_modelscope_mirror():
    r = plan({**MAINLAND_PUBLIC, "model": "glm-4-9b-chat"})
    assert r.region == "mainland"
    cmd = r.hardware.command
    # ZhipuAI mirrors THUDM's GLM-4-9B-Chat on ModelScope; clients keep asking for the name they know
    assert cmd.startswith("VLLM_USE_MODELSCOPE=True vllm serve ZhipuAI/glm-4-9b-chat ")
    assert "--served-model-name THUDM/glm-4-9b-chat " in cmd and cmd.count("THUDM/") == 1
    # where page 1 leads with a hosted API (s28-lead28) the replica's start folds into the pressure-test step and its
    # command is printed once, in section 2 (hardware.command, checked above); otherwise the serve step carries it
    serve = next((s for s in r.next_steps if s.id == "serve"), None)
    if serve is not None:
        assert serve.command == cmd
    else:
        assert r.next_steps[0].id == "api_first"
        assert all("--model THUDM/glm-4-9b-chat " in s.command for s in r.next_steps if s.id == "ramp")
    qwen = plan({**MAINLAND_PUBLIC, "model": "qwen2.5-7b-instruct"}).hardware.command
    assert qwen.startswith("VLLM_USE_MODELSCOPE=True vllm serve Qwen/Qwen2.5-7B-Instruct ")
    assert "--served-model-name" not in qwen  # the same id on both hubs
    # a chat model's published quantized checkpoint: its publisher's mirror too, served under the name clients use
    awq = plan({**MAINLAND_PUBLIC, "model": "Qwen/Qwen2.5-14B-Instruct", "quantization_acceptable": "yes",
                "gpu_constraint": ["a10"]})  # fmt: skip
    assert awq.hardware.weights == "awq-int4"
    assert awq.hardware.command.startswith("VLLM_USE_MODELSCOPE=True vllm serve Qwen/Qwen2.5-14B-Instruct-AWQ "
                                           "--served-model-name Qwen/Qwen2.5-14B-Instruct ")
    assert all("--model Qwen/Qwen2.5-14B-Instruct " in s.command for s in awq.next_steps if s.id == "ramp")
    # an overseas node keeps the Hugging Face id; a model with no known mirror keeps its id on the mainland
    r = plan({**MAINLAND_PUBLIC, "model": "glm-4-9b-chat", "user_location": "overseas", "overseas_markets": ["US"]})
    assert r.region != "mainland"
    assert r.hardware.command.startswith("vllm serve THUDM/glm-4-9b-chat ")
    assert "MODELSCOPE" not in r.hardware.command
    # Meta keeps no mirror there: ModelScope's re-upload, named as such in the memo (test_modelscope_reupload.py)
    r = plan({**MAINLAND_PUBLIC, "model": "llama-3.1-8b-instruct"})
    assert r.region == "mainland"
    assert r.hardware.command.startswith("VLLM_USE_MODELSCOPE=True vllm serve LLM-Research/Meta-Llama-3.1-8B-Instruct ")
    r = plan({**MAINLAND_PUBLIC, "model": "gpt-oss-20b"})  # no mirror nor re-upload known: the id stays
    assert r.region == "mainland" and "MODELSCOPE" not in (r.hardware.command or "")


def test_modelscope_mirrors_of_quantized_checkpoints_are_the_publishers_own():
    from advisor.resources import load_json

    mirrors = {k: v for k, v in load_json("models", "quantized", "modelscope.json").items() if not k.startswith("_")}
    published = {repo for formats in load_json("models", "quantized", "checkpoints.json").values()
                 if isinstance(formats, dict) for repo in formats.values()}  # fmt: skip
    assert mirrors and set(mirrors) <= published
    for hf, ms in mirrors.items():
        assert ms.split("/")[0] in ("Qwen", "ZhipuAI") and ms.split("/")[1] == hf.split("/")[1]


# ---- a chat product names the chat release -----------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_a_chat_product_on_a_base_model_is_told_to_serve_the_instruct_release(lang):
    r = plan({"model": "Qwen/Qwen2.5-14B", "use_case": "interactive"})
    [x] = [f for f in r.findings if f.id == "model.base_for_chat"]
    assert x.severity == "warning" and "Qwen/Qwen2.5-14B-Instruct" in x.detail_in(lang)
    assert x.title_in(lang) in render_memo_markdown(r, lang)
    # not for the chat release itself, an offline batch, or a team that fine-tunes the base model
    for other in ({"model": "Qwen/Qwen2.5-14B-Instruct", "use_case": "interactive"},
                  {"model": "Qwen/Qwen2.5-14B", "use_case": "offline_batch"},
                  {"model": "Qwen/Qwen2.5-14B", "use_case": "api", "model_customisation": "fine_tuned"}):
        assert "model.base_for_chat" not in plan(other).finding_ids


@pytest.mark.parametrize("monthly", [1_500.0, 3_000.0, 8_000.0])
@pytest.mark.parametrize("reach", ["lan", "private_network"])
def test_a_larger_one_off_budget_never_makes_a_feasible_plan_infeasible(monthly, reach):
    base = {**OFFICE, "reach": reach, "expected_duration_months": 12,
            "monthly_budget": {"amount": monthly, "currency": "CNY"}}  # fmt: skip
    base.pop("capex_budget")
    feasible = plan(base).feasible
    for amount in (10_000.0, 60_000.0, 1_000_000.0):
        r = plan({**base, "capex_budget": {"amount": amount, "currency": "CNY"}})
        assert r.feasible or not feasible, (reach, monthly, amount, r.deployment_form)
        feasible = r.feasible


def test_a_one_off_budget_in_dollars_is_converted_at_the_plans_rate_and_shown_with_its_currency():
    r = plan({**OFFICE, "capex_budget": {"amount": 50_000.0, "currency": "USD"}})
    assert r.deployment_form == "on_premises" and r.costs.currency == "CNY"
    o = r.costs.owned
    assert o.capex_budget == pytest.approx(50_000 * r.costs.fx_rate, rel=1e-6) and o.capex_within_budget
    tight = plan({**OFFICE, "capex_budget": {"amount": 1_000.0, "currency": "USD"}})
    assert tight.deployment_form != "on_premises" and tight.costs.owned.capex_within_budget is False
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        assert f"{o.capex_budget:,.0f} CNY" in memo


# ---- what an office box is sized for -----------------------------------------------------------------------------
# a law firm's contract-summary tool on the office LAN: 6 lawyers, 3,000-8,000-token contracts, a one-off budget
CONTRACTS = {
    "use_case": "interactive", "audience": "internal", "reach": "lan", "model": "qwen2.5-14b-instruct",
    "peak_concurrency": 6, "prompt_tokens": {"avg": 3000, "p95": 8000}, "output_tokens": {"avg": 500, "p95": 1200},
    "quantization_acceptable": "yes_after_quality_check", "user_location": "mainland", "mainland_entity": True,
    "ops_capability": "basic", "expected_duration_months": 36,
    "capex_budget": {"amount": 120_000.0, "currency": "CNY"},
}  # fmt: skip


def _ttft_assumption(r):
    return next((a for a in r.assumptions if a.field == "latency_slo.ttft_p99_ms"), None)


@pytest.mark.parametrize(("use_case", "p95", "ms"), [
    ("interactive", 1000, 2000), ("interactive", 2000, 2000), ("interactive", 2500, 2300), ("interactive", 3000, 2500),
    ("interactive", 8000, 5000), ("interactive", 12000, 6000), ("interactive", 128000, 6000),
    ("api", 4000, 5000), ("api", 12000, 6000),
])  # fmt: skip
def test_the_assumed_first_token_target_grows_with_a_long_prompt_up_to_six_seconds(use_case, p95, ms):
    from advisor.plan.context import assumed_ttft_ms

    assert assumed_ttft_ms(use_case, p95) == ms


def test_a_long_prompt_with_no_latency_target_is_given_longer_and_the_office_buys_one_card():
    r = plan(CONTRACTS)
    a = _ttft_assumption(r)
    # 2 s for a chat turn + 0.5 s per 1,000 tokens of the 8,000-token p95 prompt beyond 2,000, said as assumed
    assert a.value == 5000 and a.key == "plan.assume.ttft_long_prompt" and r.latency_curve.slo_ttft_p99_ms == 5000
    for lang in LANGS:
        assert "8,000" in a.text_in(lang) and "5,000" in a.text_in(lang) and "{" not in a.text_in(lang)
        assert a.text_in(lang) in render_memo_markdown(r, lang)
    # a flat 2 s for an 8,000-token contract took 8 RTX 4090D (over the 120,000 CNY budget): the firm was told to
    # rent. Now one 24 GB card at 4 bits, bought once, within the budget, on the office mains
    assert r.deployment_form == "on_premises" and r.feasible and r.capacity.meets_slo
    assert r.hardware.total_gpus <= 2 and r.costs.owned.capex_within_budget is True
    o = r.costs.owned
    assert o.site == "office" and o.colo_monthly is None and not o.staff_counted and o.power_monthly.low > 0
    # page 1 says why the box: one purchase, then power to run it; the consumer card's terms are a caveat of section
    # 7, not one of page 1's reasons (blind review 31, q02: "it is a caveat, not a reason")
    for lang in LANGS:
        memo = render_memo_markdown(r, lang)
        page1 = memo.split("\n## ")[1]  # section 1, the decision
        why = r.finding("cost.on_premises")
        assert f"**{why.title_in(lang)}**" in page1
        consumer = r.finding("gpu.consumer").title_in(lang)
        assert consumer not in page1 and consumer in memo
    # a short prompt keeps the chat turn's 2 s; a target the team gave is never changed
    short = _ttft_assumption(plan({**CONTRACTS, "prompt_tokens": {"avg": 800, "p95": 2000}}))
    assert (short.value, short.key) == (2000, "plan.assume.ttft_p99_ms")
    stated = plan({**CONTRACTS, "latency_slo": {"ttft_p99_ms": 2000.0, "tpot_p99_ms": 100.0}})
    assert _ttft_assumption(stated) is None and stated.latency_curve.slo_ttft_p99_ms == 2000


def test_the_setup_bought_is_the_smallest_that_meets_the_target_after_the_predictors_check():
    # a 32B coding assistant on the office LAN, RTX 4090D only (24 GB), 8-bit or 4-bit allowed, 12 at once
    data = {**CONTRACTS, "model": "qwen2.5-32b-instruct", "peak_concurrency": 12, "quantization_acceptable": "yes",
            "output_tokens": {"avg": 300, "p95": 800}, "gpu_constraint": ["rtx-4090d"], "expected_duration_months": 24}
    data.pop("capex_budget")
    r = plan(data)
    assert r.deployment_form == "on_premises" and r.feasible and r.capacity.meets_slo
    # two 2-card FP8 replicas (4 cards) meet the target; a BF16 TP4 setup ranked first at 4 cards was bought at 8
    # after the predictor added its second replica
    assert r.hardware.total_gpus == 4 and r.hardware.weights != "bf16"
    assert r.costs.owned.gpus_owned == 4
