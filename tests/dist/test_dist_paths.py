"""`make dist` runs `tools/dist_smoke.py --out dist` from the repository root: a relative path. The smoke steps run
in temporary folders, so a relative wheel path was read against the wrong folder and `make dist` failed from a
fresh clone while the suite (which passes an absolute path) stayed green. Fast: build and smoke are stubbed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import dist_smoke  # noqa: E402


@pytest.fixture
def recorded(monkeypatch):
    """Stub the smoke itself; record the wheel path main() hands it."""
    seen: dict[str, Path] = {}

    def fake_smoke(wheel: Path, *, keep: bool = False):
        seen["wheel"] = wheel
        return []

    monkeypatch.setattr(dist_smoke, "smoke", fake_smoke)
    return seen


def test_relative_out_dist_from_the_repo_root_as_the_makefile_does(monkeypatch, tmp_path, recorded):
    seen = recorded
    built: list[Path] = []

    def fake_run(cmd, *, cwd, env, timeout=300, input_text=None):
        out = Path(cmd[cmd.index("--outdir") + 1])
        built.append(out)
        (out / "inference_advisor-0.1.0-py3-none-any.whl").write_bytes(b"")
        (out / "inference_advisor-0.1.0.tar.gz").write_bytes(b"")

    monkeypatch.setattr(dist_smoke, "_run", fake_run)
    monkeypatch.chdir(tmp_path)  # stands in for the repository root: `make dist` runs there
    monkeypatch.setattr(sys, "argv", ["dist_smoke.py", "--out", "dist"])
    assert dist_smoke.main() == 0
    assert built == [tmp_path / "dist"] and built[0].is_absolute()
    assert seen["wheel"] == tmp_path / "dist" / "inference_advisor-0.1.0-py3-none-any.whl"
    assert seen["wheel"].is_absolute()  # the steps run elsewhere: the path must not depend on their folder


def test_a_relative_wheel_argument_is_resolved_too(monkeypatch, tmp_path, recorded):
    seen = recorded
    (tmp_path / "dist").mkdir()
    wheel = tmp_path / "dist" / "inference_advisor-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["dist_smoke.py", "--wheel", "dist/inference_advisor-0.1.0-py3-none-any.whl"])
    assert dist_smoke.main() == 0
    assert seen["wheel"] == wheel


def test_the_smoke_installs_with_the_readmes_own_pipx_line():
    argv = dist_smoke.readme_install_command()
    assert argv == ["pipx", "install", "dist/inference_advisor-*.whl"]
    wheel = Path("/somewhere/dist/inference_advisor-0.1.0-py3-none-any.whl")
    run = dist_smoke.install_argv("/tools/python", wheel)
    # exactly the README's words after `pipx`, with the pattern replaced by the wheel just built
    assert run == ["/tools/python", "-m", "pipx", "install", str(wheel)]
