"""The Sizing page's speculative-decoding group (s25-spec28, #28): vLLM's method (off, a draft model, an EAGLE or
EAGLE-3 head, the model's own MTP layers, n-gram), the draft or head, and the tokens proposed per step. It feeds the
``SizingRequest.speculative`` field ``advisor calc --speculative`` fills, and says what the proposer holds on a GPU
from the estimate (the same words as the calc table; its bytes are also in the memory bar's weights and KV)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from advisor import catalog
from advisor.domain.model import ModelSpec
from advisor.domain.sizing import METHODS_WITH_DRAFT, SPECULATIVE_METHODS, SizingResult, SpeculativeSettings
from advisor.i18n import tr
from advisor.sizing.speculative import config_draft_vocab
from advisor.sizing.speculative_heads import head_presets
from advisor.sizing.speculative_text import speculative_speed_text, speculative_summary
from advisor.validation import validation_problems
from ui.widgets.search_combo import SearchCombo
from ui.widgets.sizing_overview import ERROR_STYLE

OFF = ""  # the method box's first item: no speculative decoding
DEFAULT_TOKENS = 3  # the spin box's first value (the user's to change; vLLM has no default to follow)


class SpeculativePanel(QGroupBox):
    """``edited``: {"speculative": SpeculativeSettings | None} once the user changes a field."""

    edited = Signal(dict)

    def __init__(self, find_model: Callable[[str], ModelSpec | None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._find_model = find_model
        self._syncing = False
        self.heads: dict[str, ModelSpec] = {}  # imported drafts and EAGLE heads: not models to size on their own
        self.vocab: dict[str, int | None] = {}  # an imported EAGLE-3 head's draft_vocab_size
        # EAGLE-3 head presets (heads SpecForge released for catalog models, in its training shape), after the models
        self.presets = {p.head.id: p.head for p in head_presets()}
        self.vocab.update({p.head.id: p.draft_vocab_size for p in head_presets()})
        self._items: list[tuple[str, object]] = []
        form = QFormLayout(self)
        self.method = QComboBox()
        self.method.setObjectName("specMethod")
        for method in (OFF, *SPECULATIVE_METHODS):
            self.method.addItem("", method)
        self.draft = SearchCombo()
        self.draft.setObjectName("specDraft")
        self.import_head = QPushButton()
        self.import_head.setObjectName("specImport")
        self.tokens = QSpinBox()
        self.tokens.setObjectName("specTokens")
        self.tokens.setRange(1, 16)  # SpeculativeSettings.num_speculative_tokens
        self.tokens.setValue(DEFAULT_TOKENS)
        self.summary = QLabel()
        self.summary.setObjectName("specSummary")
        self.summary.setWordWrap(True)
        # decode speed with and without speculation at the page's concurrency (perf.speculative, s26-spec28)
        self.speed = QLabel()
        self.speed.setObjectName("specSpeed")
        self.speed.setWordWrap(True)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(ERROR_STYLE)
        self.error.hide()
        self.label_method, self.label_draft, self.label_tokens = QLabel(), QLabel(), QLabel()
        form.addRow(self.label_method, self.method)
        form.addRow(self.label_draft, self.draft)
        form.addRow("", self.import_head)
        form.addRow(self.label_tokens, self.tokens)
        form.addRow(self.error)
        form.addRow(self.summary)
        form.addRow(self.speed)
        self.form = form
        self.method.currentIndexChanged.connect(lambda _i: self._edit())
        self.draft.picked.connect(lambda _d: self._edit())
        self.tokens.valueChanged.connect(lambda _v: self._edit())
        self.import_head.clicked.connect(self._on_import_clicked)
        self._show_rows()

    def retranslate(self) -> None:
        self.setTitle(tr("speculative25_spec28.group"))
        self.setToolTip(tr("speculative25_spec28.tip"))
        self.label_method.setText(tr("speculative25_spec28.method_label"))
        self.label_draft.setText(tr("speculative25_spec28.draft_label"))
        self.label_tokens.setText(tr("speculative25_spec28.tokens_label"))
        self.tokens.setToolTip(tr("speculative25_spec28.tokens_tip"))
        self.import_head.setText(tr("speculative25_spec28.import_head"))
        for i in range(self.method.count()):
            method = self.method.itemData(i)
            self.method.setItemText(i, tr(f"speculative25_spec28.method.{method or 'off'}"))

    def set_models(self, items: list[tuple[str, object]]) -> None:
        """The page's model list (the drafts one can pick) and the imported heads after it."""
        self._items = items
        current = self.draft.currentData()
        own = [(f"{m.name} ({tr('speculative25_spec28.imported')})", m.id) for m in self.heads.values()]
        presets = [(m.name, m.id) for m in self.presets.values()]
        self.draft.set_items(items + presets + own, current)

    def find(self, model_id: str) -> ModelSpec | None:
        return self.heads.get(model_id) or self.presets.get(model_id) or self._find_model(model_id)

    # -- widgets → settings ------------------------------------------------------------------------------------
    def settings(self) -> SpeculativeSettings | None:
        """The settings the widgets show (None: off). Raises ValidationError for a method without its draft."""
        method = self.method.currentData()
        if not method:
            return None
        draft = self.find(str(self.draft.currentData())) if method in METHODS_WITH_DRAFT else None
        vocab = self.vocab.get(draft.id) if draft is not None and method == "eagle3" else None
        return SpeculativeSettings(method=method, draft_model=draft, num_speculative_tokens=self.tokens.value(),
                                   draft_weights=draft.native_weights if draft else "bf16", draft_vocab_size=vocab)  # fmt: skip

    def _edit(self) -> None:
        self._show_rows()
        if self._syncing:
            return
        try:
            spec = self.settings()
        except ValidationError as exc:
            self._show_error(validation_problems(exc)[0][1])
            return
        self._show_error(None)
        self.edited.emit({"speculative": spec})

    def _show_rows(self) -> None:
        method = self.method.currentData()
        with_draft = method in METHODS_WITH_DRAFT
        self.form.setRowVisible(self.draft, with_draft)
        self.form.setRowVisible(self.import_head, with_draft)
        self.form.setRowVisible(self.tokens, bool(method))
        self.summary.setVisible(bool(method))
        self.speed.setVisible(bool(method))

    def _show_error(self, text: str | None) -> None:
        self.error.setText(text or "")
        self.error.setVisible(bool(text))

    # -- settings → widgets ------------------------------------------------------------------------------------
    def show_settings(self, spec: SpeculativeSettings | None) -> None:
        """The inputs' settings in the widgets, without feeding the change back (a project opened, defaults set)."""
        self._syncing = True
        try:
            if spec is not None and spec.draft_model is not None and self.find(spec.draft_model.id) != spec.draft_model:
                self._add_head(spec.draft_model, spec.draft_vocab_size)  # a project's own draft or head
            self.method.setCurrentIndex(self.method.findData(spec.method if spec else OFF))
            if spec is not None:
                self.tokens.setValue(spec.num_speculative_tokens)
                if spec.draft_model is not None:
                    self.draft.select_data(spec.draft_model.id, emit=False)
        finally:
            self._syncing = False
        self._show_rows()

    def show_result(self, result: SizingResult) -> None:
        self.summary.setText(speculative_summary(result, "speculative25_spec28.summary", "speculative25_spec28.summary_ngram"))
        self.speed.setText(speculative_speed_text(result))

    # -- an EAGLE head's (or a draft's) config.json ------------------------------------------------------------
    def ask_config_path(self) -> str:
        """Seam for tests (monkeypatch to return a path)."""
        path, _ = QFileDialog.getOpenFileName(self, tr("speculative25_spec28.import_head"), str(Path.home()),
                                              "config.json (*.json);;* (*)")  # fmt: skip
        return path

    def _on_import_clicked(self) -> None:
        path = self.ask_config_path()
        if path:
            self.import_config(path)

    def import_config(self, path: str | Path) -> bool:
        """Read a draft's or an EAGLE head's config.json into the draft picker and pick it; a refusal is said here."""
        path = Path(path)
        model_id = path.parent.name if path.name == "config.json" and path.parent.name else path.stem
        try:
            head = catalog.model_from_config(path, model_id=model_id or "draft", name=model_id or None)
        except (catalog.ModelImportError, ValidationError, OSError, ValueError) as exc:
            self._show_error(tr("ui.sizing.import_failed", file=path.name, reason=str(exc).removeprefix(f"{path}: ")))
            return False
        self._add_head(head, config_draft_vocab(str(path)))
        self.draft.select_data(head.id, emit=False)
        self._edit()
        return True

    def _add_head(self, head: ModelSpec, vocab: int | None) -> None:
        self.heads[head.id] = head
        self.vocab[head.id] = vocab
        self.set_models(self._items)
