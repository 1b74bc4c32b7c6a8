"""Whether a plan buys or rents any GPU at all (issue #25, pages20): a plan that runs only on GPUs the team already
owns, with nothing bought and nothing rented, needs neither an export-rule check before a purchase nor quotes for
prices it never pays (q33: 4 of the office's own 8 RTX 4090 D, "verify export rules" and "mainland GPU prices are
placeholders: get quotes" read as boilerplate to a blind reviewer)."""

from __future__ import annotations

from advisor.plan.rule_base import Facts
from advisor.plan.rules_fleet import on_fleet


def nothing_acquired(f: Facts) -> bool:
    """The plan runs only on the team's current fleet: an owned form (not a hybrid's rented burst) whose GPUs all
    come from the fleet, none bought besides."""
    if f.form not in ("on_premises", "bare_metal"):
        return False
    owned = on_fleet(f)
    return owned is not None and not owned.gpus_bought and not owned.gpus_burst
