"""The A/B page's two targets side by side: the baseline (A) and the candidate (B), each a server URL, the model
it serves and a label for the result."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from advisor.i18n import tr

SIDES = ("A", "B")
SIDE_FIELDS = ("url", "model", "label")


class SidesPanel(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # per side: the three edits by field name, and their form labels as "<field>_label"
        self.sides: dict[str, dict[str, Any]] = {}
        self.side_boxes: dict[str, QGroupBox] = {}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)  # laid out as the page's own row was
        for name in SIDES:
            box = QGroupBox()
            form = QFormLayout(box)
            fields: dict[str, Any] = {key: QLineEdit() for key in SIDE_FIELDS}
            for key in SIDE_FIELDS:
                form.addRow(QLabel(), fields[key])
                fields[key + "_label"] = form.labelForField(fields[key])
            self.sides[name] = fields
            self.side_boxes[name] = box
            row.addWidget(box)

    def retranslate(self) -> None:
        self.side_boxes["A"].setTitle(tr("ab.page.side_a"))
        self.side_boxes["B"].setTitle(tr("ab.page.side_b"))
        for fields in self.sides.values():
            for key in SIDE_FIELDS:
                fields[key + "_label"].setText(tr(f"ab.page.{key}"))
            # an example, not a value that looks filled in (an empty URL is refused with "fill in the URL")
            fields["url"].setPlaceholderText(tr("ui.placeholder.example", value="http://127.0.0.1:8000"))

    def values(self) -> dict[str, dict[str, str]]:
        """Each side's fields as typed (stripped)."""
        return {n: {k: f[k].text().strip() for k in SIDE_FIELDS} for n, f in self.sides.items()}

    def fill(self, name: str, url: str, model: str, label: str) -> None:
        for key, value in zip(SIDE_FIELDS, (url, model, label), strict=True):
            self.sides[name][key].setText(value)

    def edits(self) -> list[QLineEdit]:
        return [f[key] for f in self.sides.values() for key in SIDE_FIELDS]
