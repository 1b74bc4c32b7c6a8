"""The answers format: template round trip, field-level errors, model resolution, and a fuzz of answers_from_dict."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.i18n import catalog
from advisor.plan import AnswersError, PlanAnswers, answers_from_dict, answers_template, load_answers
from advisor.plan.answers import FIELDS, SCHEMA_VERSION
from advisor.plan.models import resolve_plan_model


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_template_is_accepted_as_it_is_and_lists_every_field(lang):
    text = answers_template(lang)
    data = json.loads(text)
    assert data["schema_version"] == SCHEMA_VERSION
    for name in FIELDS:
        assert name in data and f"_{name}" in data, name
    answers = answers_from_dict(data)
    assert answers.known() == {}  # all unknown


def test_every_field_has_a_label_and_help_in_both_languages():
    for lang in ("en", "zh_CN"):
        cat = catalog(lang)
        for name in set(FIELDS) | set(PlanAnswers.model_fields) - {"schema_version"}:
            assert cat.get(f"plan.field.{name}.label"), (lang, name)
            assert cat.get(f"plan.field.{name}.help"), (lang, name)


def test_problems_are_field_level_and_all_reported_at_once():
    with pytest.raises(AnswersError) as err:
        answers_from_dict({
            "use_case": "chat", "latency_slo": {"ttft_p99_ms": -5}, "peak_concurency": 3,
            "requests_per_day": {"low": 10, "high": 2}, "monthly_budget": {"amount": 100, "currency": "EUR"},
            "model": "NoSuch/Model-7B", "measured_utilisation": 1.5, "overseas_markets": ["USA"],
        })  # fmt: skip
    where = dict(err.value.problems)
    assert set(where) == {
        "use_case", "latency_slo.ttft_p99_ms", "peak_concurency", "requests_per_day", "monthly_budget.currency",
        "model", "measured_utilisation", "overseas_markets",
    }  # fmt: skip
    assert "interactive" in where["use_case"]
    assert "unknown field" in where["peak_concurency"]
    assert "low (10) must not be above high (2)" in where["requests_per_day"]
    assert "config.json" in where["model"]
    assert isinstance(err.value, ValueError)


def test_requests_per_day_takes_a_number_or_a_range():
    assert answers_from_dict({"requests_per_day": 5000}).requests_per_day == 5000
    r = answers_from_dict({"requests_per_day": {"low": 100, "high": 900}}).requests_per_day
    assert (r.low, r.high) == (100, 900)


def test_newer_schema_is_refused_with_a_message():
    with pytest.raises(AnswersError) as err:
        answers_from_dict({"schema_version": SCHEMA_VERSION + 1})
    assert err.value.problems[0][0] == "schema_version"


def test_gpu_constraint_accepts_catalog_names_and_rejects_unknown():
    assert answers_from_dict({"gpu_constraint": ["h20-96g"]}).gpu_constraint == ["h20-96g"]
    with pytest.raises(AnswersError) as err:
        answers_from_dict({"gpu_constraint": ["no-such-gpu-9000"]})
    assert err.value.problems[0][0].startswith("gpu_constraint")


@pytest.mark.parametrize(
    ("asked", "preset"),
    [
        ("Qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b"),  # instruct → the base preset (same architecture)
        ("Qwen/Qwen2.5-14B", "qwen2.5-14b"),
        ("qwen2.5-7b-instruct", "qwen2.5-7b-instruct"),
        ("Qwen/Qwen2.5-7B", "qwen2.5-7b-instruct"),  # base → instruct preset, never the AWQ checkpoint
        ("Qwen/Qwen2.5-7B-Instruct-AWQ", "qwen2.5-7b-instruct-awq"),
        ("meta-llama/Meta-Llama-3.1-70B-Instruct", "llama-3.1-70b-instruct"),
        ("deepseek-ai/DeepSeek-V3-0324", "deepseek-v3"),
    ],
)
def test_hugging_face_ids_resolve_to_presets(asked, preset):
    assert resolve_plan_model(asked).spec.id == preset


def test_unresolvable_model_asks_for_config_json(tmp_path):
    with pytest.raises(AnswersError) as err:
        resolve_plan_model("some-org/totally-new-model-13B")
    assert "config.json" in err.value.problems[0][1]
    cfg = tmp_path / "mymodel" / "config.json"
    cfg.parent.mkdir()
    from advisor.catalog import load_models

    preset = next(m for m in load_models() if m.id == "qwen2.5-7b-instruct")
    src = json.loads(next(p for p in __import__("pathlib").Path(__file__).resolve().parents[2].joinpath(
        "resources", "models").glob("qwen2.5-7b-instruct.json")).read_text())["config"]  # fmt: skip
    cfg.write_text(json.dumps(src))
    got = resolve_plan_model(str(cfg))
    assert got.how == "config" and got.spec.hidden_size == preset.hidden_size
    with pytest.raises(AnswersError):
        resolve_plan_model(str(tmp_path / "missing" / "config.json"))


def test_load_answers_reports_file_problems(tmp_path):
    bad = tmp_path / "a.json"
    bad.write_text("{ not json")
    with pytest.raises(AnswersError) as err:
        load_answers(bad)
    assert err.value.problems[0][0] == "file" and "line 1" in err.value.problems[0][1]
    with pytest.raises(AnswersError):
        load_answers(tmp_path / "missing.json")
    bad.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(AnswersError):
        load_answers(bad)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**13), 10**13) | st.floats(allow_nan=True) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4),
    max_leaves=12,
)
field_names = st.sampled_from([*FIELDS, "schema_version", "_comment", "bogus"])
model_names = st.one_of(
    st.text(max_size=300),
    st.sampled_from(["qwen3-8b", "Qwen/Qwen3-8B", "/", "~", "..", "/dev/null", "/etc/passwd", "x.json", "\x00", "a" * 400]),
)
answer_dicts = st.one_of(
    st.dictionaries(field_names, json_values, max_size=8),
    st.fixed_dictionaries({"model": model_names}, optional={"use_case": st.sampled_from(["api", "chat"])}),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(json_values, answer_dicts))
def test_fuzz_answers_from_dict_gives_answers_or_answers_error(data):
    try:
        got = answers_from_dict(data)
    except AnswersError as exc:
        assert exc.problems and all(isinstance(w, str) and isinstance(m, str) and m for w, m in exc.problems)
    else:
        assert isinstance(got, PlanAnswers)
        assert answers_from_dict(json.loads(got.model_dump_json())) == got  # round trip
