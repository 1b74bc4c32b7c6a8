"""One streamed answer shown as it arrives: the Benchmark page's sample text beside the load. Not measured (no
figure from here enters a statistic).

It reads the stream with the benchmark's own SSE parser (:class:`advisor.bench.protocol.SseParser`: answer text,
``reasoning_content`` and ``reasoning`` deltas, tool calls, every dialect the load reads) and sends the key
through the one key check (:func:`advisor.bench.keys.auth_headers`), so the text a person watches is the text the
load parses. (The page had its own parser, which missed the ``reasoning`` field, and built its own header.)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from advisor.bench.client import Target, token_limit
from advisor.bench.keys import auth_headers
from advisor.bench.protocol import SseParser, chat_body, completions_body
from advisor.bench.workload import PromptSource
from advisor.cancel import CancelToken
from advisor.domain.bench import BenchConfig
from advisor.tls import client_context

MAX_SAMPLE_TOKENS = 160


def stream_answer(config: BenchConfig, api_key: str | None, *, on_text: Callable[[str], None],
                  cancel: CancelToken | None = None, timeout_s: float = 30.0) -> str | None:
    """Stream one answer to a prompt of the run's workload (another seed than the load's), calling ``on_text``
    with each piece as it is parsed. Returns None when the answer ended (or was stopped by ``cancel``), else what
    went wrong in a few words (``HTTP 500``, the server's error event, a connection error)."""
    import httpx

    ep = config.endpoint
    prompt = next(PromptSource(config.workload.model_copy(update={"seed": config.workload.seed + 99})))
    max_tokens = max(8, min(MAX_SAMPLE_TOKENS, prompt.max_tokens))
    if ep.api == "chat":
        path, body = "/chat/completions", chat_body(ep.model, prompt.as_messages(), max_tokens)
    else:
        path, body = "/completions", completions_body(ep.model, prompt.as_text(), max_tokens)
    target = Target.parse(ep.url)
    headers = auth_headers(api_key)  # the key check first: nothing is sent with a key that would inject a header
    parser = SseParser(max_token_events=token_limit(max_tokens), on_text=on_text)
    try:  # trust_env off: no proxy, as for every request of a run
        with httpx.Client(timeout=timeout_s, trust_env=False, verify=client_context()) as client, \
                client.stream("POST", target.url(target.path(path)), json=body, headers=headers) as resp:
            if resp.status_code != 200:
                return f"HTTP {resp.status_code}"
            for chunk in resp.iter_bytes():
                if cancel is not None and cancel.cancelled:
                    return None
                parser.feed(chunk, time.monotonic())
                if parser.abort is not None:
                    break
    except httpx.HTTPError as exc:
        return str(exc) or type(exc).__name__
    result = parser.finish()
    return result.error or (f"invalid stream: {result.invalid_kind}" if result.invalid_kind else None)
