"""Issue #29 items 14-15: no transport asks for a compressed answer it cannot decode, and no request of a run
takes a proxy from the environment while the others go direct (all go direct)."""

from __future__ import annotations

import pytest

from advisor.bench.probe import probe
from tests.robustness.hostile import HostileServer
from tests.robustness.test_hostile_server import one


@pytest.mark.parametrize("transport", ["raw", "raw-h11", "httpx"])
def test_no_transport_asks_for_gzip(transport):
    with HostileServer() as srv:
        rec = one(srv.url, transport=transport)
        heads = list(srv.heads)
    assert rec.ok
    for head in heads:
        assert "gzip" not in head.lower(), head


def test_proxy_variables_do_not_split_a_run(monkeypatch):
    # a proxy that does not exist: a request sent to it would fail; every request must go direct
    for name in ("HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    with HostileServer() as srv:
        result = probe(srv.url, "m", timeout_s=10)
        rec = one(srv.url, transport="httpx")
        gets = [h for h in srv.heads if h.startswith("GET")]
    assert result.ok and result.model_ok, result.error
    assert rec.ok, rec.error_message
    assert any("/v1/models" in h for h in gets)  # the model list came straight here, not via the proxy
