"""Page 1 under a hosted-API lead: the reasons that hold on either path apart from the fallback's own (s36-apiplace,
issue 25; blind review 27: q12 en "the four 'fallback' reasons apply to the API path too", q13 en the same).

Under an API lead page 1 listed the self-hosted plan's deciding findings under "The fallback … What decides it:".
Most of them are about where the service runs and what the law asks of its data (no mainland entity, the standard
contract, the impact assessment, "mainland users are served from Hong Kong", the line): the API path's host sits in
the same region on the same line and sends the same prompts, so those hold on the API path too, and listing them as
the fallback's read as if the API escaped them. So the findings split by what they are about (their rule's family,
the id's first part): the region, the line and the compliance families hold on either path and are listed as such;
sizing, cost, GPU supply, scaling, procurement, operations, latency and the model's weights are the self-hosted
plan's own and stay under its label. A family not named here stays the fallback's, as before (nothing is said to
hold on the API path without a reason to).

The fallback's GPUs leave page 1's Hardware row (q16 en: "a newcomer will read it as part of the plan") and are
said in the fallback's own line (``gpus``), short: section 2 has the layout.
"""

from __future__ import annotations

from typing import Any

from advisor.plan.result import render

# the rule families (finding id's first part) about where the service runs and what the law asks of its data: the
# API path's host and prompts are under the same (``rules.py``'s @rule ids)
EITHER_PATH = ("pi", "genai", "icp", "fin", "region", "line", "med", "eu", "edu", "mlps", "minors", "labour",
               "confidentiality")


def holds_on_either(reason: dict[str, Any]) -> bool:
    """A page-1 reason (``id``: its finding's id) about the region, the line or compliance."""
    return str(reason.get("id", "")).split(".", 1)[0] in EITHER_PATH


def split(why: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the reasons that hold on either path, the self-hosted fallback's own), each in page 1's order."""
    return [r for r in why if holds_on_either(r)], [r for r in why if not holds_on_either(r)]


def gpus(result: Any, lang: str) -> str:
    """The fallback's GPUs in short ("2 × NVIDIA L40S 48GB, weights in fp8"): its line on page 1 names them."""
    hw = result.hardware
    if not hw.gpu:
        return ""
    return render(lang, "apipage35.key.self_short", {"total": hw.total_gpus, "gpu": hw.gpu_name or hw.gpu,
                                                      "weights": hw.weights or "—"})


RENT = "cost.rent"
RENT_WHY = {"upper": "owner39_rent.upper", "tokens": "owner39_rent.below", "lead": "owner39_rent.below"}


def with_rent_why(own: list[dict[str, Any]], result: Any, lang: str) -> list[dict[str, Any]]:
    """The fallback's own reasons, its "Rent cloud GPUs" reason with why not buy said after it (s37-owner, blind
    review 28, q24 en: "the rent-versus-own reasoning ('~36 % ... below the ~56 % where owning beats renting')
    appears only under the fallback" in section 7): the share used against the share where owning pays, the rent
    finding's own figures (``rent_breakeven.lead``); unchanged where that finding gives no such reason."""
    f = next((x for x in result.findings if x.id == RENT), None)
    lead = (f.params.get("lead") if f is not None else None) or {}
    if not isinstance(lead, dict) or not str(lead.get("tr", "")).startswith(("util32.rent.", "util23.rent.lead.")):
        return own
    kind, verdict = str(lead["tr"]).split(".")[-2:]
    key = "owner39_rent.never" if verdict == "never" else RENT_WHY.get(kind)
    if key is None or (verdict != "never" and lead.get("low") is None):
        return own
    why = render(lang, key, {k: v for k, v in lead.items() if k != "tr"})
    return [{**r, "title": r["title"] + why} if r.get("id") == RENT else r for r in own]


__all__ = ["EITHER_PATH", "gpus", "holds_on_either", "split", "with_rent_why"]
