"""Issue #29 item 16: custom CA bundles (``--ca-bundle``) and the system store for every connection of a run,
against a real TLS server on loopback whose certificate is signed by a CA made here; an untrusted certificate
is said to be that (naming --ca-bundle), never "a plain-HTTP port"; a redirect to another host is reported and
never followed with the key."""

from __future__ import annotations

import json
import os
import shutil
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bench.probe import probe
from tests.robustness.hostile import HostileServer, Reply

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-ca-test-SECRET-0123456789"


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA and a server certificate for 127.0.0.1 signed by it (openssl CLI), as a private CA would issue."""
    if shutil.which("openssl") is None:
        pytest.skip("no openssl to make certificates")
    d = tmp_path_factory.mktemp("pki")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args):
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    run("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Advisor Test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", *ec, "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    (d / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                               "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n"
                               "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid,issuer\n")
    run("x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem",
        "-days", "2", "-extfile", "ext.cnf")
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(d / "srv.pem", d / "srv.key")
    return {"dir": d, "ca": d / "ca.pem", "key": d / "srv.key", "server": server}


def _bench(url: str, *extra: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR", "ADVISOR_CA_BUNDLE")}
    return subprocess.run(
        [sys.executable, "-m", "advisor", "bench", "--url", url, "--model", "m", "--requests", "3", "--warmup", "0",
         "--no-store", "--no-telemetry", "--json", "--probe-timeout", "15", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**base, "PYTHONPATH": str(ROOT), "ADVISOR_API_KEY": KEY, **(env or {})})


def test_an_untrusted_certificate_is_a_certificate_problem_naming_ca_bundle(pki):
    with HostileServer(tls=pki["server"]) as srv:
        result = probe(srv.url, "m", timeout_s=10)
    assert result.error_kind == "tls_untrusted", (result.error_kind, result.error)
    assert "--ca-bundle" in result.error and "certificate" in result.error
    assert "plain-HTTP" not in result.error and "other scheme" not in result.error


def test_the_environment_variable_serves_the_app_and_scripts(pki, monkeypatch):
    # what the app's Benchmark page calls, in-process: ADVISOR_CA_BUNDLE is read by every connection
    monkeypatch.setenv("ADVISOR_CA_BUNDLE", str(pki["ca"]))
    with HostileServer(tls=pki["server"]) as srv:
        result = probe(srv.url, "m", timeout_s=10)
    assert result.ok and result.model_ok, (result.error_kind, result.error)


@pytest.mark.parametrize("transport", ["raw", "httpx"])
def test_bench_trusts_the_ca_bundle_for_every_request(pki, transport):
    with HostileServer(tls=pki["server"]) as srv:
        proc = _bench(srv.url, "--transport", transport, "--ca-bundle", str(pki["ca"]))
        gets = [p for m, p, _ in srv.requests if m == "GET"]
        posts = srv.posts()
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["requests_ok"] == 3 and out["probe"]["model_ok"], out
    assert any(p.endswith("/models") for p in gets)  # the model list went over the same trust
    assert posts == 4  # the probe's request + 3 measured, all over TLS


def test_without_the_bundle_bench_stops_at_the_probe_and_says_what_to_do(pki):
    with HostileServer(tls=pki["server"]) as srv:
        proc = _bench(srv.url)
        posts = srv.posts()
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "--ca-bundle" in proc.stderr and "plain-HTTP" not in proc.stderr
    assert posts == 0


@pytest.mark.parametrize("transport", ["raw", "httpx"])
def test_the_system_store_is_used_by_every_transport(pki, transport):
    # OpenSSL's default store, as configured here by SSL_CERT_FILE: httpx used certifi's bundle instead
    with HostileServer(tls=pki["server"]) as srv:
        proc = _bench(srv.url, "--transport", transport, env={"SSL_CERT_FILE": str(pki["ca"])})
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["requests_ok"] == 3


def test_a_bundle_that_does_not_vouch_for_the_server_is_said(pki, tmp_path):
    other = tmp_path / "other-ca.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", str(tmp_path / "o.key"), "-out", str(other), "-days", "1", "-subj", "/CN=Other CA"],
                   check=True, capture_output=True)
    with HostileServer(tls=pki["server"]) as srv:
        proc = _bench(srv.url, "--ca-bundle", str(other))
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert str(other) in proc.stderr and "not trusted" in proc.stderr


@pytest.mark.parametrize("kind", ["missing", "key_not_cert", "garbage"])
def test_a_bad_ca_bundle_is_refused_before_anything_is_sent(pki, tmp_path, kind):
    path = {"missing": tmp_path / "nope.pem", "key_not_cert": pki["key"], "garbage": tmp_path / "g.pem"}[kind]
    if kind == "garbage":
        path.write_text("-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
    with HostileServer(tls=pki["server"]) as srv:
        proc = _bench(srv.url, "--ca-bundle", str(path))
        connections = srv.connections
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "--ca-bundle" in proc.stderr and str(path) in proc.stderr
    said = {"missing": "does not exist", "key_not_cert": "no PEM certificate", "garbage": "could not be loaded"}
    assert said[kind] in proc.stderr, proc.stderr
    assert connections == 0


def test_a_redirect_to_another_host_is_reported_and_never_followed_with_the_key():
    with HostileServer() as other:
        elsewhere = other.url
        head = (f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {elsewhere}/v1/chat/completions\r\n"
                "Content-Length: 0\r\n\r\n").encode()
        moved = Reply([], head=head, chunked=False)
        with HostileServer(lambda p, b: moved, models_reply=moved) as srv:
            proc = _bench(srv.url + "/v1")
            asked = len(srv.requests)
        reached = list(other.requests)
    assert asked >= 2  # the model list and the probe's request were both answered with the redirect
    assert reached == []  # neither followed it: the key never went to the other host
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "redirect" in proc.stderr and elsewhere in proc.stderr and KEY not in proc.stderr + proc.stdout


def _ab(url: str, b_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR", "ADVISOR_CA_BUNDLE")}
    return subprocess.run(
        [sys.executable, "-m", "advisor", "ab", "--a-url", url, "--a-model", "m", "--b-url", b_url, "--b-model", "m",
         "--samples", "builtin", "--answers", "2", "--requests", "2", "--concurrency", "1", "--no-store", "--json",
         "--quiet", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**base, "PYTHONPATH": str(ROOT), "ADVISOR_API_KEY": KEY})


def test_ab_trusts_the_ca_bundle_and_without_it_says_what_to_do(pki):
    with HostileServer(tls=pki["server"]) as srv, HostileServer(tls=pki["server"]) as other:
        trusted = _ab(srv.url, other.url, "--ca-bundle", str(pki["ca"]))
        untrusted = _ab(srv.url, other.url)
    assert trusted.returncode == 0, trusted.stderr
    out = json.loads(trusted.stdout)
    assert out["status"] == "completed", out
    assert [(side["status"], side["answers_ok"]) for side in (out["a"], out["b"])] == [("completed", 2)] * 2
    assert untrusted.returncode != 0 and "Traceback" not in untrusted.stderr
    assert "--ca-bundle" in untrusted.stderr


def test_ab_refuses_a_missing_ca_bundle_before_sending_anything(pki, tmp_path):
    with HostileServer(tls=pki["server"]) as srv, HostileServer(tls=pki["server"]) as other:
        proc = _ab(srv.url, other.url, "--ca-bundle", str(tmp_path / "nope.pem"))
        posts = srv.posts() + other.posts()
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "nope.pem" in proc.stderr
    assert posts == 0


def test_run_benchmark_trusts_the_bundle_it_is_handed_and_refuses_a_bad_one_first(pki, monkeypatch, tmp_path):
    """The Benchmark page's door: ``run_benchmark(ca_bundle=...)`` means what ``--ca-bundle`` means."""
    from advisor import tls
    from advisor.bench.session import run_benchmark
    from advisor.domain.bench import BenchConfig

    monkeypatch.delenv(tls.ENV, raising=False)
    with HostileServer(tls=pki["server"]) as srv:
        config = BenchConfig.model_validate({
            "endpoint": {"url": srv.url, "model": "m", "use_keyring": False},
            "schedule": {"kind": "fixed", "concurrency": [1], "requests": 2, "warmup_requests": 0},
        })
        with pytest.raises(tls.CaBundleError, match="does not exist"):
            run_benchmark(config, store=None, telemetry=None, ca_bundle=str(tmp_path / "nope.pem"))
        assert srv.connections == 0  # refused before anything was sent
        result = run_benchmark(config, store=None, telemetry=None, ca_bundle=str(pki["ca"]))
    assert result.probe is not None and result.probe.ok, result.probe
    assert result.requests_ok == 2 and tls.ca_bundle() == str(pki["ca"])


def test_an_emptied_ca_field_goes_back_to_the_bundle_the_process_was_started_with(pki, monkeypatch, tmp_path):
    """``trust_ca_bundle``: a front end's field named, changed, then emptied — the app's own ADVISOR_CA_BUNDLE
    stays (it was the user's before the field), a bad path changes nothing."""
    from advisor import tls

    other = tmp_path / "other.pem"
    other.write_bytes(pki["ca"].read_bytes())
    monkeypatch.setenv(tls.ENV, str(pki["ca"]))
    monkeypatch.setattr(tls, "_INHERITED", str(pki["ca"]))
    assert tls.trust_ca_bundle(str(other)) == str(other)
    with pytest.raises(tls.CaBundleError):
        tls.trust_ca_bundle(str(tmp_path / "missing.pem"))
    assert tls.ca_bundle() == str(other)  # refused: the trust is as it was
    assert tls.trust_ca_bundle("") == str(pki["ca"])
    monkeypatch.setattr(tls, "_INHERITED", None)
    assert tls.trust_ca_bundle(None) is None and tls.ENV not in os.environ
