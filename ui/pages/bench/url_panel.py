"""A server by URL: its address, the API key (kept in the OS keyring, never in the project), another GPU exporter
to read, a CA bundle to trust for its certificate (``advisor bench --ca-bundle``: a path, never a secret), and a
client certificate for servers that require one (``--client-cert``/``--client-key``: paths, never the key itself)."""

from __future__ import annotations

from PySide6.QtWidgets import QFileDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from advisor.bench.keys import KeyStore
from advisor.i18n import tr
from ui.pages.bench.styles import ERROR_STYLE

FIELD_KEYS = ("url", "api_key", "exporter", "ca_bundle", "client_cert", "client_key")


class UrlPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.keys = KeyStore()
        self.url_edit = QLineEdit()  # its placeholder reads as an example (set in retranslate), never as a value
        self.key_edit = QLineEdit()
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_note = QLabel()
        self.key_note.setWordWrap(True)
        self.exporter_edit = QLineEdit()
        self.ca_edit = QLineEdit()
        self.ca_button = QPushButton()
        self.ca_button.clicked.connect(self._on_ca_clicked)
        self.ca_note = QLabel()  # why the bundle cannot be used, next to it
        self.ca_note.setWordWrap(True)
        self.ca_note.setStyleSheet(ERROR_STYLE)
        self.ca_note.hide()
        self.ca_edit.textEdited.connect(lambda _t: self.ca_note.hide())
        # mutual TLS: the certificate (its file may hold the key too) and, optionally, the key's own file
        self.client_cert_edit = QLineEdit()
        self.client_cert_button = QPushButton()
        self.client_cert_button.clicked.connect(lambda: self._browse(self.client_cert_edit))
        self.client_key_edit = QLineEdit()
        self.client_key_button = QPushButton()
        self.client_key_button.clicked.connect(lambda: self._browse(self.client_key_edit))
        self.client_note = QLabel()  # why the certificate or key cannot be used, next to them
        self.client_note.setWordWrap(True)
        self.client_note.setStyleSheet(ERROR_STYLE)
        self.client_note.hide()
        self.client_cert_edit.textEdited.connect(lambda _t: self.client_note.hide())
        self.client_key_edit.textEdited.connect(lambda _t: self.client_note.hide())
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.url_labels = [QLabel() for _ in FIELD_KEYS]
        form.addRow(self.url_labels[0], self.url_edit)
        form.addRow(self.url_labels[1], self.key_edit)
        form.addRow("", self.key_note)
        form.addRow(self.url_labels[2], self.exporter_edit)
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_edit, 1)
        ca_row.addWidget(self.ca_button)
        form.addRow(self.url_labels[3], ca_row)
        form.addRow("", self.ca_note)
        for label, edit, button in ((self.url_labels[4], self.client_cert_edit, self.client_cert_button),
                                    (self.url_labels[5], self.client_key_edit, self.client_key_button)):
            row = QHBoxLayout()
            row.addWidget(edit, 1)
            row.addWidget(button)
            form.addRow(label, row)
        form.addRow("", self.client_note)
        self.url_edit.editingFinished.connect(self.load_key)

    def retranslate(self) -> None:
        for lab, key in zip(self.url_labels, FIELD_KEYS, strict=True):
            lab.setText(tr(f"bench.page.{key}"))
        self.key_edit.setPlaceholderText(tr("bench.page.api_key_placeholder"))
        # "http://127.0.0.1:8000" greyed in an empty field read as the URL already filled in (Connect then said
        # "Enter the server's URL"): an example says it is one
        self.url_edit.setPlaceholderText(tr("ui.placeholder.example", value="http://127.0.0.1:8000"))
        self.exporter_edit.setPlaceholderText(tr("ui.placeholder.example", value="http://gpu-host:9400/metrics"))
        self.ca_edit.setPlaceholderText(tr("bench.page.ca_bundle_placeholder"))
        self.ca_edit.setToolTip(tr("bench.page.ca_bundle_tip"))
        self.ca_button.setText(tr("bench.page.ca_bundle_browse"))
        self.client_cert_edit.setPlaceholderText(tr("bench.page.client_cert_placeholder"))
        self.client_cert_edit.setToolTip(tr("bench.page.client_cert_tip"))
        self.client_key_edit.setPlaceholderText(tr("bench.page.client_key_placeholder"))
        self.client_key_edit.setToolTip(tr("bench.page.client_key_tip"))
        self.client_cert_button.setText(tr("bench.page.ca_bundle_browse"))
        self.client_key_button.setText(tr("bench.page.ca_bundle_browse"))
        self.update_key_note()

    # ---------------------------------------------------------------------------------------- API key
    def load_key(self) -> None:
        url = self.url_edit.text().strip()
        if url and not self.key_edit.text():
            key = self.keys.get(url)
            if key:
                self.key_edit.setText(key)
        self.update_key_note()

    def api_key(self) -> str | None:
        """The key, checked as the CLI checks it (``SecretError`` for a key with a line break or non-ASCII
        characters, with the message to show); a good new key is kept in the OS keyring."""
        from advisor.redact import check_api_key

        key = check_api_key(self.key_edit.text().strip())
        url = self.url_edit.text().strip()
        if key and url and self.keys.get(url) != key:
            self.keys.put(url, key)
            self.update_key_note()
        return key

    def update_key_note(self) -> None:
        if self.keys.backend_ok is False:
            self.key_note.setText(tr("bench.page.key_memory_only"))
            self.key_note.setStyleSheet(ERROR_STYLE)
        else:
            self.key_note.setText(tr("bench.page.key_keyring"))
            self.key_note.setStyleSheet("")

    # -------------------------------------------------------------------------------------- CA bundle
    def ask_ca_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("bench.page.ca_bundle"), "",
                                              tr("bench.page.ca_bundle_filter"))  # fmt: skip
        return path

    def _on_ca_clicked(self) -> None:
        path = self.ask_ca_path()
        if path:
            self.ca_edit.setText(path)
            self.ca_note.hide()

    def trust_ca_bundle(self) -> str | None:
        """Trust the field's bundle for every connection from now on, as ``--ca-bundle`` does (advisor/tls.py);
        an empty field goes back to the trust the app was started with. Returns the bundle in use; raises
        ``CaBundleError`` (also shown under the field) for one that cannot be used."""
        from advisor.tls import CaBundleError, trust_ca_bundle

        try:
            bundle = trust_ca_bundle(self.ca_edit.text().strip() or None)
        except CaBundleError as exc:
            self.ca_note.setText(str(exc))
            self.ca_note.show()
            raise
        self.ca_note.hide()
        return bundle

    # ------------------------------------------------------------------------------ client certificate
    def ask_client_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("bench.page.client_cert"), "",
                                              tr("bench.page.client_cert_filter"))  # fmt: skip
        return path

    def _browse(self, edit: QLineEdit) -> None:
        path = self.ask_client_path()
        if path:
            edit.setText(path)
            self.client_note.hide()

    def present_client_cert(self) -> tuple[str, str | None] | None:
        """Present the fields' certificate (and key) to servers that ask, for every connection from now on, as
        ``--client-cert``/``--client-key`` do (advisor/tls.py); empty fields go back to what the app was started
        with. Returns the certificate in use; raises ``ClientCertError`` (also shown under the fields) for a file
        that cannot be used — missing, not PEM, a passphrase-protected key, a key of another certificate."""
        from advisor.tls import ClientCertError, present_client_cert

        try:
            cert = present_client_cert(self.client_cert_edit.text().strip() or None,
                                       self.client_key_edit.text().strip() or None)
        except ClientCertError as exc:
            self.client_note.setText(str(exc))
            self.client_note.show()
            raise
        self.client_note.hide()
        return cert
