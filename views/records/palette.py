"""Ctrl+K: find a record in every module by its number, name or serial, and open it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog, QLabel, QLineEdit, QListWidget, QListWidgetItem, QVBoxLayout

from services.core.commands import execute
from services.core.errors import ServiceError
from services.core.records import Resource
from views.records.model import columns_of, text_of
from views.records.words import module_title, t

if TYPE_CHECKING:
    from views.records.workspace import RecordsWorkspace

PER_KIND = 5


def find(ws: RecordsWorkspace, text: str) -> list[tuple[Resource, BaseModel]]:
    """Up to five records of each searchable kind the person may list (a worker thread runs it)."""
    found: list[tuple[Resource, BaseModel]] = []
    for res in ws.resources:
        q = res.listing.query
        if q is None or "search" not in q.model_fields or res.listing.record is None:
            continue  # records people know (a record kind), not computed lists such as OEE by shift
        try:
            page = execute(ws.session.ctx(), res.listing, query={"search": text, "limit": PER_KIND})
        except ServiceError:
            continue  # one kind refusing the search does not hide the others
        found += [(res, row) for row in page.items]
    return found


class Palette(QDialog):
    def __init__(self, ws: RecordsWorkspace) -> None:
        super().__init__(ws)
        self.ws = ws
        self.setWindowTitle(self.tr("Find a record"))
        self.input = QLineEdit()
        self.input.setPlaceholderText(self.tr("Order or ticket number, name, serial number…"))
        self.input.setAccessibleName(self.tr("Find a record"))
        self.results = QListWidget()
        self.results.setAccessibleName(self.tr("Records found"))
        self.status = QLabel("")
        lay = QVBoxLayout(self)
        lay.addWidget(self.input)
        lay.addWidget(self.results, 1)
        lay.addWidget(self.status)
        self.resize(620, 420)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(200)  # a scanner or a fast typist: search once they pause
        self.timer.timeout.connect(self.search)
        self.input.textChanged.connect(lambda _t: self.timer.start())
        self.input.returnPressed.connect(self.open_current)
        self.results.itemActivated.connect(lambda _i: self.open_current())
        self._asked = ""

    def open(self) -> None:  # noqa: A003 - QDialog's name
        self.input.clear()
        self.results.clear()
        self.status.setText("")
        super().open()
        self.input.setFocus()

    def search(self) -> None:
        text = self.input.text().strip()
        self._asked = text
        if len(text) < 2:
            self.results.clear()
            return
        self.status.setText(self.tr("Searching…"))
        self.ws.session.ops.run(
            lambda: find(self.ws, text), on_success=lambda rows: self._show(text, rows), parent=self.input
        )

    def _show(self, text: str, rows: list[tuple[Resource, BaseModel]]) -> None:
        if text != self._asked:
            return  # an older search answered late
        self.results.clear()
        for res, row in rows:
            cols = columns_of(res.item_model)[:3]
            words = " · ".join(text_of(getattr(row, c, None), c) for c in cols)
            item = QListWidgetItem(f"{module_title(res.module)} · {t(res.title)}: {words}")
            item.setData(Qt.ItemDataRole.UserRole, (res.key, str(getattr(row, "id", ""))))
            self.results.addItem(item)
        self.status.setText(self.tr("%Ln found", "", len(rows)) if rows else self.tr("Nothing found"))
        if rows:
            self.results.setCurrentRow(0)

    def open_current(self) -> None:
        if self.timer.isActive() or self._asked != self.input.text().strip():
            self.timer.stop()
            self.search()
            return
        item = self.results.currentItem()
        if item is None:
            return
        key, rid = item.data(Qt.ItemDataRole.UserRole)
        res = self.ws.resource(key)
        self.accept()
        if res is not None:
            self.ws.open_record(rid, res)
