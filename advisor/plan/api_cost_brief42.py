"""An API-led memo's page 1 says each self-hosted figure's other bases and stand-ins once (s40-pages, issue 25).

Under an API lead (``memo_api_rows.applies``) the self-hosted plan is the fallback, and page 1 grew to a sixth page
in q13 by saying again what section 4 derives: the cost row's self-hosted part gave three price bases (reserved for
every GPU, the peak-hour replicas on demand, everything on demand) and the price bullet the stand-in's full story.
Here, under an API lead:

- the cost row's self-hosted month keeps its one basis (the figure's own, and why every GPU is reserved where it is)
  and points to section 4 for the other bases, whose figures and formulas section 4 prints (``reserved_price``);
- the cost row's self-hosted GPU price says it is a stand-in until a data centre there quotes, section 4's "which
  prices" whose rows stand in and why (``memo._key_rows``);
- the host + line's stand-in says which region's rate stands in and points to the line's finding in section 7, which
  says in full that the region's own price is unknown and to quote it (``lead_line._together``);
- under the owner's sign-off, whose condition asks for the provider's retention terms in writing, the data-path
  bullet asks in writing for the no-training term alone (``lead_bullets``);
- where the bold line says the path (the host's place, the API's provider and place), the data-path bullet says
  what follows from it, not the path again (``lead_bullets``);
- the move bullet's break-even drops "at this size self-hosting never pays on cost alone", the reason "Why the API
  first" lists just below (``api_first_why``): the break-even figures stay.

Every figure left is one the memo derives elsewhere: nothing new is computed; the plan (``--json``) is unchanged.
"""

from __future__ import annotations

from typing import Any

# the full basis phrase (``reserved_price.phrase``) -> its one-basis form, the others left to section 4
BRIEF_BASIS = {
    "res39_peak.basis": "pg42.basis.peak",
    "rv43.peak.basis": "pg42.basis.peak",
    "cst44.peak.basis": "pg42.basis.peak",
    "reserve19.basis.floor": "pg42.basis.floor",
    "plan.apiweigh18.reserved_scaled": "pg42.basis.scaled",
    "plan.basis16.reserved": "pg42.basis.reserved",
}
NEVER_KEY = "hostline39_be.never"  # ``hosted_lead.NEVER_KEY``
NEVER_SHORT = "pg42.be.never"
ROUTE_NEAR = "apilead34.runs.near"  # ``lead_bullets.PATHS``: the API served from a place other than the node
TERMS_LEAD = "plan.apivol25.terms.lead"  # ``lead_bullets.TERMS``: no training, retention, deletion
TERMS_PATH = "apilead34.terms"  # the same terms inside the data path's own "get in writing" sentence
STAND_IN_FULL = "hostline39_lead.stand_in"  # ``lead_line._together``
STAND_IN_SHORT = "pg42.lead.stand_in"
STAND_IN_ROW = "pg42.key.stand_in"  # the cost row's GPU stand-in (``rows18.key.stand_in``, ``prices25.key.not_offered``)


def basis(phrase: dict[str, Any] | str) -> dict[str, Any] | str:
    """``phrase`` (``reserved_price.phrase``) said with its own basis alone, "(other prices: section 4)" for the rest;
    unchanged where it has no short form ("" on demand, or a basis with nothing else beside it)."""
    if not isinstance(phrase, dict) or phrase.get("tr") not in BRIEF_BASIS:
        return phrase
    return {**phrase, "tr": BRIEF_BASIS[str(phrase["tr"])]}


def move_break_even(be: Any) -> Any:
    """The move bullet's break-even without the "never pays" conclusion "Why the API first" states (its reason)."""
    if isinstance(be, dict) and be.get("tr") == NEVER_KEY:
        return {**be, "tr": NEVER_SHORT}
    return be


def terms_signed(part: Any) -> Any:
    """A data-path clause's terms to get in writing, under the owner's sign-off whose condition asks for the
    provider's retention terms in writing (``owner_sign39.bullets``): the no-training term alone, the retention and
    deletion left to that condition a line above."""
    if isinstance(part, dict) and part.get("tr") == TERMS_LEAD:
        return {**part, "tr": "pg42.terms.lead"}
    if isinstance(part, dict) and isinstance(part.get("terms"), dict) and part["terms"].get("tr") == TERMS_PATH:
        return {**part, "terms": {**part["terms"], "tr": "pg42.terms.path"}}
    return part


def route_said(part: Any) -> Any:
    """The data path's "each prompt goes from … to your host in Hong Kong, then to the API served from Singapore by
    …" where the bold line above says that path in the same words (``owner_sign39.head``): its consequence alone."""
    if isinstance(part, dict) and part.get("tr") == ROUTE_NEAR:
        return {**part, "tr": "pg42.runs.near"}
    return part


def stand_in_short(cost: Any) -> Any:
    """The lead's ``cost37`` with the host + line's stand-in said short (the region's rate standing in, section 7
    for the rest: the line's finding says its own price is unknown here and to quote it)."""
    if not isinstance(cost, dict) or not isinstance(cost.get("parts"), dict):
        return cost
    part = cost["parts"]
    stand_in = part.get("stand_in")
    if part.get("tr") != "hostline39_lead.part.together" or not isinstance(stand_in, dict) \
            or stand_in.get("tr") != STAND_IN_FULL:
        return cost
    return {**cost, "parts": {**part, "stand_in": {**stand_in, "tr": STAND_IN_SHORT}}}


__all__ = ["BRIEF_BASIS", "NEVER_SHORT", "STAND_IN_ROW", "STAND_IN_SHORT", "basis", "move_break_even", "route_said", "stand_in_short", "terms_signed"]
