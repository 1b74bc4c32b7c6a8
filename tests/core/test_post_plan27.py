"""The steps on a finished plan (advisor/plan/post_plan.py, issue #27): one list, applied in order, each step's
returned plan taken and its None read as "changed in place"; ``engine.plan`` builds its tail from that list."""

from __future__ import annotations

from types import SimpleNamespace

from advisor.plan import engine, post_plan


def _plan(steps: list[str]) -> SimpleNamespace:
    return SimpleNamespace(next_steps=steps, seen=[])


def test_steps_run_in_order_and_a_returned_plan_replaces_the_one_before():
    first = _plan(["a"])
    second = _plan(["b"])

    def mark(name):
        def step(r):
            r.seen.append(name)

        return step

    out = post_plan.run(first, [("one", mark("one")), ("swap", lambda r: second), ("two", mark("two"))])
    assert out is second
    assert first.seen == ["one"]  # changed in place, then replaced
    assert second.seen == ["two"]  # the steps after a replacement read the new plan


def test_a_next_steps_step_rewrites_the_list_and_an_off_step_leaves_the_plan_as_it_is():
    r = _plan(["serve", "quote"])
    out = post_plan.run(r, [("reverse", post_plan.next_steps(lambda p: list(reversed(p.next_steps)))),
                            ("off", post_plan.only_if(False, lambda p: _plan(["never"]))),
                            ("on", post_plan.only_if(True, post_plan.next_steps(lambda p: [*p.next_steps, "end"])))])
    assert out is r
    assert r.next_steps == ["quote", "serve", "end"]


def test_the_plans_tail_is_one_named_list_with_the_fixes_first_and_the_supply_lead_last():
    steps = engine._post_plan_steps(SimpleNamespace(), None, True, SimpleNamespace(budget_amount=None),
                                    SimpleNamespace(), SimpleNamespace(recommended_monthly=None), None)
    names = [name for name, _ in steps]
    assert len(names) == len(set(names))
    # the supply lead stays the last step that may re-plan (its plan replaces the one before); the steps review 34
    # added after it (hybrid_path43, e2e_gate43, live_calls43) word the plan it leaves, in place
    lead = names.index("supply_lead")
    assert names[0] == "fixes" and names[lead + 1:] == ["hybrid_path", "e2e_gate", "live_calls"]
    assert all(callable(step) for _, step in steps)
