"""A thin end-to-end first-token margin as a go/no-go gate, not a footnote (issue 25, blind review 34).

q43: "139 ms with the 45 ms round trip" against a 150 ms target, "predictor error band to 376 ms", and a new
connection's handshakes "another 24–90 ms": the reviewers asked for a P99 first token measured from Telecom, Unicom
and Mobile vantage points as the condition for signing the rent, as the first next step. q09 (an EU voice agent): the
server's 166 ms leaves 134 ms of the 300 ms for the network, TLS and the speech hand-off, with an error band to
663 ms: "a client-side TTFT measurement through the callers' path as a go-live gate".

Where the answers set a first-token target under a second (``latency_place.TIGHT_TTFT_MS``: the users' network is a
real share of it) and the plan runs its own GPUs, the gate holds when either

- the predicted P99 at the server plus the slowest round trip on file (``ttft_server42.round_trip_ms``) leaves less
  than ``SHARE`` (a quarter) of the target: what the figure leaves out — a reconnect's TCP and TLS handshakes (two
  round trips), an evening-peak route, a step before the model such as a speech-to-text hand-off — each takes tens of
  milliseconds, so under a quarter of a sub-second target one of them can use it all; or
- the top of the predictor's error band (``memo_likely.p99_high``, the band the capacity row prints), plus that
  round trip, passes the target: the prediction alone cannot say the target holds.

Then the step that starts one replica becomes the first step and measures the P99 first token end to end from the
users' networks before any commitment, and the feasibility row says "sign the rent only if" it stays under the
target. The sizing, the engine's ``feasible`` and the step's command are unchanged.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan import ttft_server42
from advisor.plan.latency_place import TIGHT_TTFT_MS
from advisor.plan.memo_likely import p99_high
from advisor.plan.result import NextStep, PlanResult, render

SHARE = 0.25  # under this share of the target left after the predicted server P99 and the round trip: a gate
KEY = "gt43.next.gate"
SERVE_KEY = "plan.next.serve"
_RENT_FORMS = ("cloud",)
_DECIDES_FIRST = ("api_tail",)  # steps that come before any money on a replica


def _target(result: PlanResult) -> float | None:
    a = result.answers or {}
    if a.get("use_case") == "offline_batch":
        return None
    slo = a.get("latency_slo") or {}
    given = slo.get("ttft_p99_ms")
    return float(given) if given and float(given) < TIGHT_TTFT_MS else None


def figures(result: PlanResult) -> dict[str, Any] | None:
    """The gate's figures (target, server P99, round trip, their sum, what is left, the error band's top with the
    round trip) where it holds; None elsewhere."""
    target = _target(result)
    if target is None or not result.feasible or result.deployment_form == "hosted_api":
        return None
    if result.start_with is not None and result.start_with.form == "hosted_api":  # an API leads: GPUs the fallback
        return None
    cap = result.capacity
    if cap is None or cap.ttft_p99_ms is None or cap.headroom_measured is not None:  # measured: no prediction to gate
        return None
    rtt = ttft_server42.round_trip_ms(result)
    p99 = float(cap.ttft_p99_ms)
    total = p99 + rtt
    if total > target:
        return None
    high = p99_high(float(cap.ttft_p50_ms), p99, cap.likely.ttft_ms) \
        if cap.ttft_p50_ms is not None and cap.likely is not None and cap.likely.ttft_ms else None
    band = high + rtt if high is not None else None
    left = target - total
    thin = left < SHARE * target
    past = band is not None and band > target
    if not (thin or past):
        return None
    # the band's top said as the capacity row says it, the server's (cons42.p99_band): one figure in the memo
    return {"target": round(target), "server": round(p99), "rtt": rtt, "sum": round(total), "left": round(left),
            "band": round(high) if high is not None and past else None}


def _where(result: PlanResult) -> dict[str, Any]:
    a = result.answers or {}
    if rtt_mainland(result):
        carriers = "telecom" if a.get("mainland_carriers") == "telecom" else "all"
        return {"tr": f"gt43.where.mainland.{carriers}"}
    return {"tr": "gt43.where.overseas"}


def rtt_mainland(result: PlanResult) -> bool:
    """Mainland users on the plan (the round trip on file is theirs, or the node is in the mainland)."""
    a = result.answers or {}
    loc = a.get("user_location") or "mainland"
    return loc in ("mainland", "mixed")


def commit_key(result: PlanResult) -> str:
    return "gt43.commit.rent" if result.deployment_form in _RENT_FORMS else "gt43.commit.buy"


def with_step(result: PlanResult) -> list[NextStep]:
    """``result.next_steps`` with the step that starts one replica turned into the measured go/no-go and put first
    (its command kept); unchanged where the gate does not hold or no such step starts a replica with a command."""
    steps = result.next_steps
    got = figures(result)
    at = next((i for i, s in enumerate(steps) if s.id == "serve" and s.key == SERVE_KEY and s.command), None)
    if got is None or at is None:
        return steps
    serve = steps[at]
    basis = {"tr": "gt43.basis." + ("rtt" if got["rtt"] else "server") + (".band" if got["band"] else ""),
             **{k: (f"{v:,}" if isinstance(v, int) else v) for k, v in got.items()}}
    params = {**serve.params, "commit": {"tr": commit_key(result)},
              "server_kind": {"tr": "gt43.trial." + ("rent" if result.deployment_form in _RENT_FORMS else "buy")},
              "where": _where(result), "target": f"{got['target']:,}", "basis": basis}
    gate = serve.model_copy(update={"key": KEY, "params": params})
    rest = [*steps[:at], *steps[at + 1:]]
    # first, but after a step that decides whether GPUs are rented at all (a hosted API timed against the tail it is
    # set aside for, ``api_tail``): no money on a replica before that answer (s36, review 25)
    first = next((i + 1 for i, s in enumerate(rest) if s.id in _DECIDES_FIRST), 0)
    return [*rest[:first], gate, *rest[first:]]


def step_number(result: PlanResult) -> int | None:
    return next((i for i, s in enumerate(result.next_steps, start=1) if s.key == KEY), None)


def applies(result: PlanResult) -> bool:
    """The plan's first step is the measured first-token gate."""
    return step_number(result) is not None


def feasible_text(result: PlanResult, lang: str, text: str) -> str:
    """The feasibility row with "sign the rent only if the P99 first token measured end to end … (next step 1)"."""
    n = step_number(result)
    if n is None:
        return text
    step = result.next_steps[n - 1]
    clause = render(lang, "gt43.feasible.sign", {"commit": {"tr": commit_key(result)},
                                                 "target": step.params["target"], "step": n})
    if text == translate(lang, "memo.yes"):
        return render(lang, "gt43.feasible.yes_sign", {"yes": text, "sign": clause})
    return text + clause


__all__ = ["KEY", "SHARE", "applies", "feasible_text", "figures", "step_number", "with_step"]
