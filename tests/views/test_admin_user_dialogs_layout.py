"""The Invite and Add user dialogs at 1280x800 in English and German: the module ticks in columns,
every one in sight and whole (no scroll bar, no elided name), and no dead area: the list as tall as
its rows and the dialog as tall as its form (it was 480 px with a 110 px list that scrolled, centred
in an empty band)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import nullcontext

import pytest
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import german
from tests.views.workspaces import app_theme, workspace_factory
from views.admin.users import AddUserDialog
from views.admin.workspace import AdminWorkspace

SLACK = 4  # pixels of frame and rounding


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., AdminWorkspace]]:
    with app_theme("light"):
        yield from workspace_factory(runtime, qtbot, AdminWorkspace, "owner@demo.test", (1280, 800))


def _dead_space(dialog: AddUserDialog) -> list[str]:
    bad = []
    lst = dialog.modules
    view = lst.viewport().rect()
    rects = [lst.visualItemRect(lst.item(i)) for i in range(lst.count())]
    for i, r in enumerate(rects):
        item = lst.item(i)
        if not view.contains(r):
            bad.append(f"{item.text()!r} out of sight: {r.getRect()} in {view.getRect()}")
        need = lst.sizeHintForIndex(lst.indexFromItem(item)).width()
        if r.width() < need:
            bad.append(f"{item.text()!r} cut: {r.width()} px, needs {need}")
    if lst.verticalScrollBar().maximum() > 0:
        bad.append("the module list scrolls")
    columns = len({r.left() for r in rects})
    if columns < 2:
        bad.append(f"{columns} column")
    below = view.height() - max(r.bottom() for r in rects)
    if below > SLACK:
        bad.append(f"{below} px empty under the modules")
    if dialog.height() > dialog.sizeHint().height() + SLACK:
        bad.append(f"dialog {dialog.height()} px high, its form needs {dialog.sizeHint().height()}")
    screen = dialog.screen().availableGeometry() if dialog.screen() else None
    if dialog.height() > 800 - 60 or dialog.width() > 1280 or (screen and dialog.height() > screen.height()):
        bad.append(f"dialog {dialog.size().toTuple()} does not fit 1280x800")
    return bad


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("kind", ["invite", "add"])
def test_user_dialogs_have_no_dead_area(
    make: Callable[..., AdminWorkspace], qtbot: QtBot, lang: str, kind: str
) -> None:
    with german("admin", "records") if lang == "de" else nullcontext():
        ws = make()
        panel = ws.users
        dialog = panel.open_invite_user() if kind == "invite" else panel.open_add_user()
        qtbot.waitExposed(dialog)
        assert _dead_space(dialog) == []
        assert dialog.modules.count() >= 16
        dialog.reject()


@pytest.mark.parametrize("kind", ["invite", "add"])
def test_user_dialogs_open_with_the_focus_on_the_email(
    make: Callable[..., AdminWorkspace], qtbot: QtBot, kind: str
) -> None:
    """The buttons are made before the fields, so Qt gave the focus to OK and typing landed nowhere."""
    ws = make()
    dialog = ws.users.open_invite_user() if kind == "invite" else ws.users.open_add_user()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(lambda: dialog.focusWidget() is not None, timeout=10_000)
    assert dialog.focusWidget() is dialog.email
    qtbot.keyClicks(dialog.focusWidget(), "ada@demo.test")
    assert dialog.email.text() == "ada@demo.test"
    dialog.reject()
