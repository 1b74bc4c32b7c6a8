"""The Benchmark page's client-certificate fields (#29, mutual TLS), beside the CA bundle: picked with Browse…,
presented for connect and for the run as ``--client-cert``/``--client-key`` present them, kept in the project as
paths (never the key), a file that cannot be used said under the fields before anything is sent, translated.
Real widgets, a real loopback TLS server that requires a client certificate."""

from __future__ import annotations

import pytest

from advisor import tls
from advisor.domain.project import Project
from tests.robustness.hostile import HostileServer
from tests.robustness.mtls_pki import make_pki, server_context


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("mtls-page"))


@pytest.fixture
def page(benchmark_page, monkeypatch):
    """The app was started without a CA bundle or client certificate (whatever a test sets is undone after it)."""
    for name in (tls.ENV, tls.CERT_ENV, tls.KEY_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(tls, "_INHERITED", None)
    monkeypatch.setattr(tls, "_INHERITED_CERT", (None, None))
    return benchmark_page


def _connect(qtbot, page, url):
    page.url_radio.setChecked(True)
    page.url_edit.setText(url)
    page.model_pick.setCurrentText("m")
    with qtbot.waitSignal(page.probed, timeout=30_000) as probed:
        page.connect_target()
    return probed.args[0]


def test_a_client_certificate_picked_in_the_fields_is_presented_for_connect_and_the_run(qtbot, page, pki,
                                                                                         monkeypatch):  # fmt: skip
    import advisor.bench.session as bench_session

    given: list[object] = []
    real = bench_session.run_benchmark

    def recording(*args, **kwargs):
        given.append((kwargs.get("client_cert"), kwargs.get("client_key")))
        return real(*args, **kwargs)

    monkeypatch.setattr(bench_session, "run_benchmark", recording)
    page.ca_edit.setText(str(pki["ca"]))
    with HostileServer(tls=server_context(pki)) as srv:
        refused = _connect(qtbot, page, srv.url)
        assert refused is not None and refused.error_kind == "tls_client_cert"
        assert "--client-cert" in page.probe_label.text()
        monkeypatch.setattr(page.target.url, "ask_client_path", lambda: str(pki["client"]))
        page.client_cert_button.click()
        monkeypatch.setattr(page.target.url, "ask_client_path", lambda: str(pki["client_key"]))
        page.client_key_button.click()
        assert (page.client_cert_edit.text(), page.client_key_edit.text()) == (str(pki["client"]),
                                                                               str(pki["client_key"]))
        accepted = _connect(qtbot, page, srv.url)
        assert accepted is not None and accepted.ok, page.probe_label.text()
        page.shape_box.setCurrentIndex(page.shape_box.findData("fixed"))
        page.concurrency.setValue(1)
        page.requests.setValue(3)
        page.sample_check.setChecked(False)
        with qtbot.waitSignal(page.run_finished, timeout=60_000) as done:
            assert page.start_run()
    result = done.args[0]
    assert result["status"] == "completed", result.get("error")
    assert sum(s["requests_ok"] for s in result["steps"]) == 3
    assert given == [(str(pki["client"]), str(pki["client_key"]))]  # handed to the run, as the options are
    section = page.benchmark_section()
    assert (section.client_cert, section.client_key) == (str(pki["client"]), str(pki["client_key"]))
    saved = Project(benchmark=section).model_dump_json()
    assert "PRIVATE KEY" not in saved and pki["client_key"].read_text().splitlines()[1] not in saved


def test_a_key_of_another_certificate_is_said_under_the_fields_and_nothing_is_sent(qtbot, page, pki):
    with HostileServer(tls=server_context(pki)) as srv:
        page.url_radio.setChecked(True)
        page.url_edit.setText(srv.url)
        page.model_pick.setCurrentText("m")
        page.ca_edit.setText(str(pki["ca"]))
        page.client_cert_edit.setText(str(pki["client"]))
        page.client_key_edit.setText(str(pki["other_key"]))
        page.connect_target()
        assert "does not belong" in page.probe_label.text()
        assert page.client_note.isVisibleTo(page) and str(pki["other_key"]) in page.client_note.text()
        assert not page.start_run()
        assert "does not belong" in page.run_error.text()
        connections = srv.connections
    assert connections == 0
    page.client_key_edit.textEdited.emit("x")  # the user edits the field: the note goes until it is checked again
    assert not page.client_note.isVisibleTo(page)


def test_the_client_certificate_fields_are_translated(qtbot, page):
    from advisor import i18n

    i18n.set_language("zh_CN")
    page.retranslate()
    assert page.url_labels[4].text() == "客户端证书" and page.url_labels[5].text() == "客户端私钥"
    assert page.client_cert_button.text() == "浏览…" and "双向 TLS" in page.client_cert_edit.toolTip()
    assert page.client_cert_edit.placeholderText().startswith("可选")  # short enough to show whole (#26)
