"""The dashboards workspace with real widgets: demo dashboards drawn, switching, live refresh."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.views.workspaces import settle, workspace_factory
from views.dashboards.workspace import DashboardsWorkspace


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., DashboardsWorkspace]]:
    yield from workspace_factory(runtime, qtbot, DashboardsWorkspace, "owner@demo.test", (1024, 700))


def test_demo_dashboards_drawn_and_switched(make: Callable[..., DashboardsWorkspace], qtbot: QtBot) -> None:
    ws = make()
    assert ws.picker.count() >= 2 and ws.heading.text() == "Operations"
    assert [c.chart.kind for c in ws.cards] == ["line", "bar", "number", "bar"]
    assert ws.cards[0].chart.total > 0 and ws.cards[0].chart.grab().width() > 0
    ws.picker.setFocus()
    qtbot.keyClick(ws.picker, Qt.Key.Key_Down)
    settle(qtbot, ws)
    assert ws.heading.text() == "Sales"
    assert ws.cards[2].chart.groups()  # revenue by channel: one bar colour per channel


def test_a_new_dashboard_appears_after_a_change(make: Callable[..., DashboardsWorkspace], qtbot: QtBot) -> None:
    ws = make("admin@demo.test")
    before = ws.picker.count()
    ctx = ws.session.ctx()
    execute(ctx, "analytics.dashboards.create", body={"name": "Later", "widgets": []})
    ws.on_data_changed("analytics.dashboards.create")
    qtbot.waitUntil(lambda: ws.picker.count() == before + 1, timeout=30_000)
    settle(qtbot, ws)


def test_only_owners_and_admins_see_it(runtime: Runtime) -> None:
    from tests.views.workspaces import session_for

    assert DashboardsWorkspace.available_to(session_for(runtime, "owner@demo.test"))
    assert not DashboardsWorkspace.available_to(session_for(runtime, "operator@demo.test"))


def test_axis_tops_give_whole_steps_for_counts() -> None:
    from views.dashboards.charts import nice_peak

    assert nice_peak(9) == 10  # money or rates: 2.5 steps are fine
    assert nice_peak(9, whole=True) == 12  # tickets: steps of 3, not 2.5
    assert nice_peak(3, whole=True) == 4  # never a step under one
    assert nice_peak(0, whole=True) == 4
    assert nice_peak(380, whole=True) == 400
    for v in (1, 7, 9, 23, 99, 240, 1_001):
        top = nice_peak(v, whole=True)
        assert top >= v and float(top / 4).is_integer()
