"""How many proposed tokens a target accepts, as published (issue #28, s26-spec28): the mean accepted length τ (tokens
a verification step yields, the target's own bonus token included) measured for a method on a model at a stated
number of proposed tokens K, low and high over the published data sets. Only pairs someone measured are here: a
draft model, an EAGLE head or n-gram on any other model has no acceptance we could state, so no speed-up is claimed
for them (advisor/sizing/speculative_speed.py then says what acceptance would pay instead).

Per-token acceptance α follows from τ by Leviathan et al. 2023 ("Fast Inference from Transformers via Speculative
Decoding", arXiv 2211.17192, §3.1: E[tokens a step] = (1 − α^(K+1)) / (1 − α)), which assumes every proposed
token is accepted with the same α. Measurements disagree with that assumption at K above what a drafter was trained
for (later positions are accepted less often), so α is read from the measurement at the user's K, or spans the two measured on either side of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from advisor.domain.model import ModelSpec
from advisor.domain.sizing import SpeculativeSettings

ALPHA_CEILING = 0.999  # α = 1 would make every proposal right; τ = K + 1 is the bisection's upper end


@dataclass(frozen=True)
class PublishedAcceptance:
    """τ measured for ``method`` on ``models`` (catalog ids) at ``k`` proposed tokens, over some data sets."""

    method: str
    models: tuple[str, ...]
    k: int
    tau_low: float
    tau_high: float
    drafter: str  # the head or module measured
    data: str  # data sets and sampling: the key of its words (speculative26_spec28.data.<key>)
    source: str  # where the figures are published


PUBLISHED: tuple[PublishedAcceptance, ...] = (
    # "Comparison with Public Checkpoints": MT-bench 2.77, HumanEval 3.49, GSM8K 3.34 (temperature 1, K = 7, with
    # rejection sampling)
    PublishedAcceptance("eagle3", ("llama-3.1-8b-instruct",), 7, 2.77, 3.49, "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                        "mtbench_humaneval_gsm8k_t1",
                        "nebius/EAGLE3-Llama-3.3-70B-Instruct model card (Hugging Face), 'Comparison with Public "
                        "Checkpoints'"),  # fmt: skip
    # same table: MT-bench 2.88, HumanEval 3.62, GSM8K 3.29
    PublishedAcceptance("eagle3", ("llama-3.3-70b-instruct",), 7, 2.88, 3.62, "RedHatAI/Llama-3.3-70B-Instruct-speculator.eagle3",
                        "mtbench_humaneval_gsm8k_t1",
                        "nebius/EAGLE3-Llama-3.3-70B-Instruct model card (Hugging Face), 'Comparison with Public "
                        "Checkpoints'"),  # fmt: skip
    # DeepSeek-V3 Technical Report (arXiv 2412.19437) §5.4.3: "the acceptance rate of the second token prediction
    # ranges between 85% and 90% across various generation topics" (one MTP token: τ = 1 + α)
    PublishedAcceptance("mtp", ("deepseek-v3",), 1, 1.85, 1.90, "DeepSeek-V3's MTP module",
                        "generation_topics", "DeepSeek-V3 Technical Report (arXiv 2412.19437), §5.4.3"),  # fmt: skip
    # the original MTP module reused for 7 positions: τ 3.20 at temperature 0, 3.09 at 1, averaged over MT-bench,
    # HumanEval and GSM8K (DeepSeek-V3-0324)
    PublishedAcceptance("mtp", ("deepseek-v3",), 7, 3.09, 3.20, "DeepSeek-V3-0324's original MTP module",
                        "mtbench_humaneval_gsm8k_mean_t0_t1",
                        "nebius/MTP-DeepSeek-V3-0324 model card (Hugging Face), 'Original MTP' row"),  # fmt: skip
)


def tokens_per_step(alpha: float, k: int) -> float:
    """Leviathan et al.'s expected tokens a verification step yields for per-token acceptance ``alpha`` and ``k``
    proposed tokens: (1 − α^(k+1)) / (1 − α), from 1 (nothing accepted) to k + 1 (everything)."""
    if alpha >= 1.0:
        return float(k + 1)
    return (1.0 - alpha ** (k + 1)) / (1.0 - alpha)


def alpha_for(tau: float, k: int) -> float:
    """The per-token acceptance α whose expected tokens a step at ``k`` proposed tokens is ``tau`` (bisection:
    tokens_per_step rises with α); τ at or below 1 gives 0, at or above k + 1 the ceiling."""
    if tau <= 1.0:
        return 0.0
    lo, hi = 0.0, ALPHA_CEILING
    if tau >= tokens_per_step(hi, k):
        return hi
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if tokens_per_step(mid, k) < tau else (lo, mid)
    return (lo + hi) / 2


def _names(model: ModelSpec) -> set[str]:
    """What a user's head or draft model is known by: its repository (a preset's) and its id (a preset's id, or the
    folder its config.json was read from, as a download into a folder named after the repository leaves it)."""
    return {n.casefold() for n in (model.hf_repo, model.id) if n}


def is_drafter(spec: SpeculativeSettings, row: PublishedAcceptance) -> bool:
    """Whether ``row`` measured the user's proposer: MTP is the target's own module; a head or draft model matches by
    the measured repository's full name or its last part (``yuhuili/EAGLE3-LLaMA3.1-Instruct-8B`` or
    ``EAGLE3-LLaMA3.1-Instruct-8B``)."""
    if spec.method == "mtp":
        return True
    if spec.draft_model is None:
        return False
    repo = row.drafter.casefold()
    return bool(_names(spec.draft_model) & {repo, repo.rsplit("/", 1)[-1]})


def other_drafters(spec: SpeculativeSettings, target: ModelSpec) -> tuple[str, ...]:
    """Heads whose acceptance for ``spec``'s method on ``target`` is published but which are not the user's: named
    where none of the user's own is, never used for it."""
    rows = [p for p in PUBLISHED if p.method == spec.method and target.id in p.models and not is_drafter(spec, p)]
    return tuple(dict.fromkeys(p.drafter for p in rows))


def published_acceptance(spec: SpeculativeSettings, target: ModelSpec) -> tuple[PublishedAcceptance, ...]:
    """The measurements α at ``spec``'s k is read from: the one at that k; where k lies between two measured k, the
    nearest on each side (α at k lies between theirs: later positions are accepted less often); else the nearest.
    Empty where nobody published one for this method, this target and this proposer (``is_drafter``): another
    head's figures, or a head's on another model, are not the user's."""
    rows = sorted((p for p in PUBLISHED if p.method == spec.method and target.id in p.models and is_drafter(spec, p)),
                  key=lambda p: p.k)  # fmt: skip
    k = spec.num_speculative_tokens
    if not rows:
        return ()
    exact = [p for p in rows if p.k == k]
    below, above = [p for p in rows if p.k < k], [p for p in rows if p.k > k]
    if exact:
        return (exact[0],)
    if below and above:
        return (below[-1], above[0])
    return ((below or above)[-1 if below else 0],)


def alpha_range(rows: tuple[PublishedAcceptance, ...]) -> tuple[float, float]:
    """The per-token acceptance the measurements span (each τ read at its own k)."""
    alphas = [alpha_for(t, p.k) for p in rows for t in (p.tau_low, p.tau_high)]
    return min(alphas), max(alphas)


__all__ = ["PUBLISHED", "PublishedAcceptance", "alpha_for", "alpha_range", "is_drafter", "other_drafters", "published_acceptance",
           "tokens_per_step"]
