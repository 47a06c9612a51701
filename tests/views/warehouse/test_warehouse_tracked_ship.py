"""The packing desk ships the serials and lots it scanned: the unit's serial is shipped under the order,
the lot's recall finds the order, and the station's outbox carries them to the platform's replay."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import select

from local_db.models import OutboxEntry
from services.core.commands import execute
from services.core.context import Runtime
from tests.services.fulfillment.fulfillment_helpers import ctx_for
from tests.views.warehouse.drive import answer, key, scan
from tests.views.warehouse.test_warehouse_floor_work import new_order


def test_a_scanned_serial_and_lot_ship_with_the_order(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    execute(owner, "inventory.serials.receive", body={"sku": "HDP-USB-C", "location_id": "MAIN",
                                                      "serials": ["HP-0001", "HP-0002"]})  # fmt: skip
    execute(owner, "inventory.items.update", id="BTL-STL-750", body={"tracking": "lot"})
    execute(owner, "inventory.lots.receive", body={"sku": "BTL-STL-750", "code": "L-77", "location_id": "MAIN",
                                                   "quantity": 3})  # fmt: skip
    order = new_order(station, [{"sku": "HDP-USB-C", "quantity": 1}, {"sku": "BTL-STL-750", "quantity": 2}])
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, order.order_number)
    scan(qtbot, ws, "HDP-USB-C")
    scan(qtbot, ws, "hp-0002")
    for _ in range(2):
        scan(qtbot, ws, "BTL-STL-750")
        scan(qtbot, ws, "l 77")
    assert ws.order.status == "picked" and ws.banner.property("tone") == "done"
    key(qtbot, ws, Qt.Key.Key_F2)
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order")  # F5 asks first
    qtbot.waitUntil(lambda: bool(ws.printed), timeout=30_000)
    shipped = execute(owner, "fulfillment.orders.get", id=order.id)
    assert shipped.status == "shipped"
    assert [(ln.serials, [(x.code, x.quantity) for x in ln.lots]) for ln in shipped.lines] == [
        (["HP0002"], []),
        ([], [("L77", 2)]),
    ]
    unit = execute(owner, "inventory.serials.get", id="HP0002")
    assert (unit.status, unit.reference) == ("shipped", order.order_number)
    assert execute(owner, "inventory.serials.get", id="HP0001").status == "in_stock"
    recall = execute(owner, "inventory.lots.recall", id="L77")
    assert [(x.reference, x.quantity) for x in recall.shipped] == [(order.order_number, 2)]
    # The ship waits in the station's outbox with its units: the platform's replay ships the same ones.
    with station.db.reading(None) as s:
        bodies = [
            e.body or {} for e in s.execute(select(OutboxEntry)).scalars() if e.command == "fulfillment.orders.operate"
        ]
    ship = next(b for b in bodies if b.get("operation") == "ship")
    assert ship["units"] == [
        {"code": "HDP-USB-C", "serial": "HP0002"},
        {"code": "BTL-STL-750", "lot": "L77", "quantity": 2},
    ]


def test_a_tracked_item_shipped_without_its_serial_is_refused_at_the_desk(
    make_ws: object, station: Runtime, qtbot: QtBot
) -> None:
    owner = ctx_for(station, "owner@demo.test")
    order = new_order(station, [{"sku": "HDP-USB-C", "quantity": 1}])
    execute(owner, "fulfillment.orders.operate", id=order.id,
            body={"operation": "pick", "items": [{"code": "HDP-USB-C", "quantity": 1}]})  # fmt: skip
    execute(owner, "fulfillment.orders.operate", id=order.id, body={"operation": "pack", "box": "S"})
    # Serials arrive after the pick (the desk never asked): the ship names the line that lacks one.
    execute(owner, "inventory.serials.receive", body={"sku": "HDP-USB-C", "location_id": "MAIN",
                                                      "serials": ["HP-0009"]})  # fmt: skip
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, order.order_number)
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order")  # F5 asks first; yes, and the service refuses
    assert ws.banner.property("tone") == "error" and "serial" in ws.banner.text()
    assert execute(owner, "fulfillment.orders.get", id=order.id).status == "packed"


def test_a_batch_asks_the_lot_and_names_the_first_to_expire(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    execute(owner, "inventory.items.update", id="BTL-STL-750", body={"tracking": "lot"})
    execute(owner, "inventory.locations.create", body={"code": "A-01", "name": "A-01", "parent_id": "MAIN"})
    for code, expires in (("L-LATE", "2027-09-01"), ("L-SOON", "2027-02-01")):
        execute(owner, "inventory.lots.receive", body={"sku": "BTL-STL-750", "code": code, "location_id": "A-01",
                                                       "quantity": 2, "expires_on": expires})  # fmt: skip
    order = new_order(station, [{"sku": "BTL-STL-750", "quantity": 1}])
    batch = execute(owner, "fulfillment.batches.create", body={"orders": [order.id]})
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, batch.batch_number)
    scan(qtbot, ws, "A-01")
    scan(qtbot, ws, "BTL-STL-750")
    assert ws.batch_wants_lot and "lot code" in ws.banner.text() and "LSOON" in ws.banner.text()
    scan(qtbot, ws, "L-LATE")  # not the proposal, but in this bin: taken
    assert ws.banner.property("tone") == "done" and ws.batch.status == "picked"
    line = execute(owner, "fulfillment.orders.get", id=order.id).lines[0]
    assert [(x.code, x.quantity) for x in line.lots] == [("LLATE", 1)]
