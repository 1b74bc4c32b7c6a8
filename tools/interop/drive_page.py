"""Drive the real Benchmark page, in the real main window, against a REAL server — the way a newcomer would.

    python tools/interop/drive_page.py --url http://127.0.0.1:PORT --engine llamacpp
    python tools/interop/drive_page.py --url … --engine vllm --lang en zh_CN --theme light --steps tour
    python tools/interop/drive_page.py --url … --engine llamacpp --steps stop kill --kill-pid PID

Re-runs itself under ``xvfb-run`` when there is no display. Each (language, theme) runs in a fresh process with its
settings and history in a temporary ADVISOR_HOME. Steps:

- ``tour``: "A server URL" → type the URL → Connect (the probe: engine, dialect, model ids, /metrics, usage) →
  pick the served model → a short ramp (1, 2, 4) the tiny CPU model serves in seconds → Start → watch the live view
  (sample text, TTFT scatter, tokens/s, GPU panel) → the result (step table, knee sentence, SLO verdict) → a run
  against the embedded simulated server → History: find the real run, open it, compare it with the simulated one.
- ``stop``: a long fixed-concurrency run, Stop after a few answers: it must end within a second, keep what was
  measured, and History must say "stopped".
- ``kill``: the server (``--kill-pid``) is killed mid-run: the result must say failed/degraded/interrupted, never
  "completed". Run it last: the server is gone afterwards.

Screenshots go to ``--out`` as ``real-<engine>-<lang>-<theme>-<stage>.png``; what the page showed, and every check
that failed, go to ``--report`` (JSON, one object per (language, theme) under ``runs``). Exit status 1 when a check
failed. Only loopback traffic: the URL must be http://127.0.0.1 or localhost.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
SCREEN = "1400x900x24"
SIM_MODEL, SIM_GPU = "qwen2.5-3b", "l4"
RUN_LIMIT_S = 240  # one run of the tiny CPU model takes seconds; a hang is a bug, not a slow machine


class Driver:
    """A small step sequencer on the Qt event loop: each step waits for a condition (polled every 100 ms),
    then acts. A step that times out is recorded as a failed check and the tour ends (screenshots so far kept)."""

    def __init__(self, app: Any, window: Any, args: argparse.Namespace, lang: str, theme: str) -> None:
        from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool

        self.app, self.window, self.args, self.lang, self.theme = app, window, args, lang, theme
        self.page = window.benchmark_page
        self.history = window.history_page
        self.report: dict[str, Any] = {"lang": lang, "theme": theme, "engine": args.engine, "url": args.url,
                                       "checks": [], "failed": [], "screenshots": []}  # fmt: skip
        self.steps: list[tuple[str, Callable[[], bool], Callable[[], None], float]] = []
        self.current: tuple[str, Callable[[], bool], Callable[[], None], float] | None = None
        self.deadline = 0.0
        self.timer = QTimer()
        self.timer.setInterval(100)
        self.timer.timeout.connect(self._tick)
        self.live_seen: dict[str, Any] = {}
        self.results: dict[str, dict[str, Any]] = {}
        self.page.run_finished.connect(self._on_finished)
        self.page.live_updated.connect(self._on_live)
        self.page.probed.connect(lambda r: self.report.setdefault("probes", []).append(
            None if r is None else r.model_dump(mode="json")))  # fmt: skip
        self._finished_at: float | None = None

    # -------------------------------------------------------------------------------------- plumbing
    def add(self, name: str, until: Callable[[], bool], then: Callable[[], None], timeout_s: float = 60) -> None:
        self.steps.append((name, until, then, timeout_s))

    def start(self) -> None:
        self._advance()
        self.timer.start()

    def _advance(self) -> None:
        if not self.steps:
            self.current = None
            self.timer.stop()
            self.app.quit()
            return
        self.current = self.steps.pop(0)
        self.deadline = time.monotonic() + self.current[3]
        print(f"[{self.lang}/{self.theme}] {self.current[0]}", flush=True)

    def _tick(self) -> None:
        if self.current is None:
            return
        name, until, then, _t = self.current
        try:
            ready = until()
        except Exception as exc:  # noqa: BLE001 - a broken condition is a failed check, not a crash
            self.fail(f"{name}: {type(exc).__name__}: {exc}")
            ready = True
        if not ready:
            if time.monotonic() > self.deadline:
                self.fail(f"{name}: timed out after {self.current[3]:.0f} s")
                self.steps.clear()
                self._advance()
            return
        try:
            then()
        except Exception as exc:  # noqa: BLE001
            import traceback

            traceback.print_exc()
            self.fail(f"{name}: {type(exc).__name__}: {exc}")
        self._advance()

    def check(self, what: str, ok: bool, detail: Any = "") -> bool:
        self.report["checks"].append({"check": what, "ok": bool(ok), "detail": str(detail)[:2000]})
        if not ok:
            self.fail(f"{what}: {detail}")
        else:
            print(f"  ok: {what}", flush=True)
        return ok

    def fail(self, text: str) -> None:
        print(f"  FAILED: {text}", flush=True)
        self.report["failed"].append(text)

    def grab(self, stage: str) -> None:
        self.app.processEvents()
        pixmap = self.window.grab()
        path = Path(self.args.out) / f"real-{self.args.engine}-{self.lang}-{self.theme}-{stage}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        pixmap.save(str(path))
        self.report["screenshots"].append(str(path))
        print(f"  screenshot {path}", flush=True)

    def _on_finished(self, result: dict[str, Any]) -> None:
        self._finished_at = time.monotonic()
        self.results[result.get("run_id") or f"unsaved-{len(self.results)}"] = result
        self.last = result

    def _on_live(self) -> None:
        b = self.page.session.buffers
        seen = self.live_seen
        if not self.page.session.running:
            return
        seen["ttft_points"] = max(seen.get("ttft_points", 0), len(self.page.ttft_scatter.data))
        seen["tok_s_max"] = max(seen.get("tok_s_max", 0.0), float(b.tok_s.xy()[1].max()) if len(b.tok_s) else 0.0)
        seen["itl_points"] = max(seen.get("itl_points", 0), len(self.page.itl_p50.getData()[0] if self.page.itl_p50.getData()[0] is not None else []))
        seen["active_max"] = max(seen.get("active_max", 0.0), float(b.active.xy()[1].max()) if len(b.active) else 0.0)
        text = self.page.sample_text.toPlainText()
        if text:
            lengths = seen.setdefault("sample_lengths", [])
            if not lengths or lengths[-1] != len(text):
                lengths.append(len(text))  # the text grew over several refreshes: it streamed in
        seen["sample_title"] = self.page.sample_title.text()
        seen["gpu_panel"] = self.page.gpu_panel.field_texts()
        seen["counts"] = self.page.counts_label.text()

    # ---------------------------------------------------------------------------------------- steps
    def connect_to_server(self) -> None:
        from PySide6.QtTest import QTest  # noqa: TID251

        page = self.page
        self.window.tabs.setCurrentWidget(page)
        page.url_radio.click()
        page.url_edit.clear()
        QTest.keyClicks(page.url_edit, self.args.url)
        page.url_edit.editingFinished.emit()
        page.model_pick.setCurrentText("")
        self._probes_before = len(self.report.get("probes", []))
        page.connect_button.click()

    def probed(self) -> bool:
        return len(self.report.get("probes", [])) > self._probes_before

    def after_probe(self, shot: bool = True) -> None:
        page = self.page
        probe = self.report["probes"][-1]
        self.report["probe_label"] = page.probe_label.text()
        self.check("the probe succeeded", probe is not None and probe.get("ok"), page.probe_label.text())
        if probe is None:
            return
        models = probe.get("models") or []
        self.check("the probe lists the served model ids", bool(models), models)
        want = self.args.model or (models[0] if models else "")
        i = page.model_pick.findText(want)
        self.check(f"the model picker offers {want!r}", i >= 0, [page.model_pick.itemText(k)
                                                                  for k in range(page.model_pick.count())])
        page.model_pick.setCurrentIndex(i)
        if self.args.expect_dialect:
            self.check(f"the probe names the engine ({self.args.expect_dialect})",
                       probe.get("dialect") == self.args.expect_dialect, page.probe_label.text())  # fmt: skip
        if shot:
            self.grab("connect")

    def set_workload(self, *, shape: str, max_c: int = 4, concurrency: int = 1, requests: int = 8,
                     sample: bool = True) -> None:  # fmt: skip
        page = self.page
        page.prompt_mean.setValue(self.args.prompt_tokens)
        page.output_mean.setValue(self.args.output_tokens)
        page.shape_box.setCurrentIndex(page.shape_box.findData(shape))
        page.max_concurrency.setValue(max_c)
        page.concurrency.setValue(concurrency)
        page.requests.setValue(requests)
        page.ttft_slo.setValue(self.args.ttft_slo)
        page.tpot_slo.setValue(self.args.tpot_slo)
        page.sample_check.setChecked(sample)

    def start_run(self) -> None:
        self.live_seen.clear()
        self._finished_at = None
        self.last = None
        self._started_at = time.monotonic()
        self.page.start_button.click()
        self.check("Start began a run", self.page.session.running, self.page.run_error.text())

    def one_at_a_time(self) -> bool:
        from advisor.bench.probe import one_request_at_a_time

        return one_request_at_a_time(self.page.session.probe)

    def live_ready(self) -> bool:
        s = self.live_seen
        sample = self.one_at_a_time() or len(s.get("sample_lengths", [])) >= 2
        return bool(self.page.session.running and s.get("ttft_points", 0) >= 2 and s.get("tok_s_max", 0) > 0
                    and sample) or self._finished_at is not None  # fmt: skip

    def after_live(self) -> None:
        if self._finished_at is None:
            self.grab("live")
        s = self.live_seen
        self.report["live"] = {k: v for k, v in s.items() if k != "sample_lengths"}
        self.report["live"]["sample_growth"] = s.get("sample_lengths", [])[:20]
        self.check("the live TTFT scatter has points", s.get("ttft_points", 0) > 0, s)
        self.check("the live tokens/s moved", s.get("tok_s_max", 0) > 0, s)
        if self.one_at_a_time():  # an extra request would cut off a measured one: the page must say why none
            self.check("no sample request to a one-request-at-a-time server, and the page says why",
                       not s.get("sample_lengths") and any(w in s.get("sample_title", "") for w in
                                                           ("one request at a time", "一次只处理一个请求")),
                       s.get("sample_title"))  # fmt: skip
        else:
            self.check("the sample answer streamed in (its text grew over refreshes)",
                       len(s.get("sample_lengths", [])) >= 2, s.get("sample_lengths"))  # fmt: skip

    def finished(self) -> bool:
        return self._finished_at is not None

    def after_result(self, stage: str = "result") -> None:
        page, r = self.page, self.last or {}
        view = page.result_view
        steps = r.get("steps") or []
        self.report.setdefault("results", []).append({
            "stage": stage, "status": r.get("status"), "run_id": r.get("run_id"),
            "status_text": view.status.text(), "knee": view.knee.text(), "evidence": view.evidence.text(),
            "verdict": view.verdict.text(), "client_note": view.client_note.text() if view.client_note.isVisible() else "",
            "memory": view.memory.text(), "table_rows": view.table.rowCount(),
            "steps": [{k: s.get(k) for k in ("concurrency", "requests_ok", "requests_failed", "failures", "status",
                                              "output_tokens_per_s", "output_tokens_sources", "itl_kind",
                                              "achieved_concurrency", "stop_reason", "client")}
                      | {m: {p: (s.get(m) or {}).get(p) for p in ("p50", "p99")}
                         for m in ("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms")}
                      for s in steps],
            "gpu_panel": page.gpu_panel.field_texts(),
        })  # fmt: skip
        res = self.report["results"][-1]
        print(f"  result: {res['status']} | {res['knee']} | {res['verdict']}", flush=True)
        failed = sum(s.get("requests_failed") or 0 for s in steps)
        ok = sum(s.get("requests_ok") or 0 for s in steps)
        self.check("the result shows one table row per step", view.table.rowCount() == len(steps), len(steps))
        self.check("some requests succeeded", ok > 0, r.get("status"))
        if r.get("status") == "completed":  # a ramp's last step may cross the error rate: it found the limit
            judged = steps[:-1] if steps and steps[-1].get("stop_reason") == "error_rate" else steps
            self.check("a completed run has every step ok (but a ramp's last, limit-finding one)",
                       all(s.get("status") == "ok" for s in judged), [s.get("status") for s in steps])  # fmt: skip
        if failed:
            self.check("the result says which requests failed and why", bool(view.client_note.text())
                       and view.client_note.isVisible(), view.client_note.text())  # fmt: skip
        self.check("the knee sentence is there", bool(view.knee.text()), view.knee.text())
        self.check("the SLO verdict is there", bool(view.verdict.text()), view.verdict.text())
        if failed:
            self.check("failures are visible in the live counts", "C0392B" in page.counts_label.styleSheet(),
                       page.counts_label.text())  # fmt: skip
        self.grab(stage)

    def start_sim_run(self) -> None:
        page = self.page
        page.sim_radio.click()
        page.sim_model.setCurrentIndex(max(0, page.sim_model.findData(SIM_MODEL)))
        page.sim_gpu.setCurrentIndex(max(0, page.sim_gpu.findData(SIM_GPU)))
        page.sim_speed.setValue(0.2)
        self._sim_probes = len(self.report.get("probes", []))
        page.sim_button.click()

    def sim_ready(self) -> bool:
        return self.page.sim_url is not None and len(self.report.get("probes", [])) > self._sim_probes

    def open_history(self) -> None:
        self._listed = False
        self.history.listed.connect(self._on_listed)
        self.window.tabs.setCurrentWidget(self.history)  # its showEvent refreshes the list

    def _on_listed(self, _n: int) -> None:
        self._listed = True

    def history_listed(self) -> bool:
        return self._listed and bool(self.history.runs)

    def find_real_run(self) -> None:
        h = self.history
        real = [r for r in h.runs if r.run_id == self.real_run_id]
        self.report["history"] = [{"run_id": r.run_id, "status": r.status, "url": r.url, "simulated": r.simulated,
                                   "knee": r.knee_concurrency, "ok": r.requests_ok, "failed": r.requests_failed,
                                   "reason": r.status_reason} for r in h.runs]  # fmt: skip
        if not self.check("History lists the real run", bool(real), self.report["history"]):
            return
        run = real[0]
        self.check("History shows the real run as not simulated", not run.simulated, run)
        self.check("History's status matches the result", run.status == self.real_status, (run.status, self.real_status))
        h.tabs.setCurrentIndex(0)  # the list (after the tour the page still shows its comparison)
        h.select(run.run_id)
        self.grab("history" if self.real_status != "stopped" else "stopped-history")
        self._opened = False
        h.opened.connect(lambda _rid: setattr(self, "_opened", True))
        h.open_run(run.run_id)

    def after_open(self) -> None:
        view = self.history.result_view
        self.check("the reopened run shows its steps", view.table.rowCount() == len(self.real_steps),
                   view.table.rowCount())  # fmt: skip
        self.grab("history-result")
        sims = [r for r in self.history.runs if r.simulated and r.status != "failed"]
        if not self.check("History has a simulated run to compare with", bool(sims), self.report["history"]):
            return
        self._compared = False
        self.history.compared.connect(lambda: setattr(self, "_compared", True))
        self.history.set_checked([self.real_run_id, sims[0].run_id])
        self.history.compare_button.click()

    def after_compare(self) -> None:
        diff = self.history.differences
        self.check("the comparison table has rows", diff.rowCount() > 0, diff.rowCount())
        self.grab("compare")

    def stop_now(self) -> None:
        self._stop_clicked = time.monotonic()
        self.page.stop_button.click()

    def after_stop(self) -> None:
        r = self.last or {}
        took = (self._finished_at or 0) - self._stop_clicked
        self.report["stop"] = {"seconds_to_end": round(took, 3), "status": r.get("status"),
                               "ok": sum(s.get("requests_ok") or 0 for s in r.get("steps") or [])}  # fmt: skip
        self.check("Stop ended the run within a second", took < 1.0, f"{took:.3f} s")
        self.check("the stopped run says 'stopped'", r.get("status") == "stopped", r.get("status"))
        self.check("what was measured before Stop is kept", self.report["stop"]["ok"] >= 2, self.report["stop"])
        self.real_run_id, self.real_status, self.real_steps = r.get("run_id"), "stopped", r.get("steps") or []
        self.after_result("stopped")

    def kill_server(self) -> None:
        self._killed_at = time.monotonic()
        pid = self.args.kill_pid
        if os.getpgid(pid) == pid:  # started in its own session (vLLM's engine core is a child process): all of it
            os.killpg(pid, signal.SIGKILL)
        else:
            os.kill(pid, signal.SIGKILL)
        print(f"  killed server pid {pid}", flush=True)

    def after_kill(self) -> None:
        r = self.last or {}
        self.report["kill"] = {"status": r.get("status"), "seconds_after_kill": round((self._finished_at or 0)
                               - self._killed_at, 2), "error": r.get("error")}  # fmt: skip
        self.check("a run whose server died is not 'completed'", r.get("status") != "completed", r.get("status"))
        self.check("the result status says so", r.get("status") in ("failed", "degraded", "interrupted"),
                   r.get("status"))  # fmt: skip
        self.after_result("killed")

    # ------------------------------------------------------------------------------------------ plans
    def plan(self, steps: list[str]) -> None:
        a = self.args
        ok_after = lambda n: lambda: self.page.session.buffers.ok >= n  # noqa: E731
        if "tour" in steps:
            self.add("Connect", lambda: self.window.isVisible(), self.connect_to_server, 10)
            self.add("probe shown", self.probed, self.after_probe, 60)
            self.add("Start the ramp", lambda: True,
                     lambda: (self.set_workload(shape="ramp", max_c=a.max_concurrency, requests=a.requests),
                              self.start_run()))  # fmt: skip
            self.add("live view moving", self.live_ready, self.after_live, RUN_LIMIT_S)
            self.add("run finished", self.finished, self.after_result, RUN_LIMIT_S)
            self.add("remember the real run", lambda: True, self._remember_real)
            if a.sim_compare:
                self.add("start the simulated server", lambda: True, self.start_sim_run)
                self.add("simulated server up", self.sim_ready, lambda: (
                    self.set_workload(shape="ramp", max_c=a.max_concurrency, requests=a.requests, sample=False),
                    self.start_run()), 60)  # fmt: skip
                self.add("simulated run finished", self.finished, lambda: self.page.stop_sim(), RUN_LIMIT_S)
            self.add("open History", lambda: True, self.open_history)
            self.add("History listed", self.history_listed, self.find_real_run, 30)
            self.add("run opened", lambda: getattr(self, "_opened", False), self.after_open, 30)
            if a.sim_compare:
                self.add("compared", lambda: getattr(self, "_compared", False), self.after_compare, 30)
        if "stop" in steps or "kill" in steps:
            self.add("back to Benchmark", lambda: True, lambda: self.window.tabs.setCurrentWidget(self.page))
            # (again after the tour: its simulated run left the simulated model in the model picker)
            self.add("Connect", lambda: self.window.isVisible(), self.connect_to_server, 10)
            self.add("probe shown", self.probed, lambda: self.after_probe(shot=False), 60)  # the tour's shot
        if "stop" in steps:
            self.add("Start a long run", lambda: self.page.url_radio.isChecked(), lambda: (
                self.set_workload(shape="fixed", concurrency=1, requests=100_000, sample=False),
                self.start_run()))  # fmt: skip
            self.add("Stop after a few answers", ok_after(3), self.stop_now, RUN_LIMIT_S)
            self.add("stopped", self.finished, self.after_stop, 30)
            self.add("open History (stopped)", lambda: True, self.open_history)
            self.add("History shows 'stopped'", self.history_listed, self.find_real_run, 30)
            self.add("stopped run opened", lambda: getattr(self, "_opened", False),
                     lambda: self.grab("stopped-history-result"), 30)  # fmt: skip
            self.add("back to Benchmark", lambda: True, lambda: self.window.tabs.setCurrentWidget(self.page))
        if "kill" in steps and a.kill_pid:
            self.add("Start a ramp to kill", lambda: True, lambda: (
                self.set_workload(shape="ramp", max_c=a.max_concurrency, requests=a.requests, sample=False),
                self.start_run()))  # fmt: skip
            self.add("kill the server mid-run", ok_after(a.kill_after_ok), self.kill_server, RUN_LIMIT_S)
            self.add("run ended by itself", self.finished, self.after_kill, RUN_LIMIT_S)

    def _remember_real(self) -> None:
        r = self.last or {}
        self.real_run_id, self.real_status, self.real_steps = r.get("run_id"), r.get("status"), r.get("steps") or []


def _drive(args: argparse.Namespace, lang: str, theme: str) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QTimer  # noqa: TID251 - a UI tool
    from PySide6.QtWidgets import QApplication  # noqa: TID251

    from ui.app import create_window  # noqa: TID251
    from ui.theme import apply_theme  # noqa: TID251

    app = QApplication([sys.argv[0]])
    window = create_window(app, lang)
    apply_theme(app, theme)
    window.resize(1380, 880)
    window.move(10, 10)
    window.welcome.setVisible(False)  # the newcomer's hints, dismissed: the screenshots need the room
    window.show()
    window.benchmark_page.apply_theme()
    driver = Driver(app, window, args, lang, theme)
    driver.plan(args.steps)
    QTimer.singleShot(800, driver.start)
    QTimer.singleShot(int(args.limit_s * 1000), lambda: (driver.fail("the whole drive took too long"), app.quit()))
    app.exec()
    window.set_modified(False)
    window.shutdown()
    return driver.report


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--url", required=True)
    ap.add_argument("--engine", required=True, help="a name for the files: llamacpp, vllm, …")
    ap.add_argument("--model", default="", help="the model id to pick (default: the first one the probe lists)")
    ap.add_argument("--expect-dialect", default="", help="fail unless the probe names this dialect")
    ap.add_argument("--lang", nargs="+", default=["en", "zh_CN"])
    ap.add_argument("--theme", nargs="+", default=["light"])
    ap.add_argument("--steps", nargs="+", default=["tour"], choices=["tour", "stop", "kill"])
    ap.add_argument("--kill-pid", type=int, default=0, help="the server's pid, for --steps kill")
    ap.add_argument("--kill-after-ok", type=int, default=0, metavar="N",
                    help="kill it after N answers (default: one more than --requests, i.e. in the ramp's 2nd step)")
    ap.add_argument("--prompt-tokens", type=int, default=64)
    ap.add_argument("--output-tokens", type=int, default=48)
    ap.add_argument("--max-concurrency", type=int, default=4)
    ap.add_argument("--requests", type=int, default=8)
    ap.add_argument("--ttft-slo", type=float, default=2000)
    ap.add_argument("--tpot-slo", type=float, default=100)
    ap.add_argument("--no-sim-compare", dest="sim_compare", action="store_false")
    ap.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    ap.add_argument("--report", default=str(ROOT / ".interop" / "page-report.json"))
    ap.add_argument("--limit-s", type=float, default=900)
    ap.add_argument("--one", nargs=3, metavar=("LANG", "THEME", "JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.kill_after_ok = args.kill_after_ok or args.requests + 1
    host = urlparse(args.url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        ap.error("this check sends load only to a server on this machine (127.0.0.1)")
    if args.one:
        report = _drive(args, args.one[0], args.one[1])
        Path(args.one[2]).write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
        return 1 if report["failed"] else 0
    if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
        return subprocess.call(["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", sys.executable, *sys.argv])
    reports, code = [], 0
    for lang in args.lang:
        for theme in args.theme:
            with tempfile.TemporaryDirectory() as home:
                env = {**os.environ, "ADVISOR_HOME": home, "XDG_CONFIG_HOME": home, "XDG_DATA_HOME": home}
                out = Path(home) / "report.json"
                rc = subprocess.call([sys.executable, __file__, *sys.argv[1:], "--one", lang, theme, str(out)], env=env)
                report = json.loads(out.read_text(encoding="utf-8")) if out.exists() else \
                    {"lang": lang, "theme": theme, "failed": [f"the drive process exited {rc} without a report"]}  # fmt: skip
                reports.append(report)
                code = code or rc or (1 if report["failed"] else 0)
    Path(args.report).parent.mkdir(parents=True, exist_ok=True)
    Path(args.report).write_text(json.dumps({"runs": reports}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for rep in reports:
        status = "FAILED: " + "; ".join(rep["failed"]) if rep["failed"] else "all checks passed"
        print(f"{rep['lang']}/{rep['theme']}: {status}")
    print(f"report: {args.report}")
    return code


if __name__ == "__main__":
    sys.exit(main())
