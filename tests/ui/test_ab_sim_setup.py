"""Issue #26, the A/B page's model and GPU: what the page's boxes show is what the simulated servers run.

The session-13 walk found the boxes following the Sizing page (an RTX 4090) while the A/B shown had run on two
L4 servers. Now: while two servers run the boxes are locked to their setup (a Sizing choice or an opened project
waits until they stop), each A/B side records the setup its server reported, the result says it (GPU by name), and
showing a result brings its setup into the boxes, labelled as coming from that result."""

from __future__ import annotations

from advisor.bench.ab import to_markdown
from advisor.catalog import get_gpu, get_model
from advisor.domain.project import AbSection, Project


def _pick_on_sizing(window, model_id: str, gpu_id: str, weights: str) -> None:
    window.sizing_page.inputs.update(model=get_model(model_id), gpu=get_gpu(gpu_id), weights=weights)


def _show_ab(qtbot, window):
    window.tabs.setCurrentWidget(window.ab_page)
    qtbot.waitUntil(window.ab_page.isVisible, timeout=3000)
    return window.ab_page


def test_the_boxes_say_what_the_simulated_servers_run(qtbot, main_window):
    l4, rtx = get_gpu("l4").name, get_gpu("rtx-4090").name
    _pick_on_sizing(main_window, "qwen2.5-7b-instruct", "l4", "awq-int4")
    page = _show_ab(qtbot, main_window)
    sims = page.sims
    assert sims.gpu.currentData() == "l4" and sims.origin == "sizing"
    with qtbot.waitSignal(page.sims_ready, timeout=60000):
        sims.button.click()
    running = [launcher.spec for launcher in sims.launchers]
    assert {s.gpu for s in running} == {"l4"} and [s.weights for s in running] == ["bf16", "awq-int4"]
    assert not sims.gpu.isEnabled() and not sims.model.isEnabled()  # no pick can make them disagree
    assert "now running" in sims.source.text() and l4 in sims.source.text()

    # the Sizing page moves on to an RTX 4090: the boxes keep saying what runs
    _pick_on_sizing(main_window, "qwen2.5-7b-instruct", "rtx-4090", "awq-int4")
    assert page.use_sizing_choice() is False
    assert sims.gpu.currentData() == "l4" and sims.gpu.currentText() == l4

    # the A/B records, per side, the setup its server reported, and says it with the GPU's name
    page.answers.setValue(1)
    page.requests.setValue(2)
    page.concurrency.setText("1")
    page.max_tokens.setValue(8)
    with qtbot.waitSignal(page.finished, timeout=120000) as blocker:
        assert page.start()
    result = blocker.args[0]
    assert (result.a.sim_gpu, result.a.sim_model, result.a.sim_weights) == ("l4", "qwen2.5-7b-instruct", "bf16")
    assert (result.b.sim_gpu, result.b.sim_weights) == ("l4", "awq-int4")
    line = page.view.sim_setup.text()
    assert not page.view.sim_setup.isHidden() and line.count(l4) == 2 and rtx not in line
    assert line in to_markdown(result)

    # a project opened while they run: its setup waits until they stop
    section = AbSection(sim_model="qwen2.5-7b-instruct", sim_gpu="a10", sim_weights_a="bf16",
                        sim_weights_b="awq-int4", sim_source="user")
    page.apply_project(Project(ab=section))
    assert sims.gpu.currentData() == "l4" and "now running" in sims.source.text()
    page.sims.stop()
    assert sims.gpu.isEnabled() and sims.gpu.currentData() == "a10" and "chosen on this page" in sims.source.text()

    # the result shown brings the setup its servers ran, and says where it came from; the Sizing page does not
    # take it over when the page is shown again
    page.show_result(result)
    assert sims.gpu.currentData() == "l4" and sims.origin == "result"
    assert l4 in sims.source.text() and "A/B shown below" in sims.source.text()
    main_window.tabs.setCurrentWidget(main_window.sizing_page)
    _show_ab(qtbot, main_window)
    assert sims.gpu.currentData() == "l4" and sims.gpu.currentText() == l4
    assert page.ab_section().sim_source == "result"


def test_the_setup_line_is_in_chinese_too(qtbot, main_window):
    from advisor.bench.ab import AbConfig, AbResult, AbSideResult, sim_setup_line
    from advisor.i18n import set_language

    side = {"url": "http://127.0.0.1:1", "model": "m", "simulated": True, "sim_model": "qwen2.5-7b-instruct",
            "sim_gpu": "l4"}
    result = AbResult(status="completed", simulated=True,
                      config=AbConfig.model_validate({"a": {"url": "http://127.0.0.1:1", "model": "m"},
                                                      "b": {"url": "http://127.0.0.1:2", "model": "m"}}),
                      a=AbSideResult(name="A", sim_weights="bf16", **side),
                      b=AbSideResult(name="B", sim_weights="awq-int4", **side))
    try:
        set_language("zh_CN")
        zh = sim_setup_line(result)
    finally:
        set_language("en")
    assert zh and "模拟服务器" in zh and get_gpu("l4").name in zh and "awq-int4" in zh
    real = result.model_copy(update={"a": result.a.model_copy(update={"sim_gpu": None}),
                                     "b": result.b.model_copy(update={"sim_gpu": None})})
    assert sim_setup_line(real) is None  # real servers: nothing claimed
