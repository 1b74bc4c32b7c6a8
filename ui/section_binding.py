"""One declarative mapping between a pydantic project section and the widgets that edit it.

A page used to map the same fields by hand three times — section → widgets when a project opens, widgets →
section when it is saved, and a hand-off that pre-fills a few of them (the wizard's "measure it") — and the three
drifted (a field added to one and not the others). Here a page writes the mapping once::

    binding = SectionBinding(BenchmarkSection, {
        "target": radios({"simulated": sim_radio, "url": url_radio}),
        "url": text(url_edit),
        "sim_gpu": choice(gpu_box),
        "ttft_p99_ms": spin(ttft_spin, zero_is_none=True),
    }, unbound={"ca_bundle"})

and calls ``binding.load(section)``, ``binding.save()`` and ``binding.prefill(sim_gpu="l40s")``.

Rules, the same for every page:

* **Order** is the mapping's order, for load and pre-fill alike: put a field whose widget resets others (a preset
  that fills the lengths) before the fields it resets.
* **Every field is accounted for:** each field of the section is bound or named in ``unbound`` (kept from
  ``save``'s ``base``, else the section's default), so a field added to a section cannot be forgotten silently.
* **Save validates:** ``save`` builds the section through pydantic; a bad value raises ``ValidationError`` (the
  page shows it next to the field).
* **A combo box selects by item data.** ``load`` keeps the current item when the value is not offered (a project
  saved with a model this catalog lacks); ``prefill`` adds it, because a hand-off names a setup on purpose.
* **``prefill`` sets only what it is given:** ``None`` means "leave as it is".

Widgets keep their own signals: ``load`` does not block them, so the page's reactions (a preset filling the
lengths, a target switch clearing the probe) run as they would for a user's edit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel
from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QAbstractButton, QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox

SectionT = TypeVar("SectionT", bound=BaseModel)


@dataclass(frozen=True)
class FieldBinding:
    """How one section field is read from and written to its widget(s)."""

    read: Callable[[], Any]
    write: Callable[[Any], None]
    # a hand-off may write differently (a combo adds an id it does not offer); None: as ``write``
    prefill_write: Callable[[Any], None] | None = None
    signals: tuple[SignalInstance, ...] = ()  # emitted when the user changes the value


# ------------------------------------------------------------------------------------------------ adapters
def text(edit: QLineEdit, *, strip: bool = True) -> FieldBinding:
    """A line edit's text (stripped: a pasted URL's trailing space is not part of it); None writes ''."""

    def read() -> str:
        value = edit.text()
        return value.strip() if strip else value

    return FieldBinding(read, lambda v: edit.setText("" if v is None else str(v)), signals=(edit.textChanged,))


def spin(box: QSpinBox | QDoubleSpinBox, *, zero_is_none: bool = False) -> FieldBinding:
    """A spin box's value. ``zero_is_none``: 0 stands for "not set" (an optional limit), read as None."""

    def read() -> Any:
        value = box.value()
        return None if zero_is_none and not value else value

    def write(value: Any) -> None:
        if value is None:
            if not zero_is_none:
                return  # nothing to show: keep what is there
            value = 0
        if isinstance(box, QSpinBox):
            box.setValue(int(value))
        else:
            box.setValue(float(value))

    return FieldBinding(read, write, signals=(box.valueChanged,))


def check(button: QAbstractButton) -> FieldBinding:
    """A check box (or any checkable button): a bool."""
    return FieldBinding(button.isChecked, lambda v: button.setChecked(bool(v)), signals=(button.toggled,))


def choice(box: QComboBox) -> FieldBinding:
    """A combo box's current item data. Load keeps the current item for a value it does not offer; pre-fill adds
    an item for it (text = the value) and selects it."""

    def select(value: Any) -> bool:
        index = box.findData(value)
        if index >= 0:
            box.setCurrentIndex(index)
        return index >= 0

    def write(value: Any) -> None:
        select(value)

    def add_and_select(value: Any) -> None:
        if value is not None and not select(value):
            box.addItem(str(value), value)
            select(value)

    return FieldBinding(box.currentData, write, prefill_write=add_and_select,
                        signals=(box.currentIndexChanged,))  # fmt: skip


def combo_text(box: QComboBox) -> FieldBinding:
    """An editable combo box's text (stripped), whatever its items."""
    return FieldBinding(lambda: box.currentText().strip(), lambda v: box.setCurrentText("" if v is None else str(v)),
                        signals=(box.currentTextChanged,))  # fmt: skip


def radios(buttons: Mapping[Any, QAbstractButton]) -> FieldBinding:
    """A set of exclusive buttons, one per value (``{"simulated": sim_radio, "url": url_radio}``)."""
    options = dict(buttons)

    def read() -> Any:
        return next((value for value, button in options.items() if button.isChecked()), None)

    def write(value: Any) -> None:
        if value in options:
            options[value].setChecked(True)

    return FieldBinding(read, write, signals=tuple(b.toggled for b in options.values()))


def custom(read: Callable[[], Any], write: Callable[[Any], None], *signals: SignalInstance,
           prefill_write: Callable[[Any], None] | None = None) -> FieldBinding:  # fmt: skip
    """Any other widget (a search box, a file field): its own read and write."""
    return FieldBinding(read, write, prefill_write=prefill_write, signals=tuple(signals))


# ------------------------------------------------------------------------------------------------ binding
class SectionBinding(Generic[SectionT]):
    """A section type's fields bound to widgets, in order: ``load``, ``save``, ``prefill`` and ``on_change``."""

    def __init__(self, section: type[SectionT], fields: Mapping[str, FieldBinding], *,
                 unbound: Iterable[str] = ()) -> None:  # fmt: skip
        known = set(section.model_fields)
        self.section = section
        self.fields = dict(fields)
        self.unbound = frozenset(unbound)
        unknown = (set(self.fields) | self.unbound) - known
        if unknown:
            raise ValueError(f"{section.__name__} has no field(s) {sorted(unknown)}")
        forgotten = known - set(self.fields) - self.unbound
        if forgotten:  # a field added to the section must be bound or said to be kept elsewhere
            raise ValueError(f"{section.__name__} field(s) {sorted(forgotten)} neither bound nor listed as unbound")
        both = set(self.fields) & self.unbound
        if both:
            raise ValueError(f"{section.__name__} field(s) {sorted(both)} both bound and unbound")

    def load(self, section: SectionT) -> None:
        """Section → widgets: every bound field, in the mapping's order."""
        for name, field in self.fields.items():
            field.write(getattr(section, name))

    def values(self) -> dict[str, Any]:
        """Widgets → plain values of the bound fields (not validated)."""
        return {name: field.read() for name, field in self.fields.items()}

    def save(self, base: SectionT | None = None) -> SectionT:
        """Widgets → a validated section; unbound fields come from ``base`` (else the section's defaults).
        Raises ``pydantic.ValidationError`` for a value the section refuses."""
        data = base.model_dump() if base is not None else {}
        data = {k: v for k, v in data.items() if k in self.unbound}
        data.update(self.values())
        return self.section.model_validate(data)

    def prefill(self, **values: Any) -> None:
        """Set the named fields (a hand-off from another page); None leaves a field as it is."""
        unknown = set(values) - set(self.fields)
        if unknown:
            raise ValueError(f"{self.section.__name__} has no bound field(s) {sorted(unknown)}")
        for name, field in self.fields.items():  # the mapping's order, whatever the caller's
            if name in values and values[name] is not None:
                (field.prefill_write or field.write)(values[name])

    def on_change(self, slot: Callable[..., Any]) -> None:
        """Call ``slot`` whenever a bound widget changes (mark the project modified, a result stale)."""
        for field in self.fields.values():
            for signal in field.signals:
                signal.connect(slot)
