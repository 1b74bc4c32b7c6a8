"""The built wheel works installed outside the source tree: the same smoke test as `make dist`.

Slow (a wheel build and a virtualenv install), so it runs once, as one test: a user who never cloned the
repository gets both commands, every resource, a simulated server and benchmark, and the desktop app.
"""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

import dist_smoke  # noqa: E402

# Read before the autouse fixture points XDG_CACHE_HOME at a temporary folder: pip's wheel cache is what keeps
# the fresh virtualenv's install to seconds instead of a full download.
_PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "pip"
)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_wheel_installs_and_runs_away_from_the_checkout(tmp_path, monkeypatch):
    monkeypatch.setenv("PIP_CACHE_DIR", _PIP_CACHE)
    wheel = dist_smoke.build(tmp_path / "dist")
    assert wheel.name.startswith("inference_advisor-") and wheel.suffix == ".whl"
    steps = [row["step"] for row in dist_smoke.smoke(wheel)]
    for expected in ("install wheel", "resources are package data", "advisor calc", "zh_CN translations",
                     "advisor bench against advisor sim", "GUI first paint (offscreen)"):  # fmt: skip
        assert expected in steps


def test_a_failing_step_is_reported_not_swallowed(tmp_path):
    env = dict(os.environ)
    with pytest.raises(dist_smoke.SmokeFailure, match="exited 3"):
        dist_smoke._run([sys.executable, "-c", "import sys; sys.exit(3)"], cwd=tmp_path, env=env)
