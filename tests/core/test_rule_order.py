"""A memo's findings come in the rule registry's order, and a rule module registers its rules when it is imported:
the registry's order must not depend on which module a process imports first. (Session 17: the engine imported a
rule module for a helper function, so a fresh `advisor plan` listed `mlps.filing` first while a process that had
imported the rules before listed it later, and the docs' scenario table went stale only in some test orders.)"""

from __future__ import annotations

import subprocess
import sys

FIRSTS = ["advisor.plan.engine", "advisor.plan.rules", "advisor.plan.sectors17_rules", "advisor.plan.duties_rules",
          "advisor.plan"]
SCRIPT = "import importlib, sys; importlib.import_module(sys.argv[1]); from advisor.plan.rules import RULES; print(' '.join(RULES))"


def test_the_rule_registry_has_one_order_whatever_is_imported_first():
    orders = {first: subprocess.run([sys.executable, "-c", SCRIPT, first], capture_output=True, text=True,
                                    check=True).stdout.split() for first in FIRSTS}
    reference = orders["advisor.plan"]
    assert len(reference) > 50
    for first, order in orders.items():
        assert order == reference, first
