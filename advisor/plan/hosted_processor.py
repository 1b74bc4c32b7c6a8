"""A hosted API weighed against rented GPUs, whose provider also holds the prompts (s23-apisg23, issue 25, re-check 12b).

Blind re-check 12b (q07, q10, q12, q13, q14): "the prompts carry personal information" was the memo's reason against a
hosted API, yet the plan it kept rents GPUs from a cloud provider, which also holds the prompts on its machines. That
does not make the two the same (blind review 16, q10/q12/q13: "a GPU host doesn't read the prompts, an API provider
processes them"): the API is possible with personal information only where its terms make the provider your
processor (entrusted processing, PIPL Art. 21: a contract on purpose, method and protection, and your supervision; a
processor contract under GDPR Art. 28, the PDPO or PDPA), with no training on the prompts and their retention and
location set. Said so, the API is weighed on cost, rate limits and speed like any other; what differs is said where
it stands:

- ordinary personal information on rented GPUs: an arrangement, never the reason the plan is kept
  (``ARRANGEMENTS``); the API's checks and lead say it is taken only as a processor, on those terms;
- highly sensitive data on rented GPUs: the difference is control, not who else holds the prompts (on rented GPUs
  only the team's own software reads them, sets retention and grants access; an API's own service processes each
  prompt on terms the team cannot inspect) — said in those words, not "hands every prompt to another company";
- a public generative-AI service in the mainland that would call an already-filed model's API unchanged takes the
  shorter registration (登记, provincial review only) instead of the full filing (deployment facts §2.2): part of the
  API's case, said beside it with the two durations (``registration_clause``).
"""

from __future__ import annotations

from typing import Any

from advisor.plan.data import rule_sources
from advisor.plan.genai_paths import canonical_days, genai_kind
from advisor.plan.hosted_data_reason import processor_law
from advisor.plan.hosted_unserved import SHORT_LAW
from advisor.plan.result import Finding
from advisor.plan.rule_base import Facts

KEY = "plan.apisg23"
PI_RENTED = f"{KEY}.why.pi_rented"
HIGH_RENTED = f"{KEY}.why.high_rented"
# reasons that are arrangements an API's contract meets as the rented GPUs' contract does: never why a plan is kept
ARRANGEMENTS = frozenset({PI_RENTED})
# the forms whose machines a cloud provider runs, holding the prompts as a processor (a purchase or a colocated
# server is the team's own; a hybrid's base is owned, its bursts rented: not counted, its base decides)
RENTED_FORMS = frozenset({"cloud", "cloud_then_bare_metal"})


def rents_machines(f: Facts) -> bool:
    """The plan's GPUs are rented from a cloud provider, which then holds the prompts as a processor too."""
    return f.form in RENTED_FORMS


def short_law(f: Facts) -> dict[str, Any]:
    """The processor terms of the law that applies, in a clause short enough for a check or a lead."""
    law = processor_law(f)
    return {"tr": SHORT_LAW.get(law, law)}


def pi_reason(f: Facts) -> dict[str, Any]:
    """The ordinary personal-information reason: an arrangement where the plan rents (its provider is a processor
    too), else the general clause (a purchase keeps the prompts on the team's own machines)."""
    if rents_machines(f):
        return {"tr": PI_RENTED, "law": short_law(f)}
    return {"tr": "plan.hosted16.why.pi"}


def high_reason(f: Facts) -> dict[str, Any]:
    """The highly-sensitive reason: on rented GPUs in the words of control (both providers hold the prompts)."""
    return {"tr": HIGH_RENTED} if rents_machines(f) else {"tr": "plan.hosted16.why.high"}


def with_dpa(f: Facts, why: list[dict[str, Any]], provider: dict[str, Any]) -> dict[str, Any]:
    """The checks' provider clause, with the data-processing agreement where the prompts' personal information is an
    arrangement (``ARRANGEMENTS`` among ``why``): "…, under a data-processing agreement as your GPUs' provider is"."""
    if not any(w["tr"] in ARRANGEMENTS for w in why):
        return provider
    return {"tr": f"{KEY}.provider.dpa", "provider": provider, "law": short_law(f)}


def registration_applies(f: Facts) -> bool:
    """A public generative-AI service in the mainland, not yet filed, that hosts an open-weight model unchanged: the
    full filing is likely for the self-hosted plan, while calling an already-filed model's API unchanged is the
    registration's case (``genai_paths.genai_kind``)."""
    c = f.ctx
    return bool(c.public_genai and not c.genai_covered and c.genai_filing != "in_progress"
                and genai_kind(c, f.form) == "genai_open_weights")


def registration_clause(f: Facts) -> dict[str, Any] | None:
    """The shorter path an API opens, with both durations from the facts: None where it does not apply."""
    if not registration_applies(f):
        return None
    return {"tr": f"{KEY}.registration", **canonical_days()}


def with_registration(f: Facts, got: Finding) -> Finding:
    """``got`` (the API weighed) followed by the registration clause, citing the filing finding's sources (the CAC's
    notice and the consultancies' durations), where it applies; ``got`` unchanged elsewhere."""
    clause = registration_clause(f)
    if clause is None:
        return got
    params = {**got.params, "base": {"tr": got.detail_key, **got.params}, "registration": clause}
    titles = {s.title for s in got.sources}
    extra = [s for s in rule_sources("genai.filing") if s.title not in titles]
    return got.model_copy(update={"detail_key": f"{KEY}.with_registration", "params": params,
                                  "sources": [*got.sources, *extra],
                                  "verify": got.verify or any(s.needs_verify for s in extra)})


__all__ = ["ARRANGEMENTS", "HIGH_RENTED", "PI_RENTED", "RENTED_FORMS", "high_reason", "pi_reason",
           "registration_applies", "registration_clause", "rents_machines", "short_law", "with_dpa", "with_registration"]
