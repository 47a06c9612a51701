"""Forms built from a request schema (pydantic), with the service's validation errors on the field.

Scalars get their natural widget (text, number, tick box, choice, a date on a
calendar); a reference to another record (``category_id``) a picker of names
and codes, several (``category_ids``) a list to tick; a nested model gets a
group; a list of small records (lines) a table with a column per field; a free
map a table of names and values; a discriminated union (``pick | pack | ship``)
gets a choice of kind and that kind's fields. Only what has no shape at all (a
list of free maps) is still typed as JSON. ``value()`` answers the body to send:
fields left empty are left out, so the service's defaults apply.
"""

from __future__ import annotations

import datetime as dt
import enum
import json
import types
import typing
from collections.abc import Mapping

from pydantic import BaseModel, RootModel
from pydantic.fields import FieldInfo
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QLineEdit,
    QPlainTextEdit,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from views.records.inputs import DateInput, PairsInput, RefList, RefPicker, Refs, RowsInput
from views.records.words import readable, t, value_word
from views.shell.forms import FieldError, field_messages, with_error
from views.wording import action_word

EMPTY = object()  # a field the person left empty
LONG_TEXT = ("description", "body", "message", "notes", "note", "text", "content", "reason", "html")


def label_of(name: str) -> str:
    """A field's name as a person reads it, in their language: "category_id" is "Category"."""
    return t(english_label(name))


def english_label(name: str) -> str:
    """A field's name in the declarations' English: "category_id" is "Category", "list_ids" "Lists"."""
    if name.endswith("_ids"):
        one = name[: -len("_ids")]
        name = one[:-1] + "ies" if one.endswith("y") else one + "s"
    elif name.endswith("_id") and name != "external_id":
        name = name[: -len("_id")]
    return readable(name)


def _unwrap(tp: object) -> tuple[object, bool]:
    """``X | None`` -> (X, optional)."""
    origin = typing.get_origin(tp)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return tp, False


def _choices(tp: object) -> list[str] | None:
    if typing.get_origin(tp) is typing.Literal:
        return [str(a) for a in typing.get_args(tp)]
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return [str(m.value) for m in tp]
    return None


def _variants(model: type[BaseModel]) -> tuple[str, dict[str, type[BaseModel]]] | None:
    """A RootModel over a discriminated union: (discriminator field, {kind: model})."""
    if not (isinstance(model, type) and issubclass(model, RootModel)):
        return None
    info = model.model_fields["root"]
    disc = info.discriminator if isinstance(info.discriminator, str) else None
    tp, _ = _unwrap(info.annotation)
    members = [m for m in typing.get_args(tp) if isinstance(m, type) and issubclass(m, BaseModel)]
    if disc is None or not members:
        return None
    out: dict[str, type[BaseModel]] = {}
    for m in members:
        kinds = _choices(m.model_fields[disc].annotation) or []
        for k in kinds:
            out[k] = m
    return disc, out


class Field_(QWidget):
    """One input and its error line."""

    def __init__(self, name: str, info: FieldInfo, refs: Refs | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.info = info
        self.refs = refs
        self.tp, self.optional = _unwrap(info.annotation)
        self.required = info.is_required()
        self.input = self._make()
        self.input.setAccessibleName(label_of(name))
        self.input.setObjectName(f"field-{name}")
        box, self.error = with_error(self.input)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(box)

    def _make(self) -> QWidget:
        tp = self.tp
        choices = _choices(tp)
        if choices is not None:
            combo = QComboBox()
            if not self.required:
                combo.addItem("—", EMPTY)
            for c in choices:
                combo.addItem(value_word(c), c)  # a state in the person's words; the value as data
            default = self.info.default
            if default not in (None, EMPTY) and str(default) in choices:
                combo.setCurrentIndex(combo.findData(str(getattr(default, "value", default))))
            return combo
        if tp is bool:
            check = QCheckBox()
            check.setChecked(bool(self.info.default) if self.info.default not in (None, ...) else False)
            return check
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            return ModelForm(tp, title=label_of(self.name), refs=self.refs)
        target = self.refs.target(self.name) if self.refs is not None else None
        if target is not None and self.refs is not None and _plain(tp) is str:
            picker = RefPicker()
            self.refs.load(target, picker.fill)
            return picker
        if target is not None and self.refs is not None and typing.get_origin(tp) is list:
            ticks = RefList()
            self.refs.load(target, ticks.fill)
            return ticks
        if tp in (dt.datetime, dt.date):
            return DateInput(tp is dt.datetime, not self.required)
        if (row := _row_model(tp)) is not None:
            return RowsInput(row, self.refs)
        if typing.get_origin(tp) is dict or tp is dict:
            return PairsInput()
        if tp is str and self.name in LONG_TEXT:
            text = QPlainTextEdit()
            text.setFixedHeight(90)
            return text
        edit = QLineEdit()
        if _is_json(tp):
            edit.setPlaceholderText("JSON, e.g. " + _json_hint(tp))
        elif typing.get_origin(tp) is list:
            edit.setPlaceholderText("comma-separated")
        return edit

    def set_value(self, value: object) -> None:
        w = self.input
        if value is None:
            return
        if isinstance(w, RefPicker):
            w.set_id(str(value))
        elif isinstance(w, RefList):
            w.set_ids([str(v) for v in value] if isinstance(value, list) else [])
        elif isinstance(w, DateInput):
            w.set_value(value)
        elif isinstance(w, RowsInput):
            w.set_value([v for v in value if isinstance(v, dict)] if isinstance(value, list) else [])
        elif isinstance(w, PairsInput):
            w.set_value(value if isinstance(value, dict) else {})
        elif isinstance(w, QComboBox):
            i = w.findData(str(getattr(value, "value", value)))
            if i >= 0:
                w.setCurrentIndex(i)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, ModelForm):
            w.set_values(value if isinstance(value, dict) else {})
        elif isinstance(w, QPlainTextEdit):
            w.setPlainText(str(value))
        elif isinstance(w, QLineEdit):
            if _is_json(self.tp):
                w.setText(json.dumps(value))
            elif isinstance(value, list):
                w.setText(", ".join(str(v) for v in value))
            else:
                w.setText(str(value))

    def value(self) -> object:
        w = self.input
        if isinstance(w, RefPicker | DateInput):
            one = w.value()
            return EMPTY if one is None else one
        if isinstance(w, RefList | RowsInput | PairsInput):
            many = w.value()
            return many if many or self.required else EMPTY
        if isinstance(w, QComboBox):
            return w.currentData()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, ModelForm):
            v = w.value()
            return v if v else EMPTY
        text = w.toPlainText() if isinstance(w, QPlainTextEdit) else w.text()  # type: ignore[attr-defined]
        text = text.strip()
        if not text:
            return EMPTY
        if _is_json(self.tp):
            try:
                return json.loads(text)
            except ValueError:
                return text  # the service says what is wrong with it, on this field
        if typing.get_origin(self.tp) is list:
            return [p.strip() for p in text.split(",") if p.strip()]
        if self.tp is int:
            try:
                return int(text)
            except ValueError:
                return text
        if self.tp is float:  # money (Decimal) travels as a string: sent as typed
            try:
                return float(text)
            except ValueError:
                return text
        return text


def _plain(tp: object) -> object:
    """``Annotated[str, ...]`` -> ``str``."""
    return typing.get_args(tp)[0] if typing.get_origin(tp) is typing.Annotated else tp


def _row_model(tp: object) -> type[BaseModel] | None:
    """``list[Line]``, where each field of ``Line`` fits in a table cell: ``Line``."""
    if typing.get_origin(tp) is not list:
        return None
    (arg,) = typing.get_args(tp) or (object,)
    arg = _plain(_unwrap(arg)[0])
    if not (isinstance(arg, type) and issubclass(arg, BaseModel)) or issubclass(arg, RootModel):
        return None
    inner = [_unwrap(f.annotation)[0] for f in arg.model_fields.values()]
    return None if any(isinstance(t, type) and issubclass(t, BaseModel) for t in inner) else arg


def _is_json(tp: object) -> bool:
    origin = typing.get_origin(tp)
    if origin is dict or tp is dict or tp is typing.Any:  # a field typed Any, or a dict, is typed as JSON
        return True
    if origin is list:
        (arg,) = typing.get_args(tp) or (object,)
        inner, _ = _unwrap(arg)
        inner = _plain(inner)
        return not (inner in (str, int) or _choices(inner) is not None)
    return False


def _json_hint(tp: object) -> str:
    return '[{"name": "value"}, ...]' if typing.get_origin(tp) is list else '{"name": "value"}'


class ModelForm(QWidget):
    """A form for one request model (or a union of them); ``value()`` is the body."""

    form_layout: QFormLayout  # its fields' rows (a form of kinds has none of its own)

    def __init__(
        self,
        model: type[BaseModel],
        *,
        title: str | None = None,
        refs: Refs | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.model = model
        self.refs = refs
        self.fields: dict[str, Field_] = {}
        self.variants = _variants(model)
        self.kind: QComboBox | None = None
        self.stack: QStackedWidget | None = None
        self.forms: dict[str, ModelForm] = {}
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        host: QWidget = self
        if title:
            group = QGroupBox(title)
            outer.addWidget(group)
            host = group
            outer = QVBoxLayout(group)
        if self.variants is not None:
            disc, members = self.variants
            self.kind = QComboBox()
            self.kind.setAccessibleName(label_of(disc))
            self.kind.setObjectName(f"field-{disc}")
            self.stack = QStackedWidget()
            for kind, member in members.items():
                self.kind.addItem(action_word(kind), kind)  # "pick" read raw, in German too
                sub = ModelForm(member, parent=host, refs=refs)
                # Chosen above: its whole row goes (hiding the box alone left its label twice).
                sub.form_layout.removeRow(sub.fields.pop(disc))
                self.forms[kind] = sub
                self.stack.addWidget(sub)
            self.kind.currentIndexChanged.connect(self.stack.setCurrentIndex)
            form = QFormLayout()
            form.addRow(label_of(disc), self.kind)
            outer.addLayout(form)
            outer.addWidget(self.stack)
            return
        form = self.form_layout = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for name, info in model.model_fields.items():
            f = Field_(name, info, refs)
            self.fields[name] = f
            optional = QCoreApplication.translate("records", "{field} (optional)")
            form.addRow(label_of(name) if f.required else optional.format(field=label_of(name)), f)
        outer.addLayout(form)

    def set_values(self, values: Mapping[str, object]) -> None:
        if self.kind is not None and self.variants is not None:
            kind = values.get(self.variants[0])
            if kind in self.forms:
                self.kind.setCurrentIndex(self.kind.findData(kind))
                self.forms[kind].set_values(values)
            return
        for name, f in self.fields.items():
            if name in values:
                f.set_value(values[name])

    def value(self) -> dict[str, object]:
        if self.kind is not None and self.variants is not None:
            kind = str(self.kind.currentData())
            return {self.variants[0]: kind, **self.forms[kind].value()}
        return {n: v for n, f in self.fields.items() if (v := f.value()) is not EMPTY}

    def show_errors(self, error: BaseException) -> dict[str, str]:
        """Put each field's message under its input; answers the messages no field took."""
        if self.kind is not None:
            return self.forms[str(self.kind.currentData())].show_errors(error)
        messages = field_messages(error)
        for name, f in self.fields.items():
            f.error.show_error(messages.pop(name, ""))
        return messages

    def errors(self) -> dict[str, FieldError]:
        return {n: f.error for n, f in self.fields.items()}
