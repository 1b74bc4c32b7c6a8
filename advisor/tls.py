"""The one TLS client context every benchmark connection uses: the system's trust store, plus a CA bundle the
user names (``advisor bench --ca-bundle PATH`` or the ``ADVISOR_CA_BUNDLE`` environment variable, which the
app and client processes inherit), plus a client certificate for servers that ask for one (mutual TLS:
``--client-cert FILE [--client-key FILE]``, or ``ADVISOR_CLIENT_CERT`` / ``ADVISOR_CLIENT_KEY``).

Why one place: the load (raw and httpx transports), the probe, the model list, ``/metrics`` and the tokenizer
must trust the same certificates — httpx alone would use certifi's bundle and ignore a private CA the
system trusts, so one request of a run could fail where another passed. ``ssl.create_default_context()``
is OpenSSL's default store (which also honours ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``); a named bundle adds
to it, as a corporate CA is added beside the public ones, never replacing them.
"""

from __future__ import annotations

import functools
import os
import socket
import ssl
import time
from typing import Any

from advisor.i18n import tr

ENV = "ADVISOR_CA_BUNDLE"
CLI_HELP = f"CA certificates (PEM file or rehashed folder) to trust for https:// besides the system store (env: {ENV})"
# what this process was started with: a front end whose CA field is emptied goes back to it, never to nothing
_INHERITED = os.environ.get(ENV) or None


class TlsFileError(ValueError):
    """A TLS file named by the user that cannot be used; the message names the option and says why."""


class CaBundleError(TlsFileError):
    """A CA bundle that cannot be used: missing, unreadable, or holding no certificate."""


def _load(ctx: ssl.SSLContext, path: str) -> None:
    if os.path.isdir(path):
        ctx.load_verify_locations(capath=path)
    else:
        ctx.load_verify_locations(cafile=path)


def check_ca_bundle(path: str) -> str:
    """The bundle's absolute path, after checking it loads (a PEM file of CA certificates, or a folder of
    them prepared with ``openssl rehash``). Raises :class:`CaBundleError` with a message naming the option."""
    full = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(full):
        raise CaBundleError(tr("tls.ca_bundle.missing", path=path))
    if not os.path.isdir(full):
        try:
            with open(full, "rb") as fh:
                head = fh.read(1 << 20)
        except OSError as exc:
            raise CaBundleError(tr("tls.ca_bundle.unreadable", path=path, error=exc.strerror or exc)) from None
        if b"-----BEGIN CERTIFICATE-----" not in head:
            raise CaBundleError(tr("tls.ca_bundle.not_pem", path=path))
    try:
        _load(ssl.create_default_context(), full)
    except (ssl.SSLError, OSError) as exc:
        raise CaBundleError(tr("tls.ca_bundle.not_pem_detail", path=path, error=str(exc)[:200])) from None
    return full


def use_ca_bundle(path: str | None) -> None:
    """Trust ``path`` in addition to the system store for every connection of this process and of the client
    processes it starts (through :data:`ENV`). Checked first: raises :class:`CaBundleError`."""
    if path:
        os.environ[ENV] = check_ca_bundle(path)


def trust_ca_bundle(path: str | None) -> str | None:
    """For a front end whose CA field can change between runs (the Benchmark page): trust ``path`` (checked, as
    :func:`use_ca_bundle`), or, for an empty one, only what the process was started with (its own
    ``ADVISOR_CA_BUNDLE``, else the system store alone) — a bundle named earlier and since removed is not kept.
    Returns the bundle now in use. Raises :class:`CaBundleError`, leaving the trust as it was."""
    if path:
        os.environ[ENV] = check_ca_bundle(path)
    elif _INHERITED:
        os.environ[ENV] = _INHERITED
    else:
        os.environ.pop(ENV, None)
    return ca_bundle()


def ca_bundle() -> str | None:
    """The CA bundle in use (None: the system store only)."""
    return os.environ.get(ENV) or None


def client_context() -> ssl.SSLContext:
    """A verifying client context: the system store, plus the CA bundle in use, plus the client certificate in
    use. Shared (contexts are safe to share between connections); loaded once per set of files and file versions,
    not once per connection."""
    path = ca_bundle()
    cert = client_cert()
    cert_path, key_path = cert if cert else (None, None)
    return _context(path, _stamp(path), cert_path, key_path, _stamp(cert_path), _stamp(key_path))


def _stamp(path: str | None) -> tuple[int, int] | None:
    if not path:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size)


class RecordingSSLObject(ssl.SSLObject):
    """An ``SSLObject`` that keeps the TLS error it raised. With TLS 1.3 a server that wants a client certificate
    says so (an alert) only after the client's side of the handshake is done, on the first read; httpx's
    transport (anyio) turns that error into a bare "connection broken" and drops it. The transport asks the
    connection's ``ssl_object`` for it instead (advisor/bench/client.py)."""

    tls_error: ssl.SSLError | None = None

    def read(self, len: int = 1024, buffer: Any = None) -> Any:  # noqa: A002 - the name SSLObject.read uses
        try:
            return super().read(len, buffer)
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            raise
        except ssl.SSLError as exc:
            self.tls_error = exc
            raise

    def do_handshake(self) -> None:
        try:
            super().do_handshake()
        except (ssl.SSLWantReadError, ssl.SSLWantWriteError):
            raise
        except ssl.SSLError as exc:
            self.tls_error = exc
            raise


@functools.lru_cache(maxsize=4)
def _context(path: str | None, _stamp: tuple[int, int] | None, cert: str | None = None, key: str | None = None,
             _cert_stamp: tuple[int, int] | None = None, _key_stamp: tuple[int, int] | None = None) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    ctx.sslobject_class = RecordingSSLObject
    if path:
        try:
            _load(ctx, path)
        except (ssl.SSLError, OSError):
            pass  # checked when it was chosen; a file changed since fails verification, which says so
    if cert:
        try:
            ctx.load_cert_chain(cert, key, password=_no_passphrase)
        except (ssl.SSLError, OSError, _EncryptedKey):
            pass  # checked when it was chosen; a file changed since: no certificate is sent, and the server says so
    return ctx


# ------------------------------------------------------------------------------------------ client certificates
CERT_ENV = "ADVISOR_CLIENT_CERT"
KEY_ENV = "ADVISOR_CLIENT_KEY"
CLIENT_CERT_HELP = (f"client certificate (PEM) for servers that require one (mutual TLS); it may hold the private "
                    f"key too (env: {CERT_ENV})")
CLIENT_KEY_HELP = (f"the client certificate's private key (PEM, not passphrase-protected), when --client-cert does "
                   f"not hold it (env: {KEY_ENV})")
_INHERITED_CERT = (os.environ.get(CERT_ENV) or None, os.environ.get(KEY_ENV) or None)
_MAX_PEM_BYTES = 1 << 20  # a certificate chain and key are a few kB; a bigger file is not one


class ClientCertError(TlsFileError):
    """A client certificate or key that cannot be used: missing, unreadable, not PEM, passphrase-protected, or a
    key that does not belong to the certificate."""


class _EncryptedKey(Exception):
    pass


def _no_passphrase() -> bytes:
    # OpenSSL would otherwise ask on the terminal (none in the app, nor in a client process): never prompt
    raise _EncryptedKey


def _read_pem(path: str, option: str) -> tuple[str, bytes]:
    full = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(full):
        raise ClientCertError(tr("tls.client.missing", option=option, path=path))
    if os.path.isdir(full):
        raise ClientCertError(tr("tls.client.folder", option=option, path=path))
    try:
        with open(full, "rb") as fh:
            data = fh.read(_MAX_PEM_BYTES + 1)
    except OSError as exc:
        raise ClientCertError(tr("tls.client.unreadable", option=option, path=path,
                                 error=exc.strerror or exc)) from None
    if len(data) > _MAX_PEM_BYTES:
        raise ClientCertError(tr("tls.client.too_large", option=option, path=path))
    return full, data


def _encrypted(pem: bytes) -> bool:
    return b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in pem or b"Proc-Type: 4,ENCRYPTED" in pem


def check_client_cert(cert: str, key: str | None = None) -> tuple[str, str | None]:
    """The certificate's and key's absolute paths, after checking that they load together: a PEM certificate
    (chain), and its private key in the same file or in ``key``. A passphrase-protected key is refused, never
    prompted for: the app and the client processes have no terminal to ask on (the message says how to write an
    unprotected copy). Raises :class:`ClientCertError` with a message naming the option and the file."""
    cert_full, cert_pem = _read_pem(cert, "--client-cert")
    if b"-----BEGIN CERTIFICATE-----" not in cert_pem:
        raise ClientCertError(tr("tls.client.no_cert", path=cert))
    key_full: str | None = None
    key_pem = cert_pem
    key_shown = cert
    if key:
        key_full, key_pem = _read_pem(key, "--client-key")
        key_shown = key
    if b"PRIVATE KEY-----" not in key_pem:
        if key:
            raise ClientCertError(tr("tls.client.no_key_in_key", path=key))
        raise ClientCertError(tr("tls.client.no_key", path=cert))
    if _encrypted(key_pem):
        raise ClientCertError(tr("tls.client.encrypted", option="--client-key" if key else "--client-cert",
                                 path=key_shown))
    try:
        ssl.create_default_context().load_cert_chain(cert_full, key_full, password=_no_passphrase)
    except _EncryptedKey:
        raise ClientCertError(tr("tls.client.encrypted", option="--client-key" if key else "--client-cert",
                                 path=key_shown)) from None
    except ssl.SSLError as exc:
        if "KEY_VALUES_MISMATCH" in str(exc):
            raise ClientCertError(tr("tls.client.mismatch", cert=cert, key=key_shown)) from None
        raise ClientCertError(tr("tls.client.not_loaded", cert=cert, key=key_shown,
                                 error=str(exc)[:200])) from None
    except OSError as exc:
        raise ClientCertError(tr("tls.client.not_loaded", cert=cert, key=key_shown,
                                 error=exc.strerror or exc)) from None
    return cert_full, key_full


def use_client_cert(cert: str | None, key: str | None = None) -> None:
    """Present ``cert`` (with ``key``) to every server that asks, for every connection of this process and of the
    client processes it starts (through :data:`CERT_ENV` / :data:`KEY_ENV`: paths, never the key's contents).
    Checked first: raises :class:`ClientCertError`. None: as it was (the environment's, if any)."""
    if key and not cert:
        raise ClientCertError(tr("tls.client.key_without_cert"))
    if cert:
        _set_client_cert(*check_client_cert(cert, key))


def use_client_cert_from_env() -> None:
    """:func:`use_client_cert` with :data:`CERT_ENV` / :data:`KEY_ENV` (a command given neither option)."""
    cert, key = os.environ.get(CERT_ENV) or None, os.environ.get(KEY_ENV) or None
    if key and not cert:
        raise ClientCertError(tr("tls.client.env_key_without_cert", key_env=KEY_ENV, cert_env=CERT_ENV))
    use_client_cert(cert, key)


def present_client_cert(cert: str | None, key: str | None = None) -> tuple[str, str | None] | None:
    """For a front end whose fields can change between runs (the Benchmark page): present ``cert``/``key``
    (checked, as :func:`use_client_cert`), or, for empty fields, only what the process was started with. Returns
    the certificate now in use. Raises :class:`ClientCertError`, leaving everything as it was."""
    if key and not cert:
        raise ClientCertError(tr("tls.client.key_without_cert"))
    if cert:
        _set_client_cert(*check_client_cert(cert, key))
    else:
        _set_client_cert(*_INHERITED_CERT)
    return client_cert()


def _set_client_cert(cert: str | None, key: str | None) -> None:
    for name, value in ((CERT_ENV, cert), (KEY_ENV, key)):
        if value:
            os.environ[name] = value
        else:
            os.environ.pop(name, None)


def client_cert() -> tuple[str, str | None] | None:
    """The client certificate in use and its key file (None: the key is in the certificate's file); None when
    no certificate is presented."""
    cert = os.environ.get(CERT_ENV) or None
    return (cert, os.environ.get(KEY_ENV) or None) if cert else None


# TLS alerts a server sends about the client's certificate (OpenSSL's reason names). Without a certificate
# TLS 1.3 servers send "certificate required"; TLS 1.2 servers a plain "handshake failure"; nginx completes
# the handshake and answers HTTP 400 with one of the _NGINX texts.
_CERT_REQUIRED = ("TLSV13_ALERT_CERTIFICATE_REQUIRED", "certificate required")
_HANDSHAKE_FAILURE = ("SSLV3_ALERT_HANDSHAKE_FAILURE", "alert handshake failure")
_CERT_REFUSED = ("TLSV1_ALERT_UNKNOWN_CA", "SSLV3_ALERT_BAD_CERTIFICATE", "SSLV3_ALERT_CERTIFICATE_UNKNOWN",
                 "SSLV3_ALERT_CERTIFICATE_EXPIRED", "SSLV3_ALERT_CERTIFICATE_REVOKED", "TLSV1_ALERT_ACCESS_DENIED",
                 "SSLV3_ALERT_UNSUPPORTED_CERTIFICATE", "TLSV1_ALERT_DECRYPT_ERROR",
                 "alert unknown ca", "alert bad certificate", "alert certificate unknown", "alert access denied")
NGINX_CLIENT_CERT_TEXTS = ("No required SSL certificate was sent", "The SSL certificate error")


def client_cert_refusal(error: BaseException | str) -> str | None:
    """``"required"`` when the server ended the handshake because it wants a client certificate and none was
    sent; ``"refused"`` when it refused the one sent; None when the error says neither. Reads the exception
    chain (and, for httpx, the connection's recorded TLS error) or the error's text."""
    texts: list[str] = []
    e: BaseException | None = error if isinstance(error, BaseException) else None
    depth = 0
    while e is not None and depth < 8:
        texts.append(str(e))
        recorded = getattr(e, "tls_error", None)
        if recorded is not None:
            texts.append(str(recorded))
        e = e.__cause__ or e.__context__
        depth += 1
    if isinstance(error, str):
        texts.append(error)
    text = " ".join(texts)
    if any(t in text for t in NGINX_CLIENT_CERT_TEXTS):
        return "refused" if client_cert() and "No required" not in text else "required"
    if any(t in text for t in _CERT_REQUIRED):
        return "required"
    if any(t in text for t in _CERT_REFUSED):
        return "refused" if client_cert() else "required"
    if any(t in text for t in _HANDSHAKE_FAILURE) and not client_cert():
        return "required"
    return None


def handshake_error(host: str, port: int, timeout_s: float = 3.0) -> ssl.SSLError | None:
    """The TLS error a server answers a bare handshake with, else None: connect, shake hands with the run's
    context, send nothing, and wait a moment for an alert. Why a second connection: after a TLS 1.3 handshake a
    server that wants a client certificate sends its alert and closes, and when a request was already on its way
    the close becomes a reset that can discard the alert before it is read ("connection reset", "EOF"). With no
    request sent there is no reset, and the alert arrives intact."""
    deadline = time.monotonic() + max(0.2, timeout_s)
    try:
        with socket.create_connection((host, port), timeout=max(0.1, timeout_s)) as raw, \
                client_context().wrap_socket(raw, server_hostname=host) as conn:
            conn.settimeout(max(0.1, min(1.5, deadline - time.monotonic())))
            conn.recv(1)  # a TLS 1.3 server's verdict on the client's certificate comes now, or never
    except ssl.SSLError as exc:
        return exc
    except OSError:
        return None
    return None
