"""A one-request probe: is it an LLM server, does it serve the model, which dialect, which features.

Reports usage in the stream (``stream_options.include_usage``), per-chunk usage (``continuous_usage_stats``),
the reasoning field name, the ``[DONE]`` marker, a Prometheus ``/metrics`` endpoint and a tokenize endpoint.

A failed probe says why in one word (``error_kind``), so a benchmark can stop before it sends any load:
``connection_refused`` (nothing listens there), ``tls_mismatch`` (https:// to a plain-HTTP port),
``tls_untrusted`` (its certificate is not trusted here), ``tls_client_cert`` (it wants a client certificate, or
refused the one sent),
``not_llm_server`` (a web page, another service), ``unknown_model`` (the served ids are in ``models``),
``auth`` (401/403), ``timeout`` (no answer within the probe's time), ``request_failed`` (anything else).
The whole probe is bounded by ``timeout_s``: a silent server costs that long, not minutes.
"""

from __future__ import annotations

import asyncio
import http.client
import ssl
import time
from typing import Any

from advisor import bounded_http
from advisor.bench.client import StreamClient, Target, build_record
from advisor.bench.protocol import chat_body, completions_body, guess_dialect
from advisor.bench.workload import Tokenizer
from advisor.domain.bench import ProbeResult
from advisor.i18n import tr
from advisor.tls import client_cert_refusal

_MODELS_TIMEOUT_S = 10.0
_MAX_MODELS = 200
_MAX_MODELS_BYTES = 4 * 1024 * 1024
METRICS_MAX_BYTES = 16 * 1024 * 1024  # a real vLLM /metrics page is ~100 kB; 16 MiB is generous


def connect_error_kind(exc: BaseException | str) -> str:
    text = str(exc)
    chain: list[BaseException] = []
    if isinstance(exc, BaseException):
        e: BaseException | None = exc
        while e is not None and len(chain) < 8:
            chain.append(e)
            e = e.__cause__ or e.__context__
    if any(isinstance(e, ssl.SSLCertVerificationError) for e in chain) or "CERTIFICATE_VERIFY_FAILED" in text:
        return "tls_untrusted"  # it does speak TLS: its certificate is not one this machine trusts
    if client_cert_refusal(exc) is not None:  # it speaks TLS and wants (another) client certificate
        return "tls_client_cert"
    if any(isinstance(e, ssl.SSLError) for e in chain) or "SSL" in text or "ssl" in text:
        return "tls_mismatch"
    if any(isinstance(e, ConnectionRefusedError) for e in chain) or "refused" in text.lower() or \
            "ConnectionRefusedError" in text:
        return "connection_refused"
    return "connection_refused" if "Errno 111" in text else "request_failed"


def probe(url: str, model: str, api: str = "chat", *, api_key: str | None = None, timeout_s: float = 60.0,
          max_tokens: int = 16) -> ProbeResult:
    t0 = time.monotonic()
    deadline = t0 + max(1.0, timeout_s)

    def left(cap: float) -> float:
        return max(0.5, min(cap, deadline - time.monotonic()))

    from advisor.bench.keys import auth_headers
    from advisor.redact import check_api_key

    target = Target.parse(url)
    api_key = check_api_key(api_key)
    headers = auth_headers(api_key)
    result = ProbeResult()

    def done(kind: str | None = None, error: str | None = None) -> ProbeResult:
        if kind is not None:
            result.ok = False
            result.error_kind = kind  # type: ignore[assignment]
            result.error = error or tr(f"bench.probe.{kind}", url=url, model=model,
                                       models=", ".join(result.models[:20]) or "-")
        result.duration_s = round(time.monotonic() - t0, 3)
        return result

    owned_by = None
    server_header = None
    html_models = False
    try:
        # wall-clock bound on the whole exchange (a head trickled a byte a second cannot hold it), size-bounded
        resp = bounded_http.request("GET", target.url(target.path("/models")), headers=headers,
                                    total_s=left(_MODELS_TIMEOUT_S), max_bytes=_MAX_MODELS_BYTES)
        server_header = resp.headers.get("server")
        if resp.status in (401, 403):
            return done("auth", tr("bench.probe.auth", url=url, status=resp.status))
        if resp.status == 400 and client_cert_refusal(resp.text[:2000]):  # nginx's ssl_verify_client: HTTP 400
            return done("tls_client_cert", tls_client_cert_message(url, resp.text[:2000]))
        if resp.status == 200:
            html_models = "html" in (resp.headers.get("content-type") or "").lower()
            try:
                data = resp.json()
            except ValueError:
                data = None
            items = data.get("data") if isinstance(data, dict) else None
            if isinstance(items, list):
                items = [m for m in items[:_MAX_MODELS] if isinstance(m, dict)]
                result.models = [str(m.get("id", ""))[:200] for m in items if isinstance(m.get("id"), str)]
                result.model_ok = model in result.models
                owners = [m.get("owned_by") for m in items if m.get("id") == model] or \
                         [m.get("owned_by") for m in items]
                owned_by = owners[0] if owners and isinstance(owners[0], str) else None
    except bounded_http.BoundExceeded as exc:
        if exc.kind == "timeout":
            return done("timeout", tr("bench.probe.timeout", url=url, seconds=f"{timeout_s:g}"))
        # an oversized model list: the request below decides
    except (ssl.SSLError, ConnectionRefusedError) as exc:
        kind, said = tls_diagnosis(url, connect_error_kind(exc), exc, left(3.0))
        return done(kind, said)
    except ConnectionResetError as exc:  # a TLS server that wanted a client certificate can look like this
        kind, said = tls_diagnosis(url, "request_failed", exc, left(3.0))
        if kind == "tls_client_cert":
            return done(kind, said)
    except (ValueError, OSError, http.client.HTTPException):
        pass  # no usable /v1/models: the request below decides

    async def one() -> Any:
        budget = left(timeout_s)
        client = StreamClient(url, api, api_key=api_key, timeout_s=budget, read_timeout_s=budget)
        try:
            if api == "chat":
                body = chat_body(model, [{"role": "user", "content": "Say hello."}], max_tokens)
            else:
                body = completions_body(model, "Hello, my name is", max_tokens)
            return await client.send(body)
        finally:
            await client.aclose()

    ex = asyncio.run(one())
    rec = build_record(ex, seq=0, max_tokens=max_tokens)
    r = ex.result
    result.ok = rec.ok
    if r is not None:
        result.dialect, result.dialect_evidence = guess_dialect(r, owned_by, server_header)
        result.usage_in_stream = r.usage_seen
        result.continuous_usage = r.tokens_per_event is not None
        result.reasoning_field = r.reasoning_field
        result.done_marker = r.done
        result.data_prefix_space = r.data_prefix_space
    if not rec.ok:
        detail = f"{rec.outcome}: {rec.error_class}" + (f" — {rec.error_message}" if rec.error_message else "")
        kind = _request_kind(rec.outcome, rec.error_class or "", rec.status, rec.error_message or "", result,
                             html_models, target.scheme)
        if kind in ("tls_mismatch", "request_failed"):  # over https: perhaps a client certificate it wants
            kind, said = tls_diagnosis(url, kind, rec.error_message or "", left(3.0))
            if kind == "tls_client_cert":
                return done(kind, said)
        if kind == "request_failed":
            return done(kind, tr("bench.probe.request_failed", url=url, detail=detail))
        if kind == "timeout":
            return done(kind, tr("bench.probe.timeout", url=url, seconds=f"{timeout_s:g}"))
        if kind == "auth":
            return done(kind, tr("bench.probe.auth", url=url, status=rec.status))
        if kind in ("tls_untrusted", "tls_client_cert"):
            return done(kind, tls_message(kind, url, rec.error_message or ""))
        return done(kind)
    try:
        resp = bounded_http.request("GET", target.root + "/metrics", headers=headers, total_s=left(5.0),
                                    max_bytes=METRICS_MAX_BYTES)
        result.metrics_endpoint = resp.status == 200 and ("# TYPE" in resp.text or "# HELP" in resp.text)
    except (OSError, ValueError, http.client.HTTPException):  # a trickled or oversized page: no usable /metrics
        result.metrics_endpoint = False
    if deadline - time.monotonic() > 1.0:
        result.tokenize_endpoint = Tokenizer(target.root, model, api_key=api_key, timeout=left(3.0)).detect()
    if result.tokenize_endpoint == "llamacpp_python" and result.dialect in ("openai", "llamacpp"):
        # llama-cpp-python's server looks like any uvicorn server (owned_by "me", no timings, no fingerprint, no
        # usage); only its /extras/tokenize/count gives it away. Found against a real 0.3.36: the probe said
        # "openai (server: uvicorn (vLLM, SGLang or LMDeploy))".
        result.dialect = "llamacpp"
        result.dialect_evidence = ["/extras/tokenize/count answers (llama-cpp-python)"] + [
            e for e in result.dialect_evidence if "uvicorn" not in e]  # fmt: skip
    return done()


def tls_message(kind: str, url: str, error: BaseException | str) -> str | None:
    """The message for a TLS failure of ``kind`` (None: the kind's generic one)."""
    if kind == "tls_untrusted":
        return tls_untrusted_message(url, error)
    if kind == "tls_client_cert":
        return tls_client_cert_message(url, error)
    return None


def tls_diagnosis(url: str, kind: str, error: BaseException | str, timeout_s: float = 3.0) -> tuple[str, str | None]:
    """``(kind, message)`` for a connection to an https:// URL that failed with ``kind``: when the failure could
    hide a TLS alert (a generic TLS error, a reset, no answer), one bare handshake asks the server why
    (:func:`advisor.tls.handshake_error`); a server that wants a client certificate becomes ``tls_client_cert``.
    Other kinds and plain http:// are returned as they are, with their TLS message if they have one."""
    from advisor.tls import handshake_error

    target = Target.parse(url)
    if target.scheme == "https" and kind in ("tls_mismatch", "request_failed"):
        found = handshake_error(target.host, target.port, timeout_s)
        if found is not None and client_cert_refusal(found) is not None:
            return "tls_client_cert", tls_client_cert_message(url, found)
    return kind, tls_message(kind, url, error)


def tls_client_cert_message(url: str, error: BaseException | str) -> str:
    """The server wants a client certificate and none was sent (pass ``--client-cert``), or refused the one sent
    (which one, and the usual reasons). ``reason``: OpenSSL's alert, or the server's own words (nginx)."""
    from advisor.redact import terminal_text
    from advisor.tls import client_cert

    text = " ".join(str(e) for e in _chain(error)) if isinstance(error, BaseException) else str(error)
    reason = "-"
    for marker in ("No required SSL certificate was sent", "The SSL certificate error"):
        if marker in text:
            reason = f"HTTP 400: {marker}"
            break
    else:
        found = text.split("] ", 1)[1].split(" (_ssl")[0] if "] " in text else text
        reason = terminal_text(found.strip()[:120]) or "-"
    cert = client_cert()
    if cert and client_cert_refusal(error) == "refused":
        return tr("bench.probe.tls_client_cert_refused", url=url, reason=reason, cert=cert[0])
    return tr("bench.probe.tls_client_cert", url=url, reason=reason)


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    e: BaseException | None = exc
    while e is not None and len(out) < 8:
        out.append(e)
        recorded = getattr(e, "tls_error", None)  # the alert a RecordingSSLObject kept (advisor/tls.py)
        if recorded is not None:
            out.append(recorded)
        e = e.__cause__ or e.__context__
    return out


def tls_untrusted_message(url: str, error: BaseException | str) -> str:
    """Why the certificate was refused (self-signed, unknown CA, another host's name, expired), and what to do:
    ``--ca-bundle`` with the CA's PEM, or — when one is in use already — that it does not vouch for this one."""
    from advisor.tls import ca_bundle

    reason = getattr(error, "verify_message", None) or ""
    if not reason:
        text = str(error)
        marker = "certificate verify failed:"
        reason = text.split(marker, 1)[1].split("(_ssl")[0].strip(" )") if marker in text else ""
    bundle = ca_bundle()
    if bundle:
        return tr("bench.probe.tls_untrusted_bundle", url=url, reason=reason or "-", bundle=bundle)
    return tr("bench.probe.tls_untrusted", url=url, reason=reason or "-")


def served_models(url: str, *, api_key: str | None = None, timeout_s: float = _MODELS_TIMEOUT_S) -> list[str]:
    """The model ids a server lists at ``/v1/models`` (an empty list for none or for an answer that is not a
    model list), fetched as the probe fetches it: direct (no proxy from the environment), the run's TLS trust,
    one wall-clock bound on the whole exchange, a size bound, no redirect to another host. Raises ``SecretError`` for a key that cannot be sent, ``OSError``
    (refused, TLS, a bound exceeded) or ``http.client.HTTPException`` (not HTTP)."""
    from advisor.bench.keys import auth_headers

    target = Target.parse(url)
    resp = bounded_http.request("GET", target.url(target.path("/models")), headers=auth_headers(api_key),
                                total_s=timeout_s, max_bytes=_MAX_MODELS_BYTES)
    try:
        data = resp.json() if resp.status == 200 else None
    except ValueError:
        data = None
    items = data.get("data") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [str(m["id"])[:200] for m in items[:_MAX_MODELS] if isinstance(m, dict) and isinstance(m.get("id"), str)]


def probe_problem(result: ProbeResult, model: str) -> str | None:
    """What the Benchmark page says after connecting when the load should not start (in the user's language):
    the model is not among the served ids, or the probe failed; None when it may go on."""
    if result.models and model not in result.models:
        return tr("bench.page.error.unknown_model", model=model, models=", ".join(result.models[:8]))
    if not result.ok:
        return tr("bench.page.error.probe_failed", error=result.error or "?")
    return None


def one_request_at_a_time(result: ProbeResult | None) -> bool:
    """The server answers one request at a time and, by default, cuts off the answer it is streaming when another
    request arrives (llama-cpp-python's ``interrupt_requests``; with it off, requests queue instead). Either way an
    extra request beside the load — the page's sample answer — spoils the measurement, and concurrency above 1
    measures cut-off answers rather than the server."""
    return result is not None and result.tokenize_endpoint == "llamacpp_python"


def _request_kind(outcome: str, error_class: str, status: int | None, message: str, result: ProbeResult,
                  html_models: bool, scheme: str) -> str:
    if outcome == "connect_error":
        return connect_error_kind(f"{error_class} {message}")
    if outcome == "timeout":
        return "timeout"
    if outcome == "http_error":
        if status == 400 and client_cert_refusal(message):  # nginx asks for the certificate over HTTP
            return "tls_client_cert"
        if status in (401, 403):
            return "auth"
        if result.model_ok is False:
            return "unknown_model"
        if status == 404:
            low = message.lower()
            if "model" in low and ("not" in low or "exist" in low or "found" in low):
                return "unknown_model"
            return "not_llm_server"
        if status in (400, 422) and result.model_ok is False:
            return "unknown_model"
        if status == 405:
            return "not_llm_server"
        return "request_failed"
    if outcome == "invalid" and error_class == "bad_http_head" and scheme == "https":
        return "tls_mismatch"
    if outcome == "invalid" and error_class in ("not_llm_server", "not_sse", "bad_http_head"):
        return "not_llm_server"
    if outcome == "empty" or html_models:
        return "not_llm_server"
    if result.model_ok is False:
        return "unknown_model"
    return "request_failed"
