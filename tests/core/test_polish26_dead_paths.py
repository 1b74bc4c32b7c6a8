"""Paths and keys removed as unreachable (s26-polish26, issue 25's loose ends after session 25).

- apivol25's "our estimate" paragraph (``plan.api24.assumed``) and keep clause (``plan.api24.why.assumed``):
  ``hosted_weigh.lead_or_assumed`` says "assumed" only where ``hosted_kept.real_reason`` gives a reason, so the
  kept plan is always said with that reason, never with "the volume is our estimate";
- ``plan.forms.staff_not_counted_basic(_two)``: a basic-ops answer is said in numbers25's words since s25-numbers25;
- s27-pages27: the "assumed" choice itself, with ``hosted_kept.real_reason``/``where_reason`` and the kept plan's
  paragraph (``plan.apivol25.kept``, ``plan.apivol25.why.mainland``, the paragraph's terms): the reason needed an
  API the prompts may reach across a jurisdiction its users are not in, which ``hosted_assumed.reachable`` never
  offers (tests/core/test_apikept25.py), so no plan is kept beside an API cheaper on the estimate.
These tests keep the guarantee that made the removal safe: if either path became reachable again, it fails here
(a missing key would otherwise only show as a key name printed in a memo).
"""

from __future__ import annotations

import itertools

import pytest

from advisor.i18n import catalog
from advisor.plan.answers import Ops
from advisor.plan.hosted_weigh import choice, keep_reason
from advisor.plan.result import StartWith
from advisor.plan.staff_words import not_counted_key
from tests.core.test_plan_rules import facts_for
from tests.support.planned import ADVICE_SCENARIOS, scenario_answers

LANGS = ("en", "zh_CN")
REMOVED = ("plan.api24.assumed", "plan.api24.why.assumed", "plan.forms.staff_not_counted_basic",
           "plan.forms.staff_not_counted_basic_two", "plan.apivol25.kept", "plan.apivol25.why.mainland")


@pytest.mark.parametrize(("ops", "two"), list(itertools.product([*Ops.__args__, None], [False, True])))
def test_every_staff_key_built_exists_and_a_basic_answer_reads_numbers25s_words(ops, two):
    key = not_counted_key(ops, two)
    for lang in LANGS:
        assert key in catalog(lang), (key, lang)
    assert key.startswith("numbers25.") == (ops == "basic")  # the plan.forms.*_basic wording is no longer built


@pytest.mark.parametrize("path", sorted(ADVICE_SCENARIOS.glob("q*.json")), ids=lambda p: p.stem[:3])
def test_a_plan_kept_beside_an_api_cheaper_on_the_estimate_always_has_a_real_reason(path):
    """No choice is "assumed" any more (s27-pages27: the plan kept beside an API cheaper on the estimate needed a
    reason no answers reach); the keep clause is whatever the choice's own reason gives, never a removed one, and
    the removed keys are gone from both catalogs."""
    f = facts_for(scenario_answers(path))
    reason = choice(f)
    assert reason is None or reason in StartWith.model_fields["reason"].annotation.__args__  # None: no API cheaper
    why = keep_reason(f, reason)
    assert why is None or why["tr"] not in REMOVED
    for lang in LANGS:
        assert not set(REMOVED) & set(catalog(lang))

