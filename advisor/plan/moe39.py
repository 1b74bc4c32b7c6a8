"""A mixture-of-experts model among the smaller-model fixes (blind review 28, q29 zh: "before the boss chooses, add
a MoE option such as Qwen3-30B-A3B, whose prefill cost is near a 3B model's and whose quality is much closer to the
70B"; the only in-budget fix offered was a 17× smaller dense Qwen3 4B).

An MoE model reads only its routed experts for each token, so its compute a token (prefill's cost) is its active
parameters', while it holds its total parameters' weights: the smaller-model fixes, stepped down through dense
sizes (``smaller_models``), leave out the one kind of model that is cheap to run yet keeps more parameters. The
candidate is taken from the model's own family, else from the fallback families the dense steps use (Llama 3.3
70B → Qwen3), with fewer total parameters than the model asked for and at most a quarter of its active ones; the
largest such. Its quality is not known here: the fix says active and total, and the A/B the other sizes get."""

from __future__ import annotations

from advisor.domain.model import ModelSpec

# at most this share of the asked model's active parameters: an MoE that computes like a far smaller model
_ACTIVE_SHARE = 0.25


def billions(model: ModelSpec) -> tuple[float, float]:
    """(total, active) parameters in billions, from the catalog's config (``advisor.sizing.tensors``)."""
    from advisor.sizing.tensors import param_counts

    p = param_counts(model)
    return p.total / 1e9, p.active / 1e9


def is_sparse(model: ModelSpec) -> bool:
    """Whether ``model`` is a mixture of experts computing on fewer parameters than it holds."""
    if not model.is_moe:
        return False
    total, active = billions(model)
    return 0 < active < total


def moe_step_down(model: ModelSpec) -> ModelSpec | None:
    """The MoE preset a smaller-model fix offers beside the dense sizes, or None (none in the families searched)."""
    from advisor.catalog import get_model
    from advisor.plan.smaller_models import FALLBACK, _family_of, _presets

    if not model.hf_repo or _family_of(model.hf_repo) is None:
        return None
    total, active = billions(model)
    families: list[str] = []  # by family name without the variant: Qwen3-30B-A3B's "-a3b" is its active size
    for repo in (model.hf_repo, *(get_model(a).hf_repo or "" for a in FALLBACK)):
        fam = _family_of(repo)
        if fam is not None and fam[0] not in families:
            families.append(fam[0])
    for family in families:
        found = []
        for m in _presets():
            fam = _family_of(m.hf_repo) if m.hf_repo and m.checkpoint_quant is None else None
            if fam is None or fam[0] != family or m.id == model.id or not is_sparse(m):
                continue
            t, a = billions(m)
            if t < total and a <= _ACTIVE_SHARE * active:
                found.append((t, m))
        if found:
            return max(found, key=lambda x: x[0])[1]
    return None





QUALITY_ALONE = "moe39.alone_quality"


def alone_intro(alone: list, lang: str) -> str | None:
    """The heading over the one change that works alone where it is a far smaller dense model (its size clause
    graded "far weaker"): that it fits, and that answer quality is then the risk to test before choosing it (review
    28, q29: a 17× smaller model "should not be presented as 'the change that makes it feasible' without saying that
    quality is the real risk"); None otherwise (the usual heading)."""
    from advisor.i18n import translate

    if len(alone) != 1 or alone[0].id != "smaller_model":
        return None
    drop_ = alone[0].params.get("drop")
    if not isinstance(drop_, dict) or drop_.get("tr") != "plan.smaller27.drop_far":
        return None
    return translate(lang, QUALITY_ALONE)
__all__ = ["QUALITY_ALONE", "alone_intro", "billions", "is_sparse", "moe_step_down"]
