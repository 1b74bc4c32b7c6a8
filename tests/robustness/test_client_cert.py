"""Issue #29, the remainder of item 16: client certificates (mutual TLS) for every connection to the server under
test — ``--client-cert FILE [--client-key FILE]`` on ``advisor bench`` and ``advisor ab``, ``run_benchmark``'s
``client_cert``, ``ADVISOR_CLIENT_CERT`` for the app. Against a real TLS server on loopback that requires a client
certificate signed by a CA made here: without one, the failure is said to be that ("pass --client-cert"), never
"a plain-HTTP port"; with one, a run succeeds end to end on every transport; a key of another pair, a
passphrase-protected key or a missing file is refused by name before anything is sent; nothing of the key is
written anywhere."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bench.probe import probe
from tests.robustness.hostile import HostileServer, Reply
from tests.robustness.mtls_pki import make_pki, server_context

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-mtls-test-SECRET-0123456789"
_TLS_ENV = ("SSL_CERT_FILE", "SSL_CERT_DIR", "ADVISOR_CA_BUNDLE", "ADVISOR_CLIENT_CERT", "ADVISOR_CLIENT_KEY")


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("mtls"))


@pytest.fixture
def clean_tls(monkeypatch):
    """In-process callers (the app's door): no trust or certificate from the environment, and whatever a test
    sets is undone after it."""
    from advisor import tls

    for name in _TLS_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(tls, "_INHERITED", None)
    monkeypatch.setattr(tls, "_INHERITED_CERT", (None, None))


def _key_body(pki) -> str:
    """A line of the private key's base64: what must never appear in an output, a log or the database."""
    return pki["client_key"].read_text().splitlines()[1]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in _TLS_ENV}
    return subprocess.run([sys.executable, "-m", "advisor", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL,  # a passphrase prompt would fail, not hang
                          env={**base, "PYTHONPATH": str(ROOT), "ADVISOR_API_KEY": KEY})


def _bench(url: str, pki, *extra: str) -> subprocess.CompletedProcess[str]:
    return _cli("bench", "--url", url, "--model", "m", "--requests", "3", "--warmup", "0", "--no-telemetry",
                "--json", "--probe-timeout", "15", "--ca-bundle", str(pki["ca"]), *extra)


# ------------------------------------------------------------------------------------------ no certificate
@pytest.mark.parametrize("tls12", [False, True], ids=["tls1.3", "tls1.2"])
def test_without_a_certificate_the_probe_says_the_server_asks_for_one(pki, clean_tls, monkeypatch, tls12):
    monkeypatch.setenv("ADVISOR_CA_BUNDLE", str(pki["ca"]))
    with HostileServer(tls=server_context(pki, tls12=tls12)) as srv:
        result = probe(srv.url, "m", timeout_s=10)
        posts = srv.posts()
    assert result.error_kind == "tls_client_cert", (result.error_kind, result.error)
    assert "client certificate" in result.error and "--client-cert" in result.error
    assert "plain-HTTP" not in result.error and "other scheme" not in result.error
    assert posts == 0


def test_bench_without_a_certificate_stops_at_the_probe_and_says_pass_client_cert(pki, tmp_path):
    with HostileServer(tls=server_context(pki)) as srv:
        proc = _bench(srv.url, pki, "--no-store")
        posts = srv.posts()
    assert proc.returncode == 3 and "Traceback" not in proc.stderr, proc.stderr
    assert "asks for a client certificate" in proc.stderr and "--client-cert" in proc.stderr
    assert "plain-HTTP" not in proc.stderr
    assert posts == 0


def test_nginx_asking_over_http_400_is_said_the_same_way(clean_tls):
    # nginx with ssl_verify_client finishes the handshake and answers 400 with this page
    page = (b"<html><head><title>400 No required SSL certificate was sent</title></head><body><center><h1>400 Bad "
            b"Request</h1></center><center>No required SSL certificate was sent</center><hr><center>nginx</center>"
            b"</body></html>")
    refusal = Reply([page], status=400, content_type="text/html", chunked=False)
    with HostileServer(lambda p, b: refusal, models_reply=refusal) as srv:
        result = probe(srv.url, "m", timeout_s=10)
    assert result.error_kind == "tls_client_cert", (result.error_kind, result.error)
    assert "--client-cert" in result.error and "No required SSL certificate was sent" in result.error


# -------------------------------------------------------------------------------------- with a certificate
@pytest.mark.parametrize("transport", ["raw", "httpx"])
@pytest.mark.parametrize("files", ["cert+key", "one file"])
def test_bench_with_a_client_certificate_runs_end_to_end(pki, tmp_path, transport, files):
    given = ["--client-cert", str(pki["client"]), "--client-key", str(pki["client_key"])] if files == "cert+key" \
        else ["--client-cert", str(pki["both"])]
    db, out = tmp_path / "runs.sqlite3", tmp_path / "run.json"
    with HostileServer(tls=server_context(pki)) as srv:
        proc = _bench(srv.url, pki, "--transport", transport, "--db", str(db), "--out", str(out), *given)
        gets = [p for m, p, _ in srv.requests if m == "GET"]
        posts = srv.posts()
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["requests_ok"] == 3 and result["probe"]["ok"] and result["probe"]["model_ok"], result
    assert any(p.endswith("/models") for p in gets)  # the model list went with the certificate too
    assert posts == 4  # the probe's request + 3 measured, all over mutual TLS
    # nothing of the key anywhere: output, log, result file, database (paths are not secrets; contents are)
    body = _key_body(pki)
    stored = db.read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("runs.sqlite3*"))
    for text in (proc.stdout, proc.stderr, out.read_text()):
        assert body not in text and "PRIVATE KEY" not in text
    assert body.encode() not in stored and b"PRIVATE KEY" not in stored
    assert sqlite3.connect(db).execute("select count(*) from runs").fetchone()[0] == 1


def test_client_processes_present_the_certificate_too(pki):
    with HostileServer(tls=server_context(pki)) as srv:
        proc = _bench(srv.url, pki, "--no-store", "--client-processes", "2", "--concurrency", "2", "--requests", "4",
                      "--client-cert", str(pki["both"]))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["requests_ok"] == 4


def test_the_environment_variables_serve_the_app_and_scripts(pki, clean_tls, monkeypatch):
    monkeypatch.setenv("ADVISOR_CA_BUNDLE", str(pki["ca"]))
    monkeypatch.setenv("ADVISOR_CLIENT_CERT", str(pki["client"]))
    monkeypatch.setenv("ADVISOR_CLIENT_KEY", str(pki["client_key"]))
    with HostileServer(tls=server_context(pki)) as srv:
        result = probe(srv.url, "m", timeout_s=10)
    assert result.ok and result.model_ok, (result.error_kind, result.error)


def test_a_certificate_the_server_does_not_trust_is_said_to_be_refused(pki, clean_tls, monkeypatch):
    monkeypatch.setenv("ADVISOR_CA_BUNDLE", str(pki["ca"]))
    monkeypatch.setenv("ADVISOR_CLIENT_CERT", str(pki["stranger"]))
    monkeypatch.setenv("ADVISOR_CLIENT_KEY", str(pki["stranger_key"]))
    with HostileServer(tls=server_context(pki)) as srv:
        result = probe(srv.url, "m", timeout_s=10)
    assert result.error_kind == "tls_client_cert", (result.error_kind, result.error)
    assert "refused the client certificate" in result.error and str(pki["stranger"]) in result.error


# ------------------------------------------------------------------------------ files that cannot be used
BAD = {
    "wrong key": (["--client-cert", "client", "--client-key", "other_key"], "does not belong to the certificate"),
    "passphrase": (["--client-cert", "client", "--client-key", "encrypted_key"], "passphrase"),
    "missing": (["--client-cert", "nope"], "does not exist"),
    "no key": (["--client-cert", "client"], "no private key"),
    "a key as cert": (["--client-cert", "client_key"], "no PEM certificate"),
    "key alone": (["--client-key", "client_key"], "--client-key needs --client-cert"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_a_file_that_cannot_be_used_is_refused_by_name_before_anything_is_sent(pki, tmp_path, case):
    args, said = BAD[case]
    paths = {**{k: str(v) for k, v in pki.items()}, "nope": str(tmp_path / "nope.pem")}
    given = [a if a.startswith("--") else paths[a] for a in args]
    with HostileServer(tls=server_context(pki)) as srv:
        proc = _bench(srv.url, pki, "--no-store", *given)
        connections = srv.connections
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert said in proc.stderr, proc.stderr
    assert connections == 0
    assert _key_body(pki) not in proc.stderr + proc.stdout


def test_a_passphrase_protected_key_is_never_prompted_for(pki, clean_tls):
    """OpenSSL would ask on the terminal (none in the app or a client process): refused with how to fix it."""
    from advisor.tls import ClientCertError, check_client_cert

    with pytest.raises(ClientCertError, match="not supported") as info:
        check_client_cert(str(pki["client"]), str(pki["encrypted_key"]))
    assert "openssl pkey" in str(info.value)


# ------------------------------------------------------------------------------------- the A/B and the app
def test_ab_presents_the_certificate_to_both_sides_and_without_it_says_what_to_do(pki):
    def ab(a: str, b: str, *extra: str) -> subprocess.CompletedProcess[str]:
        return _cli("ab", "--a-url", a, "--a-model", "m", "--b-url", b, "--b-model", "m", "--samples", "builtin",
                    "--answers", "2", "--requests", "2", "--concurrency", "1", "--no-store", "--json", "--quiet",
                    "--ca-bundle", str(pki["ca"]), *extra)

    with HostileServer(tls=server_context(pki)) as srv, HostileServer(tls=server_context(pki, tls12=True)) as other:
        with_cert = ab(srv.url, other.url, "--client-cert", str(pki["client"]), "--client-key", str(pki["client_key"]))
        without = ab(srv.url, other.url)
        wrong = ab(srv.url, other.url, "--client-cert", str(pki["client"]), "--client-key", str(pki["other_key"]))
    assert with_cert.returncode == 0, with_cert.stderr
    out = json.loads(with_cert.stdout)
    assert [(side["status"], side["answers_ok"]) for side in (out["a"], out["b"])] == [("completed", 2)] * 2
    assert without.returncode != 0 and "Traceback" not in without.stderr
    assert "--client-cert" in without.stderr and "asks for a client certificate" in without.stderr
    assert wrong.returncode == 2 and "does not belong" in wrong.stderr


def test_run_benchmark_presents_the_certificate_it_is_handed_and_refuses_a_bad_one_first(pki, clean_tls):
    """The Benchmark page's door: ``run_benchmark(client_cert=..., client_key=...)`` means what the options mean."""
    from advisor import tls
    from advisor.bench.session import run_benchmark
    from advisor.domain.bench import BenchConfig

    with HostileServer(tls=server_context(pki)) as srv:
        config = BenchConfig.model_validate({
            "endpoint": {"url": srv.url, "model": "m", "use_keyring": False},
            "schedule": {"kind": "fixed", "concurrency": [1], "requests": 2, "warmup_requests": 0},
        })
        with pytest.raises(tls.ClientCertError, match="does not belong"):
            run_benchmark(config, store=None, telemetry=None, ca_bundle=str(pki["ca"]),
                          client_cert=str(pki["client"]), client_key=str(pki["other_key"]))
        assert srv.connections == 0  # refused before anything was sent
        result = run_benchmark(config, store=None, telemetry=None, ca_bundle=str(pki["ca"]),
                               client_cert=str(pki["client"]), client_key=str(pki["client_key"]))
    assert result.probe is not None and result.probe.ok, result.probe
    assert result.requests_ok == 2
    assert tls.client_cert() == (str(pki["client"]), str(pki["client_key"]))
    assert "PRIVATE KEY" not in json.dumps(result.as_dict())


def test_the_page_sample_answer_goes_over_the_same_tls(pki, clean_tls, monkeypatch):
    """The Benchmark page's sample answer (httpx) used certifi's store and no certificate: over a private CA or
    mutual TLS it failed while the run passed."""
    from advisor.bench.sample_answer import stream_answer
    from advisor.domain.bench import BenchConfig

    monkeypatch.setenv("ADVISOR_CA_BUNDLE", str(pki["ca"]))
    monkeypatch.setenv("ADVISOR_CLIENT_CERT", str(pki["both"]))
    with HostileServer(tls=server_context(pki)) as srv:
        config = BenchConfig.model_validate({"endpoint": {"url": srv.url, "model": "m", "use_keyring": False}})
        pieces: list[str] = []
        error = stream_answer(config, None, on_text=pieces.append, timeout_s=10)
    assert error is None and "".join(pieces), error


def test_an_emptied_field_goes_back_to_the_certificate_the_process_was_started_with(pki, clean_tls, monkeypatch):
    from advisor import tls

    monkeypatch.setattr(tls, "_INHERITED_CERT", (str(pki["both"]), None))
    assert tls.present_client_cert(str(pki["client"]), str(pki["client_key"])) == (str(pki["client"]),
                                                                                 str(pki["client_key"]))
    with pytest.raises(tls.ClientCertError):
        tls.present_client_cert(str(pki["client"]), str(pki["other_key"]))
    assert tls.client_cert() == (str(pki["client"]), str(pki["client_key"]))  # refused: as it was
    assert tls.present_client_cert("", "") == (str(pki["both"]), None)
    monkeypatch.setattr(tls, "_INHERITED_CERT", (None, None))
    assert tls.present_client_cert(None) is None and tls.CERT_ENV not in os.environ and tls.KEY_ENV not in os.environ


@pytest.mark.parametrize("tls12", [False, True], ids=["tls1.3", "tls1.2"])
@pytest.mark.parametrize("transport", ["raw", "httpx"])
def test_without_the_probe_the_failed_requests_say_the_server_asks_for_a_certificate(pki, transport, tls12):
    """``--no-probe``: the load's own connections carry the TLS alert (it was "the connection closed before a
    response"), and the step's failure note says what to do — not only "stopped or crashed". Every request, on
    every transport: when the server's close reset the connection before its alert was read (httpx lost it on
    most requests: "the answer was cut off (truncated:ReadError / no_response)"), one bare handshake asks the
    server why, as the probe does."""
    with HostileServer(tls=server_context(pki, tls12=tls12)) as srv:
        proc = _bench(srv.url, pki, "--no-store", "--no-probe", "--requests", "8", "--transport", transport)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "8 × the server could not be reached (connect_error:SSLError)" in proc.stderr, proc.stderr
    assert "--client-cert" in proc.stderr and "truncated" not in proc.stderr, proc.stderr


def test_a_key_in_the_environment_without_its_certificate_names_the_variables(pki, clean_tls, monkeypatch):
    from advisor.tls import ClientCertError, use_client_cert_from_env

    monkeypatch.setenv("ADVISOR_CLIENT_KEY", str(pki["client_key"]))
    with pytest.raises(ClientCertError, match="ADVISOR_CLIENT_CERT is not"):
        use_client_cert_from_env()


def test_the_server_is_asked_why_once_per_client_however_many_requests_fail(pki, clean_tls, monkeypatch):
    """Eight requests at once over httpx to a server that wants a certificate: every record carries its alert,
    and the bare handshake that recovers it (what the probe does) is made once, not once per failed request."""
    import asyncio

    from advisor import tls
    from advisor.bench import client as bench_client
    from advisor.bench.client import StreamClient, build_record

    tls.use_ca_bundle(str(pki["ca"]))
    asked = []

    def counting(host, port, timeout_s=3.0):
        asked.append((host, port))
        return tls.handshake_error(host, port, timeout_s)

    monkeypatch.setattr(bench_client, "handshake_error", counting)

    async def run(url):
        client = StreamClient(url, transport="httpx", timeout_s=15, read_timeout_s=15)
        try:
            return await asyncio.gather(*(client.send({"model": "m", "messages": []}) for _ in range(8)))
        finally:
            await client.aclose()

    with HostileServer(tls=server_context(pki)) as srv:
        exchanges = asyncio.run(run(srv.url))
    records = [build_record(ex, seq=i) for i, ex in enumerate(exchanges)]
    assert {(r.outcome, r.error_class) for r in records} == {("connect_error", "SSLError")}
    assert all("CERTIFICATE_REQUIRED" in (r.error_message or "") for r in records)
    assert len(asked) <= 1  # once (none when every alert was read on its own connection)
