"""Driving the warehouse (and stock count) workspace as a packer does: scanner bursts ending in Enter, hotkeys, and
answering a question ("Ship this order?") by scanning the code again or with the keyboard."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from tests.views.workspaces import settle
from views.stockcount.workspace import StockCountWorkspace
from views.warehouse.workspace import WarehouseWorkspace

# Any scan screen: the warehouse, the stock count (each has ``scan_input`` and ``asking``).
Screen = WarehouseWorkspace | StockCountWorkspace


def scan(qtbot: QtBot, ws: Screen, code: str) -> None:
    """A scanner burst: the characters at machine speed, then the Enter suffix."""
    qtbot.keyClicks(ws.scan_input, code)
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Return)
    settle(qtbot, ws)


def key(qtbot: QtBot, ws: Screen, k: Qt.Key) -> None:
    qtbot.keyClick(ws.scan_input, k)
    settle(qtbot, ws)


def typed(qtbot: QtBot, ws: Screen, text: str, key: Qt.Key = Qt.Key.Key_Return) -> None:
    """Keys as the person (or the scanner) sends them: into whatever has the keyboard focus."""
    focus = QApplication.focusWidget()
    assert isinstance(focus, QWidget)
    if text:
        qtbot.keyClicks(focus, text)
    qtbot.keyClick(QApplication.focusWidget(), key)
    settle(qtbot, ws)


def question(qtbot: QtBot, ws: Screen, name: str) -> QMessageBox:
    """The open question ``name`` (its object name): shown, No by default."""
    qtbot.waitUntil(
        lambda: isinstance(getattr(ws, "asking", None), QMessageBox) and ws.asking.isVisible(), timeout=30_000
    )
    box = ws.asking
    assert box.objectName() == name and box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    return box


def answer(
    qtbot: QtBot, ws: Screen, name: str, scan_code: str | None = None, yes: bool = True, press: Qt.Key | None = None
) -> None:
    """Answer the question ``name``: scan ``scan_code`` at it, press the key ``press`` (Esc: no; the
    key that asked: yes), or click Yes (No with ``yes=False``)."""
    box = question(qtbot, ws, name)
    focus = box.focusWidget() or box
    if scan_code is not None:
        qtbot.keyClicks(focus, scan_code)
        qtbot.keyClick(focus, Qt.Key.Key_Return)
    elif press is not None:
        qtbot.keyClick(focus, press)
    else:
        box.button(QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.No).click()
    qtbot.waitUntil(lambda: not box.isVisible(), timeout=30_000)
    settle(qtbot, ws)
