"""A form row made by ``views.shell.forms.with_error`` (the field over its error line) takes its
label's Alt+letter and the dialog's first focus: the walk of issue 32 pressed Alt+E in "Invite
user" and typed an address that went nowhere (the label's buddy was the row's box)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QFormLayout, QLineEdit
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.workspaces import workspace_factory
from views.admin.workspace import AdminWorkspace
from views.shell.forms import with_error


def test_alt_letter_reaches_the_field_of_a_row_with_an_error_line(qtbot: QtBot) -> None:
    dialog = QDialog()
    form = QFormLayout(dialog)
    first, second = QLineEdit(), QLineEdit()
    for label, field in (("&Name", first), ("&E-mail", second)):
        box, _err = with_error(field)
        form.addRow(label, box)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    first.setFocus()
    qtbot.waitUntil(first.hasFocus)
    qtbot.keyClick(first, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(second.hasFocus)
    qtbot.keyClicks(second, "nina@demo.test")
    assert second.text() == "nina@demo.test" and first.text() == ""


@pytest.fixture
def make_admin(station: Runtime, qtbot: QtBot) -> Iterator[Callable[..., AdminWorkspace]]:
    yield from workspace_factory(station, qtbot, AdminWorkspace, "owner@demo.test", (1280, 800))


def test_invite_user_fields_are_reached_by_their_alt_letters(
    make_admin: Callable[..., AdminWorkspace], qtbot: QtBot
) -> None:
    dialog = make_admin().users.open_invite_user()
    qtbot.waitExposed(dialog)
    dialog.activateWindow()
    qtbot.waitUntil(dialog.isActiveWindow)
    start = QApplication.focusWidget() or dialog
    qtbot.keyClick(start, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialog.email.hasFocus)
    qtbot.keyClicks(dialog.email, "nina@demo.test")
    qtbot.keyClick(dialog.email, Qt.Key.Key_N, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(dialog.name.hasFocus)
    qtbot.keyClicks(dialog.name, "Nina Newbie")
    assert (dialog.email.text(), dialog.name.text()) == ("nina@demo.test", "Nina Newbie")
    dialog.reject()
