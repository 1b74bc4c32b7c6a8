"""Page 1's hosted-API test said as the decision's one fork, not as a second recommendation (issue #25, blind review
32, q34).

q34 (en): "The page-1 API paragraph then contradicts the headline: 'if both hold, serve the mainland share from the API
and do not take the mainland node'. Pick one recommendation, and move the other to an option"; (zh): "Make that fork
explicit as the decision."

Where the kept plan's hosted-API line is a test whose outcome replaces part of the plan (``FORK_KEYS``: the mainland
users' API against the mainland node, ``api_per_region``), the recommendation's first line names that fork ("rent …;
if the API's test passes, serve them from it instead and do not take the mainland node"), and the paragraph below is
labelled as the alternative, not as a second decision for the owner.
"""

from __future__ import annotations

from typing import Any

from advisor.i18n import translate

# a kept plan's API line whose passing test replaces part of the plan: its headline clause. The key is
# ``api_per_region.KEY``, written out: result.py reads this module, and importing api_per_region here would close an
# import cycle back to result (test_layering; test_red42 pins that the two agree)
FORK_KEYS = {"apiweigh36.lead.split_deprecated": "red42.fork.headline"}
LABEL = "red42.fork.label"


def is_fork(start: Any) -> bool:
    """``start`` (a plan's ``start_with``) is a test whose passing replaces part of the kept plan."""
    return start is not None and start.form == "this_plan" and start.key in FORK_KEYS


def clause(result: Any, lang: str) -> str:
    """" One fork decides the mainland node: …" after the recommendation's line, or "" where there is no fork."""
    start = getattr(result, "start_with", None)
    if not result.feasible or start is None or not is_fork(start):
        return ""
    return translate(lang, FORK_KEYS[start.key])


__all__ = ["FORK_KEYS", "LABEL", "clause", "is_fork"]
