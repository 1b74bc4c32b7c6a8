"""A fine-tune whose checkpoint the answers do not give (q41): the serve command is still printed, loading a path
placeholder that names the fine-tune, never the base model's weights (which would serve the wrong model), and
serving it under a name the team can keep or change, so the test commands after it can be printed too.

The placeholder is a local path in angle brackets (``/models/<your fine-tune of Qwen2.5-7B-Instruct>``), quoted in
the command so a shell reads it as one argument; the memo says the path is theirs to fill in. The name is the base
model's repository name with ``-finetune`` (``qwen2.5-7b-instruct-finetune``): any name works as long as the serve
command and every client ask for the same one, so the plan proposes one and says it is theirs to change.
"""

from __future__ import annotations

from advisor.domain.model import ModelSpec


def _base_name(spec: ModelSpec) -> str:
    """The base model as its publisher names its repository (``Qwen2.5-7B-Instruct``), else its display name."""
    repo = (spec.hf_repo or "").rstrip("/")
    return repo.rsplit("/", 1)[-1] if repo else spec.name


def checkpoint_placeholder(spec: ModelSpec, label: str | None = None) -> str:
    """Where the fine-tune's weights are, to be filled in; ``label``: a format quantized ahead of time (the team's
    own quantized copy of the fine-tune)."""
    what = f"{label} checkpoint of your fine-tune" if label else "your fine-tune"
    return f"/models/<{what} of {_base_name(spec)}>"


def proposed_served_name(spec: ModelSpec) -> str:
    """The name to serve an unnamed fine-tune under (clients and the test commands ask for it)."""
    return f"{_base_name(spec).lower()}-finetune"


__all__ = ["checkpoint_placeholder", "proposed_served_name"]
