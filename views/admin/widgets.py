"""Widgets the admin workspace's panels share: tables, cells, a one-line result."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QTableWidget, QTableWidgetItem

from views.shell.theme import set_role


def table(headers: list[str], name: str) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.setAccessibleName(name)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    t.verticalHeader().setVisible(False)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    t.horizontalHeader().setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    t.setShowGrid(False)
    return t


def cell(text: str, data: str | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if data is not None:
        item.setData(Qt.ItemDataRole.UserRole, data)
    return item


def rows(data: object) -> list[object]:
    return list(data) if isinstance(data, list) else []


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def when(dt: datetime | None) -> str:
    return dt.strftime("%Y-%m-%d %H:%M") if dt is not None else "—"


class Status(QLabel):
    """A one-line result next to the buttons of a panel (error or success)."""

    def __init__(self, name: str) -> None:
        super().__init__("")
        self.setWordWrap(True)
        self.setAccessibleName(name)
        self.hide()

    def say(self, text: str, kind: str = "error") -> None:
        set_role(self, f"message-{kind}")
        self.setText(text)
        self.setVisible(bool(text))

    def show_error(self, message: str) -> None:
        self.say(message, "error")
