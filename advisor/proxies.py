"""Proxies: the benchmark uses none, for every request of a run (the load on every transport, the probe, the
model list, ``/metrics``, the tokenizer), and says so when the environment names one that would apply.

Why none: a proxy adds its own queueing and latency to every figure, and honouring it for some requests but
not others sent the API key one way and the load another (issue #29). Why say so: a user whose server is only
reachable through the proxy should read why the connection fails, not guess.
"""

from __future__ import annotations

import urllib.request
from urllib.parse import urlsplit

from advisor.redact import redact_url


def ignored_proxy(url: str) -> str | None:
    """The proxy the environment (``HTTP_PROXY``, ``HTTPS_PROXY``, ``ALL_PROXY``, any case) would use for
    ``url`` and the benchmark does not, with any credentials in it masked; None when none is set or
    ``NO_PROXY`` exempts the host (then nothing is ignored)."""
    parts = urlsplit(url)
    proxies = urllib.request.getproxies_environment()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if not proxy or not parts.hostname:
        return None
    if urllib.request.proxy_bypass_environment(parts.hostname, proxies):  # type: ignore[attr-defined]  # in the module, not in its stubs
        return None
    return redact_url(proxy)
