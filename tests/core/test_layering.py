"""The core never loads Qt: import every advisor module in a fresh interpreter and look at sys.modules."""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import advisor

FORBIDDEN = ("PySide6", "shiboken6", "pyqtgraph", "ui")


def _all_advisor_modules() -> list[str]:
    names = ["advisor"]
    for info in pkgutil.walk_packages(advisor.__path__, prefix="advisor."):
        if not info.name.endswith("__main__"):  # running it would execute the CLI
            names.append(info.name)
    return names


def test_every_core_module_imports_without_qt():
    modules = _all_advisor_modules()
    assert len(modules) > 5
    code = (
        "import importlib, json, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_core_tests_need_no_qt():
    """tests/core (and its helpers) must run where Qt is not installed, as on a headless GPU server."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    offenders = []
    for folder in ("core", "support", "fakes"):
        for path in (root / folder).glob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module:
                    names = [node.module]
                elif isinstance(node, ast.arg) and node.arg == "qtbot":
                    names = ["qtbot fixture"]
                for name in names:
                    if name.split(".")[0] in (*FORBIDDEN, "pytestqt") or name == "qtbot fixture":
                        offenders.append(f"{path.relative_to(root)}:{node.lineno} {name}")
    assert offenders == []


# The core's only ways into the UI package, each lazy (inside a function) and for a reason:
DECLARED_UI_IMPORTS = {
    ("advisor/cli/gui.py", "ui.app"),  # `advisor gui` opens the app
    ("advisor/cli/plan.py", "ui.memo_export"),  # `advisor plan --memo` paints charts and prints PDFs with Qt when it can
}


def _ui_imports_in_core() -> set[tuple[str, str]]:
    """Every import of ui/Qt the core makes, at any depth, and every module name handed to importlib or
    __import__ as a string (an import the sys.modules check above cannot see until it runs)."""
    import ast
    from pathlib import Path

    root = Path(advisor.__file__).resolve().parents[1]
    found = set()
    for path in sorted((root / "advisor").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Call):
                func = node.func
                called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                if called in ("import_module", "__import__", "find_spec"):
                    names = [a.value for a in node.args[:1] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            found |= {(rel, n) for n in names if n.split(".")[0] in FORBIDDEN}
    return found


def test_the_core_reaches_the_ui_only_where_declared():
    assert _ui_imports_in_core() == DECLARED_UI_IMPORTS


def test_the_scan_sees_a_string_import(tmp_path, monkeypatch):
    """The scan above must catch `importlib.import_module("ui.pdf")`, the door it exists to close."""
    import ast

    code = 'import importlib\ndef f():\n    return importlib.import_module("ui.pdf")\n'
    calls = [n for n in ast.walk(ast.parse(code)) if isinstance(n, ast.Call)]
    assert calls and calls[0].args[0].value == "ui.pdf"
    fake = tmp_path / "advisor"
    (fake / "plan").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "plan" / "door.py").write_text(code)
    monkeypatch.setattr(advisor, "__file__", str(fake / "__init__.py"))
    assert _ui_imports_in_core() == {("advisor/plan/door.py", "ui.pdf")}


def test_the_ui_imports_nothing_from_the_command_line_layer():
    """Helpers the app and the CLI share live below both (advisor.validation, advisor.bench.keys), not in cli/."""
    import ast
    from pathlib import Path

    root = Path(advisor.__file__).resolve().parents[1]
    offenders = []
    for path in sorted((root / "ui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module else [])
            offenders += [f"{path.relative_to(root)}:{node.lineno} {n}" for n in names if n.startswith("advisor.cli")]
    assert offenders == []


def _imports_of(package: str) -> list[tuple[str, int, str]]:
    """(file, line, imported module) for every absolute import in advisor/<package>, at any depth."""
    import ast
    from pathlib import Path

    root = Path(advisor.__file__).resolve().parents[1]
    out = []
    for path in sorted((root / "advisor" / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 else [])
            out += [(path.relative_to(root).as_posix(), node.lineno, n) for n in names]
    return out


@pytest.mark.parametrize("package", ["domain", "sizing", "bench", "telemetry"])
def test_layers_below_the_simulator_do_not_know_it(package):
    """Engine profiles are domain data (advisor/domain/engine_profiles.py): sizing and the domain read them without
    climbing into advisor.sim; the benchmark engine measures servers and knows no simulator (a run's predicted
    curve is made above both, in advisor/run_prediction.py). At the top of a module or inside a function."""
    assert [i for i in _imports_of(package) if i[2] == "advisor.sim" or i[2].startswith("advisor.sim.")] == []


def _import_graph(root: Path) -> dict[str, set[str]]:
    """Module → the advisor modules it imports at run time, at any depth (inside functions too: an import moved
    into a function to hide a cycle is still an edge); imports under ``if TYPE_CHECKING:`` are not run, so not
    edges. ``from package import submodule`` is an edge to the submodule, not to the package."""
    import ast

    mods = {}
    for path in root.rglob("*.py"):
        name = ".".join(path.relative_to(root.parent).with_suffix("").parts)
        mods[name.removesuffix(".__init__")] = path
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        type_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and "TYPE_CHECKING" in
                     ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in type_only:
                continue
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                subs = [f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in mods]
                targets = subs if len(subs) == len(node.names) else [node.module, *subs]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[mod].update(t for t in targets if t in mods and t != mod)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_core_has_no_import_cycle_not_even_one_hidden_in_a_function():
    """Issue #27: four cycles hid behind imports inside functions (plan answers ↔ models, engine ↔ rules, the memo
    ↔ its owning-form rows, bench report ↔ stored results). A module that needs another's function takes it from a
    module below both."""
    assert _cycles(_import_graph(Path(advisor.__file__).parent)) == []


def test_the_cycle_check_sees_an_import_inside_a_function(tmp_path):
    pkg = tmp_path / "advisor"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from advisor import b\n")
    (pkg / "b.py").write_text("def f():\n    from advisor.a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from advisor import a\n")
    assert _cycles(_import_graph(pkg)) == [["advisor.a", "advisor.b"]]
