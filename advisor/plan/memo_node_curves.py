"""The latency table of each node besides the mainland one, in a plan of two nodes (q34, fifth blind review: "no
latency table for the Singapore node", which runs another GPU at another share of the peak).

The plan's own curve (section 3's first table) is the mainland node's; each other node's curve is predicted for one
of its replicas at its share of the peak and shown the same way: a column per level.
"""

from __future__ import annotations

import math

from advisor.i18n import translate
from advisor.plan.result import LatencyCurve, PlanResult


def no_curve_key(result: PlanResult) -> str:
    """Why section 3 has no table, for this plan only: an offline batch, a hosted API, or no setup that fits (one
    sentence said all three at once, and q06's batch read "a plan without GPUs of its own has nothing to predict")."""
    if (result.answers or {}).get("use_case") == "offline_batch":
        return "memo.node16.no_curve.batch"
    if result.deployment_form == "hosted_api":
        return "memo.node16.no_curve.hosted"
    return "memo.node16.no_curve.none"


def _num(v: float | int | None) -> str:
    if v is None:
        return "—"
    if isinstance(v, int) or abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.3g}"


def _table(curve: LatencyCurve, lang: str) -> str:
    t = lambda key: translate(lang, key)  # noqa: E731 - a short alias for the table's labels
    pts = curve.points
    rows = [
        "| " + t("memo.latency.c") + " |" + "".join(f" {p.concurrency:,} |" for p in pts),
        "|---|" + "---:|" * len(pts),
        "| " + t("memo.latency.ttft") + " |" + "".join(f" {_num(p.ttft_p99_ms)} |" for p in pts),
        "| " + t("memo.latency.tpot") + " |" + "".join(f" {_num(p.tpot_p99_ms)} |" for p in pts),
        "| " + t("memo.latency.tps") + " |" + "".join(f" {_num(p.output_tokens_per_s)} |" for p in pts),
    ]
    return "\n".join(rows)


def main_label(result: PlanResult, lang: str) -> str:
    """"Mainland node:" before the plan's own table when another node's table follows; "" otherwise."""
    if not blocks(result, lang):
        return ""
    return translate(lang, "memo.node16.curve_main")


def blocks(result: PlanResult, lang: str) -> list[str]:
    """Each other node's table with the line that names it: its GPU, its share of the peak, its knee."""
    out = []
    for node in result.nodes:
        curve = node.latency_curve
        if node.region == "mainland" or curve is None or not curve.points:
            continue
        where = translate(lang, "plan.node.overseas", region=translate(lang, f"plan.region.{node.region}"))
        per = curve.operating_concurrency or 0
        key, more = "memo.node16.curve_other", {}
        up = node.replicas
        spare = node.spare_units * max(1, node.unit_gpus // max(1, node.tp))  # the spare's replicas
        if spare == 1 and up > 1 and node.peak and per == math.ceil(node.peak / up):
            # the load per replica with the spare up, and with one down (blind review 34, q34: "6 concurrent at the
            # node's peak of 24" on 4 replicas read against "one spare on each node")
            key, more = "np43.curve_other", {"replicas": up, "load": up - 1, "down": math.ceil(node.peak / (up - 1))}
        head = translate(lang, key, where=where, gpu=node.gpu_name, tp=node.tp, weights=node.weights, per=per,
                         peak=node.peak, **more)
        if curve.knee_concurrency:
            head += ("" if lang == "zh_CN" else " ") + translate(lang, "memo.latency.knee", c=curve.knee_concurrency)
        out.append(head + "\n\n" + _table(curve, lang))
    return out
