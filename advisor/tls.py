"""The one TLS client context every benchmark connection uses: the system's trust store, plus a CA bundle the
user names (``advisor bench --ca-bundle PATH`` or the ``ADVISOR_CA_BUNDLE`` environment variable, which the
app and client processes inherit).

Why one place: the load (raw and httpx transports), the probe, the model list, ``/metrics`` and the tokenizer
must trust the same certificates — httpx alone would use certifi's bundle and ignore a private CA the
system trusts, so one request of a run could fail where another passed. ``ssl.create_default_context()``
is OpenSSL's default store (which also honours ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``); a named bundle adds
to it, as a corporate CA is added beside the public ones, never replacing them.
"""

from __future__ import annotations

import functools
import os
import ssl

from advisor.i18n import tr

ENV = "ADVISOR_CA_BUNDLE"
CLI_HELP = f"CA certificates (PEM file or rehashed folder) to trust for https:// besides the system store (env: {ENV})"
# what this process was started with: a front end whose CA field is emptied goes back to it, never to nothing
_INHERITED = os.environ.get(ENV) or None


class CaBundleError(ValueError):
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
    """A verifying client context: the system store, plus the CA bundle in use. Shared (contexts are safe to
    share between connections); loaded once per bundle and file version, not once per connection."""
    path = ca_bundle()
    stamp = None
    if path:
        try:
            st = os.stat(path)
            stamp = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
    return _context(path, stamp)


@functools.lru_cache(maxsize=4)
def _context(path: str | None, _stamp: tuple[int, int] | None) -> ssl.SSLContext:
    ctx = ssl.create_default_context()
    if path:
        try:
            _load(ctx, path)
        except (ssl.SSLError, OSError):
            pass  # checked when it was chosen; a file changed since fails verification, which says so
    return ctx
