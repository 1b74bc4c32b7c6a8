"""The core never loads Qt: import every advisor module in a fresh interpreter and look at sys.modules."""

import json
import pkgutil
import subprocess
import sys

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
