"""Issue #29, secrets and injection (items 5-8): a credential in the URL, a key echoed by the server, a key
that would inject headers, and server text bound for a terminal or a spreadsheet. Real CLI runs against the
hostile server on loopback; every place a secret could land (stdout, stderr, the database file, the exports)
is searched for it."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from advisor.redact import csv_cell, terminal_text
from tests.robustness.hostile import HostileServer, Reply, chunk, sse

ROOT = Path(__file__).resolve().parents[2]
SECRET = "sk-TOPSECRET-4242"


def _advisor(*args, env_extra=None, timeout=90):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("ADVISOR_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=env)


def _everything(tmp_path: Path, proc) -> str:
    """stdout, stderr and the bytes of every file the run left (the database, its WAL, exports)."""
    text = proc.stdout + proc.stderr
    for f in tmp_path.rglob("*"):
        if f.is_file():
            text += f.read_bytes().decode("utf-8", "replace")
    return text


def _bench(url, tmp_path, *extra, env_extra=None):
    return _advisor("bench", "--url", url, "--model", "m", "--requests", "2", "--warmup", "0", "--no-telemetry",
                    "--db", str(tmp_path / "b.sqlite3"), "--timeout", "10", "--json", *extra, env_extra=env_extra)


def test_a_password_in_the_url_is_refused_and_never_written(tmp_path):
    with HostileServer() as srv:
        url = f"http://user:{SECRET}@127.0.0.1:{srv.port}/v1"
        proc = _bench(url, tmp_path, "--out", str(tmp_path / "r.json"))
    assert proc.returncode == 2, proc.stderr
    assert "ADVISOR_API_KEY" in proc.stderr and "***@" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert SECRET not in _everything(tmp_path, proc)
    assert srv.posts() == 0


def test_an_api_key_echoed_by_the_server_is_masked_everywhere(tmp_path):
    def echo(path, body):
        msg = {"error": {"message": f"invalid key {SECRET} for this model", "type": "auth"}}
        return Reply([json.dumps(msg).encode()], status=401, content_type="application/json", chunked=False)

    with HostileServer(echo) as srv:
        proc = _bench(srv.url, tmp_path, "--no-probe", "--out", str(tmp_path / "r.json"),
                      env_extra={"ADVISOR_API_KEY": SECRET})
        run_id = json.loads(proc.stdout)["run_id"]
        exp = _advisor("bench", "--db", str(tmp_path / "b.sqlite3"), "--export", run_id, "--out",
                       str(tmp_path / "e.csv"))
        exp_json = _advisor("bench", "--db", str(tmp_path / "b.sqlite3"), "--export", run_id)
    assert exp.returncode == 0, exp.stderr
    assert "invalid key *** for this model" in proc.stderr + proc.stdout
    everything = _everything(tmp_path, proc) + exp_json.stdout
    assert SECRET not in everything
    assert "***" in exp_json.stdout


def test_an_api_key_with_a_line_break_is_refused_before_any_request(tmp_path):
    with HostileServer() as srv:
        proc = _bench(srv.url, tmp_path, env_extra={"ADVISOR_API_KEY": "abc\r\nX-Injected: yes"})
        got = list(srv.requests)
    assert proc.returncode == 2, proc.stderr
    assert "line break" in proc.stderr and "Traceback" not in proc.stderr
    assert got == []


def test_a_non_ascii_api_key_is_refused_with_a_clear_message(tmp_path):
    with HostileServer() as srv:
        proc = _bench(srv.url, tmp_path, env_extra={"ADVISOR_API_KEY": "sk-“quoted”"})
        got = list(srv.requests)
    assert proc.returncode == 2
    assert "non-ASCII" in proc.stderr and "Traceback" not in proc.stderr
    assert got == []


def test_server_error_text_reaches_the_terminal_escaped(tmp_path):
    evil = "bad\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\rFAKE OK line\x9b31m"

    def fail(path, body):
        msg = {"error": {"message": evil, "type": "x"}}
        return Reply([json.dumps(msg).encode()], status=500, content_type="application/json", chunked=False)

    with HostileServer(fail) as srv:
        proc = _bench(srv.url, tmp_path, "--no-probe")
    assert "bad" in proc.stderr
    for raw in ("\x1b", "\x07", "\r", "\x9b"):
        assert raw not in proc.stderr
    assert "\\x1b[2J" in proc.stderr


def test_server_chosen_text_in_csv_cannot_be_a_formula(tmp_path):
    def formula(path, body):
        return Reply(sse(chunk({"content": "hello there"}), chunk({"content": "x"}, finish="=HYPERLINK(\"http://evil\")"),
                         {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 2}}))

    with HostileServer(formula) as srv:
        proc = _bench(srv.url, tmp_path, "--no-probe", "--out", str(tmp_path / "r.csv"))
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert rows, proc.stderr
    for row in rows:
        for cell in row.values():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
        assert row["finish_reason"].startswith("'=")
        assert "unknown_finish_reason" in row["anomalies"]
        # a formula is no server's finish word: the answer is not counted as a success (issue 29, item 8)
        assert row["outcome"] == "invalid" and row["error_class"] == "malformed_finish_reason", row


def test_an_unknown_but_plain_finish_word_stays_ok_and_flagged(tmp_path):
    """A server's own word for finishing ("end_turn") is kept as ok, flagged as an anomaly; only text that is no
    finish word (a formula, a sentence) fails the answer."""

    def plain(path, body):
        return Reply(sse(chunk({"content": "hello there"}), chunk({"content": "x"}, finish="end_turn"),
                         {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 2}}))

    with HostileServer(plain) as srv:
        proc = _bench(srv.url, tmp_path, "--no-probe", "--out", str(tmp_path / "r.csv"))
    rows = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text())))
    assert rows, proc.stderr
    assert all(r["outcome"] == "ok" and "unknown_finish_reason" in r["anomalies"] for r in rows), rows[0]


def test_the_escaping_functions():
    assert terminal_text("a\x1b[31mb\nc") == "a\\x1b[31mb\nc"
    assert terminal_text("a\nb", one_line=True) == "a\\x0ab"
    assert csv_cell("=1+1") == "'=1+1"
    assert csv_cell("-2+3") == "'-2+3"
    assert csv_cell(-2.5) == -2.5
    assert csv_cell("ok") == "ok"
