"""Every documented key of every workspace, pressed in the shell window (windowed and kiosk): the
workspace gets it, the shell never does. The keys come from each workspace's ``keys`` list, the one
the hint row and the docs' tables are written from."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.test_shell import make_shell, sign_in
from views.base import Workspace
from views.shell.window import ShellWindow
from views.workspaces import all_workspaces


def press(qtbot: QtBot, seq: str) -> None:
    """A real key event on the widget that has the keyboard focus."""
    combo = QKeySequence(seq)[0]
    target = QApplication.focusWidget()
    assert isinstance(target, QWidget), "nothing has the keyboard focus"
    QTest.keyClick(target, combo.key(), combo.keyboardModifiers())


def listen(ws: Workspace, seq: str, hits: list[str]) -> None:
    """Every handler the workspace has for ``seq``: its shortcuts, and the warehouse's scanner input."""
    text = QKeySequence(seq).toString()
    for sc in ws.findChildren(QShortcut):
        if sc.key().toString() == text:
            sc.activated.connect(lambda s=seq: hits.append(s))
    scan_input = getattr(ws, "scan_input", None)
    if ws.name == "warehouse" and scan_input is not None:
        scan_input.hotkey.connect(lambda _k, s=seq: hits.append(s))
        scan_input.undo_scan.connect(lambda s=seq: hits.append(s))


def prepare(qtbot: QtBot, w: ShellWindow, ws: Workspace) -> None:
    """Where the documented keys are used: the helpdesk's ticket keys act on an open ticket."""
    if not w.isActiveWindow():
        with qtbot.waitActive(w):
            w.activateWindow()
    if ws.name == "helpdesk":
        table = ws.table  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: table.rowCount() > 0, timeout=30_000)
        tab = ws.open_ticket(table.item(0, 0).data(Qt.ItemDataRole.UserRole))  # type: ignore[attr-defined]
        qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
        tab.composer.setFocus()
    else:
        ws.focus_primary()
    qtbot.waitUntil(lambda: ws.isAncestorOf(QApplication.focusWidget()) or QApplication.focusWidget() is ws)


@pytest.mark.parametrize("kiosk", [False, True], ids=["windowed", "kiosk"])
def test_every_documented_key_reaches_its_workspace(
    qtbot: QtBot, station: Runtime, tmp_path: Path, kiosk: bool
) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=kiosk)
    sign_in(qtbot, w, "owner@demo.test")
    with qtbot.waitActive(w):
        w.activateWindow()
    shell_hits: list[str] = []
    for a in w.actions():
        a.triggered.connect(lambda _c=False, a=a: shell_hits.append(a.text()))
    pressed = 0
    for name, cls in all_workspaces().items():
        w.show_workspace(name)
        ws = w.workspaces[name]
        qtbot.waitUntil(lambda ws=ws: w.work.currentWidget() is ws and ws.session.ops.active == 0, timeout=30_000)
        # No shell action keeps a key the workspace documents.
        shell_keys = {a.shortcut().toString() for a in w.actions() if not a.shortcut().isEmpty()}
        assert not shell_keys & {QKeySequence(k).toString() for k, _ in cls.keys}, name
        prepare(qtbot, w, ws)
        for seq, what in cls.keys:
            hits: list[str] = []
            listen(ws, seq, hits)
            press(qtbot, seq)
            qtbot.waitUntil(lambda ws=ws: ws.session.ops.active == 0, timeout=30_000)
            assert hits == [seq], f"{name}: {seq} ({what}) did not reach the workspace"
            assert shell_hits == [], f"{name}: {seq} was taken by the shell ({shell_hits})"
            pressed += 1
    assert pressed >= 20
    w.idle.stop()
    w._may_close = True


def test_hint_rows_are_the_declared_keys(station: Runtime) -> None:
    from views.warehouse.workspace import WORKSPACE as WAREHOUSE

    assert WAREHOUSE.key_hints().startswith("F1 box S · F2 box M") and "F5 ship" in WAREHOUSE.key_hints()
    readme = (Path(__file__).parents[2] / "docs" / "fulfillment.md").read_text()
    for key, _what in WAREHOUSE.keys:
        assert key.split("+")[-1] in readme, f"docs/fulfillment.md does not document {key}"
