"""The plan's serve command as the team will type it: their fine-tuned model by its checkpoint and name, and, on a
mainland node, the publisher's ModelScope mirror instead of a Hugging Face path the node cannot reach.

``vllm serve`` takes the checkpoint (a local path or a repository id) as its model and serves it under
``--served-model-name``; ``VLLM_USE_MODELSCOPE=True`` makes vLLM download a repository id from ModelScope
(modelscope.cn) instead of Hugging Face. Only mirrors the preset files record (``modelscope_id``: the publisher's
own) are used; a repository with no known mirror keeps its Hugging Face id.
"""

from __future__ import annotations

import shlex
from functools import cache

from advisor.plan.context import Ctx
from advisor.plan.fine_tune_placeholder import checkpoint_argument, repository_id, shell_word
from advisor.plan.serve_engine import SGLANG_HEAD
from advisor.sizing.advice import ON_THE_FLY
from advisor.sizing.quant import get_format

MODELSCOPE_ENV = "VLLM_USE_MODELSCOPE=True "
MAINLAND_NODES = ("mainland", "mainland_plus_overseas")  # a mainland + overseas plan is sized on its mainland node


@cache
def _modelscope_by_repo() -> dict[str, str]:
    """Hugging Face repository id → the publisher's ModelScope id: the presets' mirrors and those of the published
    quantized checkpoints (``resources/models/quantized/modelscope.json``)."""
    from advisor.catalog import load_models, modelscope_id
    from advisor.resources import load_json

    out: dict[str, str] = {k: v for k, v in load_json("models", "quantized", "modelscope.json").items()
                           if not k.startswith("_")}  # fmt: skip
    for m in load_models():
        ms = modelscope_id(m.id)
        if m.hf_repo and ms:
            out[m.hf_repo] = ms
    return out


def modelscope_repo(repo: str) -> str | None:
    return _modelscope_by_repo().get(repo)


@cache
def _reupload_by_repo() -> dict[str, str]:
    """Hugging Face repository id → a ModelScope re-upload, for presets whose publisher keeps no mirror there."""
    from advisor.catalog import load_models, modelscope_reupload

    return {m.hf_repo: ms for m in load_models() if m.hf_repo and (ms := modelscope_reupload(m.id))}


def reupload_in(command: str | None) -> tuple[str, str] | None:
    """(the ModelScope re-upload, the Hugging Face release) when ``command`` downloads a re-upload, else None."""
    if command:
        command = next((command.removeprefix(env) for env in HEADS.values() if command.startswith(env)), command)
    parts = _split(command) if command else None
    if parts is None:
        return None
    model = parts[1]
    return next(((ms, hf) for hf, ms in _reupload_by_repo().items() if ms == model), None)


def hugging_face_only(command: str | None, region: str) -> str | None:
    """The Hugging Face id a mainland node's command would download although the node cannot reach Hugging Face
    (no mirror or re-upload is known): the memo says to bring the weights in another way. None otherwise."""
    parts = _split(command) if command else None  # a ModelScope command (env prefix) does not split: None
    if parts is None or region not in MAINLAND_NODES:
        return None
    model = parts[1]
    if model.startswith(("<", "/", ".", "~", "'", '"')) or "/" not in model or model.count("/") != 1:
        return None  # a local path or a placeholder: nothing is downloaded
    if modelscope_repo(model) or _reupload_by_repo().get(model):
        return None  # a copy is known (an old saved plan printed the Hugging Face id): not "no copy known"
    return model


def own_model_name(c: Ctx) -> str | None:
    """The team's own model as titles name it: its display name, else its checkpoint's last path part; None for a
    published model, or a fine-tune nobody named yet (the plan asks for the name)."""
    a = c.answers
    if not c.fine_tuned:
        return None
    if a.model_name:
        return a.model_name
    if a.checkpoint:
        return a.checkpoint.rstrip("/\\").replace("\\", "/").rsplit("/", 1)[-1] or a.checkpoint
    return None


# each engine's launch line before its model argument, and the environment setting that makes it download a
# repository id from ModelScope (SGLang's docs, "Use Models From ModelScope": SGLANG_USE_MODELSCOPE=true)
HEADS = {"vllm serve ": MODELSCOPE_ENV, SGLANG_HEAD: "SGLANG_USE_MODELSCOPE=true "}


def _split(cmd: str) -> tuple[str, str, str] | None:
    """(the launch words, the model argument, the flags) of a vLLM or SGLang command; None for any other command
    (one prefixed with an environment setting included)."""
    head = next((h for h in HEADS if cmd.startswith(h)), None)
    if head is None:
        return None
    rest = cmd[len(head):]
    model, sep, flags = rest.partition(" --")
    return head.strip(), model, (sep.strip() + flags) if sep else ""


def finish_serve_command(c: Ctx, cmd: str | None, region: str, weights: str | None = None) -> str | None:
    """The command with the team's checkpoint and model name (a fine-tune), or the ModelScope id on a mainland
    node (a published model); anything else unchanged. ``weights``: the plan's weight format (a format quantized
    ahead of time needs the team's own quantized checkpoint, never the publisher's quantized base model)."""
    if not cmd:
        return None
    parts = _split(cmd)
    if parts is None:
        return cmd
    head, model, flags = parts
    a = c.answers
    extra: list[str] = []
    env = ""
    if c.fine_tuned:
        # never the base model's weights (they would serve the wrong model): the team's checkpoint, else a shell
        # variable that stops the command until it is set (a next step sets it; q41, round 12)
        label = None
        if weights and weights not in ON_THE_FLY and weights != c.model.checkpoint_quant:
            label = get_format(weights).label  # to be quantized from the fine-tune
        if label or not a.checkpoint:
            model = checkpoint_argument(weights, label, a.checkpoint)
        elif region in MAINLAND_NODES and repository_id(a.checkpoint):
            # the team's own weights by a repository id: a mainland node cannot download it from Hugging Face, and
            # its own checkpoint need not come from abroad: the command loads a local copy (round 13, q30)
            model = checkpoint_argument(local_copy_of=a.checkpoint)
        else:
            model = shlex.quote(a.checkpoint)
        extra.append(f"--served-model-name {shell_word(c.served_name)}")
    else:
        ms = (modelscope_repo(model) or _reupload_by_repo().get(model)) if region in MAINLAND_NODES else None
        if ms:
            env = HEADS[head + " "]
            model = ms
        # vLLM serves under the model argument; clients (and the benchmark commands) ask for the name they know
        # (a published quantized checkpoint, a ModelScope id: not the name the plan's other commands use)
        if not model.startswith("<") and model != c.served_name:
            extra.append(f"--served-model-name {shlex.quote(c.served_name)}")
    return env + " ".join(p for p in (head, model, *extra, flags) if p)


__all__ = ["finish_serve_command", "hugging_face_only", "modelscope_repo", "own_model_name", "reupload_in"]
