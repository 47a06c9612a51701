"""The inputs a records form puts in front of a person instead of raw JSON or ids.

* ``RefPicker``: a reference to another record (``category_id``, ``location_id``), chosen by its
  name or code, or typed or scanned (a SKU, a location code); the id stays in the tooltip.
* ``RefList``: several references (``category_ids``), ticked in a list of names.
* ``DateInput`` (``dates.py``): a date or a date and time, typed in the locale's form or picked on a
  calendar by keyboard; an optional one can stay empty.
* ``RowsInput``: a list of small records (an order's or a transfer's lines) as a table with one
  column per field and *Add row* / *Remove row*.
* ``PairsInput``: a free map (``attributes``) as a two-column table of names and values.

Options of a reference are read off the UI thread through ``Refs`` (the workspace's session), so a
form opens at once and fills its choices when they arrive.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from views.records.dates import DateInput

# What people know a record by, and the code they type or scan for it, in the order looked at.
NAMES = ("name", "title", "label", "email", "order_number", "number", "serial_number")
CODES = ("code", "sku", "slug", "key", "email")  # a person (a customer at the desk) by e-mail

Option = tuple[str, str, str]  # (words shown, id, the code typed or scanned for it)

__all__ = ["DateInput"]  # kept in dates.py, offered here with the other inputs


def option_of(row: object) -> Option:
    """How one record of a list is offered: "Aisle A · LOC-A-01", its id, its code."""
    rid = str(getattr(row, "id", "") or "")
    name = next((str(v) for n in NAMES if (v := getattr(row, n, None))), "")
    code = next((str(v) for n in CODES if (v := getattr(row, n, None))), "")
    words = " · ".join(p for p in (name, code) if p) or rid[:8]
    return words, rid, code


@dataclass
class Refs:
    """Where a form's references point and how their options are read (the records workspace's
    session). ``target(field)`` answers a key for ``load`` or None (a plain text field)."""

    target: Callable[[str], str | None]
    load: Callable[[str, Callable[[list[Option]], None]], None]


class RefPicker(QComboBox):
    """One reference, chosen by name or code: typing filters the names (any part of them), Enter on
    a code (a SKU, a scan) takes the record with that code; ``value()`` is the record's id."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(18)
        completer = self.completer()
        if completer is not None:
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.options: list[Option] = []
        self._wanted: str | None = None
        self.edit().setPlaceholderText(self.tr("Loading…"))
        self.currentIndexChanged.connect(
            lambda _i: self.setToolTip(f"id {self.currentData()}" if self.currentData() else "")
        )

    def edit(self) -> QLineEdit:
        line = self.lineEdit()
        assert line is not None  # editable: made in __init__
        return line

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter ends a code (a scanner sends one after each code): the record is taken and the
        focus moves to the next field. Ignored, the key went on to the dialog and pressed its
        default button: a scanned SKU submitted a form whose other fields were still empty."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if (rid := self.value()) is not None and (i := self.findData(rid)) >= 0:
                self.setCurrentIndex(i)
            event.accept()
            self.focusNextChild()
            return
        super().keyPressEvent(event)

    def fill(self, options: list[Option]) -> None:
        text = self.currentText()
        self.options = options
        self.blockSignals(True)
        self.clear()
        for words, rid, _code in options:
            self.addItem(words, rid)
            self.setItemData(self.count() - 1, f"id {rid}", Qt.ItemDataRole.ToolTipRole)
        self.blockSignals(False)
        self.edit().setPlaceholderText(self.tr("Type a name or code") if options else self.tr("Type the code"))
        if self._wanted is not None:
            self.set_id(self._wanted)
        else:
            self.setCurrentIndex(-1)
            self.setEditText(text)

    def set_id(self, rid: str) -> None:
        i = self.findData(rid)
        if i >= 0:
            self.setCurrentIndex(i)
            self._wanted = None
        else:
            self._wanted = rid  # its options are still on their way
            self.setEditText(rid)

    def value(self) -> str | None:
        """The id of the record chosen; a text that names no record is sent as typed (a location
        code the service accepts, or a wrong one it names); None when empty."""
        text = self.currentText().strip()
        if not text:
            return None
        if self.currentIndex() >= 0 and self.itemText(self.currentIndex()) == text:
            return str(self.currentData())
        low = text.lower()
        exact = [rid for words, rid, code in self.options if low in (words.lower(), code.lower(), rid)]
        if len(exact) == 1:
            return exact[0]
        within = [rid for words, rid, _code in self.options if low in words.lower()]
        return within[0] if len(within) == 1 else (self._wanted or text)


class RefList(QListWidget):
    """Several references, ticked by name; ``value()`` is their ids."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFixedHeight(120)
        self._wanted: set[str] = set()

    def fill(self, options: list[Option]) -> None:
        self.clear()
        for words, rid, _code in options:
            item = QListWidgetItem(words)
            item.setData(Qt.ItemDataRole.UserRole, rid)
            item.setToolTip(f"id {rid}")
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if rid in self._wanted else Qt.CheckState.Unchecked)
            self.addItem(item)

    def set_ids(self, ids: list[str]) -> None:
        self._wanted = set(ids)
        for i in range(self.count()):
            it = self.item(i)
            on = it.data(Qt.ItemDataRole.UserRole) in self._wanted
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def value(self) -> list[str]:
        items = [self.item(i) for i in range(self.count())]
        ticked = [str(it.data(Qt.ItemDataRole.UserRole)) for it in items if it.checkState() == Qt.CheckState.Checked]
        return ticked if self.count() else sorted(self._wanted)


def parse_cell(text: str, tp: object) -> object:
    """A typed cell as the body wants it: numbers as numbers, a list comma-separated, a map as
    ``name=value`` pairs; anything that does not parse goes as typed (the service names it)."""
    text = text.strip()
    origin = typing.get_origin(tp)
    if origin is list:
        return [p.strip() for p in text.split(",") if p.strip()]
    if origin is dict or tp is dict:
        return dict(p.split("=", 1) for p in (q.strip() for q in text.split(",")) if "=" in p)
    for kind in (int, float):
        if tp is kind:
            try:
                return kind(text)
            except ValueError:
                return text
    return text


def cell_text(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return "" if value is None else str(value)


class _Table(QWidget):
    """A table with *Add row* / *Remove row* under it."""

    def __init__(self, headers: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setMinimumHeight(130)
        self.add = QPushButton(self.tr("Add row"))
        self.remove = QPushButton(self.tr("Remove row"))
        self.add.clicked.connect(lambda: self.add_row())
        self.remove.clicked.connect(self._remove)
        buttons = QHBoxLayout()
        buttons.addWidget(self.add)
        buttons.addWidget(self.remove)
        buttons.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.table)
        lay.addLayout(buttons)

    def add_row(self) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for c in range(self.table.columnCount()):
            self.table.setItem(row, c, QTableWidgetItem(""))
        return row

    def _remove(self) -> None:
        row = self.table.currentRow()
        self.table.removeRow(row if row >= 0 else self.table.rowCount() - 1)

    def text(self, row: int, col: int) -> str:
        item = self.table.item(row, col)
        return item.text() if item is not None else ""


class RowsInput(_Table):
    """A list of small records, one row each; a column that is a reference is a picker."""

    def __init__(self, model: type[BaseModel], refs: Refs | None, parent: QWidget | None = None) -> None:
        from views.records.forms import label_of  # forms builds these: imported when one is made

        super().__init__([label_of(n) for n in model.model_fields], parent)
        self.model = model
        self.names = list(model.model_fields)
        self.refs = refs
        self._options: dict[str, list[Option]] = {}
        self.table.setRowCount(0)
        self.setAccessibleName(label_of(model.__name__))
        for n in self.names:
            key = refs.target(n) if refs is not None else None
            if key is not None and refs is not None:
                refs.load(key, functools.partial(self._got, n))
        self.add_row()

    def _got(self, name: str, options: list[Option]) -> None:
        self._options[name] = options
        col = self.names.index(name)
        for row in range(self.table.rowCount()):
            w = self.table.cellWidget(row, col)
            if isinstance(w, RefPicker):
                w.fill(options)

    def add_row(self) -> int:
        row = super().add_row()
        for col, n in enumerate(self.names):
            if self.refs is not None and self.refs.target(n) is not None:
                picker = RefPicker()
                picker.setMinimumContentsLength(10)
                picker.fill(self._options.get(n, []))
                self.table.setCellWidget(row, col, picker)
        return row

    def set_value(self, rows: list[dict[str, object]]) -> None:
        self.table.setRowCount(0)
        for values in rows:
            row = self.add_row()
            for col, n in enumerate(self.names):
                w = self.table.cellWidget(row, col)
                if isinstance(w, RefPicker) and values.get(n):
                    w.set_id(str(values[n]))
                elif (item := self.table.item(row, col)) is not None:
                    item.setText(cell_text(values.get(n)))

    def value(self) -> list[dict[str, object]]:
        from views.records.forms import _unwrap

        out: list[dict[str, object]] = []
        for row in range(self.table.rowCount()):
            values: dict[str, object] = {}
            for col, n in enumerate(self.names):
                w = self.table.cellWidget(row, col)
                if isinstance(w, RefPicker):
                    if (rid := w.value()) is not None:
                        values[n] = rid
                elif text := self.text(row, col).strip():
                    values[n] = parse_cell(text, _unwrap(self.model.model_fields[n].annotation)[0])
            if values:
                out.append(values)
        return out


class PairsInput(_Table):
    """A free map: one name and its value a row; numbers and yes/no are sent as such."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__([self.tr("Name"), self.tr("Value")], parent)

    def set_value(self, values: dict[str, object]) -> None:
        self.table.setRowCount(0)
        for k, v in values.items():
            row = self.add_row()
            self.table.item(row, 0).setText(str(k))  # type: ignore[union-attr]
            self.table.item(row, 1).setText(cell_text(v))  # type: ignore[union-attr]

    def value(self) -> dict[str, object]:
        out: dict[str, object] = {}
        for row in range(self.table.rowCount()):
            name, text = self.text(row, 0).strip(), self.text(row, 1).strip()
            if name:
                out[name] = _scalar(text)
        return out


def _scalar(text: str) -> object:
    if text.lower() in ("true", "yes"):
        return True
    if text.lower() in ("false", "no"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
