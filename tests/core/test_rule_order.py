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
    # the five fresh interpreters start together, not one after another: each mostly imports (~1–2 s of CPU), and
    # this file runs in `make test`'s slowest process, which then waits for one of them, not five in turn
    procs = {first: subprocess.Popen([sys.executable, "-c", SCRIPT, first], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True) for first in FIRSTS}
    orders = {}
    for first, proc in procs.items():
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, (first, err)
        orders[first] = out.split()
    reference = orders["advisor.plan"]
    assert len(reference) > 50
    for first, order in orders.items():
        assert order == reference, first
