"""Every tensor-parallel size tried on an offline batch's GPU, and why the plan runs the one it runs (issue 25, blind
re-check 11b, q28: "a 1 × L20 replica holds only 14 sequences; the memo notes a TP2 replica holds 110, yet it never
costs 8 × TP2 against 16 × TP1").

The screen (``sizing.screen``) sizes every TP size and precision of a job on the same rate model (``batch_rate``:
the replicas that finish the requests within the deadline, setup and margin included), and the plan runs the one
that needs the fewest GPU-hours; nothing said which others it weighed. Here the chosen GPU's setups are listed as
the service's layout search lists its own (``LayoutSearch``): at the chosen precision for every TP size, and at the
chosen TP size for every other precision, each with its replicas, the requests a replica holds and finishes an hour.
A larger TP size holds more at once, but a job is judged by what a GPU finishes an hour: the memo says both.
"""

from __future__ import annotations

from advisor.plan import batch_kv, sizing
from advisor.plan.context import Ctx
from advisor.plan.layout_search import no_fit
from advisor.plan.result import LayoutSearch, LayoutTry, Outcome
from advisor.sizing import TP_DEGREES
from advisor.sizing.links import fast_link


def _per_hour(c: Ctx, k: sizing.Candidate) -> int:
    """Requests one replica finishes an hour at the job's steady rate (the screen's output tokens/s)."""
    return round(k.tokens_per_s_replica / max(1, c.output_avg) * 3600)


def _try(c: Ctx, k: sizing.Candidate, outcome: Outcome) -> LayoutTry:
    return LayoutTry(tp=k.tp, weights=k.weights, outcome=outcome, gpus=k.total_gpus, replicas=k.replicas,
                     seqs=k.c_max, requests_per_hour=_per_hour(c, k))


def search(c: Ctx, chosen: sizing.Candidate, ok: list[sizing.Candidate]) -> LayoutSearch | None:
    """The layouts tried on the chosen GPU of an offline batch (``chosen``: the screen's cheapest, before any
    doubling of its replicas), None for a service. Of a precision's KV-cache variants, the one that needs the fewest
    GPUs stands for it (the screen's own choice between them). A TP size past the first one that needs more GPUs
    than the chosen setup is said as "at least" (the memo leaves those to ``--json``)."""
    if not c.is_batch:
        return None
    gpu = chosen.gpu
    best: dict[tuple[str, int], sizing.Candidate] = {}
    for k in ok:
        if k.gpu.id != gpu.id:
            continue
        key = (k.weights, k.tp)
        if key not in best or k.total_gpus < best[key].total_gpus:
            best[key] = k
    best[(chosen.weights, chosen.tp)] = chosen
    tries: list[LayoutTry] = []
    more_past = False
    for weights, kv in sizing.allowed_formats(c, gpu):
        kv = "fp8" if batch_kv.fp8_kv_allowed(c, gpu) else kv
        for tp in TP_DEGREES:
            if tp > gpu.max_gpus_per_node:
                break
            if weights != chosen.weights and tp != chosen.tp:
                continue
            if c.model.num_attention_heads % tp:
                tries.append(LayoutTry(tp=tp, weights=weights, outcome="heads"))
                continue
            found = best.get((weights, tp))
            if found is chosen:
                tries.append(_try(c, found, "chosen"))
            elif found is not None:
                outcome: Outcome = "more" if more_past and weights == chosen.weights else "meets"
                tries.append(_try(c, found, outcome))
                more_past = more_past or (weights == chosen.weights and tp > chosen.tp
                                          and found.total_gpus > chosen.total_gpus)
            else:
                fit = no_fit(c, gpu, weights, kv, tp)
                if fit is not None:
                    tries.append(fit)
    tries.sort(key=lambda t: (t.weights != chosen.weights, t.tp))
    return LayoutSearch(gpu=gpu.id, gpu_name=gpu.name, tries=tries, pcie=not fast_link(gpu), batch=True)


__all__ = ["search"]
