"""The step before the serve step of a fine-tune whose checkpoint the answers do not give (q41, round 12: "the memo
should block on it"): export the fine-tune as one merged checkpoint and set the shell variable the serve command
reads (``fine_tune_placeholder``), or, for a format quantized ahead of time, quantize that merged copy and set the
format's own variable; or, on a mainland node, copy the team's checkpoint given as a repository id to the server
and set the variable to that folder (round 13, q30). The command stops until the variable is set; this step says
what to put in it.

The plan was sized for merged weights (the base model's size): serving a LoRA adapter on the base model instead is
each engine's own flags (vLLM ``--enable-lora --lora-modules NAME=PATH``, SGLang ``--lora-paths NAME=PATH``), named
so the team knows the other way exists, not sized here.
"""

from __future__ import annotations

from advisor.plan.fine_tune_placeholder import FINETUNE_VAR, local_copy_in, variable_in
from advisor.plan.result import NextStep
from advisor.plan.serve_engine import SGLANG_HEAD
from advisor.sizing.quant import get_format

STEP_ID = "finetune_checkpoint"
_LORA_FLAGS = {"vllm": "--enable-lora --lora-modules NAME=PATH", "sglang": "--lora-paths NAME=PATH"}


def checkpoint_step(command: str | None, weights: str | None) -> NextStep | None:
    """The step that sets the checkpoint variable ``command`` reads, or None (the command names its checkpoint)."""
    var = variable_in(command)
    if var is None or command is None:
        return None
    engine = "sglang" if SGLANG_HEAD in command else "vllm"
    repo = local_copy_in(command)
    if repo is not None:  # the team's checkpoint by a repository id, on a mainland node: copied in first (q30)
        return NextStep(id=STEP_ID, key="models24.next.copy_checkpoint", params={"var": var, "repo": repo})
    if var == FINETUNE_VAR or not weights:
        return NextStep(id=STEP_ID, key="finetune23.next.set_checkpoint",
                        params={"var": var, "lora": _LORA_FLAGS[engine]})  # fmt: skip
    return NextStep(id=STEP_ID, key="finetune23.next.set_quantized_checkpoint",
                    params={"var": var, "format": get_format(weights).label})  # fmt: skip


__all__ = ["STEP_ID", "checkpoint_step"]
