"""Dashboards in German: the controls, the card totals and the caption of a drill-down, with numbers
and days in the German locale's format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator

import pytest
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from services.core.context import Runtime
from tests.views.german import english_left, entries, german, german_locale
from tests.views.workspaces import settle, workspace_factory
from views.dashboards.charts import day_text, fmt
from views.dashboards.workspace import DashboardsWorkspace


@pytest.fixture
def make(runtime: Runtime, qtbot: QtBot) -> Iterator[Callable[..., DashboardsWorkspace]]:
    yield from workspace_factory(runtime, qtbot, DashboardsWorkspace, "owner@demo.test", (1280, 800))


@pytest.fixture
def in_german() -> Iterator[None]:
    with german_locale():
        yield


def test_dashboards_read_in_german(make: Callable[..., DashboardsWorkspace], qtbot: QtBot, in_german: None) -> None:
    assert all(done for *_rest, done in entries("dashboards"))
    assert fmt(1234) == "1.234" and fmt(2.5) == "2,50"
    assert day_text(dt.date(2026, 11, 26)).startswith("26. Nov") or day_text(dt.date(2026, 11, 26)).startswith("26 Nov")
    with german("dashboards"):
        assert fmt(12_345) == "12,3 Tsd."
        ws = make()
        settle(qtbot, ws)
        assert [ws.range.itemText(i) for i in range(ws.range.count())][1] == "Letzte 30 Tage"
        assert ws.compare.text() == "Mit dem Zeitraum davor vergleichen"
        ws.compare.setChecked(True)
        qtbot.waitUntil(lambda: bool(ws.cards) and all(c.data.before is not None for c in ws.cards), timeout=30_000)
        totals = [c.total.text() for c in ws.cards]
        assert any(t.startswith("gesamt ") and " · vorher " in t for t in totals), totals
        shown = [w.text() for w in ws.findChildren(QLabel) if w.isVisibleTo(ws)] + [ws.reload_button.text()]
        assert english_left(shown, "dashboards") == []
