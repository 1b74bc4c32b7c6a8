"""No test empties the planner's session caches for the tests after it (issue #27, session 28).

A test process keeps every predictor level it simulates (tests/support/plan_caches.py), so a later test that plans
the same hardware and workload reads the level instead of simulating it again. ``sizing.clear_level_cache()``
empties those caches for the rest of the process: three files called it bare (the running-maximum memo's, the setup
memo's and the path-independence test) and every plan after them in the Qt-free process simulated again what
earlier files had. A test that needs a cold cache takes the ``cold_plan_caches`` fixture (or sets the caches aside
for its module, as test_plan_cache.py does): cold inside, the session's caches back afterwards."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _clears(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "clear_level_cache"
               for n in ast.walk(node))  # fmt: skip


def _module_scoped(f: ast.FunctionDef) -> bool:
    """A fixture of the whole module (``@pytest.fixture(scope="module", ...)``)."""
    return any(isinstance(d, ast.Call) and any(k.arg == "scope" and isinstance(k.value, ast.Constant)
                                               and k.value.value == "module" for k in d.keywords)
               for d in f.decorator_list)  # fmt: skip


def _bare_clears(source: str) -> list[str]:
    """Tests (and fixtures) of one file that empty the caches without the session's coming back afterwards."""
    tree = ast.parse(source)
    module_set_aside = any(
        isinstance(n, ast.With) and any("caches_set_aside" in ast.unparse(i.context_expr) for i in n.items)
        for f in tree.body if isinstance(f, ast.FunctionDef) and _module_scoped(f)
        for n in ast.walk(f)
    )  # fmt: skip
    if module_set_aside:
        return []
    return [f.name for f in tree.body if isinstance(f, ast.FunctionDef) and _clears(f)
            and "cold_plan_caches" not in {a.arg for a in f.args.args}]  # fmt: skip


def test_a_test_that_empties_the_planner_caches_gives_the_session_its_caches_back():
    offenders = {str(path.relative_to(TESTS)): names for path in sorted(TESTS.rglob("test_*.py"))
                 if (names := _bare_clears(path.read_text(encoding="utf-8")))}  # fmt: skip
    assert not offenders, f"take the cold_plan_caches fixture: {offenders}"


def test_the_check_finds_a_bare_clear_and_accepts_the_fixture_and_a_module_set_aside():
    bare = "from advisor.plan import sizing\ndef test_x():\n    sizing.clear_level_cache()\n"
    assert _bare_clears(bare) == ["test_x"]
    assert _bare_clears(bare.replace("test_x()", "test_x(cold_plan_caches)")) == []
    module = ('import pytest\n@pytest.fixture(scope="module", autouse=True)\ndef _aside():\n'
              "    with caches_set_aside():\n        yield\n")  # fmt: skip
    assert _bare_clears(module + bare) == []
