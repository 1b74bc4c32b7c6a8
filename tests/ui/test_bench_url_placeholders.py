"""The Benchmark page's fields for a server by URL show their whole placeholder at the window's default size in
both languages (issue #26, retaking the screenshots: the client certificate and key placeholders added in #29 were
cut to "optional: your certificate's PE…" / "可选：你的证书 PEM 文件（双…"; what a field is for in full stays in
its tooltip)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_every_url_field_placeholder_fits_its_field(qtbot, main_window, lang):
    main_window.resize(1380, 880)
    main_window.set_language(lang)
    page = main_window.benchmark_page
    main_window.tabs.setCurrentWidget(page)
    page.target.url_radio.setChecked(True)
    qtbot.wait(50)
    url = page.target.url
    edits = [url.key_edit, url.exporter_edit, url.ca_edit, url.client_cert_edit, url.client_key_edit]
    for edit in edits:
        text = edit.placeholderText()
        assert text and edit.isVisible()
        room = edit.contentsRect().width() - 8  # QLineEdit's own text margins (2 px a side) and the frame
        needed = QFontMetrics(edit.font()).horizontalAdvance(text)
        assert needed <= room, f"{lang}: {text!r} needs {needed} px, the field shows {room}"
    # the tooltips keep the explanation the short placeholders leave out
    assert "mutual TLS" in url.client_cert_edit.toolTip() or "双向 TLS" in url.client_cert_edit.toolTip()
