"""The generative-AI registration's (登记) dossier, said where the registration is the service's path: a public
service that calls an already-filed model's API unchanged (s35-duties, blind review 26, q16: "Add what the
registration dossier actually needs (security self-assessment, keyword and test-question banks, the provider's filing
number and agreement), so the team can start it now").

deployment-facts.md §2.2 gives the registration's path and months, not its dossier, and no official list of its
materials was found: a third-party guide lists them for the filing and the registration alike (grade C), and
TC260-003 says what the self-assessment and the banks are (grade C, a translation's copy). So the text says whose
list it is and sends the team to the provincial CAC for its own (the sources in ``resources/plan/registration37.json``).
A fine-tuned model's filing has its own dossier (``genai_dossier``).
"""

from __future__ import annotations

from functools import cache

from advisor.plan.result import Finding, Source
from advisor.resources import load_json

PATH_KEY = "duties37_genai.path.registration_dossier"  # the registration path's sentence with the dossier after it


@cache
def _sources() -> tuple[Source, ...]:
    return tuple(Source.model_validate(s) for s in load_json("plan", "registration37.json")["sources"])


def with_dossier(found: Finding) -> Finding:
    """``found`` (the registration path's finding) citing the dossier's sources beside its own."""
    have = {s.title for s in found.sources}
    extra = [s for s in _sources() if s.title not in have]
    return found.model_copy(update={"sources": [*found.sources, *extra],
                                    "verify": found.verify or any(s.needs_verify for s in extra)})


__all__ = ["PATH_KEY", "with_dossier"]
