"""Issue #29 item 15: proxies are used for none of a run's requests, and the run says so when the environment
names one that would apply (NO_PROXY respected: a host it exempts gets no note); a proxy's credentials are
masked in the note. A recording proxy on loopback checks that nothing went through it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.robustness.hostile import HostileServer
from tests.support.proxy import recording_proxy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def proxy():
    with recording_proxy(200) as (port, hits):
        yield f"127.0.0.1:{port}", hits


def _bench(url: str, env: dict[str, str], transport: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    return subprocess.run(
        [sys.executable, "-m", "advisor", "bench", "--url", url, "--model", "m", "--requests", "3", "--warmup", "0",
         "--no-store", "--json", "--transport", transport],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**base, "PYTHONPATH": str(ROOT), "ADVISOR_API_KEY": "sk-proxy-test-0123456789", **env})


@pytest.mark.parametrize("transport", ["raw", "httpx"])
@pytest.mark.parametrize("no_proxy", [None, "localhost,127.0.0.1"])
def test_a_proxy_in_the_environment_is_not_used_and_said_so(proxy, transport, no_proxy):
    address, hits = proxy
    env = {name: f"http://corp:pr0xy-pass@{address}" for name in ("HTTP_PROXY", "https_proxy", "ALL_PROXY")}
    if no_proxy:
        env["NO_PROXY"] = no_proxy
    with HostileServer() as srv:
        proc = _bench(srv.url + "/v1", env, transport)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["requests_ok"] == 3
    assert hits == []  # the probe, the model list, /metrics, the tokenizer and the load all went direct
    if no_proxy:
        assert "proxy" not in proc.stderr.lower()  # NO_PROXY exempts the host: nothing was ignored
    else:
        assert "does not use it" in proc.stderr and address in proc.stderr
        assert "pr0xy-pass" not in proc.stderr  # the proxy's credentials are masked
