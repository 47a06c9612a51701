"""An action that reaches an outside service (``needs`` on its use case) says so on a station before
the person presses it: disabled with the reason when the station has no platform, made on the
platform (online) when it has one."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from local_db.models.events import Subscription
from services.core.context import Runtime
from tests.views.workspaces import workspace_factory
from views.records.workspace import RecordsWorkspace


def test_a_station_says_which_actions_need_an_outside_service(station: Runtime, qtbot: QtBot) -> None:
    ws = next(workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800)))()
    # A subscription synced down from the platform (a station never makes one: it carries a secret).
    with station.db.transaction(ws.session.tenant.id) as s:
        s.add(Subscription(tenant_id=ws.session.tenant.id, event_types=["order.shipped"],
                           webhook_url="https://hooks.example.com/orders", secret="sealed"))  # fmt: skip

    def test_button() -> QPushButton:
        ws.show_resource("events:/subscriptions")
        qtbot.waitUntil(lambda: ws.session.ops.active == 0 and ws.model is not None and not ws.model._busy,
                        timeout=30_000)  # fmt: skip
        ws._open_row(ws.model.index(0, 0))  # type: ignore[union-attr]
        qtbot.waitUntil(lambda: ws.record is not None, timeout=30_000)
        b = ws.findChild(QPushButton, "action-events.subscriptions.test")
        assert b is not None
        return b

    ws.session.platform_url = ""
    b = test_button()
    assert not b.isEnabled() and "link this station" in b.toolTip() and "subscriber" in b.toolTip()
    # Another action of the same record, which needs nothing outside, stays as it was.
    other = ws.findChild(QPushButton, "action-events.subscriptions.deactivate")
    assert other is not None and other.isEnabled()
    ws.session.platform_url = "https://platform.example.test"
    b = test_button()
    assert b.isEnabled() and "made on the platform" in b.toolTip()
