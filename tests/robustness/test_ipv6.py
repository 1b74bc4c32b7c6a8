"""Issue #29 item 13: IPv6 URLs (``http://[::1]:8000/v1``) work on every transport, probe included."""

from __future__ import annotations

import socket

import pytest

from advisor.bench.client import Target
from advisor.bench.probe import probe
from tests.robustness.hostile import HostileServer
from tests.robustness.test_hostile_server import one


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def test_an_ipv6_url_keeps_its_brackets():
    t = Target.parse("http://[::1]:8000/v1")
    assert t.host == "::1" and t.root == "http://[::1]:8000"
    assert t.url(t.path("/models")) == "http://[::1]:8000/v1/models"


@pytest.mark.skipif(not _has_ipv6_loopback(), reason="no IPv6 loopback here")
@pytest.mark.parametrize("transport", ["raw", "raw-loop", "raw-h11", "httpx"])
def test_a_request_over_ipv6_succeeds(transport):
    with HostileServer(host="::1") as srv:
        assert srv.url.startswith("http://[::1]:")
        rec = one(srv.url + "/v1", transport=transport)
        result = probe(srv.url + "/v1", "m", timeout_s=10)
    assert rec.ok, (rec.outcome, rec.error_class, rec.error_message)
    assert result.ok, result.error
