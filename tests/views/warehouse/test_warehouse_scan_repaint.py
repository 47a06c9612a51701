"""A scan repaints what it changed and nothing more (issue 38: Enter to painted inside one frame):
its line's cells and its order's queue row, with no reload of the queue or the counts; a change
that is not the workspace's own scan still reloads them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.services.fulfillment.fulfillment_helpers import ctx_for, order_in
from tests.views.warehouse.test_warehouse_workspace import scan
from tests.views.workspaces import workspace_factory
from views.warehouse.workspace import WORKSPACE, WarehouseWorkspace

MARK = Qt.ItemDataRole.UserRole + 7


@pytest.fixture
def make_ws(station: Runtime, qtbot: QtBot) -> Iterator[object]:
    yield from workspace_factory(station, qtbot, WORKSPACE, "device@demo.test", (1400, 900))


def _watched(make_ws: object, station: Runtime, qtbot: QtBot) -> tuple[WarehouseWorkspace, list[str]]:
    """The workspace told of every commit, as in the app; the queue model's resets and row changes
    are recorded ("reset", "row <n>")."""
    ws: WarehouseWorkspace = make_ws()  # type: ignore[operator]
    ws.session.ops.watch(station)
    seen: list[str] = []
    ws.queue.modelReset.connect(lambda: seen.append("reset"))
    ws.queue.dataChanged.connect(lambda a, _b, _r=(): seen.append(f"row {a.row()}"))
    return ws, seen


def _mark(ws: WarehouseWorkspace) -> None:
    for r in range(ws.lines.rowCount()):
        for c in range(ws.lines.columnCount()):
            ws.lines.item(r, c).setData(MARK, (r, c))


def _kept(ws: WarehouseWorkspace) -> set[tuple[int, int]]:
    """The cells still the same items as when marked (a rebuilt table has none)."""
    return {
        (r, c)
        for r in range(ws.lines.rowCount())
        for c in range(ws.lines.columnCount())
        if ws.lines.item(r, c).data(MARK) == (r, c)
    }


def test_a_scan_repaints_its_line_and_its_queue_row_only(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws, seen = _watched(make_ws, station, qtbot)
    order = order_in(station, "pending", skip=1)  # two lines, three units
    scan(qtbot, ws, order.order_number)
    queue_row = ws.queue.row_of(order.id)
    assert queue_row >= 0 and ws.order is not None
    first, second = ws.order.lines[0], ws.order.lines[1]
    _mark(ws)
    seen.clear()
    scan(qtbot, ws, str(first.barcode))
    row = ws.line_row(first.id)
    assert ws.lines.item(row, 3).text() == f"1 / {first.quantity}"
    # Every item is the one that was there: the table was not rebuilt.
    assert _kept(ws) == {(r, c) for r in range(ws.lines.rowCount()) for c in range(4)}
    assert seen == [f"row {queue_row}"]  # the queue: that row repainted, no reset
    items = ws.queue.data(ws.queue.index(queue_row, 4), Qt.ItemDataRole.DisplayRole)
    assert items == f"1/{first.quantity + second.quantity}"
    # The scan that completes the order moves it out of "pending": the queue and counts reload.
    for ln in ws.order.lines:
        for _ in range(ln.quantity - ln.picked_quantity):
            scan(qtbot, ws, str(ln.barcode))
    assert ws.order.status == "picked" and "reset" in seen
    qtbot.waitUntil(lambda: ws.queue.row_of(order.id) == -1, timeout=30_000)


def test_a_change_not_of_its_own_scan_reloads_the_queue(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws, seen = _watched(make_ws, station, qtbot)
    mine, other = order_in(station, "pending", skip=1), order_in(station, "pending", skip=2)
    scan(qtbot, ws, mine.order_number)
    seen.clear()
    # Another window of this station scans another order (its commit is announced here too).
    ln = execute(ctx_for(station, "device@demo.test"), "fulfillment.orders.get", id=other.id).lines[0]
    body = {"operation": "pick", "items": [{"code": ln.barcode}]}
    execute(ctx_for(station, "device@demo.test"), "fulfillment.orders.operate", id=other.id, body=body)
    qtbot.waitUntil(lambda: "reset" in seen, timeout=30_000)
    qtbot.waitUntil(lambda: ws.session.ops.active == 0, timeout=30_000)
    row = ws.queue.row_of(other.id)
    assert row >= 0 and ws.queue.data(ws.queue.index(row, 4), Qt.ItemDataRole.DisplayRole).startswith("1/")
    assert ws.queue.rowCount(QModelIndex()) > 0
