"""The audit log in the admin workspace: newest first, who, when, what, from where; filtered by kind
and actor; read from the platform when the station has one, else the station's own log."""

from __future__ import annotations

from pathlib import Path

import httpx
from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.context import Runtime
from services.sync import station as st
from tests.conftest import LiveServer, auth_headers
from tests.sync.conftest import register
from tests.views.test_admin import owner_shell, sign_in  # noqa: F401 - the fixture, shared
from views.admin.workspace import AdminWorkspace
from views.credentials import CredentialStore
from views.shell.window import ShellWindow


def cells(ws: AdminWorkspace, row: int) -> list[str]:
    t = ws.audit.table
    return [t.item(row, c).text() for c in range(t.columnCount())]


def test_offline_the_station_s_own_log_newest_first_filtered_by_kind_and_actor(
    qtbot: QtBot,
    owner_shell: tuple[ShellWindow, AdminWorkspace],  # noqa: F811
) -> None:
    _, ws = owner_shell
    # Two changes at the desk: a role, then the tenant's modules.
    operator = next(i for i, u in enumerate(ws.users.users) if u.email == "operator@demo.test")
    ws.users.table.selectRow(operator)
    ws.users.role.setCurrentIndex(ws.users.role.findData("admin"))
    ws.users.save.click()
    qtbot.waitUntil(lambda: "Saved operator@demo.test" in ws.users.status.text(), timeout=30_000)
    ws.modules_panel.save.click()
    qtbot.waitUntil(lambda: "Saved" in ws.modules_panel.status.text(), timeout=30_000)

    ws.tabs.setCurrentWidget(ws.audit)  # read when shown
    qtbot.waitUntil(lambda: ws.audit.table.rowCount() >= 2, timeout=30_000)
    assert "This station's own audit log" in ws.audit.where.text()
    newest, before = cells(ws, 0), cells(ws, 1)
    assert newest[2] == "tenant.modules_changed" and before[2] == "user.changed"  # newest first
    assert newest[0] >= before[0]
    assert before[1] == "owner@demo.test" and '"role": "admin"' in before[4] and before[3] != "—"

    ws.audit.kind.setCurrentIndex(ws.audit.kind.findData("user.changed"))
    qtbot.waitUntil(lambda: [e.kind for e in ws.audit.entries] == ["user.changed"], timeout=30_000)
    ws.audit.actor.setText("admin@demo.test")  # the owner made them: none by the admin
    ws.audit.filter_button.click()
    qtbot.waitUntil(lambda: ws.audit.table.rowCount() == 0, timeout=30_000)
    assert ws.audit.status.text() == "No audit entries match."
    ws.audit.actor.setText("owner@demo.test")
    ws.audit.filter_button.click()
    qtbot.waitUntil(lambda: ws.audit.table.rowCount() == 1, timeout=30_000)


def test_connected_the_platform_s_log_with_where_each_change_came_from(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    # Changes made on the platform over HTTP (not at this station): an API key.
    with httpx.Client(base_url=server.url, timeout=10) as client:
        h = auth_headers(client, "owner@demo.test")
        made = client.post("/api/tenants/demo/api-keys", json={"name": "ERP", "modules": ["support"]}, headers=h)
        assert made.status_code == 201, made.text
        secret = made.json()["data"]["key"]
    tenant = auth.load_tenant(station.db, "demo")
    st.save_link(station, tenant.id, server.url, station.station_id, register(server.url, station.station_id))
    w = ShellWindow(
        tmp_path / "p",
        runtime=station,
        platform_url=server.url,
        credentials=CredentialStore(tmp_path, use_keyring=False),
    )
    qtbot.addWidget(w)
    w.resize(1100, 800)
    w.show()
    sign_in(qtbot, w, "owner@demo.test")
    ws = w.workspaces["admin"]
    assert isinstance(ws, AdminWorkspace)
    qtbot.waitUntil(lambda: w.credentials.get("platform-token:owner@demo.test") is not None, timeout=30_000)
    ws.tabs.setCurrentWidget(ws.audit)
    qtbot.waitUntil(lambda: any(e.kind == "api_key.created" for e in ws.audit.entries), timeout=30_000)
    assert f"The platform's audit log ({server.url})" in ws.audit.where.text()
    row = next(i for i, e in enumerate(ws.audit.entries) if e.kind == "api_key.created")
    shown = cells(ws, row)
    assert shown[1] == "owner@demo.test" and shown[5] == "127.0.0.1"  # from where the server saw it
    assert '"name": "ERP"' in shown[4] and secret not in "".join(shown)

    ws.audit.kind.setCurrentIndex(ws.audit.kind.findData("user.changed"))
    qtbot.waitUntil(lambda: all(e.kind == "user.changed" for e in ws.audit.entries), timeout=30_000)
    w.sign_out()
    w.ops.wait()
