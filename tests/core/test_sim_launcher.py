"""advisor.sim.launcher: a real `advisor sim` child process, its readiness line, and a clean stop (no orphan)."""

from __future__ import annotations

import os
import signal

import httpx
import pytest

from advisor.sim.launcher import SimLauncher, SimLaunchError, SimLaunchSpec


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie still answers kill(0); read its state
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_start_serves_then_stop_leaves_no_process():
    launcher = SimLauncher(SimLaunchSpec(model="qwen2.5-7b-instruct", gpu="l4", time_scale=0.05))
    with launcher as sim:
        assert sim.base_url and sim.base_url.startswith("http://127.0.0.1:")
        pid = sim.pid
        assert pid is not None and os.getpgid(pid) == pid  # its own process group
        models = httpx.get(sim.base_url + "/v1/models", timeout=5).json()
        assert [m["id"] for m in models["data"]][0] == "qwen2.5-7b-instruct"
    assert not launcher.running and launcher.base_url is None
    assert not _alive(pid)
    launcher.stop()  # idempotent


def test_bad_arguments_fail_with_the_childs_reason():
    launcher = SimLauncher(SimLaunchSpec(model="no-such-model", gpu="l4"))
    with pytest.raises(SimLaunchError) as info:
        launcher.start()
    assert "exited before listening" in str(info.value)
    assert "no-such-model" in str(info.value)
    assert not launcher.running


def test_timeout_kills_the_whole_group(monkeypatch):
    # A child that never prints the ready line: the launcher gives up and kills it.
    spec = SimLaunchSpec(model="qwen2.5-7b-instruct", gpu="l4")
    monkeypatch.setattr(SimLaunchSpec, "argv", lambda self: ["sleep", "30"])
    launcher = SimLauncher(spec, start_timeout_s=0.5)
    with pytest.raises(SimLaunchError, match="did not start within"):
        launcher.start()
    assert not launcher.running


def test_sigterm_ignored_then_sigkill(monkeypatch):
    # A child ignoring SIGTERM is killed after the grace period.
    import sys

    code = (
        "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print('listening on http://127.0.0.1:1', flush=True); time.sleep(60)"
    )
    monkeypatch.setattr(SimLaunchSpec, "argv", lambda self: [sys.executable, "-c", code])
    launcher = SimLauncher(SimLaunchSpec(model="x", gpu="y"), start_timeout_s=10)
    launcher.start()
    pid = launcher.pid
    assert pid is not None
    launcher.stop(grace_s=0.3)
    assert not _alive(pid)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def test_no_orphan_when_the_launching_process_is_killed(tmp_path):
    # A middle process starts the server and is then SIGKILLed (no atexit, no stop): the watchdog ends the server.
    import subprocess
    import sys
    import time

    code = (
        "import sys, time\n"
        "from advisor.sim.launcher import SimLauncher, SimLaunchSpec\n"
        "l = SimLauncher(SimLaunchSpec(model='qwen2.5-7b-instruct', gpu='l4'))\n"
        "l.start()\n"
        "print(l.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    middle = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        sim_pid = int(middle.stdout.readline())
        assert _alive(sim_pid)
        middle.kill()
        middle.wait(5)
        deadline = time.monotonic() + 10
        while _alive(sim_pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(sim_pid)
    finally:
        middle.kill()
        middle.wait(5)
