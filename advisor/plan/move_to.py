"""Where the self-hosted plan to move to runs, under a hosted-API lead, for a plan that launches offshore only until
its ICP filing is done (s26-polish26, issue 25; blind review 15, q21).

q21 (a mainland company, no ICP filing yet, a 14-day deadline) starts on a filed mainland API from a Hong Kong host;
the self-hosted plan is a Hong Kong node for the first 1–2 months, then the mainland node once the filing is issued
(``PhasedCost``, the cost row's "after the move"). Page 1 named Hong Kong and its three-network line as "the
self-hosted plan to move to", which contradicts the plan's own move ("file ICP in parallel and plan the move to a
mainland region"): the API covers the launch window, so self-hosting, when the volume or the API's terms call for
it, starts on the mainland node. That node's region and line are said, with the launch region before the filing.
A plan with no move (q22: a Hong Kong company with no mainland entity stays in Hong Kong) is said as before.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate
from advisor.plan.result import render


def _moved(result: Any) -> Any:
    """The plan's two phases where the Decision starts on a hosted API and the plan moves to the mainland; else None."""
    sw = result.start_with
    phased = result.costs.phased if result.costs is not None else None
    return phased if sw is not None and sw.form == "hosted_api" and phased is not None else None


def region_text(result: Any, lang: str, default: str) -> str:
    """"mainland China after the ICP filing (Hong Kong before it)" under an API lead for a plan that moves; else
    ``default`` (the plan's region in the engine's words)."""
    p = _moved(result)
    if p is None:
        return default
    return render(lang, "polish26.move_to.region", {"then": {"tr": f"plan.region.{p.then_region}"},
                                                    "first": {"tr": f"plan.region.{p.first_region}"}})


def line_text(result: Any, lang: str, default: str) -> str:
    """The line of each phase under an API lead for a plan that moves, as ``region_text`` names each phase's region:
    "BGP multi-line after the ICP filing (three-network optimised … before it)"; else ``default``. s28-memo28
    (review 17, q21): the mainland node's line alone ("Network line: BGP multi-line") contradicted the Hong Kong
    phase's three-network line that page 1's cost, reasons and next step still plan for."""
    p = _moved(result)
    if p is None or not p.then_line:
        return default
    then = translate(lang, f"plan.line.{p.then_line}")
    if not p.first_line or p.first_line == p.then_line:
        return then
    return render(lang, "memo28.move_to.line", {"then": then, "first": {"tr": f"plan.line.{p.first_line}"}})


__all__ = ["line_text", "region_text"]
