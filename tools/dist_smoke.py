"""Build the wheel and sdist, install the wheel into a fresh virtualenv far from the checkout, and use it.

    python tools/dist_smoke.py                 # build into dist/, then smoke-test the wheel
    python tools/dist_smoke.py --wheel W.whl   # smoke-test a wheel that is already built
    python tools/dist_smoke.py --json          # one JSON line with what ran and how long it took

What it proves is what a user who never cloned the repository gets from the README's wheel line
(`pipx install dist/inference_advisor-*.whl`, read from README.md and run as written, pipx in a throw-away home):
the two commands on PATH, `python -m advisor`, every resource (catalog, presets, translations, templates,
price data) found as package data, a simulated server and a short benchmark against it, the desktop app
painting its first window (offscreen), and a decision memo as PDF when the Decide engine is present.
Every step runs with the current directory set to an empty temporary folder and ADVISOR_HOME pointing at
another, so nothing can be picked up from the source tree or the user's real settings.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_WHEEL_ARG = "dist/inference_advisor-*.whl"  # the README's wheel, relative to the README's folder

# Opens the real window offscreen, waits for its first paint, and exits 0; any failure exits non-zero.
GUI_CHECK = r"""
import sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
from ui.app import create_window

app = QApplication([sys.argv[0]])
window = create_window(app, "zh_CN")
state = {"painted": False}

class FirstPaint(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not state["painted"]:
            state["painted"] = True
            QTimer.singleShot(0, app.quit)
        return False

spy = FirstPaint()
window.installEventFilter(spy)
window.show()
QTimer.singleShot(60000, app.quit)
app.exec()
window.set_modified(False) if hasattr(window, "set_modified") else None
window.close()
print("painted" if state["painted"] else "not painted")
sys.exit(0 if state["painted"] else 1)
"""


class SmokeFailure(RuntimeError):
    pass


def _run(cmd: list[str], *, cwd: Path, env: dict[str, str], timeout: float = 300, input_text: str | None = None
         ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, input=input_text)
    if proc.returncode != 0:
        raise SmokeFailure(f"{' '.join(cmd)} exited {proc.returncode}\n--- stdout\n{proc.stdout[-3000:]}"
                           f"\n--- stderr\n{proc.stderr[-3000:]}")  # fmt: skip
    return proc


def readme_install_command() -> list[str]:
    """The README's install-from-a-wheel line, as argv (``["pipx", "install", "dist/inference_advisor-*.whl"]``)."""
    for line in README.read_text(encoding="utf-8").splitlines():
        if not line.startswith("pipx install "):
            continue  # prose and other commands (some with apostrophes shlex would choke on)
        argv = shlex.split(line.split("#", 1)[0])
        if README_WHEEL_ARG in argv:
            return argv
    raise SmokeFailure(f"README.md has no `pipx install {README_WHEEL_ARG}` line to test")


def install_argv(python: str, wheel: Path) -> list[str]:
    """The README's line as this smoke runs it: pipx through ``python -m pipx`` (pipx lives in the smoke's own
    virtualenv), and the README's wheel pattern replaced by the wheel just built (an absolute path, so it means
    the same from any working directory)."""
    argv = readme_install_command()
    return [python, "-m", "pipx", *(str(wheel.resolve()) if a == README_WHEEL_ARG else a for a in argv[1:])]


def build(out_dir: Path) -> Path:
    """`python -m build` (wheel and sdist) into out_dir; returns the wheel (an absolute path)."""
    out_dir = out_dir.resolve()  # `--out dist` means the caller's dist/, whatever folder later steps run in
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("inference_advisor-*"):
        old.unlink()
    _run([sys.executable, "-m", "build", "--outdir", str(out_dir), str(ROOT)], cwd=ROOT, env=dict(os.environ), timeout=900)
    wheels = sorted(out_dir.glob("inference_advisor-*.whl"))
    if not wheels or not list(out_dir.glob("inference_advisor-*.tar.gz")):
        raise SmokeFailure(f"build produced no wheel and sdist in {out_dir}")
    return wheels[-1]


def _bin(env_dir: Path, name: str) -> str:  # a virtualenv's executable
    sub = "Scripts" if os.name == "nt" else "bin"
    suffix = ".exe" if os.name == "nt" else ""
    return str(env_dir / sub / f"{name}{suffix}")


def smoke(wheel: Path, *, keep: bool = False) -> list[dict[str, object]]:
    """Install `wheel` with the README's pipx line into a throw-away pipx home and exercise it; returns one row
    per step."""
    wheel = wheel.resolve()  # a relative path would be read against the temporary folders the steps run in
    steps: list[dict[str, object]] = []
    base = Path(tempfile.mkdtemp(prefix="advisor-dist-"))
    try:
        tools_dir, work, home = base / "tools-venv", base / "work", base / "home"
        pipx_home, bin_dir = base / "pipx", base / "bin"
        work.mkdir()
        home.mkdir()
        venv.EnvBuilder(with_pip=True, clear=True).create(tools_dir)
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
        env.update(ADVISOR_HOME=str(home), QT_QPA_PLATFORM="offscreen", PYTHONNOUSERSITE="1",
                   PIPX_HOME=str(pipx_home), PIPX_BIN_DIR=str(bin_dir), PIPX_MAN_DIR=str(base / "man"))  # fmt: skip
        env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
        env_dir = pipx_home / "venvs" / "inference-advisor"  # where pipx puts the app's own virtualenv
        py = _bin(env_dir, "python")
        advisor = str(bin_dir / ("advisor.exe" if os.name == "nt" else "advisor"))  # what the user's PATH gets

        def step(name: str, cmd: list[str], check=None, timeout: float = 300, input_text: str | None = None,
                 cwd: Path = work) -> str:  # fmt: skip
            t0 = time.monotonic()
            proc = _run(cmd, cwd=cwd, env=env, timeout=timeout, input_text=input_text)
            if check is not None:
                problem = check(proc.stdout)
                if problem:
                    raise SmokeFailure(f"{name}: {problem}\n--- stdout\n{proc.stdout[-2000:]}")
            steps.append({"step": name, "seconds": round(time.monotonic() - t0, 2)})
            return proc.stdout

        tools_py = _bin(tools_dir, "python")
        step("install pipx", [tools_py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "pipx"], timeout=600)
        # the README's line, run from the README's folder as a reader would
        step("install wheel", install_argv(tools_py, wheel), timeout=900, cwd=ROOT)
        # The import must come from the virtualenv, not from a checkout on sys.path.
        where = step("import location", [py, "-c", "import advisor, ui, resources; print(advisor.__file__)"])
        if str(ROOT) in where or str(env_dir) not in where:
            raise SmokeFailure(f"advisor was imported from {where.strip()}, not from pipx's virtualenv {env_dir}")
        step("resources are package data", [py, "-c",
             "from advisor.resources import resources_dir; d = resources_dir(); "
             "assert 'site-packages' in str(d), d; print(d)"])  # fmt: skip
        step("advisor --version", [advisor, "--version"])
        step("python -m advisor --version", [py, "-m", "advisor", "--version"])

        def calc_ok(out: str) -> str | None:
            data = json.loads(out)
            return None if data.get("weights_bytes", 0) > 0 and "fits" in data else "calc --json lacks its keys"

        step("advisor calc", [advisor, "calc", "--model", "qwen2.5-7b-instruct", "--gpu", "rtx-4090",
                              "--context", "8192", "--concurrency", "4", "--json"], check=calc_ok)  # fmt: skip
        step("advisor models", [advisor, "models", "--json"],
             check=lambda out: None if len(json.loads(out)) >= 10 else "fewer than 10 presets")
        step("zh_CN translations", [advisor, "calc", "--model", "qwen2.5-7b-instruct", "--gpu",
                                    "rtx-4090", "--lang", "zh_CN"],
             check=lambda out: None if "显存" in out or "权重" in out else "no Chinese text in zh_CN output")  # fmt: skip
        _sim_and_bench(step, advisor, env, work)
        has_plan = subprocess.run([advisor, "plan", "--help"], cwd=work, env=env,
                                  capture_output=True, timeout=60).returncode == 0  # fmt: skip
        if has_plan:
            step("advisor plan --template", [advisor, "plan", "--template"])
            example = _example_answers()
            if example is not None:
                shutil.copy(example, work / example.name)
                step("advisor plan --json", [advisor, "plan", "--answers", example.name, "--json"],
                     check=lambda out: None if "deployment_form" in json.loads(out) else "no deployment_form")
                step("PDF memo", [advisor, "plan", "--answers", example.name, "--memo", "memo.pdf",
                                  "--lang", "zh_CN"], timeout=180)  # fmt: skip
                pdf = work / "memo.pdf"
                if not pdf.is_file() or pdf.read_bytes()[:5] != b"%PDF-":
                    raise SmokeFailure("advisor plan --memo memo.pdf wrote no PDF")
        step("GUI first paint (offscreen)", [py, "-c", GUI_CHECK], timeout=120,
             check=lambda out: None if "painted" in out and "not painted" not in out else "the window never painted")
        return steps
    finally:
        if keep:
            print(f"kept {base}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)


def _example_answers() -> Path | None:
    examples = sorted((ROOT / "examples").glob("*.answers.json")) if (ROOT / "examples").is_dir() else []
    return examples[0] if examples else None


def _sim_and_bench(step, advisor: str, env: dict[str, str], work: Path) -> None:
    """`advisor sim` on a free port, then a short `advisor bench` against it; the server always stops."""
    sim = subprocess.Popen(
        [advisor, "sim", "--model", "qwen2.5-7b-instruct", "--gpu", "rtx-4090", "--weights", "bf16",
         "--port", "0", "--time-scale", "0.05"],
        cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert sim.stdout is not None
        line = sim.stdout.readline()
        if "listening on" not in line:
            raise SmokeFailure(f"advisor sim did not start: {line!r} {sim.stderr.read()[-2000:] if sim.stderr else ''}")
        url = line.split("listening on", 1)[1].strip()

        def bench_ok(out: str) -> str | None:
            data = json.loads(out)
            ok = sum(s.get("requests_ok", 0) for s in data.get("steps", []))
            return None if ok >= 4 else f"only {ok} requests succeeded"

        step("advisor bench against advisor sim", [advisor, "bench", "--url", url, "--model",
             "qwen2.5-7b-instruct", "--concurrency", "1,2", "--requests", "4", "--max-tokens", "16",
             "--prompt-tokens", "64", "--json", "--quiet"], check=bench_ok, timeout=180)  # fmt: skip
    finally:
        sim.terminate()
        try:
            sim.wait(timeout=15)
        except subprocess.TimeoutExpired:
            sim.kill()
            sim.wait(timeout=15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheel", type=Path, help="smoke-test this wheel instead of building one")
    parser.add_argument("--out", type=Path, default=ROOT / "dist", help="where to build (default dist/)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary virtualenv (path on stderr)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args()
    try:
        t0 = time.monotonic()
        wheel = args.wheel.resolve() if args.wheel else build(args.out)
        built_s = time.monotonic() - t0
        steps = smoke(wheel, keep=args.keep)
    except SmokeFailure as exc:
        print(f"dist smoke test FAILED: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps({"wheel": wheel.name, "build_s": round(built_s, 1), "steps": steps}))
    else:
        print(f"wheel: {wheel}  (built in {built_s:.0f} s)" if not args.wheel else f"wheel: {wheel}")
        for row in steps:
            print(f"  ok  {row['step']:<36} {row['seconds']:>7.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
