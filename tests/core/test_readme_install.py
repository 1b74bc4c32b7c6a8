"""The README's install section works as written (issue #26 item 10): the headline command installs from the
checkout (the package is not on PyPI yet, and the PyPI command is marked so), the wheel line is the one
tools/dist_smoke.py runs, the Linux packages are listed, and `make run` installs only what the app needs."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
sys.path.insert(0, str(ROOT / "tools"))

import dist_smoke  # noqa: E402

CI_ONLY = {"xvfb", "xauth", "poppler-utils"}  # screenshots and PDF checks in CI, not needed to run the app


def _install_section() -> str:
    return README[README.index("## Install"): README.index("\n## ", README.index("## Install") + 1)]


def test_the_headline_command_installs_from_the_checkout_not_from_an_index():
    section = _install_section()
    first_block = re.search(r"```bash\n(.*?)```", section, re.S).group(1).strip()
    assert first_block == "pipx install ."
    # the index command is there only as the future one
    for line in section.splitlines():
        if "pipx install inference-advisor" in line:
            assert "not yet" in line and "PyPI" in line


def test_the_wheel_line_in_the_readme_is_what_the_dist_smoke_runs():
    section = _install_section()
    lines = [shlex.split(x) for x in section.splitlines() if x.startswith("pipx install dist/")]
    assert lines == [dist_smoke.readme_install_command()]


def test_the_readme_lists_the_linux_packages_the_app_needs():
    section = _install_section()
    apt = next(line for line in section.splitlines() if line.startswith("sudo apt install "))
    listed = set(apt.split()[3:])
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    block = ci[ci.index("DEB_PACKAGES=(") + len("DEB_PACKAGES=("): ci.index(")", ci.index("DEB_PACKAGES=("))]
    needed = set(block.split()) - CI_ONLY
    assert listed == needed


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_run_installs_the_app_without_the_test_tools(tmp_path):
    def dry(target: str) -> str:
        out = subprocess.run(["make", "-n", "-B", target, f"VENV={tmp_path / 'venv'}"], cwd=ROOT,
                             capture_output=True, text=True, check=True)  # fmt: skip
        return out.stdout

    run = dry("run")
    assert re.search(r"pip install -q -e \.$", run, re.M) and "[test]" not in run
    test = dry("test")
    assert "'.[test]'" in test
    # `make test` is the README's test command, headless: tests/core with Qt absent beside every other test, and
    # every process must pass, and lint (run beside them since session 24): a failure of any fails the target; which
    # file runs where: test_make_test_split.py
    assert "ADVISOR_TESTS_WITHOUT_QT=1 QT_QPA_PLATFORM=offscreen" in test and "-p no:pytest-qt" in test
    assert re.search(r"QT_QPA_PLATFORM=offscreen \S+/python -m pytest -q -p no:cacheprovider .*tests/core", test)
    assert test.count("/python -m pytest -q -p no:cacheprovider") == 4
    assert "test $lint_rc -eq 0 -a $core_rc -eq 0 -a $core2_rc -eq 0 -a $ui_rc -eq 0 -a $rest -eq 0" in test
    assert "tools/dist_smoke.py --out dist" in dry("dist")
