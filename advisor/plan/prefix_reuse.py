"""Prefix reuse where prefill decides: the estimate counts no shared prompt start (#25, blind review 26: q06 "a
fixed instruction prefix ... the estimate is conservative", q10 "part of the TTFT argument, not an uncounted aside",
q23 "persona and world prefixes ... a TTFT lever").

The plan's step-cost model and simulator prefill every prompt in full: the questionnaire asks for no shared prefix
length, so the sizing runs with ``shared_prefix_tokens=0`` (advisor.sim.engine can model one, but the plan has no
figure to give it, and none is made up here). Where prefill is what the plan's own sizing reason names — a batch job
whose floor is prefill compute, or an interactive load whose first token waits on prefill (a long-prompt load's
"prefill is the limit on time to first token", or a plan sized by prefill compute, on its own or through the
time per output token) — and the use is one whose
prompts plausibly start the same way (one task's fixed instruction over a batch; the same document asked again, a
fixed system or persona prompt in an interactive service), the sizing sentence says that this is assumed away, that
prefix caching skips a shared start's prefill (vLLM: on by default in its V1 engine, the engine profile's
``prefix_caching_default``, source docs.vllm.ai design/prefix_caching; SGLang: RadixAttention), so the estimate is
conservative, and that it is measured with the real prompts.

Not said for an API (its callers' prompts are not known), off NVIDIA (vLLM-Ascend's and ROCm's defaults are not
checked here), or for a model with linear-attention layers (vLLM disables prefix caching for them, see
advisor.sizing.memory)."""

from __future__ import annotations

from typing import Any

from advisor.plan import sizing
from advisor.plan.context import Ctx
from advisor.plan.long_prompt import is_long_prompt
from advisor.plan.result import BindingConstraint
from advisor.sizing.memory import kv_layout

KEY = "prefix37_reuse"
# the sentence the clause follows: a long prompt's prefill time it qualifies (else it closes the paragraph: a batch's
# floor is followed by "the plan runs twice that", which must stay next to the replica count it doubles)
ANCHORS = ("plan.long_prompt.prefill",)


def _prefill_decides(out: BindingConstraint) -> bool:
    """The plan's sizing reason (or, under a budget, the reason that sized the plan) is prefill compute: its own
    kind, or decode bandwidth set by the prefill chunks that share the decode steps ("prefill compute decides,
    through the time per output token": the ``…_prefill`` variants)."""
    if out.kind == "budget":
        size = out.figures.get("size")
        key = str(size.get("tr", "")).removeprefix("plan.binding.") if isinstance(size, dict) else ""
    else:
        key = f"{out.kind}_{out.variant}"
    # not prefill_stretch.py's sentence after another reason (the replicas sized on the highest level predicted):
    # there prefill is said as a share, not as what decides the size
    return key.startswith("prefill_compute") or key.endswith("_prefill")


def _engine_caches(ctx: Ctx, ch: sizing.Candidate) -> bool:
    """The serving engine keeps a shared prompt start by default on this GPU and model."""
    profile = sizing.serving_profile(ctx)
    if profile.id not in ("vllm", "sglang") or not profile.prefix_caching_default or ch.gpu.vendor != "NVIDIA":
        return False
    return not kv_layout(ctx.model, ch.kv_dtype, ch.tp).linear_layers


def phrase(ctx: Ctx, ch: sizing.Candidate | None, out: BindingConstraint | None) -> dict[str, Any] | None:
    """The clause for ``out`` (None where it does not apply)."""
    if ch is None or out is None or out.variant == "none" or not _engine_caches(ctx, ch):
        return None
    if ctx.is_batch:
        why = "batch" if _prefill_decides(out) else ""
    elif ctx.use_case == "interactive":
        why = "document" if is_long_prompt(ctx) else "start" if _prefill_decides(out) else ""
    else:
        why = ""
    if not why:
        return None
    engine = "sglang" if sizing.serving_profile(ctx).id == "sglang" else "vllm"
    return {"tr": f"{KEY}.{why}", "how": {"tr": f"{KEY}.how.{engine}"}}


def with_phrase(then: list[dict[str, Any]], ctx: Ctx, ch: sizing.Candidate | None,
                out: BindingConstraint | None) -> list[dict[str, Any]]:
    """``then`` with the clause after the prefill figure it qualifies (at the end where there is none)."""
    said = phrase(ctx, ch, out)
    if said is None:
        return then
    at = next((i + 1 for i, p in enumerate(then) if isinstance(p, dict) and p.get("tr") in ANCHORS), len(then))
    return [*then[:at], said, *then[at:]]


def apply(out: BindingConstraint | None, ctx: Ctx, ch: sizing.Candidate | None) -> BindingConstraint | None:
    """``out`` with the clause where it applies (called after prefill_stretch.py has named a per-token limit that
    prefill sets)."""
    if out is None:
        return None
    then = with_phrase(out.then, ctx, ch, out)
    return out if then is out.then else out.model_copy(update={"then": then})


def said(out: BindingConstraint | None) -> bool:
    """Whether the sizing sentence already says prefix caching (the serve command's note then stays silent)."""
    return out is not None and any(isinstance(p, dict) and str(p.get("tr", "")).startswith(KEY) for p in out.then)


__all__ = ["apply", "phrase", "said", "with_phrase"]
