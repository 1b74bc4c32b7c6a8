"""ui/section_binding.py: one mapping per project section drives load, save and pre-fill on real widgets."""

from __future__ import annotations

from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QLineEdit,
    QRadioButton,
    QSpinBox,
    QWidget,
)

from ui.section_binding import SectionBinding, check, choice, combo_text, custom, radios, spin, text


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid")

    target: Literal["sim", "url"] = "sim"
    url: str = ""
    gpu: str | None = None
    weights: str | None = None
    count: int = Field(1, ge=1)
    limit_ms: float | None = Field(None, gt=0)
    served: str = ""
    sample: bool = True
    note: str = "kept"  # not on the form


class Form(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.sim, self.remote = QRadioButton(self), QRadioButton(self)
        group = QButtonGroup(self)
        group.addButton(self.sim)
        group.addButton(self.remote)
        self.sim.setChecked(True)
        self.url = QLineEdit(self)
        self.gpu = QComboBox(self)
        for ident in ("l4", "l40s"):
            self.gpu.addItem(ident.upper(), ident)
        self.weights = QComboBox(self)
        self.weights.addItem("checkpoint", None)
        self.weights.addItem("fp8", "fp8")
        self.count = QSpinBox(self)
        self.count.setRange(0, 64)  # 0 is offered by the widget but refused by the section
        self.count.setValue(1)
        self.limit = QDoubleSpinBox(self)
        self.limit.setRange(0, 10_000)
        self.served = QComboBox(self)
        self.served.setEditable(True)
        self.sample = QCheckBox(self)
        self.sample.setChecked(True)
        self.binding = SectionBinding(Section, {
            "target": radios({"sim": self.sim, "url": self.remote}),
            "url": text(self.url),
            "gpu": choice(self.gpu),
            "weights": choice(self.weights),
            "count": spin(self.count),
            "limit_ms": spin(self.limit, zero_is_none=True),
            "served": combo_text(self.served),
            "sample": check(self.sample),
        }, unbound={"note"})  # fmt: skip


@pytest.fixture
def form(qtbot):
    widget = Form()
    qtbot.addWidget(widget)
    return widget


def test_save_reads_every_bound_widget(form):
    form.remote.setChecked(True)
    form.url.setText("  https://gpu-host:8000  ")
    form.gpu.setCurrentIndex(1)
    form.weights.setCurrentIndex(1)
    form.count.setValue(4)
    form.limit.setValue(250)
    form.served.setCurrentText(" qwen ")
    form.sample.setChecked(False)
    assert form.binding.save() == Section(target="url", url="https://gpu-host:8000", gpu="l40s", weights="fp8",
                                          count=4, limit_ms=250.0, served="qwen", sample=False)  # fmt: skip


def test_load_then_save_round_trips_and_keeps_unbound_fields(form):
    saved = Section(target="url", url="http://h:1", gpu="l40s", weights="fp8", count=3, limit_ms=80, served="m",
                    sample=False, note="from the file")  # fmt: skip
    form.binding.load(saved)
    assert form.remote.isChecked() and form.url.text() == "http://h:1" and form.gpu.currentData() == "l40s"
    assert form.limit.value() == 80
    assert form.binding.save(base=saved) == saved
    assert form.binding.save().note == "kept"  # without a base: the section's default


def test_optional_zero_and_none_item(form):
    form.binding.load(Section(weights="fp8", limit_ms=80))
    form.binding.load(Section())  # None: the "checkpoint" item, and 0 in the optional limit
    assert form.weights.currentText() == "checkpoint"
    assert form.limit.value() == 0
    assert form.binding.save().limit_ms is None


def test_load_keeps_the_current_item_for_an_id_not_offered_prefill_adds_it(form):
    form.gpu.setCurrentIndex(1)
    form.binding.load(Section(gpu="b200"))
    assert form.gpu.currentData() == "l40s" and form.gpu.count() == 2
    form.binding.prefill(gpu="b200")
    assert form.gpu.currentData() == "b200" and form.gpu.count() == 3


def test_prefill_sets_only_what_it_is_given(form):
    form.url.setText("http://keep")
    form.count.setValue(5)
    form.binding.prefill(target="url", count=None, limit_ms=120)
    assert form.remote.isChecked() and form.url.text() == "http://keep" and form.count.value() == 5
    assert form.limit.value() == 120
    with pytest.raises(ValueError, match="no bound field"):
        form.binding.prefill(note="x")  # unbound: a hand-off cannot write what no widget shows


def test_save_refuses_a_value_the_section_refuses(form):
    form.count.setValue(0)
    with pytest.raises(ValidationError) as info:
        form.binding.save()
    assert info.value.errors()[0]["loc"] == ("count",)


def test_load_and_prefill_follow_the_mapping_order(qtbot):
    """A preset that fills the length must run before the length itself, whatever order the caller names them."""

    class Lengths(BaseModel):
        preset: str = "a"
        length: int = 1

    preset, length = QComboBox(), QSpinBox()
    qtbot.addWidget(preset)
    qtbot.addWidget(length)
    length.setRange(1, 10_000)
    preset.addItem("a", "a")
    preset.addItem("b", "b")
    preset.currentIndexChanged.connect(lambda _i: length.setValue(1000))  # the preset's own reaction
    binding = SectionBinding(Lengths, {"preset": choice(preset), "length": spin(length)})
    binding.load(Lengths(preset="b", length=42))
    assert length.value() == 42
    preset.setCurrentIndex(0)
    binding.prefill(length=7, preset="b")
    assert length.value() == 7


def test_every_field_must_be_bound_or_listed(form):
    with pytest.raises(ValueError, match="neither bound nor listed"):
        SectionBinding(Section, {"url": text(form.url)})
    with pytest.raises(ValueError, match="no field"):
        SectionBinding(Section, {**form.binding.fields, "nope": text(form.url)}, unbound={"note"})
    with pytest.raises(ValueError, match="both bound and unbound"):
        SectionBinding(Section, form.binding.fields, unbound={"note", "url"})


def test_on_change_hears_every_bound_widget(form):
    heard: list[object] = []
    form.binding.on_change(lambda *_a: heard.append(1))
    for act in (lambda: form.remote.setChecked(True), lambda: form.url.setText("x"),
                lambda: form.gpu.setCurrentIndex(1), lambda: form.weights.setCurrentIndex(1),
                lambda: form.count.setValue(9), lambda: form.limit.setValue(3),
                lambda: form.served.setCurrentText("m"), lambda: form.sample.setChecked(False)):  # fmt: skip
        before = len(heard)
        act()
        assert len(heard) > before


def test_custom_field(qtbot):
    class One(BaseModel):
        path: str = ""

    box: dict[str, str] = {"value": ""}
    edit = QLineEdit()
    qtbot.addWidget(edit)
    binding = SectionBinding(One, {"path": custom(lambda: box["value"], lambda v: box.update(value=v),
                                                  edit.textChanged)})  # fmt: skip
    binding.load(One(path="/ca.pem"))
    assert box["value"] == "/ca.pem" and binding.save() == One(path="/ca.pem")
