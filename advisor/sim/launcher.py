"""Start `advisor sim ...` as a child process and stop it again, never leaving an orphan.

The child runs in its own process group (``start_new_session=True``), so stopping it sends SIGTERM and then,
after a grace period, SIGKILL to the whole group. Readiness is the one line the CLI prints on stdout,
``listening on http://127.0.0.1:PORT``; anything else the child writes goes to stderr and is kept (last lines)
to explain a failed start.

    with SimLauncher(SimLaunchSpec(model="qwen2.5-7b-instruct", gpu="l4", time_scale=0.1)) as sim:
        base_url = sim.base_url   # "http://127.0.0.1:PORT"

Qt-free: the benchmark page and the quantization A/B use it from a worker thread.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass
from pathlib import Path

READY_PREFIX = "listening on "


class SimLaunchError(RuntimeError):
    """The simulated server did not start (bad arguments, port in use, timeout); the message says why."""


@dataclass(frozen=True)
class SimLaunchSpec:
    """The `advisor sim` arguments (see ``advisor sim --help``); ``port=0`` picks a free port."""

    model: str
    gpu: str
    weights: str | None = None
    gpus: int = 1
    kv_dtype: str = "bf16"
    context: int | None = None
    max_num_seqs: int | None = None
    time_scale: float = 1.0
    faults: str | None = None
    seed: int = 0
    text_lang: str = "en"
    api_key: str | None = None
    ground_truth: Path | None = None
    port: int = 0
    answer_error_rate: float | None = None  # share of the built-in scored samples answered wrong (None: by format)

    def argv(self) -> list[str]:
        # The server runs under a watchdog (see _WATCHDOG): if this process dies without stopping it (SIGKILL,
        # a crash), the watchdog sees the parent change and ends the server's whole process group.
        args = [sys.executable, "-c", _WATCHDOG, str(os.getpid()), "sim", "--model", self.model, "--gpu", self.gpu,
                "--gpus", str(self.gpus), "--kv-dtype", self.kv_dtype, "--port", str(self.port),
                "--time-scale", repr(float(self.time_scale)), "--seed", str(self.seed), "--text-lang", self.text_lang]  # fmt: skip
        if self.weights:
            args += ["--weights", self.weights]
        if self.context:
            args += ["--context", str(self.context)]
        if self.max_num_seqs:
            args += ["--max-num-seqs", str(self.max_num_seqs)]
        if self.faults:
            args += ["--faults", self.faults]
        if self.ground_truth:
            args += ["--ground-truth", str(self.ground_truth)]
        if self.answer_error_rate is not None:
            args += ["--answer-error-rate", repr(float(self.answer_error_rate))]
        return args


# Runs `advisor <args>` in this same interpreter with a daemon thread that polls the parent pid: when the
# launching process is gone (the child was re-parented), SIGTERM then SIGKILL to the child's own process group.
_WATCHDOG = """
import os, runpy, signal, sys, threading, time
parent = int(sys.argv[1])
def watch():
    while os.getppid() == parent:
        time.sleep(0.5)
    group = os.getpgid(0)
    os.killpg(group, signal.SIGTERM)
    time.sleep(2.0)
    os.killpg(group, signal.SIGKILL)
threading.Thread(target=watch, daemon=True).start()
sys.argv = ["advisor"] + sys.argv[2:]
runpy.run_module("advisor", run_name="__main__", alter_sys=True)
"""

_live: weakref.WeakSet[SimLauncher] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:  # the interpreter exits: no simulated server outlives it
    for launcher in list(_live):
        with contextlib.suppress(Exception):
            launcher.stop(grace_s=1.0)


class SimLauncher:
    """One child `advisor sim` process. ``start()`` blocks until it listens (or raises SimLaunchError)."""

    def __init__(self, spec: SimLaunchSpec, *, start_timeout_s: float = 30.0) -> None:
        self.spec = spec
        self.start_timeout_s = start_timeout_s
        self.base_url: str | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._stderr_tail: deque[str] = deque(maxlen=20)
        self._lock = threading.Lock()

    # -------------------------------------------------------------------------------------------- state
    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def stderr_tail(self) -> str:
        return "\n".join(self._stderr_tail)

    # -------------------------------------------------------------------------------------------- start
    def start(self) -> str:
        """Start the child and wait for its "listening on" line; returns the base URL."""
        with self._lock:
            if self.running and self.base_url:
                return self.base_url
            env = dict(os.environ)
            argv = self.spec.argv()
            if self.spec.api_key:  # a made-up key for the local simulated server only, never a real one
                argv += ["--api-key", self.spec.api_key]
            env.setdefault("PYTHONUNBUFFERED", "1")
            try:
                proc = subprocess.Popen(
                    argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                    encoding="utf-8", errors="replace", env=env, start_new_session=True, bufsize=1,
                )  # fmt: skip
            except OSError as exc:
                raise SimLaunchError(f"cannot start the simulated server: {exc}") from None
            self._proc = proc
            _live.add(self)
            threading.Thread(target=self._drain_stderr, args=(proc,), daemon=True, name="sim-stderr").start()
            ready: list[str] = []
            done = threading.Event()
            eof = threading.Event()

            def read_stdout() -> None:
                assert proc.stdout is not None
                for line in proc.stdout:
                    line = line.strip()
                    if line.startswith(READY_PREFIX) and not ready:
                        ready.append(line[len(READY_PREFIX) :].strip())
                        done.set()
                eof.set()  # EOF: the child exited (or closed stdout)
                done.set()

            threading.Thread(target=read_stdout, daemon=True, name="sim-stdout").start()
            done.wait(self.start_timeout_s)
            if not ready:
                if eof.is_set():  # stdout closed: the child is exiting; let it finish saying why
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        proc.wait(timeout=5.0)
                exited = proc.poll() is not None
                self._stop_locked(grace_s=1.0)
                time.sleep(0.05)  # let the stderr reader take the last lines
                detail = self.stderr_tail.strip().splitlines()[-1:] or [""]
                if exited:
                    raise SimLaunchError(
                        f"the simulated server exited before listening: {detail[0]}".rstrip(": ")
                    )
                raise SimLaunchError(f"the simulated server did not start within {self.start_timeout_s:g} s")
            self.base_url = ready[0]
            return self.base_url

    def _drain_stderr(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            self._stderr_tail.append(line.rstrip("\n"))

    # --------------------------------------------------------------------------------------------- stop
    def stop(self, grace_s: float = 3.0) -> None:
        """SIGTERM to the whole process group, then SIGKILL after ``grace_s``; idempotent."""
        with self._lock:
            self._stop_locked(grace_s)

    def _stop_locked(self, grace_s: float) -> None:
        proc, self._proc = self._proc, None
        self.base_url = None
        _live.discard(self)
        if proc is None:
            return
        pgid = proc.pid  # start_new_session: the child leads its own group
        _signal_group(pgid, signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
        _signal_group(pgid, signal.SIGKILL)  # also reaps any grandchild left in the group
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)
        for stream in (proc.stdout, proc.stderr):
            with contextlib.suppress(Exception):
                if stream:
                    stream.close()

    def __enter__(self) -> SimLauncher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)
