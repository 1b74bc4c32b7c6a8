"""What a smaller-model fix costs in answer quality, said beside it (blind review 17, q40: "the 'Qwen2.5-3B on 2 × A10'
fix is offered with no warning that it is a huge quality drop from 72B"; q29: "jumping from Llama-70B to Qwen2.5-7B
is a big quality change with no warning"): the parameter counts of both models, from the catalog's configs
(``advisor.sizing.tensors``), and on the first such fix the A/B the app already runs (``advisor ab``) to compare
their answers on the user's own prompts before choosing one."""

from __future__ import annotations

from typing import Any

from advisor.domain.model import ModelSpec

# from this ratio of parameters down, "far weaker" rather than "weaker" (72B → 14B, 70B → 8B; 72B → 32B is "weaker")
_FAR = 4.0
# the least ratio of published sizes that makes a "size up" between the model asked for and a far weaker one that
# meets the target (7B → 14B; an 8B beside a 7B is the same size class)
SIZE_STEP = 1.5


def _billions(model: ModelSpec) -> float:
    from advisor.sizing.tensors import param_counts

    return param_counts(model).total / 1e9


def _size(b: float) -> str:
    return f"{b:,.0f}B" if b >= 100 else f"{b:.1f}B"


def far_weaker(current: ModelSpec, smaller: ModelSpec) -> bool:
    """Whether ``smaller`` has at most a quarter of ``current``'s parameters ("far weaker" in the fix's words)."""
    small = _billions(smaller)
    return small > 0 and _billions(current) / small >= _FAR


def _moe_drop(current: ModelSpec, smaller: ModelSpec) -> dict[str, Any]:
    """The size clause of an MoE fix (s37-moe, review 28 q29): both totals and the active parameters a token."""
    from advisor.plan import moe39

    big, _ = moe39.billions(current)
    small, active = moe39.billions(smaller)
    # graded on the totals as the dense sizes are: its quality against the model asked for is not known here
    grade = "moe39_grade.far" if far_weaker(current, smaller) else "moe39_grade.near"
    return {"tr": "moe39.drop", "big": _size(big), "small": _size(small), "active": _size(active),
            "grade": {"tr": grade}}


def size_drop(current: ModelSpec, smaller: ModelSpec) -> dict[str, Any]:
    """The clause naming both parameter counts and how much weaker that likely makes the smaller model."""
    from advisor.plan import moe39

    if moe39.is_sparse(smaller) and not moe39.is_sparse(current):  # active beside total (review 28, q29)
        return _moe_drop(current, smaller)
    big, small = _billions(current), _billions(smaller)
    far = far_weaker(current, smaller)
    return {
        "tr": "plan.smaller27.drop_far" if far else "plan.smaller27.drop",
        "big": _size(big),
        "small": _size(small),
    }


def ab_pointer(current: ModelSpec) -> dict[str, Any]:
    return {"tr": "plan.smaller27.ab", "model": current.name}


def point_first_at_ab(fixes: list, *, said: bool = False) -> list:
    """``fixes`` in their shown order with the A/B pointer kept on the first smaller-model fix only (said once for
    the list; each fix keeps its own size clause)."""
    out = []
    for fix in fixes:
        if fix.id == "smaller_model" and fix.params.get("ab"):
            if said:
                fix = fix.model_copy(update={"params": {**fix.params, "ab": ""}})
            said = True
        out.append(fix)
    return out


__all__ = ["SIZE_STEP", "ab_pointer", "far_weaker", "point_first_at_ab", "size_drop"]
