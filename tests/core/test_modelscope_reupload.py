"""A mainland node cannot reach Hugging Face. For presets whose publisher keeps no ModelScope mirror (Meta, Google,
Mistral, Microsoft), the serve command downloads ModelScope's re-upload, which the memo names as a re-upload to check
against the release; a command left on a Hugging Face id says how to bring the weights in (blind review, q10)."""

from __future__ import annotations

import json
from pathlib import Path

from advisor.catalog import modelscope_id, modelscope_reupload
from advisor.plan import answers_from_dict, make_plan
from advisor.plan.commands import hugging_face_only, reupload_in
from advisor.plan.memo import render_memo_markdown
from advisor.resources import resource_path

ROOT = Path(__file__).resolve().parents[2]
# LLaMA-Factory's download table (src/llamafactory/extras/constants.py @ff6d4d1, DownloadSource.MODELSCOPE) is where
# these ids come from; ModelScope's own organisations hold the re-uploads
REUPLOADERS = ("LLM-Research/", "AI-ModelScope/")


def _presets() -> dict[str, dict]:
    out = {}
    for path in sorted(resource_path("models").glob("*.json")):
        d = json.loads(path.read_text(encoding="utf-8"))
        if "id" in d:
            out[d["id"]] = d
    return out


def test_a_reupload_is_only_for_a_publisher_without_a_mirror_and_by_modelscopes_own_organisations():
    presets = _presets()
    with_reupload = {pid: p for pid, p in presets.items() if "modelscope_reupload" in p}
    assert {"llama-3.3-70b-instruct", "gemma-3-27b-it", "mistral-7b-instruct-v0.3"} <= set(with_reupload)
    for pid, p in with_reupload.items():
        assert modelscope_id(pid) is None, pid  # the publisher's own mirror wins where there is one
        assert p["modelscope_reupload"].startswith(REUPLOADERS), pid
        # the same model: the repository name matches the release's, but for Meta's renamed 3.1 repos
        release = p["hf_repo"].split("/")[1].lower()
        assert p["modelscope_reupload"].split("/")[1].lower().removeprefix("meta-") == release.removeprefix("meta-")
    assert modelscope_reupload("qwen2.5-7b-instruct") is None


def test_a_mainland_plan_of_a_llama_model_downloads_the_reupload_and_says_so():
    data = json.loads((ROOT / "bench" / "advice_scenarios" / "q10_128k_document_assistant.json").read_text("utf-8"))
    r = make_plan(answers_from_dict(data["answers"]))
    assert r.hardware.command.startswith("VLLM_USE_MODELSCOPE=True vllm serve LLM-Research/Llama-3.3-70B-Instruct ")
    assert "--served-model-name meta-llama/Llama-3.3-70B-Instruct" in r.hardware.command
    assert reupload_in(r.hardware.command) == ("LLM-Research/Llama-3.3-70B-Instruct", "meta-llama/Llama-3.3-70B-Instruct")
    en, zh = render_memo_markdown(r, "en"), render_memo_markdown(r, "zh_CN")
    assert "a re-upload" in en and "SHA-256" in en
    assert "转存版本" in zh and "SHA-256" in zh


def test_an_overseas_plan_keeps_the_hugging_face_release():
    data = json.loads((ROOT / "bench" / "advice_scenarios" / "q10_128k_document_assistant.json").read_text("utf-8"))
    answers = {**data["answers"], "user_location": "overseas"}
    answers.pop("mainland_carriers", None)
    r = make_plan(answers_from_dict(answers))
    if r.hardware.command:
        assert "LLM-Research" not in r.hardware.command and "VLLM_USE_MODELSCOPE" not in r.hardware.command
        assert "re-upload" not in render_memo_markdown(r, "en")


def test_a_hugging_face_id_on_a_mainland_node_is_flagged_and_a_local_path_is_not():
    assert hugging_face_only("vllm serve some-org/some-model --tensor-parallel-size 2", "mainland") == "some-org/some-model"
    assert hugging_face_only("vllm serve some-org/some-model --x 1", "hong_kong") is None
    assert hugging_face_only("vllm serve /data/ckpt --x 1", "mainland") is None
    assert hugging_face_only("VLLM_USE_MODELSCOPE=True vllm serve Qwen/Qwen2.5-7B-Instruct", "mainland") is None
