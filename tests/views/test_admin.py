"""Admin workspace: users and roles, API keys shown once, revoke; the outbox count follows writes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from local_db.models import OutboxEntry
from services.core import auth
from services.core.commands import execute
from services.core.context import Ctx, Runtime
from services.core.demo import DEMO_PASSWORD, demo_id
from services.core.errors import Conflict
from services.sync import station as st
from tests.conftest import LiveServer
from tests.sync.conftest import register
from views.admin.workspace import AdminWorkspace
from views.credentials import CredentialStore
from views.shell.window import ShellWindow


def sign_in(qtbot: QtBot, w: ShellWindow, email: str) -> None:
    with qtbot.waitSignal(w.signed_in, timeout=30_000):
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


def test_a_key_is_made_on_the_platform_shown_once_works_at_once_and_is_revoked_there(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    tenant = auth.load_tenant(station.db, "demo")
    st.save_link(station, tenant.id, server.url, station.station_id, register(server.url, station.station_id))
    creds = CredentialStore(tmp_path, use_keyring=False)
    w = ShellWindow(tmp_path / "p", runtime=station, platform_url=server.url, credentials=creds)
    qtbot.addWidget(w)
    w.resize(1100, 800)
    w.show()
    sign_in(qtbot, w, "owner@demo.test")
    ws = w.workspaces["admin"]
    assert isinstance(ws, AdminWorkspace)
    keys = ws.api_keys
    assert keys is not None
    ws.tabs.setCurrentWidget(keys)
    qtbot.waitUntil(lambda: w.credentials.get("platform-token:owner@demo.test") is not None, timeout=30_000)
    assert "made on the platform" in keys.where.text()

    keys.name.setText("ERP")
    for i in range(keys.modules.count()):
        if keys.modules.item(i).text() == "support":
            keys.modules.item(i).setCheckState(Qt.CheckState.Checked)
    keys.create_button.click()
    qtbot.waitUntil(lambda: keys.created_box.isVisible(), timeout=30_000)
    value = keys.created_key.text()
    assert value.startswith("pk_live_")
    # The key shown works on the platform at once (nothing waits in an outbox).
    tickets = f"{server.url}/api/tenants/demo/support/tickets"
    assert httpx.get(tickets, headers={"X-API-Key": value}, timeout=10).status_code == 200
    with station.db.reading(tenant.id) as s:
        queued = s.execute(select(OutboxEntry).where(OutboxEntry.command.like("platform.api_keys%"))).all()
    assert queued == []
    qtbot.waitUntil(lambda: any(k.name == "ERP" for k in keys.keys), timeout=30_000)
    row = next(i for i, k in enumerate(keys.keys) if k.name == "ERP")
    assert keys.table.item(row, 4).text() == "active"
    assert value not in "".join(keys.table.item(row, c).text() for c in range(keys.table.columnCount()))
    keys.copy_button.click()
    assert QApplication.clipboard().text() == value
    keys.done_button.click()
    assert keys.created_key.text() == "" and not keys.created_box.isVisible()

    keys.table.selectRow(row)
    keys.revoke.click()  # first press only asks
    assert "again" in keys.revoke.text()
    keys.revoke.click()
    qtbot.waitUntil(lambda: any(k.name == "ERP" and k.status == "revoked" for k in keys.keys), timeout=30_000)
    assert httpx.get(tickets, headers={"X-API-Key": value}, timeout=10).status_code == 401
    # Made here, on a linked station, it is refused: it would only wait in the outbox.
    ctx = Ctx(station, tenant, auth.user_principal(station.db, demo_id("user", "owner@demo.test"), tenant))
    with pytest.raises(Conflict) as exc:
        execute(ctx, "platform.api_keys.create", body={"name": "Local", "modules": ["support"]})
    assert exc.value.details["reason"] == "online_only"
    w.sign_out()
    w.ops.wait()


def test_offline_the_key_panel_says_keys_are_made_on_the_platform(
    qtbot: QtBot, owner_shell: tuple[ShellWindow, AdminWorkspace]
) -> None:
    shell, ws = owner_shell
    keys = ws.api_keys
    assert keys is not None
    ws.tabs.setCurrentWidget(keys)
    assert "made on the platform" in keys.where.text()
    keys.name.setText("ERP")
    keys.modules.item(0).setCheckState(Qt.CheckState.Checked)
    keys.create_button.click()
    assert "made on the platform" in keys.status.text() and not keys.created_box.isVisible()
    shell.ops.wait()
    assert shell.sync.pending in (None, 0)  # nothing queued


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
    qtbot.waitUntil(lambda: "Saved" in users.status.text(), timeout=30_000)
    qtbot.waitUntil(lambda: any(users.table.item(r, 2).text() == "Admin" and users.table.item(r, 1).text() ==
                                "operator@demo.test" for r in range(users.table.rowCount())))  # fmt: skip
    # The only owner cannot stop being one: the service's message shows next to the button.
    emails = [users.table.item(r, 1).text() for r in range(users.table.rowCount())]
    users.table.selectRow(emails.index("owner@demo.test"))
    users.role.setCurrentIndex(users.role.findData("operator"))
    users.save.click()
    qtbot.waitUntil(lambda: "at least one owner" in users.status.text(), timeout=30_000)


def test_modules_for_the_tenant_and_for_a_person(qtbot: QtBot, owner_shell: tuple[ShellWindow, AdminWorkspace],
                                                 station: Runtime) -> None:  # fmt: skip
    from services.core import auth
    from services.core.demo import demo_id
    from views.admin.workspace import _tick, _ticked

    _shell, ws = owner_shell
    panel = ws.modules_panel
    qtbot.waitUntil(lambda: "upgrade" in _ticked(panel.list), timeout=30_000)
    # Turn Upgrade off for the tenant: the operator loses it at once, their own list is kept.
    _tick(panel.list, set(_ticked(panel.list)) - {"upgrade"})
    panel.save.click()
    qtbot.waitUntil(lambda: "Saved" in panel.status.text(), timeout=30_000)
    tenant = auth.load_tenant(station.db, "demo")
    assert "upgrade" not in tenant.modules
    operator = auth.user_principal(station.db, demo_id("user", "operator@demo.test"), tenant)
    assert "upgrade" not in operator.modules
    _tick(panel.list, set())
    panel.save.click()
    qtbot.waitUntil(lambda: "at least one" in panel.status.text(), timeout=30_000)
    # A person's own modules, ticked in the selected user's list.
    users = ws.users
    emails = [users.table.item(r, 1).text() for r in range(users.table.rowCount())]
    users.table.selectRow(emails.index("operator@demo.test"))
    assert set(_ticked(users.user_modules)) == {"upgrade", "support", "inventory"}
    _tick(users.user_modules, {"support"})
    users.save.click()
    qtbot.waitUntil(lambda: "Saved" in users.status.text(), timeout=30_000)
    member = auth.user_principal(
        station.db, demo_id("user", "operator@demo.test"), auth.load_tenant(station.db, "demo")
    )
    assert member.modules == frozenset({"support"})


def test_the_key_list_shows_the_platforms_keys_and_no_false_sign_in_message(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    # A key made on the platform before this station's person signs in (by another admin, a script).
    login = httpx.post(
        f"{server.url}/api/auth/login", json={"email": "owner@demo.test", "password": DEMO_PASSWORD}, timeout=10
    )
    token = login.json()["data"]["token"]
    made = httpx.post(
        f"{server.url}/api/tenants/demo/api-keys",
        json={"name": "Warehouse robot", "modules": ["inventory"]},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    tenant = auth.load_tenant(station.db, "demo")
    st.save_link(station, tenant.id, server.url, station.station_id, register(server.url, station.station_id))
    w = ShellWindow(
        tmp_path / "p",
        runtime=station,
        platform_url=server.url,
        credentials=CredentialStore(tmp_path, use_keyring=False),
    )
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    sign_in(qtbot, w, "owner@demo.test")
    ws = w.workspaces["admin"]
    assert isinstance(ws, AdminWorkspace) and ws.api_keys is not None
    keys = ws.api_keys
    ws.tabs.setCurrentWidget(keys)
    # Filled from the platform once its sign-in arrives, with no "no sign-in" said on the way.
    said: list[str] = []
    keys.status.setText = lambda text, _orig=keys.status.setText: (said.append(text), _orig(text))[1]  # type: ignore[method-assign]
    qtbot.waitUntil(lambda: any(k.name == "Warehouse robot" for k in keys.keys), timeout=30_000)
    row = next(i for i, k in enumerate(keys.keys) if k.name == "Warehouse robot")
    assert keys.table.item(row, 3).text() == "inventory"
    assert not keys.status.isVisible()
    assert not [t for t in said if "no sign-in" in t.lower()], said
    w.sign_out()
    w.ops.wait()


def _platform_shell(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> tuple[ShellWindow, AdminWorkspace]:
    tenant = auth.load_tenant(station.db, "demo")
    st.save_link(station, tenant.id, server.url, station.station_id, register(server.url, station.station_id))
    w = ShellWindow(
        tmp_path / "p",
        runtime=station,
        platform_url=server.url,
        credentials=CredentialStore(tmp_path, use_keyring=False),
    )
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    sign_in(qtbot, w, "owner@demo.test")
    qtbot.waitUntil(lambda: w.credentials.get("platform-token:owner@demo.test") is not None, timeout=30_000)
    ws = w.workspaces["admin"]
    assert isinstance(ws, AdminWorkspace)
    return w, ws


def _login(server: LiveServer, email: str, password: str) -> int:
    r = httpx.post(f"{server.url}/api/auth/login", json={"email": email, "password": password}, timeout=10)
    return r.status_code


def test_add_a_user_and_reset_a_password_on_the_platform_online(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    w, ws = _platform_shell(qtbot, station, server, tmp_path)
    users = ws.users
    dialog = users.open_add_user()
    # A wrong e-mail: said under the field, nothing made.
    dialog.email.setText("not-an-email")
    dialog.name.setText("Pia Picker")
    dialog.password.setText("first-password-1")
    dialog.submit()
    qtbot.waitUntil(lambda: dialog.errors["email"].isVisible(), timeout=30_000)
    assert dialog.isVisible() and _login(server, "not-an-email", "first-password-1") != 200
    dialog.email.setText("pia@demo.test")
    dialog.role.setCurrentIndex(dialog.role.findData("operator"))
    for i in range(dialog.modules.count()):
        if dialog.modules.item(i).text() == "support":
            dialog.modules.item(i).setCheckState(Qt.CheckState.Checked)
    dialog.submit()
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=30_000)
    assert "Added pia@demo.test" in users.status.text()
    assert _login(server, "pia@demo.test", "first-password-1") == 200  # made on the platform, at once
    with station.db.reading(auth.load_tenant(station.db, "demo").id) as s:
        assert s.execute(select(OutboxEntry).where(OutboxEntry.command.like("platform.users%"))).all() == []

    # The new user arrives here with the next pull; reset the password of another from the list.
    emails = [users.table.item(r, 1).text() for r in range(users.table.rowCount())]
    users.table.selectRow(emails.index("operator@demo.test"))
    reset = users.open_reset_password()
    assert reset is not None
    reset.password.setText("new-password-22")
    reset.again.setText("new-password-2")  # a typo: said, nothing sent
    reset.submit()
    assert reset.errors["again"].isVisible() and reset.isVisible()
    assert _login(server, "operator@demo.test", DEMO_PASSWORD) == 200
    reset.again.setText("new-password-22")
    reset.submit()
    qtbot.waitUntil(lambda: not reset.isVisible(), timeout=30_000)
    assert _login(server, "operator@demo.test", "new-password-22") == 200
    assert _login(server, "operator@demo.test", DEMO_PASSWORD) != 200
    w.sign_out()
    w.ops.wait()
