"""Window size: a sensible remembered size, maximised on a kiosk, and every workspace readable from
1024x700 up (no clipped text on buttons, headings, banners or table headers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import demo_id
from tests.views.clipping import clipped, clipped_after_layout
from tests.views.test_shell import make_shell, sign_in
from views.credentials import CredentialStore
from views.shell.window import ShellWindow
from views.workspaces import all_workspaces

SIZES = [(1024, 700), (1920, 1080)]


def _settle(qtbot: QtBot, w: ShellWindow) -> None:
    qtbot.waitUntil(lambda: w.ops.active == 0, timeout=30_000)
    QApplication.processEvents()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_workspace_is_readable(qtbot: QtBot, station: Runtime, tmp_path: Path, size: tuple[int, int]) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(*size)
    _settle(qtbot, w)
    problems = [f"login: {p}" for p in clipped(w)]
    sign_in(qtbot, w, "owner@demo.test")
    for name in all_workspaces():
        w.show_workspace(name)
        _settle(qtbot, w)
        qtbot.wait(20)  # a layout pass after the data arrived
        problems += [f"{name}: {p}" for p in clipped_after_layout(w)]
    # A trade-in open on the bench (the busiest screen): a short window scrolls it, never squeezes.
    w.show_workspace("inspection")
    bench = w.workspaces["inspection"]
    bench.scan_input.setText("KIT-DEMO000008")  # type: ignore[attr-defined]
    bench.scan_input.returnPressed.emit()  # type: ignore[attr-defined]
    _settle(qtbot, w)
    assert "IP13DEMO0008" in bench.title_label.text()  # type: ignore[attr-defined]
    problems += [f"inspection, a trade-in open: {p}" for p in clipped_after_layout(w)]
    # A ticket open at the help desk: the triage column scrolls, never squeezes.
    w.show_workspace("helpdesk")
    desk = w.workspaces["helpdesk"]
    tab = desk.open_ticket(demo_id("support-ticket", "1"))  # type: ignore[attr-defined]
    qtbot.waitUntil(lambda: tab.ticket is not None, timeout=30_000)
    _settle(qtbot, w)
    problems += [f"helpdesk, a ticket open: {p}" for p in clipped_after_layout(w)]
    assert w.size().width() == size[0]
    assert problems == []
    w.ops.wait()


def test_the_clipping_finder_finds_clipped_text(qtbot: QtBot) -> None:
    from PySide6.QtWidgets import QLabel, QPushButton, QTableWidget, QVBoxLayout, QWidget

    root = QWidget()
    qtbot.addWidget(root)
    lay = QVBoxLayout(root)
    button, heading, table = QPushButton("Print again"), QLabel("Scans this shift"), QTableWidget(1, 1)
    table.setHorizontalHeaderLabels(["A long column title"])
    for wdg in (button, heading, table):
        lay.addWidget(wdg)
    root.show()
    button.setFixedWidth(30)
    heading.setFixedWidth(30)
    table.horizontalHeader().resizeSection(0, 20)
    found = clipped(root)
    assert len(found) == 3 and "'Print again'" in found[0] and "'Scans this shift'" in found[1]


def test_kiosk_warehouse_at_1600x1000(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    w = make_shell(qtbot, station, tmp_path / "prefs", kiosk=True)
    w.resize(1600, 1000)
    w.signin.set_device_mode(True)
    sign_in(qtbot, w, "device@demo.test")
    _settle(qtbot, w)
    ws = w.workspaces["warehouse"]
    assert clipped_after_layout(w) == []
    for key in ("print", "next"):
        b = ws.buttons[key]  # type: ignore[attr-defined]
        assert b.width() >= b.sizeHint().width()
    assert ws.history.width() >= 300  # type: ignore[attr-defined]
    w.idle.stop()
    w._may_close = True


def test_first_start_size_and_remembered_size(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    prefs = tmp_path / "prefs"
    w = ShellWindow(prefs, runtime=station, offline=True, credentials=CredentialStore(prefs, use_keyring=False))
    qtbot.addWidget(w)
    w.show_for_mode()
    assert (w.minimumWidth(), w.minimumHeight()) == (1024, 700)
    avail = w.screen().availableGeometry()
    first = (max(1024, min(1280, avail.width())), max(700, min(800, avail.height())))
    assert (w.width(), w.height()) == first
    w.resize(1024, 760)  # (the offscreen screen is 800 px wide: the height tells it was remembered)
    w.close()
    again = ShellWindow(prefs, runtime=station, offline=True, credentials=CredentialStore(prefs, use_keyring=False))
    qtbot.addWidget(again)
    again.show_for_mode()
    assert (again.width(), again.height()) == (1024, 760)
    again.close()


def test_kiosk_opens_full_screen(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    prefs = tmp_path / "prefs"
    w = ShellWindow(prefs, runtime=station, kiosk=True, offline=True,
                    credentials=CredentialStore(prefs, use_keyring=False))  # fmt: skip
    qtbot.addWidget(w)
    w.show_for_mode()
    assert w.isFullScreen() or w.isMaximized()
    w._may_close = True


def test_workspaces_that_do_not_fit_wait_in_the_more_menu(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """An owner has a dozen workspaces: at 1024 px the last ones move to "More", keep their
    Ctrl+N, and come back to the toolbar when the window is wide again."""
    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(1024, 700)
    _settle(qtbot, w)
    sign_in(qtbot, w, "owner@demo.test")
    _settle(qtbot, w)
    overflow = list(w.more_menu.actions())
    assert overflow and w.more_button.isVisible()
    assert all(w.switcher.widgetForAction(a) is None for a in overflow)
    # One of them: its shortcut still opens it, and the open workspace stays on the toolbar.
    names = list(w.workspace_actions)
    last = next(n for n in reversed(names) if w.workspace_actions[n] in overflow)
    index = names.index(last) + 1
    if index <= 9:
        qtbot.keyClick(w, Qt.Key(Qt.Key.Key_0.value + index), Qt.KeyboardModifier.ControlModifier)
    else:
        w.workspace_actions[last].trigger()
    qtbot.waitUntil(lambda: w.current_workspace == last)
    _settle(qtbot, w)
    assert w.switcher.widgetForAction(w.workspace_actions[last]) is not None
    assert w.workspace_actions[last] not in w.more_menu.actions()
    assert clipped_after_layout(w) == []
    w.resize(2400, 900)
    _settle(qtbot, w)
    assert w.more_menu.actions() == [] and not w.more_button.isVisible()
    w.ops.wait()


def _bar_order(w: ShellWindow) -> list[str]:
    """The workspaces as the person sees them: the toolbar, then the "More" menu (the open one
    stays on the toolbar); each part in the switcher's order."""
    declared = list(w.workspace_actions.values())
    on_bar = [a for a in w.switcher.actions() if a in declared and a.isVisible()]
    more = list(w.more_menu.actions())
    for part in (on_bar, more):
        assert part == sorted(part, key=declared.index), [a.text() for a in part]
    return [a.objectName() for a in on_bar + more]


def test_workspaces_keep_their_names_and_their_order(qtbot: QtBot, station: Runtime, tmp_path: Path) -> None:
    """Issue 32, defect 14: several workspaces showed as unlabelled icons even at 1600 px, and
    their order changed between two sign-ins (Ctrl+number seemed to move)."""
    from PySide6.QtWidgets import QToolButton

    w = make_shell(qtbot, station, tmp_path / "prefs")
    w.resize(1600, 1000)
    sign_in(qtbot, w, "owner@demo.test")
    _settle(qtbot, w)
    declared = [a.objectName() for a in w.workspace_actions.values()]
    shortcuts = {n: a.shortcut().toString() for n, a in w.workspace_actions.items()}
    for a in w.workspace_actions.values():
        b = w.switcher.widgetForAction(a)
        if isinstance(b, QToolButton) and a.isVisible():
            assert b.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon, a.text()
    first = _bar_order(w)
    assert sorted(first) == sorted(declared)
    # Open the last one (it may sit in "More"), then the landing one again: the order on screen is back.
    landing = w.current_workspace
    assert landing is not None
    w.workspace_actions[list(w.workspace_actions)[-1]].trigger()
    _settle(qtbot, w)
    _bar_order(w)
    w.workspace_actions[landing].trigger()
    _settle(qtbot, w)
    assert _bar_order(w) == first
    w.sign_out()
    sign_in(qtbot, w, "owner@demo.test")
    _settle(qtbot, w)
    _bar_order(w)  # the toolbar and "More" each in the switcher's order (how many fit: the width)
    assert {n: a.shortcut().toString() for n, a in w.workspace_actions.items()} == shortcuts
    w.ops.wait()
