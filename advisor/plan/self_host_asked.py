"""The answers fix the self-hosted setup, so a hosted API of the same model never leads (s34-apilead34, issue 25).

Blind review 23: three memos opened on "Start on a hosted API" where the question itself was the self-hosted setup.
q11's product IS a paid token API: "start on a hosted API" is reselling, which the memo itself says many providers
forbid and which has the same margin problem. q35 asked for rented H20s for DeepSeek-V3; q42 asked which of three
China-market GPUs to run on. A reviewer: "keep the self-hosted plan as the main deliverable, the API as a cheaper
option to check". The fields that say so, not the scenarios:

- ``sells``: the service sells tokens (paid, ``use_case`` api): the self-hosted API is the product, its cost per
  token the margin; reselling another's API is at most a stopgap (the headline paragraph says its conditions);
- ``gpus``: the answers name the GPUs to run on (``gpu_constraint``), cards not already owned (owned cards are
  ``hosted_weigh``'s "owned" reason, decided before this): the question is which setup on them, not whether.

Where either holds, ``hosted_weigh.choice`` keeps this plan with the reason "asked" in place of "lead"/"lead_terms"
(the API's figures stay under the headline as the option to check); the deployment form, region and line are the
plan's, unchanged, so the bench's expected decisions stand.
"""

from __future__ import annotations

from typing import Any

# the kept headline's keys (``hosted_lead.start_with``) and the finding's reason clause (``hosted_weigh.keep_reason``)
KEPT_KEY = "apilead34.kept"
WHY_KEY = "apilead34.why"


def asked(f: Any) -> str | None:
    """"sells" (the product is a paid token API), "gpus" (the answers name the GPUs to rent or buy), or None."""
    c = f.ctx
    if c.charges and c.use_case == "api":
        return "sells"
    if c.gpu_constraint:
        return "gpus"
    return None


def gpu_names(f: Any) -> str:
    """The GPUs the answers name, as the catalog names them ("NVIDIA H20 96GB"; a list joined with " / ")."""
    from advisor.catalog import gpu_table

    names = {k: g.name for k, g in gpu_table().items()}
    return " / ".join(names.get(g, g) for g in (f.ctx.gpu_constraint or []))


def reason(f: Any) -> dict[str, Any] | None:
    """The clause the finding and the headline say the plan is kept for ("…{more}" as ``KEEP_REASONS``' are)."""
    kind = asked(f)
    if kind is None:
        return None
    many = kind == "gpus" and len(f.ctx.gpu_constraint or []) > 1
    return {"tr": f"{WHY_KEY}.{kind}{'.choice' if many else ''}", "more": "", "gpus": gpu_names(f)}


__all__ = ["KEPT_KEY", "WHY_KEY", "asked", "gpu_names", "reason"]
