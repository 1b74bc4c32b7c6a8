"""Property-based fuzzing of the files users hand the app: a Hugging Face config.json, a project file and the
user GPU file. Whatever the content, the outcome is a valid object or our own clear error type (whose message
names the file) — never another exception, a hang or a silently wrong number.

Inputs are mutations of real, valid documents (so the fuzzer reaches deep into validation rather than stopping
at "not JSON"), plus raw bytes. Values include what JSON parsers let through and ``int()`` quietly accepts:
NaN, ±Infinity, huge integers, booleans, fractions, strings, deep lists and objects.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.catalog import CatalogError, get_gpu, load_gpus, user_gpus_path
from advisor.domain.gpu import GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.project import Project
from advisor.model_import import ModelImportError, model_from_config
from advisor.project import ProjectFileError, load_project, project_to_json

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                          HealthCheck.too_slow])  # fmt: skip

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**6), max_value=10**6),
    st.integers(min_value=-(10**80), max_value=10**80),
    st.sampled_from([0, 1, -1, 2**31, 2**63, 10**20]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 28.5, 1e999, -1e999, float("nan")]),
    st.text(max_size=12),
    st.sampled_from(["28", "", "yarn", "linear", "gptq", "awq", "fp8", "sliding_attention", "full_attention"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5),
                            st.dictionaries(st.sampled_from(["factor", "type", "rope_type", "quant_method", "bits",
                                                             "group_size", "original_max_position_embeddings",
                                                             "weight_block_size", "include_usage"]), inner,
                                            max_size=4)),  # fmt: skip
    max_leaves=12,
)


def _deep(depth: int) -> str:
    """A marker that ``_dump`` turns into lists nested ``depth`` deep (kept as text until then: hypothesis
    cannot print a 3000-deep list when it reports a failure)."""
    return f"__DEEP_{depth}__"


def _mutations(base: dict[str, Any]) -> st.SearchStrategy[Any]:
    """``base`` with some keys replaced, added or removed (at the top level or one level down)."""
    keys = sorted(base)

    @st.composite
    def build(draw: st.DrawFn) -> Any:
        doc = json.loads(json.dumps(base))
        for key in draw(st.lists(st.sampled_from(keys), max_size=3)):
            doc.pop(key, None)
        for key, value in draw(st.dictionaries(st.sampled_from(keys), VALUES, max_size=4)).items():
            doc[key] = value
        nested = [k for k, v in doc.items() if isinstance(v, dict) and v]
        if nested and draw(st.booleans()):
            outer = draw(st.sampled_from(nested))
            inner = draw(st.sampled_from(sorted(doc[outer])))
            doc[outer] = dict(doc[outer], **{inner: draw(VALUES)})
        if draw(st.integers(0, 20)) == 0:
            doc[draw(st.sampled_from(keys))] = _deep(draw(st.sampled_from([70, 2000])))
        return doc

    return build()


def _dump(doc: Any) -> str:
    """JSON text as a careless tool would write it: NaN/Infinity literals included."""
    text = json.dumps(doc, allow_nan=True)
    for depth in (70, 2000, 3000):
        text = text.replace(f'"__DEEP_{depth}__"', "[" * depth + "]" * depth)
    return text


# ---------------------------------------------------------------------------------------------- config.json
QWEN_MOE = {
    "model_type": "qwen2_moe", "architectures": ["Qwen2MoeForCausalLM"], "hidden_size": 2048,
    "num_hidden_layers": 24, "num_attention_heads": 16, "num_key_value_heads": 16, "intermediate_size": 5632,
    "moe_intermediate_size": 1408, "num_experts": 60, "num_experts_per_tok": 4, "shared_expert_intermediate_size": 5632,
    "decoder_sparse_step": 1, "mlp_only_layers": [], "vocab_size": 151936, "max_position_embeddings": 8192,
    "sliding_window": 4096, "use_sliding_window": False, "max_window_layers": 21, "tie_word_embeddings": False,
    "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
    "quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 128},
}  # fmt: skip
DEEPSEEK = {
    "model_type": "deepseek_v3", "architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 7168,
    "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "intermediate_size": 18432,
    "moe_intermediate_size": 2048, "n_routed_experts": 256, "num_experts_per_tok": 8, "n_shared_experts": 1,
    "first_k_dense_replace": 3, "moe_layer_freq": 1, "q_lora_rank": 1536, "kv_lora_rank": 512,
    "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128, "vocab_size": 129280,
    "max_position_embeddings": 163840, "num_nextn_predict_layers": 1,
    "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]},
}  # fmt: skip
GEMMA3 = {
    "model_type": "gemma3_text", "hidden_size": 2560, "num_hidden_layers": 34, "num_attention_heads": 8,
    "num_key_value_heads": 4, "head_dim": 256, "intermediate_size": 10240, "vocab_size": 262208,
    "max_position_embeddings": 131072, "sliding_window": 1024, "sliding_window_pattern": 6,
    "layer_types": ["sliding_attention"] * 5 + ["full_attention"] + ["sliding_attention"] * 28,
}  # fmt: skip


def _check_model(result: ModelSpec) -> None:
    assert 1 <= result.num_layers <= 1024 and result.hidden_size > 0
    assert all(isinstance(getattr(result, f), int) and not isinstance(getattr(result, f), bool)
               for f in ("hidden_size", "num_layers", "num_attention_heads", "num_kv_heads", "vocab_size"))  # fmt: skip
    assert result.rope_scaling_factor is None or math.isfinite(result.rope_scaling_factor)


@FUZZ
@given(st.one_of(_mutations(QWEN_MOE), _mutations(DEEPSEEK), _mutations(GEMMA3)))
def test_config_import_from_a_dict(cfg):
    try:
        result = model_from_config(cfg)
    except ModelImportError as exc:
        assert str(exc)
        return
    _check_model(result)


@FUZZ
@given(st.one_of(_mutations(QWEN_MOE).map(_dump), _mutations(DEEPSEEK).map(_dump),
                 st.binary(max_size=200).map(lambda b: b"{" + b)))  # fmt: skip
def test_config_import_from_a_file(tmp_path, text):
    path = tmp_path / "config.json"
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    try:
        result = model_from_config(path)
    except ModelImportError as exc:
        assert str(path) in str(exc)
        return
    _check_model(result)


# ---------------------------------------------------------------------------------------------- projects
def _valid_project() -> dict[str, Any]:
    from advisor.catalog import get_model
    from advisor.domain.project import SizingSection
    from advisor.domain.sizing import SizingRequest

    request = SizingRequest(model=get_model("qwen2.5-7b-instruct"), gpu=get_gpu("rtx-4090"), weights="bf16",
                            kv_dtype="bf16", context=8192, concurrency=4)  # fmt: skip
    project = Project(title="t", sizing=SizingSection(request=request, result={"fits": True, "total_bytes": 1}))
    return json.loads(project_to_json(project))


PROJECT = _valid_project()


@st.composite
def _project_docs(draw: st.DrawFn) -> Any:
    doc = json.loads(json.dumps(PROJECT))
    section = draw(st.sampled_from(["top", "sizing", "request", "model", "gpu", "engine"]))
    target = {"top": doc, "sizing": doc["sizing"], "request": doc["sizing"]["request"],
              "model": doc["sizing"]["request"]["model"], "gpu": doc["sizing"]["request"]["gpu"],
              "engine": doc["sizing"]["request"].get("engine") or doc["sizing"]["request"]}[section]  # fmt: skip
    keys = sorted(target)
    for key, value in draw(st.dictionaries(st.sampled_from(keys), VALUES, min_size=1, max_size=3)).items():
        target[key] = value
    if draw(st.integers(0, 15)) == 0:
        target[draw(st.sampled_from(keys))] = _deep(draw(st.sampled_from([70, 3000])))
    return doc


@FUZZ
@given(st.one_of(_project_docs().map(_dump), st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
                 st.just('{"format": "inference-advisor-project", "version": ' + "7" * 5000 + "}")))  # fmt: skip
def test_project_load(tmp_path, text):
    path = tmp_path / "fuzz.advisor.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        project = load_project(path)
    except ProjectFileError as exc:
        assert str(path) in str(exc)
        return
    assert isinstance(project, Project)
    json.loads(project_to_json(project))  # what loaded can be saved and read back as strict JSON


def test_the_unmutated_project_loads(tmp_path):
    path = tmp_path / "ok.advisor.json"
    path.write_text(json.dumps(PROJECT), encoding="utf-8")
    assert load_project(path).sizing is not None


# ---------------------------------------------------------------------------------------------- user GPU file
GPU_ROW = GpuSpec(id="my-card-24g", name="My card", memory_bytes=24 * 1024**3, bandwidth_bytes_per_s=1.0e12,
                  bf16_tflops_dense=150.0, tdp_watts=300, source="notes").model_dump(mode="json")  # fmt: skip


@FUZZ
@given(st.one_of(st.lists(_mutations(GPU_ROW), min_size=1, max_size=3).map(_dump), st.binary(max_size=200).map(
    lambda b: b.decode("latin-1"))))  # fmt: skip
def test_user_gpu_file(text):
    path = user_gpus_path()
    Path(path).write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        gpus = load_gpus()
    except CatalogError as exc:
        assert str(path) in str(exc) and "user_gpus.json.bak" in str(exc)
        return
    for g in gpus:
        for field in ("bandwidth_bytes_per_s", "bf16_tflops_dense", "tdp_watts"):
            assert math.isfinite(getattr(g, field)) and getattr(g, field) > 0
        assert isinstance(g.memory_bytes, int) and not isinstance(g.memory_bytes, bool)


@FUZZ
@given(st.text(max_size=20))
def test_gpu_ids(text):
    try:
        get_gpu(text)
    except CatalogError as exc:
        assert "advisor gpus" in str(exc)
        return
    key = text.strip().lower()
    assert len(key) >= 2  # no one-character or empty text ever names a GPU


# ---------------------------------------------------------------------------------------------- datasets
ROW_KEYS = st.sampled_from(["prompt", "messages", "conversations", "max_tokens", "output_tokens", "role", "content",
                            "from", "value"])  # fmt: skip
ROWS = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(ROW_KEYS, inner, max_size=4)),
    max_leaves=10,
)


@FUZZ
@given(st.lists(ROWS, min_size=1, max_size=6), st.sampled_from(["jsonl", "json", "csv"]))
def test_dataset_rows(tmp_path, rows, kind):
    from advisor.bench.workload import WorkloadError, load_dataset

    path = tmp_path / f"prompts.{kind}"
    if kind == "jsonl":
        path.write_text("\n".join(_dump(r) for r in rows), encoding="utf-8")
    elif kind == "json":
        path.write_text(_dump(rows), encoding="utf-8")
    else:
        path.write_text("prompt,output_tokens\n" + "\n".join(f"{_dump(r)},{_dump(r)}" for r in rows), encoding="utf-8")
    try:
        prompts = load_dataset(path)
    except WorkloadError as exc:
        assert str(path) in str(exc)
        return
    for p in prompts:
        assert isinstance(p.max_tokens, int) and p.max_tokens >= 0
        assert isinstance(p.as_text(), str) and p.prompt_tokens >= 0
