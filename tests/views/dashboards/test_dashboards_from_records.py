"""Dashboards agree with Records: every card of the operations dashboard that counts records
(shipped orders, tickets, QR scans) equals the rows Records lists; shipping two orders moves
today's point by two; one range and one comparison period for all cards; the value under the
pointer; a click on a point opens Records on exactly those rows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.views.workspaces import settle, workspace_factory
from views.dashboards.figures import local_day
from views.dashboards.workspace import Card, DashboardsWorkspace
from views.records.workspace import RecordsWorkspace


@pytest.fixture
def both(station: Runtime, qtbot: QtBot) -> Iterator[tuple[DashboardsWorkspace, RecordsWorkspace]]:
    dashboards = workspace_factory(station, qtbot, DashboardsWorkspace, "owner@demo.test", (1280, 800))
    records = workspace_factory(station, qtbot, RecordsWorkspace, "owner@demo.test", (1280, 800))
    make_d, make_r = next(dashboards), next(records)
    d, r = make_d(), make_r()
    d.session.open_workspace = lambda name: r if name == "records" else None  # the shell's switch
    yield d, r
    for gen in (dashboards, records):
        with pytest.raises(StopIteration):
            next(gen)


def _cards(qtbot: QtBot, ws: DashboardsWorkspace) -> dict[str, Card]:
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: bool(ws.cards), timeout=30_000)
    return {c.data.title: c for c in ws.cards}


def _records_total(qtbot: QtBot, r: RecordsWorkspace, key: str, **filters: str) -> list[object]:
    """Every row of a Records list as the person filters it (scrolled to the end)."""
    r.show_resource(key)
    for name, value in filters.items():
        w = r.filter_inputs[name]
        w.setText(value)  # type: ignore[union-attr]
    r._apply_filters()
    qtbot.waitUntil(lambda: r.model is not None and not r.model._busy and r.session.ops.active == 0, timeout=30_000)
    assert r.model is not None
    while r.model.canFetchMore():
        r.model.fetchMore()
        qtbot.waitUntil(lambda: not r.model._busy, timeout=30_000)  # type: ignore[union-attr]
    return list(r.model.rows)


def test_cards_count_the_rows_records_shows_and_today_moves_after_two_shipments(
    both: tuple[DashboardsWorkspace, RecordsWorkspace], qtbot: QtBot
) -> None:
    d, r = both
    d.range.setCurrentIndex(2)  # the last 90 days: all the demo's history
    cards = _cards(qtbot, d)
    start, end = d.period()
    shipped = [o for o in _records_total(qtbot, r, "fulfillment:/orders", status="shipped")]
    in_range = [o for o in shipped if start <= local_day(o.shipped_at) <= end]  # type: ignore[attr-defined]
    assert cards["Orders shipped per day"].data.total == len(in_range) > 0
    tickets = _records_total(qtbot, r, "support:/api/tenants/{tenant}/support/tickets")
    assert (
        cards["Tickets opened"].data.total == len([t for t in tickets if start <= local_day(t.created_at) <= end]) > 0
    )  # type: ignore[attr-defined]
    codes = _records_total(qtbot, r, "qr:/qr")
    assert cards["QR scans per week"].data.total == sum(c.scans for c in codes) > 0  # type: ignore[attr-defined]

    today = end
    before = cards["Orders shipped per day"].data.counted.count(today)  # type: ignore[union-attr]
    ctx = d.session.ctx
    packed = execute(ctx(), "fulfillment.orders.list", query={"status": "packed", "limit": 2}).items
    assert len(packed) == 2
    for o in packed:
        execute(ctx(), "fulfillment.orders.operate", id=o.id, body={"operation": "ship"})
    d.refresh()  # (the shell refreshes it on the commit; here the commit was made behind its back)
    qtbot.waitUntil(
        lambda: (
            bool(d.cards) and d.cards[0].data.counted is not None and d.cards[0].data.counted.count(today) == before + 2
        ),
        timeout=8000,
    )
    # The commits also started the workspace's own read a second later: let it finish, or it redraws
    # the cards (and deletes this chart) under the pointer.
    qtbot.waitUntil(lambda: not d._later.isActive() and d.session.ops.active == 0, timeout=30_000)

    # The value under the pointer, then a click on today's point: Records on exactly those orders.
    # The pointer is moved again on each look, over the chart shown then: a late redraw of the
    # cards (a loaded machine's) replaced the chart the first move went to.
    def pointed() -> bool:
        ch = next((c.chart for c in d.cards if c.data.title == "Orders shipped per day"), None)
        if ch is None:
            return False
        QTest.mouseMove(ch, QPoint(int(ch.x_of(today)), ch.height() // 2))
        return ch.toolTip().endswith(f": {before + 2}")

    qtbot.waitUntil(pointed, timeout=30_000)
    chart = _cards(qtbot, d)["Orders shipped per day"].chart
    x = int(chart.x_of(today))
    assert today.strftime("%d %b %Y") in chart.toolTip()
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(x, chart.height() // 2))
    qtbot.waitUntil(lambda: r.model is not None and r.model.pinned, timeout=30_000)
    assert r.current is not None and r.current.key == "fulfillment:/orders"
    shown = {o.id for o in r.model.rows}  # type: ignore[union-attr, attr-defined]
    assert {o.id for o in packed} <= shown and len(shown) == before + 2
    assert r.count.text() == f"{before + 2} orders shipped on {today:%d %b %Y}"


def test_one_range_and_one_comparison_for_every_card(
    both: tuple[DashboardsWorkspace, RecordsWorkspace], qtbot: QtBot
) -> None:
    d, _r = both
    d.range.setCurrentIndex(0)  # 7 days
    week = _cards(qtbot, d)
    start, end = d.period()
    assert (end - start).days == 6
    for card in week.values():
        if card.data.chart != "number" and card.data.interval == "day":
            assert [p.bucket for p in card.chart.points][:1] == [start], card.data.title
    d.compare.setChecked(True)
    qtbot.waitUntil(lambda: bool(d.cards) and all(c.data.before is not None for c in d.cards), timeout=30_000)
    settle(qtbot, d)
    for card in d.cards:
        assert "before" in card.total.text(), card.data.title
    shipped = next(c for c in d.cards if c.data.title == "Orders shipped per day")
    # The comparison is the 7 days before, counted from the same rows.
    prev_start, prev_end = start - dt.timedelta(days=7), start - dt.timedelta(days=1)
    rows = execute(d.session.ctx(), "fulfillment.orders.list", query={"status": "shipped", "limit": 100}).items
    assert shipped.data.before == len([o for o in rows if prev_start <= local_day(o.shipped_at) <= prev_end])


def test_trade_ins_accepted_counts_and_values_the_rows_records_shows(
    both: tuple[DashboardsWorkspace, RecordsWorkspace], qtbot: QtBot
) -> None:
    """Issue 32 part 3: the trade-ins card counts trade-ins by the time their offer was accepted
    (``accepted_at``), the rows Records lists, and values them by their declared value; accepting
    an offer today moves it by one."""
    d, r = both
    d.range.setCurrentIndex(0)  # the last 7 days: "accepted this week"
    start, end = d.period()
    ctx = d.session.ctx
    pending = [
        o
        for s in execute(ctx(), "upgrade.admin.submissions.list", query={"status": "offered", "limit": 100}).items
        for o in execute(ctx(), "upgrade.admin.submissions.get", id=s.id).offers
        if o.status == "pending"
    ]
    assert pending
    before = _cards(qtbot, d)["Trade-ins accepted"].data.total
    execute(ctx(), "upgrade.admin.offers.respond", id=pending[0].id, body={"action": "accept"})  # said by phone
    d.refresh()
    qtbot.waitUntil(
        lambda: any(c.data.title == "Trade-ins accepted" and c.data.total == before + 1 for c in d.cards),
        timeout=8000,
    )
    qtbot.waitUntil(lambda: not d._later.isActive() and d.session.ops.active == 0, timeout=30_000)
    card = _cards(qtbot, d)["Trade-ins accepted"]
    rows: list[Any] = _records_total(qtbot, r, "upgrade:/admin/submissions")
    accepted = [s for s in rows if s.accepted_at and start <= local_day(s.accepted_at) <= end]
    assert card.data.total == len(accepted) and card.data.counted is not None
    assert card.data.counted.count(end) >= 1  # today's acceptance, on today
    worth = round(sum(float(s.declared_value or 0) for s in accepted), 2)
    assert card.data.worth == worth and "worth" in card.total.text()
