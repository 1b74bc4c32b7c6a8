"""Self-hosting kept only because the answers name the GPUs: said as the cost it is, and one reason throughout (api43,
blind review 34).

Page 1 said "you asked to run on NVIDIA H20 96GB, so the answer is the self-hosted setup on it; that question, not
the cost, is the only reason for it" under "Your decision — a hosted API or running it yourselves", beside an API at
a small fraction of the cost (q42: "reads to a boss as spending 20x for nothing"; zh: "tell the boss plainly that
self-hosting costs about 20–200× more and needs a stated reason such as control, latency or data terms"). The
paragraph now says the multiple (the plan's month over the API's, ``fair35_lead.times``) and that self-hosting needs
a reason the team states (control of the service, data terms, rate limits, a pinned model version).

Section 7 said the other thing (q35 en: "Page 1 says 'that question, not the cost, is the only reason'. Section 7
says it is because the service must stay on the company's own network. Pick one."): where the plan is kept because
the GPUs were asked for, the finding's "The plan runs its own GPUs only because {why}" says the question first and
the answers' other reasons as what they are, no bar to an API (``detail_key``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import fair35_lead
from advisor.plan.self_host_asked import gpu_names

KEY = "api43.kept.gpus"
ASKED = "api43.asked"
# the hosted-API finding's detail keys whose "only because {why}" the question replaces
DETAILS = {"plan.rule.cost.hosted_weighed.gap.alternative.detail": "plan.rule.cost.hosted_weighed.api43.asked.detail",
           "plan.rule.cost.hosted_weighed.gap.alternative.proxied.detail":
               "plan.rule.cost.hosted_weighed.api43.asked.proxied.detail"}


def params(f: Any, plan_low: float, plan_high: float, hosted_low: float, hosted_high: float) -> dict[str, Any]:
    """The paragraph's ``asked`` clause (one GPU named, or a choice among several) and ``times`` (the multiple)."""
    names = f.ctx.gpu_constraint or []
    from_key = f"{ASKED}.{'choice' if len(names) > 1 else 'one'}"
    return {"asked": {"tr": from_key, "gpus": gpu_names(f)},
            "times": fair35_lead.times(hosted_low, hosted_high, plan_low, plan_high)}


def detail_key(key: str, asked: str | None) -> str:
    """The finding's detail key where the plan is kept because the GPUs were asked for (``asked`` is
    ``self_host_asked.asked``'s "gpus"); ``key`` elsewhere."""
    return DETAILS.get(key, key) if asked == "gpus" else key


__all__ = ["ASKED", "DETAILS", "KEY", "detail_key", "params"]
