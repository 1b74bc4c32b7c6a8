"""Certificates for mutual-TLS tests, made at test time: a CA, a server certificate for 127.0.0.1 and a client
certificate signed by it, a second CA's client certificate (one the server does not trust), a key of another pair,
a passphrase-protected copy of the client key and a file holding certificate and key together.

Made with the ``cryptography`` package when it is installed (it comes with ``keyring``'s SecretStorage on Linux),
else with the ``openssl`` command; skipped when neither is there."""

from __future__ import annotations

import shutil
import ssl
import subprocess
from pathlib import Path

import pytest

PASSPHRASE = b"correct horse"


def make_pki(d: Path) -> dict[str, Path]:
    try:
        import cryptography  # noqa: F401
    except ImportError:
        if shutil.which("openssl") is None:
            pytest.skip("neither the cryptography package nor openssl to make certificates")
        _with_openssl(d)
    else:
        _with_cryptography(d)
    (d / "both.pem").write_bytes((d / "client.pem").read_bytes() + (d / "client.key").read_bytes())
    return {name: d / file for name, file in (
        ("ca", "ca.pem"), ("srv", "srv.pem"), ("srv_key", "srv.key"), ("client", "client.pem"),
        ("client_key", "client.key"), ("other_key", "other.key"), ("encrypted_key", "encrypted.key"),
        ("both", "both.pem"), ("stranger", "stranger.pem"), ("stranger_key", "stranger.key"))}


def server_context(pki: dict[str, Path], *, tls12: bool = False) -> ssl.SSLContext:
    """A server that requires a client certificate signed by the test CA (TLS 1.3, or 1.2 at most)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pki["srv"], pki["srv_key"])
    ctx.verify_mode = ssl.CERT_REQUIRED
    ctx.load_verify_locations(pki["ca"])
    if tls12:
        ctx.maximum_version = ssl.TLSVersion.TLSv1_2
    return ctx


def _with_cryptography(d: Path) -> None:
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    def key() -> ec.EllipticCurvePrivateKey:
        return ec.generate_private_key(ec.SECP256R1())

    def pem_key(k: ec.EllipticCurvePrivateKey, passphrase: bytes | None = None) -> bytes:
        enc = serialization.BestAvailableEncryption(passphrase) if passphrase else serialization.NoEncryption()
        return k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, enc)

    def cert(subject: str, skey, issuer: str, ikey, *, ca: bool = False, san=None, eku=None) -> bytes:
        now = datetime.datetime.now(datetime.UTC)
        b = (x509.CertificateBuilder()
             .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
             .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
             .public_key(skey.public_key()).serial_number(x509.random_serial_number())
             .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if san:
            b = b.add_extension(x509.SubjectAlternativeName(san), critical=False)
        if eku:
            b = b.add_extension(x509.ExtendedKeyUsage(eku), critical=False)
        return b.sign(ikey, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)

    ca_key, other_ca_key = key(), key()
    (d / "ca.pem").write_bytes(cert("Advisor Test CA", ca_key, "Advisor Test CA", ca_key, ca=True))
    srv_key = key()
    (d / "srv.pem").write_bytes(cert("127.0.0.1", srv_key, "Advisor Test CA", ca_key, eku=[ExtendedKeyUsageOID.SERVER_AUTH],
                                     san=[x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]))
    (d / "srv.key").write_bytes(pem_key(srv_key))
    client_key = key()
    (d / "client.pem").write_bytes(cert("bench-client", client_key, "Advisor Test CA", ca_key,
                                        eku=[ExtendedKeyUsageOID.CLIENT_AUTH]))
    (d / "client.key").write_bytes(pem_key(client_key))
    (d / "encrypted.key").write_bytes(pem_key(client_key, PASSPHRASE))
    (d / "other.key").write_bytes(pem_key(key()))
    stranger_key = key()
    (d / "stranger.pem").write_bytes(cert("stranger", stranger_key, "Other CA", other_ca_key,
                                          eku=[ExtendedKeyUsageOID.CLIENT_AUTH]))
    (d / "stranger.key").write_bytes(pem_key(stranger_key))


def _with_openssl(d: Path) -> None:
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]

    def run(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

    for ca, cn in (("ca", "Advisor Test CA"), ("otherca", "Other CA")):
        run("req", "-x509", *ec, "-keyout", f"{ca}.key", "-out", f"{ca}.pem", "-days", "2", "-subj", f"/CN={cn}",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    (d / "srv.cnf").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n"
                               "extendedKeyUsage=serverAuth\n")
    (d / "cli.cnf").write_text("basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
    for name, cn, ca, ext in (("srv", "127.0.0.1", "ca", "srv.cnf"), ("client", "bench-client", "ca", "cli.cnf"),
                              ("stranger", "stranger", "otherca", "cli.cnf")):
        run("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={cn}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", "2", "-extfile", ext)
    run("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-out", "other.key")
    run("pkcs8", "-topk8", "-in", "client.key", "-out", "encrypted.key", "-passout", f"pass:{PASSPHRASE.decode()}")
