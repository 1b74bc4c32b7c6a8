"""The Benchmark page as panels (#27 "pages as panels"): one mapping of its project section used for open, save and
the wizard's hand-off; the Sizing page's choice reached through its shared inputs, not its widgets; a CA-bundle
field with the CLI's ``--ca-bundle`` meaning, saved as a path and handed to the run (#26/#29); the GPU panel greyed
once its run is over (#26 item 9). Real widgets, a real TLS server on loopback, the real simulated server."""

from __future__ import annotations

import pytest

from advisor import tls
from advisor.domain.project import BenchmarkSection, Project
from tests.robustness.hostile import HostileServer
from tests.robustness.test_ca_bundle import pki  # noqa: F401 - the private CA and its server certificate
from tests.ui.test_benchmark_page import _small, _start_sim


@pytest.fixture
def page(benchmark_page):
    return benchmark_page


@pytest.fixture
def no_inherited_bundle(monkeypatch):
    """The app was started without ADVISOR_CA_BUNDLE (and whatever a test trusts is undone after it)."""
    monkeypatch.delenv(tls.ENV, raising=False)
    monkeypatch.setattr(tls, "_INHERITED", None)


# -------------------------------------------------------------------------------------------- one mapping
def test_every_field_of_the_section_survives_a_save_and_an_open(qtbot, page):
    from ui.pages.benchmark import BenchmarkPage

    saved = BenchmarkSection(target="url", url="https://gpu-host:8443/v1", model="served-7b",
                             sim_model="llama-3.1-8b-instruct", sim_gpu="l4", sim_weights="fp8", sim_gpus=2,
                             sim_time_scale=0.25, exporter_url="http://gpu-host:9400/metrics", preset="rag",
                             prompt_tokens=3000, output_tokens=200, shape="rate", concurrency=5, max_concurrency=48,
                             requests=40, duration_s=90.0, rate=2.5, ttft_p99_ms=1500.0, tpot_p99_ms=60.0,
                             ca_bundle="/etc/ssl/private-ca.pem", client_cert="/etc/ssl/me.pem",
                             client_key="/etc/ssl/me.key")  # fmt: skip
    assert saved.model_dump() != BenchmarkSection().model_dump()
    other = BenchmarkPage(page.runner)
    qtbot.addWidget(other)
    other.apply_project(Project(benchmark=saved))
    assert other.benchmark_section() == saved
    assert other.ca_edit.text() == "/etc/ssl/private-ca.pem"


def test_an_unknown_simulated_model_in_a_project_keeps_the_pick_the_hand_off_adds_it(qtbot, page):
    page.sim_model.setCurrentIndex(page.sim_model.findData("qwen2.5-7b-instruct"))
    page.apply_project(Project(benchmark=BenchmarkSection(sim_model="not-in-this-catalog", sim_gpu="l4")))
    assert page.sim_model.currentData() == "qwen2.5-7b-instruct" and page.sim_gpu.currentData() == "l4"
    page.preconfigure(model="not-in-this-catalog", shape="no-such-shape")
    assert page.sim_model.currentData() == "not-in-this-catalog"
    assert page.shape_box.currentData() == "ramp" and page.shape_box.findData("no-such-shape") < 0


def test_the_sizing_choice_comes_from_the_shared_inputs_not_the_sizing_page(qtbot, page):
    from advisor import catalog
    from ui.pages.benchmark import BenchmarkPage
    from ui.sizing_inputs import SizingInputs

    inputs = SizingInputs(catalog.get_model("llama-3.1-8b-instruct"), catalog.get_gpu("l4"))
    inputs.update(weights="fp8", gpus=2)
    other = BenchmarkPage(page.runner, sizing_inputs=inputs)
    qtbot.addWidget(other)
    assert (other.sim_model.currentData(), other.sim_gpu.currentData()) == ("llama-3.1-8b-instruct", "l4")
    assert other.sim_weights.currentData() == "fp8" and other.sim_gpus.value() == 2
    inputs.update(gpu=catalog.get_gpu("h100-sxm-80g"), gpus=4)
    other.sim_from_sizing.click()
    assert other.sim_gpu.currentData() == "h100-sxm-80g" and other.sim_gpus.value() == 4


def test_the_window_hands_the_benchmark_page_the_sizing_inputs(main_window):
    assert main_window.benchmark_page.sizing_inputs is main_window.sizing_page.inputs


# ---------------------------------------------------------------------------------------------- CA bundle
def _connect(qtbot, page, url: str):
    page.url_radio.setChecked(True)
    page.url_edit.setText(url)
    page.model_pick.setCurrentText("m")
    with qtbot.waitSignal(page.probed, timeout=30_000) as probed:
        page.connect_target()
    return probed.args[0]


def test_a_private_ca_picked_in_the_field_is_trusted_for_connect_and_the_run(qtbot, page, pki, monkeypatch,  # noqa: F811
                                                                              no_inherited_bundle):  # fmt: skip
    import advisor.bench.session as bench_session

    given: list[object] = []
    real = bench_session.run_benchmark

    def recording(*args, **kwargs):
        given.append(kwargs.get("ca_bundle"))
        return real(*args, **kwargs)

    monkeypatch.setattr(bench_session, "run_benchmark", recording)
    with HostileServer(tls=pki["server"]) as srv:
        untrusted = _connect(qtbot, page, srv.url)
        assert untrusted is not None and untrusted.error_kind == "tls_untrusted"
        assert "--ca-bundle" in page.probe_label.text()
        monkeypatch.setattr(page.target.url, "ask_ca_path", lambda: str(pki["ca"]))
        page.ca_button.click()
        assert page.ca_edit.text() == str(pki["ca"])
        trusted = _connect(qtbot, page, srv.url)
        assert trusted is not None and trusted.ok, page.probe_label.text()
        page.shape_box.setCurrentIndex(page.shape_box.findData("fixed"))
        page.concurrency.setValue(1)
        page.requests.setValue(3)
        page.sample_check.setChecked(False)
        with qtbot.waitSignal(page.run_finished, timeout=60_000) as done:
            assert page.start_run()
        posts = srv.posts()
    result = done.args[0]
    assert result["status"] == "completed", result.get("error")
    assert sum(s["requests_ok"] for s in result["steps"]) == 3 and posts >= 4  # the run's probe + 3, over TLS
    assert given == [str(pki["ca"])]  # the run was handed the bundle, as `advisor bench --ca-bundle` hands it
    section = page.benchmark_section()
    assert section.ca_bundle == str(pki["ca"])  # kept in the project as a path: no certificate text, no key
    assert "BEGIN CERTIFICATE" not in Project(benchmark=section).model_dump_json()


def test_emptying_the_field_goes_back_to_the_trust_the_app_started_with(qtbot, page, pki, no_inherited_bundle):  # noqa: F811
    with HostileServer(tls=pki["server"]) as srv:
        page.ca_edit.setText(str(pki["ca"]))
        assert _connect(qtbot, page, srv.url).ok
        page.ca_edit.setText("")
        again = _connect(qtbot, page, srv.url)
    assert again is not None and again.error_kind == "tls_untrusted"  # not still trusting the removed bundle
    assert tls.ca_bundle() is None


def test_a_bad_ca_bundle_is_said_next_to_the_field_and_nothing_is_sent(qtbot, page, tmp_path, pki,  # noqa: F811
                                                                        no_inherited_bundle):  # fmt: skip
    missing = tmp_path / "nope.pem"
    with HostileServer(tls=pki["server"]) as srv:
        page.url_radio.setChecked(True)
        page.url_edit.setText(srv.url)
        page.model_pick.setCurrentText("m")
        page.ca_edit.setText(str(missing))
        page.connect_target()
        assert "does not exist" in page.probe_label.text()
        assert page.ca_note.isVisibleTo(page) and str(missing) in page.ca_note.text()
        assert not page.start_run()
        assert "does not exist" in page.run_error.text()
        connections = srv.connections
    assert connections == 0
    page.ca_edit.textEdited.emit("x")  # the user edits the field: the note goes until it is checked again
    assert not page.ca_note.isVisibleTo(page)


def test_the_ca_field_is_translated(qtbot, page):
    from advisor import i18n

    i18n.set_language("zh_CN")
    page.retranslate()
    assert page.url_labels[3].text() == "CA 证书" and page.ca_button.text() == "浏览…"


# ---------------------------------------------------------------------------------------------- GPU panel
def test_the_gpu_panel_is_greyed_once_its_run_is_over_and_current_again_in_the_next(qtbot, page):
    panel = page.gpu_panel
    assert not panel.ended_mark.stale
    _start_sim(qtbot, page, speed=0.05)
    _small(page, shape="fixed", max_c=2, requests=4, prompt=32, output=8)
    page.sample_check.setChecked(False)
    with qtbot.waitSignal(page.run_finished, timeout=60_000):
        assert page.start_run()
        assert not panel.ended_mark.stale and panel.readings.graphicsEffect() is None  # live while it runs
    assert panel.ended_mark.stale and panel.readings.graphicsEffect() is not None
    assert "last readings" in panel.ended_mark.note.text()
    from advisor import i18n

    i18n.set_language("zh_CN")
    page.retranslate()
    assert "最后的读数" in panel.ended_mark.note.text()
    i18n.set_language("en")
    page.retranslate()
    # a stopped run: the same
    page.requests.setValue(500)
    with qtbot.waitSignal(page.run_finished, timeout=60_000):
        assert page.start_run()
        assert not panel.ended_mark.stale
        page.stop_run()
    assert panel.ended_mark.stale and "last readings" in panel.ended_mark.note.text()


def test_a_run_the_engine_could_not_finish_gives_start_back(qtbot, page, monkeypatch):
    """The engine raised (no result follows): the error is said, Start works again, the GPU panel is the last run's.
    Start stayed disabled for good before, with Stop disabled too."""
    import advisor.bench.session as bench_session

    def broken(*_args, **_kwargs):
        raise RuntimeError("the store's disk is full")

    monkeypatch.setattr(bench_session, "run_benchmark", broken)
    page.sim_url = "http://127.0.0.1:1"  # the run never reaches it
    page.model_pick.setCurrentText("m")
    with qtbot.waitSignal(page.session.failed, timeout=30_000):
        assert page.start_run()
        assert not page.start_button.isEnabled()
    assert "disk is full" in page.run_error.text() and not page.run_error.isHidden()
    assert page.start_button.isEnabled() and not page.stop_button.isEnabled()
    assert page.gpu_panel.ended_mark.stale
