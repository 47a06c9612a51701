"""Every workspace by keyboard in the real window (issue 32: Records, an owner's tenth or eleventh
workspace, had no Ctrl+number, and the toolbar's "More" was never reached by Tab).

Ctrl+1 … Ctrl+9 open the first nine, Ctrl+0 the tenth and, pressed again, each one after it; each
workspace's tooltip says its keys. "More" is a Tab stop and Enter opens its menu."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.test_shell import make_shell, sign_in
from views.shell.switch_keys import keys_of
from views.shell.window import ShellWindow

TABS = 300  # more Tab stops than any workspace has: the focus chain goes round within them


def _key(w: ShellWindow, seq: str) -> None:
    """A real key press on whatever has the keyboard focus (the window when nothing has)."""
    combo = QKeySequence(seq)[0]
    target = QApplication.focusWidget() or w
    QTest.keyClick(target, combo.key(), combo.keyboardModifiers())


def _settled(qtbot: QtBot, w: ShellWindow) -> None:
    """Calls back, the window active and something in it focused (keys go where a person's would)."""
    qtbot.waitUntil(lambda: w.ops.active == 0 and (w.session is None or w.session.ops.active == 0), timeout=30_000)
    if not w.isActiveWindow():
        with qtbot.waitActive(w):
            w.activateWindow()
    qtbot.waitUntil(lambda: isinstance(QApplication.focusWidget(), QWidget), timeout=30_000)


def test_every_workspace_has_keys_that_open_it(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(1280, 800)
    sign_in(qtbot, w, "owner@demo.test")
    _settled(qtbot, w)
    names = list(w.workspace_actions)
    assert len(names) >= 11 and "records" in names[9:]  # the case the walk found
    for i, name in enumerate(names, start=1):
        keys = keys_of(i)
        tip = w.workspace_actions[name].toolTip()
        assert QKeySequence(keys).toString(QKeySequence.SequenceFormat.NativeText) in tip, (name, tip)
        w.show_workspace(names[0])  # from a workspace before the tenth, as the tooltip counts
        _settled(qtbot, w)
        for chord in keys.split(", "):
            _key(w, chord)
            _settled(qtbot, w)
        qtbot.waitUntil(lambda n=name: w.current_workspace == n, timeout=30_000)
    # From the last, Ctrl+0 goes round to the tenth.
    _key(w, "Ctrl+0")
    qtbot.waitUntil(lambda: w.current_workspace == names[9], timeout=30_000)
    w.ops.wait()


def test_more_is_reached_by_tab_and_enter_opens_it(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(1024, 700)  # an owner's workspaces do not all fit: the last wait in "More"
    sign_in(qtbot, w, "owner@demo.test")
    _settled(qtbot, w)
    waiting = list(w.more_menu.actions())
    assert waiting and w.more_button.isVisible()
    for _ in range(len(w.workspace_actions)):  # Records: its list lets Tab move on (an admin table keeps it)
        if w.current_workspace == "records":
            break
        _key(w, "Ctrl+0")
        _settled(qtbot, w)
    assert w.current_workspace == "records"
    for _ in range(TABS):
        if QApplication.focusWidget() is w.more_button:
            break
        _key(w, "Tab")
    assert QApplication.focusWidget() is w.more_button, "Tab never reached More"
    # The menu runs its own event loop while open: it is driven from a timer, as a person's keys.
    picked: list[object] = []

    def drive(tries: int = 0) -> None:
        if not w.more_menu.isVisible():
            if tries < 1500:  # a condition looked at every 20 ms, up to 30 s
                QTimer.singleShot(20, lambda: drive(tries + 1))
            return
        QTest.keyClick(w.more_menu, Qt.Key.Key_Down)
        picked.append(w.more_menu.activeAction())
        QTest.keyClick(w.more_menu, Qt.Key.Key_Return)

    QTimer.singleShot(0, drive)
    _key(w, "Return")  # opens the menu (and comes back once it is closed)
    qtbot.waitUntil(lambda: bool(picked), timeout=30_000)
    assert picked[0] in waiting, picked
    name = next(n for n, a in w.workspace_actions.items() if a is picked[0])
    qtbot.waitUntil(lambda: w.current_workspace == name, timeout=30_000)
    assert not w.more_menu.isVisible()
    w.ops.wait()
