"""One server within the budget put forward on page 1 as a choice (s31-bigctx32; blind review 20 and 20b, q10:
"the one-server option (8 GPUs, no spare and no headroom at 4 per replica, TTFT P99 24.7 s) should be put forward as
a real choice rather than buried in a warning"; "the single 8×H800 server … should lead").

The plan stays as the rules size it (the recommendation never depends on the budget, docs/plan.md "Budget"; a
production service for business customers keeps N+1), but where its cost straddles the budget and one server of the
same layout carries the peak within the target (``one_server_option``), the Decision prints that server as the
choice it is, under the headline: its month and its share within the budget against the plan's, the peak it carries
and its first token there (the plan's own latency curve at that load a replica), and what it gives up in numbers —
with the server down none of the peak is served (the plan: what its other servers carry), and its headroom above
the peak against the plan's. The budget finding then keeps its plain title on page 1 and in section 7 (the option
said once); the app and ``--json`` keep the finding whole.

Where the engine itself recommends the one server (a rented production plan whose spare server the budget does not
carry, ``spare_over_budget``; blind review 21), the paragraph is the other way round: the N+1 plan is the named
upgrade (``upgrade_paragraph``), with what the second server adds in numbers and when to add it; the single-point
finding then points to page 1 rather than saying the upgrade twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from advisor.plan import budget_fit43, budget_share, line_total
from advisor.plan.result import Finding, PlanResult, render
from advisor.sizing.accuracy import predictor_accuracy

FINDING = "cost.budget_straddles"
KEY = "bigctx32.one_server.choice"


def _option(result: PlanResult) -> Finding | None:
    return next((f for f in result.findings if f.id == FINDING and "one_gpus" in f.params), None)


def paragraph(result: PlanResult, lang: str) -> str:
    """Page 1's one-server paragraph, or "" where the budget finding offers no one-server option."""
    f = _option(result)
    cap, costs = result.capacity, result.costs
    total = line_total.judged_total(costs)
    c_max, replicas = cap.max_concurrency_per_replica, result.hardware.replicas
    if f is None or total is None or costs.budget_monthly is None or not c_max or not replicas or not cap.peak_concurrency:
        return ""
    p = f.params
    peak, one_replicas, per = cap.peak_concurrency, int(p["one_replicas"]), int(p["one_per"])
    at = next((x for x in result.latency_curve.points if x.concurrency == per), None)
    target = result.latency_curve.slo_ttft_p99_ms
    ttft = {"tr": "bigctx32.one_server.ttft", "s": f"{at.ttft_p99_ms / 1000:.1f}", "target": f"{target / 1000:g}"} \
        if at is not None and at.ttft_p99_ms is not None and target else ""
    return render(lang, KEY, {
        **p, "peak": peak, "ttft": ttft,
        "plan_pct": budget_share.percent(total.low, total.high, costs.budget_monthly),
        # with one server down: the plan's other servers' replicas at the most a replica takes within the target
        "plan_down": min(peak, max(0, replicas - one_replicas) * c_max),
        "one_headroom": f"{max(0.0, one_replicas * c_max / peak - 1) * 100:.0f}",
        "plan_headroom": f"{(cap.headroom or 0.0) * 100:.0f}",
    })


UPGRADE_KEY = "q10lead32.upgrade.choice"
LEAN_KEY = "longctx38_upgrade.choice"  # without this plan's headroom and first token, said on the risks line
POINT = "sizing.single_point"


def _upgrade(result: PlanResult) -> Finding | None:
    return next((f for f in result.findings if f.id == POINT and isinstance(f.params.get("verdict"), dict)
                 and f.params["verdict"].get("tr") in budget_fit43.UPGRADE), None)


def upgrade_paragraph(result: PlanResult, lang: str, lean: bool = False) -> str:
    """Page 1's upgrade paragraph of a plan that left its spare server out for the budget, or "" where it did not:
    the two servers' month and share within the budget against this plan's, the peak served with one down, the
    headroom, and when to add the second. ``lean``: page 1's risks line (``edge_risks38``) says this plan's headroom
    and first-token margin, so the paragraph leaves them out (said once)."""
    f = _upgrade(result)
    cap, costs = result.capacity, result.costs
    total = line_total.judged_total(costs)
    c_max, replicas, peak = cap.max_concurrency_per_replica, result.hardware.replicas, cap.peak_concurrency
    if f is None or total is None or costs.budget_monthly is None or not c_max or not replicas or not peak:
        return ""
    return render(lang, budget_fit43.key(LEAN_KEY if lean else UPGRADE_KEY, f.params["verdict"].get("fit_two")), {
        **f.params["verdict"], "peak": peak,
        "one_pct": budget_share.percent(total.low, total.high, costs.budget_monthly),
        # with one of the two servers down: this server's replicas at the most a replica takes within the target
        "down": _down(peak, min(peak, replicas * c_max)),
        "headroom": f"{max(0.0, 2 * replicas * c_max / peak - 1) * 100:.0f}",
        "one_headroom": f"{(cap.headroom or 0.0) * 100:.0f}",
        "ttft": thin_ttft(result),
    })


def _down(peak: int, down: int) -> dict[str, Any]:
    """What the remaining server serves with the other down: "all 8 of the peak", not "8 of the peak of 8" (review 26,
    q10 zh: "两台仍能处理峰值 8 个请求中的 8 个" read as garbled)."""
    if down >= peak:
        return {"tr": "q10gate_.down_all", "peak": peak}
    return {"tr": "q10gate_.down_some", "peak": peak, "down": down}


def thin_ttft(result: PlanResult) -> dict[str, Any] | str:
    """The led plan's predicted P99 first token at the peak where its margin under the target is less than the
    predictor's median first-token error in the load's regime (docs/predictor-accuracy.md; blind review 21, q10:
    "TTFT P99 is already 24.4 s … against a 30 s target, which leaves thin margin for the predictor's error"); ""
    where the margin is wider or a figure is missing."""
    cap, target = result.capacity, result.latency_curve.slo_ttft_p99_ms
    acc = predictor_accuracy()
    regime = cap.likely.regime if cap.likely is not None else "below_knee"
    at = acc.in_regime(regime) if acc is not None else None
    if acc is None or at is None or cap.ttft_p99_ms is None or not target or not at.ttft.n or cap.ttft_p99_ms > target:
        return ""
    margin = 1 - cap.ttft_p99_ms / target
    if margin >= at.ttft.median:
        return ""
    return {"tr": "headline33.ttft.thin", "s": f"{cap.ttft_p99_ms / 1000:.1f}", "target": f"{target / 1000:g}",
            "margin": f"{margin * 100:.0f}", "err": f"{at.ttft.median * 100:.0f}", "n": str(at.ttft.n)}


def upgrade_said_once(rendered: list[dict[str, Any]], findings: Sequence[Finding], lang: str, shown: str) -> None:
    """Where page 1 prints the upgrade paragraph, the single-point finding's detail in the memo points to it."""
    if not shown:
        return
    f = next((x for x in findings if x.id == POINT and x.params.get("verdict", {}) and
              isinstance(x.params["verdict"], dict) and x.params["verdict"].get("tr") in budget_fit43.UPGRADE), None)
    if f is None:
        return
    detail = render(lang, f.detail_key, {**f.params, "verdict": {"tr": "q10lead32.sp.upgrade_page1"}})
    for row in rendered:
        if row.get("id") == POINT and "detail" in row:
            row["detail"] = detail


def said_once(rendered: list[dict[str, Any]], findings: Sequence[Finding], why: list[dict[str, Any]],
              lang: str, shown: str) -> None:
    """Where ``shown`` (page 1's paragraph) is printed, the budget finding in the memo keeps its plain title (page 1's
    reason and section 7) and its plain detail with a pointer to page 1."""
    if not shown:
        return
    for f in findings:
        if f.id != FINDING or "one_gpus" not in f.params:
            continue
        title_key = budget_fit43.key("ownrent24.rule.cost.budget_straddles.most.title", f.params.get("fit")) \
            if "pct" in f.params or "fit" in f.params \
            else "plan.rule.cost.budget_straddles.title"
        title = render(lang, title_key, f.params)
        detail = render(lang, "bigctx32.one_server.detail", f.params)
        for row in (*rendered, *why):
            if row.get("id") == FINDING:
                row["title"] = title
                if "detail" in row:
                    row["detail"] = detail


__all__ = ["paragraph", "said_once", "upgrade_paragraph", "upgrade_said_once"]
