"""Admin workspace: users and roles, API keys shown once, revoke; the outbox count follows writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from services.core.demo import DEMO_PASSWORD
from views.admin.workspace import AdminWorkspace
from views.credentials import CredentialStore
from views.shell.window import ShellWindow


def sign_in(qtbot: QtBot, w: ShellWindow, email: str) -> None:
    with qtbot.waitSignal(w.signed_in, timeout=15_000):
        w.signin.email.setText(email)
        w.signin.password.setText(DEMO_PASSWORD)
        w.signin.submit()


@pytest.fixture
def owner_shell(qtbot: QtBot, station: Runtime, tmp_path: Path) -> Iterator[tuple[ShellWindow, AdminWorkspace]]:
    w = ShellWindow(
        tmp_path / "p", runtime=station, offline=True, credentials=CredentialStore(tmp_path, use_keyring=False)
    )
    qtbot.addWidget(w)
    w.resize(1100, 800)
    w.show()
    sign_in(qtbot, w, "owner@demo.test")
    ws = w.workspaces["admin"]
    assert isinstance(ws, AdminWorkspace)
    qtbot.waitUntil(lambda: ws.users.table.rowCount() == 4)
    yield w, ws
    w.ops.wait()


def test_create_key_shows_it_once_copy_and_revoke(
    qtbot: QtBot, owner_shell: tuple[ShellWindow, AdminWorkspace]
) -> None:
    shell, ws = owner_shell
    keys = ws.api_keys
    assert keys is not None
    ws.tabs.setCurrentWidget(keys)
    qtbot.waitUntil(lambda: shell.sync.pending == 0)
    keys.name.setText("ERP")
    keys.modules.item(0).setCheckState(Qt.CheckState.Checked)
    keys.create_button.click()
    qtbot.waitUntil(lambda: keys.created_box.isVisible(), timeout=5000)
    value = keys.created_key.text()
    assert value.startswith("pk_live_")
    qtbot.waitUntil(lambda: keys.table.rowCount() == 1)
    assert keys.table.item(0, 4).text() == "active"
    assert value not in "".join(keys.table.item(0, c).text() for c in range(keys.table.columnCount()))
    keys.copy_button.click()
    assert QApplication.clipboard().text() == value
    keys.done_button.click()
    assert keys.created_key.text() == "" and not keys.created_box.isVisible()
    # The write went to the outbox; the status bar shows it.
    qtbot.waitUntil(lambda: shell.sync.pending == 1, timeout=5000)
    assert "1 pending" in shell.sync_label.text()

    keys.table.selectRow(0)
    keys.revoke.click()  # first press only asks
    assert "again" in keys.revoke.text()
    keys.revoke.click()
    qtbot.waitUntil(lambda: keys.table.rowCount() == 1 and keys.table.item(0, 4).text() == "revoked", timeout=5000)


def test_key_form_errors_show_under_the_fields(qtbot: QtBot, owner_shell: tuple[ShellWindow, AdminWorkspace]) -> None:
    _shell, ws = owner_shell
    keys = ws.api_keys
    assert keys is not None
    ws.tabs.setCurrentWidget(keys)
    keys.create_button.click()  # no name, no module
    assert keys.errors["name"].isVisible() and keys.errors["name"].text() == "Required."
    assert keys.errors["modules"].text() == "Choose at least one."
    assert keys.errors["modules"].isVisible()
    assert not keys.created_box.isVisible()
    keys.revoke.click()  # nothing selected
    assert "Select a key" in keys.status.text()


def test_changing_a_role_and_the_last_owner_rule(qtbot: QtBot, owner_shell: tuple[ShellWindow, AdminWorkspace]) -> None:
    _shell, ws = owner_shell
    users = ws.users
    emails = [users.table.item(r, 1).text() for r in range(users.table.rowCount())]
    users.table.selectRow(emails.index("operator@demo.test"))
    users.role.setCurrentIndex(users.role.findData("admin"))
    users.save.click()
    qtbot.waitUntil(lambda: "Saved" in users.status.text(), timeout=5000)
    qtbot.waitUntil(lambda: any(users.table.item(r, 2).text() == "admin" and users.table.item(r, 1).text() ==
                                "operator@demo.test" for r in range(users.table.rowCount())))  # fmt: skip
    # The only owner cannot stop being one: the service's message shows next to the button.
    emails = [users.table.item(r, 1).text() for r in range(users.table.rowCount())]
    users.table.selectRow(emails.index("owner@demo.test"))
    users.role.setCurrentIndex(users.role.findData("operator"))
    users.save.click()
    qtbot.waitUntil(lambda: "at least one owner" in users.status.text(), timeout=5000)
