"""A one-request probe: which dialect a server speaks and which features it has.

Reports usage in the stream (``stream_options.include_usage``), per-chunk usage (``continuous_usage_stats``),
the reasoning field name, the ``[DONE]`` marker, a Prometheus ``/metrics`` endpoint and a tokenize endpoint.
"""

from __future__ import annotations

import asyncio

import httpx

from advisor.bench.client import StreamClient, Target, build_record
from advisor.bench.protocol import chat_body, completions_body, guess_dialect
from advisor.bench.workload import Tokenizer
from advisor.domain.bench import ProbeResult


def probe(url: str, model: str, api: str = "chat", *, api_key: str | None = None, timeout_s: float = 60.0,
          max_tokens: int = 16) -> ProbeResult:
    target = Target.parse(url)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    result = ProbeResult()
    owned_by = None
    server_header = None
    try:
        resp = httpx.get(target.url(target.path("/models")), headers=headers, timeout=10)
        server_header = resp.headers.get("server")
        if resp.status_code == 200:
            data = resp.json().get("data", [])
            result.models = [m.get("id", "") for m in data if isinstance(m, dict)]
            owners = [m.get("owned_by") for m in data if isinstance(m, dict) and m.get("id") == model] or \
                     [m.get("owned_by") for m in data if isinstance(m, dict)]
            owned_by = owners[0] if owners else None
    except (httpx.HTTPError, ValueError, AttributeError):
        pass

    async def one() -> object:
        client = StreamClient(url, api, api_key=api_key, timeout_s=timeout_s, read_timeout_s=timeout_s)
        try:
            if api == "chat":
                body = chat_body(model, [{"role": "user", "content": "Say hello."}], max_tokens)
            else:
                body = completions_body(model, "Hello, my name is", max_tokens)
            return await client.send(body)
        finally:
            await client.aclose()

    ex = asyncio.run(one())
    rec = build_record(ex, seq=0, max_tokens=max_tokens)  # type: ignore[arg-type]
    r = ex.result  # type: ignore[attr-defined]
    result.ok = rec.ok
    if not rec.ok:
        result.error = f"{rec.outcome}: {rec.error_class}" + (f" — {rec.error_message}" if rec.error_message else "")
    if r is not None:
        result.dialect, result.dialect_evidence = guess_dialect(r, owned_by, server_header)
        result.usage_in_stream = r.usage_seen
        result.continuous_usage = r.tokens_per_event is not None
        result.reasoning_field = r.reasoning_field
        result.done_marker = r.done
        result.data_prefix_space = r.data_prefix_space
    try:
        resp = httpx.get(target.root + "/metrics", headers=headers, timeout=5)
        result.metrics_endpoint = resp.status_code == 200 and ("# TYPE" in resp.text or "# HELP" in resp.text)
    except httpx.HTTPError:
        result.metrics_endpoint = False
    result.tokenize_endpoint = Tokenizer(target.root, model, api_key=api_key).detect()
    return result
