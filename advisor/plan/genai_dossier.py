"""The generative-AI filing's dossier for a fine-tuned or self-developed model, said where the filing path is
(blind review 18, q30: "the memo says nothing about the security self-assessment and corpus/keyword test sets that
the filing dossier needs, which is the real long pole for a legal-Q&A model"). deployment-facts.md §2.2 gives the
filing, its reviews and months; TC260-003 (the sources in ``resources/plan/genai_dossier29.json``) gives what the
provider assesses and submits with it: a security self-assessment item by item, a keyword library and test question
banks for generated content and for refusals. Work the team does on its own model, so it starts with the fine-tune."""

from __future__ import annotations

from functools import cache

from advisor.plan.result import Finding, Source
from advisor.resources import load_json


@cache
def _sources() -> tuple[Source, ...]:
    return tuple(Source.model_validate(s) for s in load_json("plan", "genai_dossier29.json")["sources"])


def with_dossier(found: Finding) -> Finding:
    """``found`` (the filing path's finding) citing the dossier's sources beside its own."""
    extra = [s for s in _sources() if s not in found.sources]
    return found.model_copy(update={"sources": [*found.sources, *extra],
                                    "verify": found.verify or any(s.needs_verify for s in extra)})


__all__ = ["with_dossier"]
