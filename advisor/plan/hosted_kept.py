"""A hosted API cheaper on the plan's own estimate of the volume: kept for a real reason, or led with, and the terms
to get first where the prompts are confidential (s25-apivol25, issue 25, round 14 of the blind review).

Round 14 (q10, q12, q13, q21, q22, q24, q34, q35, q42): "the memo keeps self-hosting while its own figures show a
hosted API 20–300× cheaper, and sets it aside because the volume is our estimate". An estimate is no reason to keep
a plan 20× dearer, and no reason to drop one either; what the user can confirm is the request count (asked first
on page 1, ``volume_flip``). So, where the volume is our estimate:

- a real reason would keep the plan, said as the reason (never the estimate): once, the only priced API served from
  another jurisdiction than the node's, the users not there. Review 15 (s25-apikept25) narrowed it: Hong Kong and
  Singapore are one class (q12, q22), and a filed mainland API for mainland users keeps their prompts at home (q21):
  those lead, the place it is served said in the lead (``runs_reach``). As ``hosted_assumed.reachable`` offers only
  the neighbouring offshore region or, for mainland users alone, the mainland, no API the prompts may reach crosses
  a jurisdiction its users are not in, and that reason and its kept-plan paragraph were removed (s27-pages27, as
  polish26 found them unreachable); another model's list is no reason either (q10, q24): the switch is a quality
  test away, said in the lead, as on a volume the user gave. The answers' own reasons are weighed before the volume,
  as on the user's own count (``hosted_weigh.choice``): a hard one keeps the plan whatever the volume; an ordinary
  one (a service on the team's network, a tight first-token target) does not keep a plan ten times dearer on the
  user's count, so it does not on the estimate either (q35 starts on the API, as with 2,000 requests a day);
- nothing but the estimate keeps it: the memo decides on the estimate and starts on the API, the volume that would
  flip it asked first (``hosted_weigh.lead_or_unserved``).

q10's must-not n3 ("a hosted API for confidential client documents without saying where the data goes"): wherever
the memo suggests an API for prompts the answers call confidential (personal information, or data above the low
level), it names the terms to get first: no training on the inputs, retention and deletion, a data-processing
agreement under the law that applies where personal information is in them, and the region that processes them
(``terms_clause``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan import hosted_assumed, hosted_where
from advisor.plan.rule_base import Facts, _region

KEY = "plan.apivol25"
# data levels the answers call confidential beside personal information (client documents, a firm's own reports)
CONFIDENTIAL_LEVELS = frozenset({"medium", "high"})


def runs_reach(f: Facts) -> dict[str, Any] | None:
    """Where a lead's API is one the prompts may reach, served from another place than the node (``hosted_assumed
    .reachable``, no reason against it here): the sentence that says where it is served and why that is no bar,
    in place of "calls an API served from there" (review 15: q21's API is in the mainland, q22's in Singapore).
    None where the row serves the node's region (``hosted_bars.runs_clause`` says it)."""
    where = hosted_assumed.reachable(f)
    got = hosted_where.mismatch(f)
    if where is None or got is None:
        return None
    region = str(got["region"])
    law: dict[str, Any] | str = ""
    if f.ctx.personal_info and where != "mainland":
        law = {"tr": "plan.api24.served.law", "law": hosted_where.transfer_law(f, region)}
    # the plan's node moves to the mainland once the ICP filing is issued (``phased``): the front end calling a
    # mainland API moves with it, and the prompts' round trip out of the mainland ends (blind review 21, q21)
    phased = getattr(getattr(f.cost, "costs", None), "phased", None)
    after = {"tr": "headline33.api_path.moves"} if where == "mainland" and phased is not None \
        and phased.then_region == "mainland" else ""
    return {"tr": f"plan.apikept25.runs.{'mainland' if where == 'mainland' else 'near'}",
            "where": {"tr": f"plan.apiregion21.where.{where}"}, "providers": hosted_where.names(got["tier"]),
            "region": _region(region), "law": law, "after": after}


def confidential(c: Any) -> bool:
    """The prompts are what the answers call confidential: personal information, or data above the low level."""
    return bool(c.personal_info) or c.level in CONFIDENTIAL_LEVELS


def terms_clause(f: Facts) -> dict[str, Any] | str:
    """The terms to get before confidential prompts go to an API, after the lead's clause that names the company that
    keeps them, where, and the data-processing agreement (``hosted_bars.runs_clause``, ``plan.apisg23.lead_dpa``);
    "" for data the answers call neither personal nor confidential."""
    return {"tr": f"{KEY}.terms.lead"} if confidential(f.ctx) else ""


# s37-hostline: the straddling break-even's sentence (``hosted_lead.PART_LOW_KEY``), its requests a day said inline;
# where the first question gives them too, only the price list's name is dropped, as for the other sentences
PART_LOW_FULL, PART_LOW_SHORT = "hostline39_be.part_low.", "hostline39_be.part_low_q."


def short_break_even(be: dict[str, Any] | str) -> dict[str, Any] | str:
    """The break-even sentence where page 1's first question gives the same volume in requests a day: pointing to it
    instead of the price list's title (the cost table and the finding cite it), one line shorter on page 1."""
    if isinstance(be, dict) and str(be.get("tr", "")).startswith(PART_LOW_FULL):  # s37-hostline: the list not named
        return {**be, "tr": PART_LOW_SHORT + str(be["tr"])[len(PART_LOW_FULL):]}
    if not isinstance(be, dict) or be.get("tr") not in ("plan.hostedlead20.be.high", "plan.hostedlead20.be.flat"):
        return be
    return {**be, "tr": f"{KEY}.be.{str(be['tr']).rsplit('.', 1)[-1]}"}


__all__ = ["CONFIDENTIAL_LEVELS", "KEY", "confidential", "runs_reach", "short_break_even", "terms_clause"]
