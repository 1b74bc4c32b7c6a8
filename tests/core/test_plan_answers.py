"""The answers format: template round trip, field-level errors, model resolution, and a fuzz of answers_from_dict."""

import json
import re

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


BAD = {
    "use_case": "chat", "latency_slo": {"ttft_p99_ms": -5}, "peak_concurency": 3, "peak_concurrency": 2.5,
    "requests_per_day": {"low": 10, "high": 2}, "monthly_budget": {"amount": 100, "currency": "EUR"},
    "model": "NoSuch/Model-7B", "measured_utilisation": 1.5, "overseas_markets": ["USA"], "charges_users": "maybe",
    "prompt_tokens": {"avg": 3000, "p95": 100}, "user_mix": {"mainland": 0.8}, "data_sensitivity": "high",
    "gpu_constraint": ["no-such-gpu"], "expected_duration_months": "long", "audience": None,
    "output_tokens": {"avg": 10, "p95": 20, "p99": 30}, "max_context_tokens": 8,
}  # fmt: skip
CJK = re.compile(r"[\u4e00-\u9fff]")


def test_each_problem_says_which_field_what_is_wrong_and_what_is_allowed_in_both_languages():
    with pytest.raises(AnswersError) as err:
        answers_from_dict(BAD)
    en = dict(err.value.problems_in("en"))
    zh = dict(err.value.problems_in("zh_CN"))
    assert set(en) == set(zh) == {
        "use_case", "latency_slo.ttft_p99_ms", "peak_concurency", "peak_concurrency", "requests_per_day",
        "monthly_budget.currency", "model", "measured_utilisation", "overseas_markets", "charges_users",
        "prompt_tokens", "user_mix.overseas", "data_sensitivity", "gpu_constraint", "expected_duration_months",
        "output_tokens.p99", "max_context_tokens",
    }  # fmt: skip
    for field in en:
        assert not CJK.search(en[field]) and CJK.search(zh[field]), field
        for text in (en[field], zh[field]):
            assert "answers.error" not in text and "{" not in text, text
    # what is allowed, in the language's own list and number style
    assert en["use_case"] == "must be one of 'interactive', 'api' or 'offline_batch'"
    assert zh["use_case"] == "必须是 'interactive'、'api' 或 'offline_batch' 之一"
    assert en["measured_utilisation"] == "must be between 0 and 1"
    assert zh["max_context_tokens"] == "必须在 16 到 10,000,000 之间"
    assert en["latency_slo.ttft_p99_ms"] == "must be more than 0 and at most 3,600,000"
    assert "'peak_concurrency'" in zh["peak_concurency"]  # the field it was probably meant to be
    assert "ttft_p99_ms" in en["data_sensitivity"] or "personal_info" in en["data_sensitivity"]
    # the field's label in the language, beside its path
    lines = err.value.lines_in("zh_CN")
    assert "use_case（使用场景）：必须是 'interactive'、'api' 或 'offline_batch' 之一" in lines
    assert err.value.problems == err.value.problems_in("en")  # the English pairs, as before


def test_file_problems_are_said_in_both_languages(tmp_path):
    with pytest.raises(AnswersError) as err:
        load_answers(tmp_path / "missing.json")
    assert err.value.lines_in("en") == [f"file: {tmp_path / 'missing.json'} does not exist"]
    assert err.value.lines_in("zh_CN") == [f"文件：{tmp_path / 'missing.json'} 不存在"]
    with pytest.raises(AnswersError) as err:
        answers_from_dict(["not", "an", "object"])
    assert CJK.search(err.value.lines_in("zh_CN")[0])
    with pytest.raises(AnswersError) as err:
        resolve_plan_model("some-org/totally-new-model-13B")
    assert "config.json" in err.value.problems_in("zh_CN")[0][1] and CJK.search(err.value.problems_in("zh_CN")[0][1])


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
        ("Qwen/Qwen2.5-14B-Instruct", "qwen2.5-14b-instruct"),  # the chat release has its own preset (32K context)
        ("Qwen/Qwen2.5-14B-Instruct-AWQ", "qwen2.5-14b-instruct"),  # a quantized repo → the model it quantizes
        ("Qwen/Qwen2.5-3B-Instruct-GPTQ-Int4", "qwen2.5-3b-instruct"),
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
        # a raw message key in the text means a message was not rendered — unless the input itself said it
        echoed = "answers.error" in json.dumps(data, ensure_ascii=False, default=str)
        for field, text in exc.problems_in("zh_CN"):  # every message exists in Chinese, fully rendered
            assert CJK.search(text) and (echoed or "answers.error" not in text), (field, text)
        # never pydantic's own English sentence: every kind of mistake has its own words
        assert all(p.key != "answers.error.other" for p in exc.issues), exc.issues
    else:
        assert isinstance(got, PlanAnswers)
        assert answers_from_dict(json.loads(got.model_dump_json())) == got  # round trip


@pytest.mark.parametrize("version", [2, 2.0, "2"])
def test_an_answers_file_from_a_newer_format_is_refused_however_the_number_is_written(version):
    """Found by the fuzz test: 2.0 and "2" passed the early integer check, were read as format 2, and the answers
    written back could not be read again."""
    with pytest.raises(AnswersError) as err:
        answers_from_dict({"model": "qwen2.5-7b-instruct", "schema_version": version})
    assert [p.key for p in err.value.issues] == ["answers.error.newer_format"]
