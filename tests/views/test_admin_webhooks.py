"""Admin workspace, Webhooks tab: the platform's endpoints, a disabled one with since when and why,
and activating it again from the desk (on the platform, online); Scheduler tab: the platform's jobs."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from pytestqt.qtbot import QtBot

from services.core import auth
from services.core.commands import execute
from services.core.context import SYSTEM, Ctx, Runtime
from services.core.scheduler import Scheduler
from services.events import health
from services.sync import station as st
from tests.conftest import LiveServer
from tests.sync.conftest import register
from tests.views.test_admin import sign_in
from views.admin.workspace import AdminWorkspace
from views.credentials import CredentialStore
from views.shell.window import ShellWindow


def test_a_disabled_endpoint_shows_why_and_is_activated_again(
    qtbot: QtBot, station: Runtime, server: LiveServer, tmp_path: Path
) -> None:
    platform = server.runtime
    tenant = auth.load_tenant(platform.db, "demo")
    ctx = Ctx(platform, tenant, SYSTEM)
    body = {"event_types": ["order.shipped"], "webhook_url": "https://93.184.216.34/hook?token=t0p", "secret": "s"}
    sub = execute(ctx, "events.subscriptions.create", body=body)
    Scheduler(platform).sync()  # the platform's periodic jobs have their rows (as at a server's start)
    assert health.disable(ctx, sub.id, platform.clock.now() - timedelta(days=5, hours=1))
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
    assert isinstance(ws, AdminWorkspace) and ws.webhooks is not None
    hooks = ws.webhooks
    ws.tabs.setCurrentWidget(hooks)
    qtbot.waitUntil(lambda: any(s.id == sub.id for s in hooks.subs), timeout=30_000)
    row = next(i for i, s in enumerate(hooks.subs) if s.id == sub.id)
    shown = [hooks.table.item(row, c).text() for c in range(hooks.table.columnCount())]
    assert shown[0] == "https://93.184.216.34/hook" and shown[2] == "disabled"
    assert shown[3] != "—" and shown[4].startswith("every delivery failed since")
    assert "t0p" not in "".join(shown)
    hooks.activate.click()  # nothing selected yet
    assert "Select an endpoint" in hooks.status.text()
    hooks.table.selectRow(row)
    hooks.activate.click()
    qtbot.waitUntil(lambda: "active again" in hooks.status.text(), timeout=30_000)
    qtbot.waitUntil(lambda: any(s.id == sub.id and s.active for s in hooks.subs), timeout=30_000)
    assert execute(ctx, "events.subscriptions.get", sub_id=sub.id).disabled_at is None

    # The Scheduler tab: the platform's jobs with their period and last run.
    jobs = ws.scheduler
    ws.tabs.setCurrentWidget(jobs)
    jobs.load()
    qtbot.waitUntil(lambda: any(j.name == "events.endpoint_health" for j in jobs.jobs), timeout=30_000)
    row = next(i for i, j in enumerate(jobs.jobs) if j.name == "events.endpoint_health")
    assert [jobs.table.item(row, c).text() for c in (1, 4)] == ["1 h", "not run yet"]
    assert "platform's jobs" in jobs.where.text()
    w.sign_out()
    w.ops.wait()
