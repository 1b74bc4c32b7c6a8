"""Every JSON the app reads goes through one strict, bounded loader: NaN, Infinity, huge numbers, deep nesting,
huge files and broken text are clear errors naming the file, never a traceback or a wrong number."""

from __future__ import annotations

import json

import pytest

from advisor.model_import import ModelImportError, model_from_config
from advisor.project import ProjectFileError, load_project
from advisor.safe_json import MAX_DEPTH, JsonInputError, load_json_file, loads
from advisor.settings import Settings, load_settings, save_settings

DEEP = "[" * 100_000 + "]" * 100_000  # json.loads alone: RecursionError


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ('{"a": NaN}', "non_finite"),
        ('{"a": Infinity}', "non_finite"),
        ('{"a": -Infinity}', "non_finite"),
        ('{"a": 1e999}', "non_finite"),
        ('{"version": ' + "9" * 5000 + "}", "big_number"),  # json.loads alone: ValueError (int digit limit)
        (DEEP, "too_deep"),
        ('{"a": [1, 2', "syntax"),
        (b'{"a": "\xff"}', "not_text"),
    ],
)
def test_loads_refuses_with_a_kind_and_a_sentence(text, kind):
    with pytest.raises(JsonInputError) as err:
        loads(text, source="thing.json")
    assert err.value.kind == kind
    assert str(err.value).startswith("thing.json ")


def test_loads_accepts_ordinary_json_and_brackets_inside_strings():
    assert loads('{"a": [1, 2.5, "[[[[", {"b": null}], "c": true}') == {"a": [1, 2.5, "[[[[", {"b": None}], "c": True}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(nested) is not None  # exactly at the limit is fine
    assert loads(b"\xef\xbb\xbf{}") == {}  # a UTF-8 BOM (Windows Notepad) is fine
    escaped = json.dumps({"s": 'quote " and backslash \\ ' + "[" * 200})
    assert loads(escaped)["s"].endswith("[" * 200)


def test_load_json_file_bounds(tmp_path):
    big = tmp_path / "big.json"
    big.write_bytes(b"[" + b"0," * 1000 + b"0]")
    with pytest.raises(JsonInputError, match="too large") as err:
        load_json_file(big, max_bytes=100)
    assert err.value.kind == "too_big"
    with pytest.raises(JsonInputError, match="is a folder"):
        load_json_file(tmp_path)
    with pytest.raises(JsonInputError, match="does not exist"):
        load_json_file(tmp_path / "nope.json")


# ---------------------------------------------------------------------------------------------- config.json
QWEN = {
    "model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 3584, "num_hidden_layers": 28,
    "num_attention_heads": 28, "num_key_value_heads": 4, "intermediate_size": 18944, "vocab_size": 152064,
    "max_position_embeddings": 32768, "tie_word_embeddings": False,
}  # fmt: skip


def test_a_real_shape_still_imports():
    assert model_from_config(dict(QWEN)).num_layers == 28


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("num_hidden_layers", True, "num_hidden_layers must be a whole number"),  # was 1 layer
        ("num_hidden_layers", 28.5, "num_hidden_layers must be a whole number"),  # was 28
        ("num_hidden_layers", "28", "num_hidden_layers must be a whole number"),
        ("hidden_size", float("nan"), "hidden_size must be a whole number"),
        ("num_hidden_layers", 10**40, "num_hidden_layers is 1"),  # would build a 10**40-long layer list
        ("num_key_value_heads", -4, "outside the possible range"),
        ("layer_types", "sliding", "layer_types must be a list"),
        ("tie_word_embeddings", "false", "tie_word_embeddings must be true or false"),  # bool("false") is True
        ("attention_bias", 2, "attention_bias must be true or false"),
    ],
)
def test_config_values_are_strict(field, value, words):
    cfg = dict(QWEN, **{field: value})
    with pytest.raises(ModelImportError, match=words):
        model_from_config(cfg)


def test_config_file_problems_name_the_file(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps(QWEN).replace("3584", "NaN"), encoding="utf-8")
    with pytest.raises(ModelImportError, match=r"config\.json contains NaN"):
        model_from_config(path)
    path.write_text('{"model_type": "qwen2", "x": ' + "[" * 5000 + "]" * 5000 + "}", encoding="utf-8")
    with pytest.raises(ModelImportError, match="levels deep"):
        model_from_config(path)
    path.write_text(json.dumps(dict(QWEN, num_hidden_layers=True)), encoding="utf-8")
    with pytest.raises(ModelImportError) as err:
        model_from_config(path)
    assert str(tmp_path) in str(err.value) and "num_hidden_layers" in str(err.value)


def test_deep_values_in_a_dict_config_are_import_errors():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    for field in ("num_hidden_layers", "layer_types", "rope_scaling", "mlp_only_layers"):
        with pytest.raises(ModelImportError):
            model_from_config(dict(QWEN, model_type="qwen2_moe", num_experts=4, moe_intermediate_size=8,
                                   num_experts_per_tok=2, **{field: deep}))  # fmt: skip


def test_unexpected_shapes_are_import_errors():
    for cfg in (dict(QWEN, quantization_config={"quant_method": "gptq", "bits": 4, "group_size": "x"}), dict(QWEN, rope_scaling={"type": "yarn", "factor": "big"}),
                dict(QWEN, model_type="qwen2_moe", num_experts=4, mlp_only_layers="all")):  # fmt: skip
        with pytest.raises(ModelImportError):
            model_from_config(cfg)


# ---------------------------------------------------------------------------------------------- projects
def test_project_with_a_5000_digit_version_is_a_clear_error(tmp_path):
    path = tmp_path / "p.advisor.json"
    path.write_text('{"format": "inference-advisor-project", "version": ' + "1" * 5000 + "}", encoding="utf-8")
    with pytest.raises(ProjectFileError, match=r"p\.advisor\.json is damaged.*5000 digits"):
        load_project(path)


@pytest.mark.parametrize(
    "body",
    [
        '{"format": "inference-advisor-project", "version": 1, "notes": ' + "[" * 3000 + "]" * 3000 + "}",
        '{"format": "inference-advisor-project", "version": 1, "title": NaN}',
    ],
)
def test_project_nesting_and_nan_are_clear_errors(tmp_path, body):
    path = tmp_path / "p.advisor.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ProjectFileError, match="is damaged"):
        load_project(path)


def test_project_that_is_a_folder(tmp_path):
    folder = tmp_path / "x.advisor.json"
    folder.mkdir()
    with pytest.raises(ProjectFileError, match="folder"):
        load_project(folder)


# ---------------------------------------------------------------------------------------------- settings
@pytest.mark.parametrize("body", ['{"schema_version": 2, "recent_projects": ' + "[" * 5000 + "]" * 5000 + "}",
                                  '{"schema_version": ' + "2" * 5000 + "}", '{"schema_version": 2, "x": Infinity}'])
def test_damaged_settings_are_set_aside_not_a_crash(tmp_path, body):
    path = tmp_path / "settings.json"
    path.write_text(body, encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings == Settings()
    assert loaded.problem and "could not be used" in loaded.problem
    assert not path.exists() and list(tmp_path.glob("settings.json.*.bak"))
    save_settings(Settings(language="zh_CN"), path)
    assert load_settings(path).settings.language == "zh_CN"


def test_project_booleans_are_not_numbers(tmp_path):
    from advisor.catalog import get_gpu, get_model
    from advisor.domain.project import Project, SizingSection
    from advisor.domain.sizing import SizingRequest
    from advisor.project import project_to_json

    request = SizingRequest(model=get_model("qwen3-8b"), gpu=get_gpu("l40s"), weights="bf16", kv_dtype="bf16",
                            context=8192, concurrency=4)  # fmt: skip
    doc = json.loads(project_to_json(Project(sizing=SizingSection(request=request))))
    path = tmp_path / "p.advisor.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert load_project(path).sizing.request.concurrency == 4
    doc["sizing"]["request"]["concurrency"] = True
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ProjectFileError, match=r"sizing\.request\.concurrency"):
        load_project(path)


def test_settings_booleans_are_not_numbers(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text('{"schema_version": 2, "sizing_defaults": {"concurrency": true}}', encoding="utf-8")
    loaded = load_settings(path)
    assert loaded.settings.sizing_defaults.concurrency == 8 and "concurrency" in (loaded.problem or "")


def test_model_argument_that_is_empty_or_a_folder(tmp_path):
    from advisor.catalog import CatalogError, resolve_model

    (tmp_path / "config.json").write_text("{}", encoding="utf-8")
    with pytest.raises(CatalogError, match="no model given"):
        resolve_model("  ")
    empty = tmp_path / "empty-folder"
    empty.mkdir()
    with pytest.raises(ModelImportError, match="folder without a config.json"):
        resolve_model(str(empty))
