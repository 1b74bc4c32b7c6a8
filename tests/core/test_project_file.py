"""Project files: round trip, atomic save, and clear errors for damaged, foreign or newer files."""

import json
import os
from pathlib import Path

import pytest

from advisor.domain.gpu import GiB, GpuSpec
from advisor.domain.model import ModelSpec
from advisor.domain.project import PROJECT_VERSION, Project, SizingSection
from advisor.domain.sizing import EngineSettings, SizingRequest
from advisor.project import NewerProjectError, ProjectFileError, load_project, save_project


def _request() -> SizingRequest:
    model = ModelSpec(
        id="tiny-llama", name="Tiny Llama", architecture="LlamaForCausalLM", family="llama", hidden_size=1024,
        num_layers=4, num_attention_heads=16, num_kv_heads=4, head_dim=64, intermediate_size=2816,
        vocab_size=32000, max_position_embeddings=8192,
    )  # fmt: skip
    gpu = GpuSpec(
        id="my-card", name="My Card 24GB", memory_bytes=24 * GiB, bandwidth_bytes_per_s=1.0e12,
        bf16_tflops_dense=165.0, tdp_watts=450, source="my notes", user_defined=True,
    )  # fmt: skip
    return SizingRequest(model=model, gpu=gpu, weights="awq-int4", kv_dtype="fp8", context=32768, concurrency=12,
                         engine=EngineSettings(gpu_memory_utilization=0.85))  # fmt: skip


def _project() -> Project:
    return Project(
        title="我的项目",
        sizing=SizingSection(request=_request(), model_source="imported", model_file="/x/config.json",
                             gpu_source="custom", result={"memory": {"fits": True}}),
    )  # fmt: skip


def test_round_trip_keeps_every_input(tmp_path):
    path = tmp_path / "p.advisor.json"
    saved = save_project(_project(), path)
    loaded = load_project(path)
    assert loaded == saved
    assert loaded.sizing.request == _request()
    assert loaded.sizing.request.engine.gpu_memory_utilization == 0.85
    assert loaded.sizing.gpu_source == "custom" and loaded.title == "我的项目"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "inference-advisor-project" and data["version"] == PROJECT_VERSION
    assert "我的项目" in path.read_text(encoding="utf-8")  # readable UTF-8, not \\u escapes


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path, monkeypatch):
    (tmp_path / "projects").mkdir()
    path = tmp_path / "projects" / "p.advisor.json"
    save_project(_project(), path)
    before = path.read_bytes()

    def boom(*_a, **_k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        save_project(_project().model_copy(update={"title": "changed"}), path)
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir()] == ["p.advisor.json"]


def _write(tmp_path, content) -> str:
    path = tmp_path / "x.advisor.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return str(path)


def test_truncated_file_names_the_line(tmp_path):
    save_project(_project(), tmp_path / "ok.advisor.json")
    text = (tmp_path / "ok.advisor.json").read_text(encoding="utf-8")
    with pytest.raises(ProjectFileError, match=r"damaged.*line \d+") as err:
        load_project(_write(tmp_path, text[: len(text) // 2]))
    assert not isinstance(err.value, NewerProjectError)


def test_newer_version_is_refused_with_update_advice(tmp_path):
    data = json.loads(json.dumps(_project().model_dump(mode="json")))
    data["version"] = PROJECT_VERSION + 1
    data["app_version"] = "9.0.0"
    data["sizing"]["something_new"] = 1
    with pytest.raises(NewerProjectError, match="newer version.*9.0.0.*update"):
        load_project(_write(tmp_path, json.dumps(data)))


@pytest.mark.parametrize(
    ("content", "pattern"),
    [
        ('{"hello": 1}', "not an Inference Advisor project"),
        ("[]", "not an Inference Advisor project"),
        (b"\xff\xfe\x00garbage", "not UTF-8"),
        ('{"format": "inference-advisor-project"}', "no valid format version"),
    ],
)
def test_foreign_or_damaged_files(tmp_path, content, pattern):
    with pytest.raises(ProjectFileError, match=pattern):
        load_project(_write(tmp_path, content))


def test_invalid_field_is_named(tmp_path):
    data = _project().model_dump(mode="json")
    data["sizing"]["request"]["concurrency"] = 0
    with pytest.raises(ProjectFileError, match=r"sizing\.request\.concurrency.*at least 1"):
        load_project(_write(tmp_path, json.dumps(data)))


def test_missing_file(tmp_path):
    with pytest.raises(ProjectFileError, match="does not exist"):
        load_project(tmp_path / "nope.advisor.json")


def _v1_file(tmp_path, engine: dict) -> Path:
    """A project as version 1 wrote it: the request whole, batch settings always filled in."""
    data = json.loads(Project(sizing=SizingSection(request=_request())).model_dump_json())
    data["version"] = 1
    data["sizing"]["request"]["engine"].update(engine)
    path = tmp_path / "old.advisor.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_version_1_defaults_become_the_engines_own(tmp_path):
    # version 1 stored 256 sequences / 8,192 tokens when the user left them alone; opened now, they are left open
    # again, so an H100 gets vLLM's 1,024 / 8,192 as a fresh project would
    loaded = load_project(_v1_file(tmp_path, {"max_num_seqs": 256, "max_num_batched_tokens": 8192}))
    engine = loaded.sizing.request.engine
    assert engine.max_num_seqs is None and engine.max_num_batched_tokens is None
    assert engine.gpu_memory_utilization == 0.85  # the rest is kept
    assert loaded.version == PROJECT_VERSION == 2


def test_version_1_settings_the_user_typed_are_kept(tmp_path):
    loaded = load_project(_v1_file(tmp_path, {"max_num_seqs": 64, "max_num_batched_tokens": 8192}))
    assert (loaded.sizing.request.engine.max_num_seqs, loaded.sizing.request.engine.max_num_batched_tokens) == (64, 8192)


def test_a_reopened_project_estimates_what_it_estimated_when_saved(tmp_path):
    # speed factors nobody chose are not written, so reading them back does not turn them into choices: the
    # linear layers keep the measured GEMM rate (a chosen MFU would replace it) and an engine switch after
    # reopening takes that engine's own fused-MoE kernel
    from advisor.catalog import get_gpu, get_model
    from advisor.sizing import size

    req = SizingRequest(model=get_model("qwen3-30b-a3b"), gpu=get_gpu("h100-sxm-80g"), context=8192)
    path = tmp_path / "p.advisor.json"
    save_project(Project(sizing=SizingSection(request=req)), path)
    reopened = load_project(path).sizing.request
    assert size(reopened).perf == size(req).perf
    as_sglang = {"engine_profile": "sglang"}
    assert size(reopened.model_copy(update=as_sglang)).perf == size(req.model_copy(update=as_sglang)).perf
    chosen = req.model_copy(update={"factors": req.factors.model_copy(update={"mfu": 0.4})})
    save_project(Project(sizing=SizingSection(request=chosen)), path)
    assert load_project(path).sizing.request.factors.model_fields_set == {"mfu"}  # a choice stays a choice


def test_version_1_factors_at_their_defaults_are_not_choices(tmp_path):
    every = {"mfu": 0.5, "mfu_range": [0.35, 0.65], "mbu": 0.75, "mbu_range": [0.6, 0.85], "step_overhead_ms": 1.0,
             "stream_token_us": 85.0, "tp_efficiency_nvlink": 0.9, "tp_efficiency_pcie": 0.7}  # fmt: skip
    path = _v1_file(tmp_path, {})
    data = json.loads(path.read_text(encoding="utf-8"))
    data["sizing"]["request"]["factors"] = every | {"mbu": 0.6}
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_project(path).sizing.request.factors.model_fields_set == {"mbu"}
