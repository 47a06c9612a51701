"""Batch picking at the packing station by scanner (issue 34 part 5): the batch's walk by bin,
each unit put to its order's slot, a serial where the item is tracked, then packing per order."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.services.fulfillment.fulfillment_helpers import ctx_for
from tests.views.warehouse.drive import answer, key, scan
from views.warehouse.lines import GREEN


def test_a_batch_walked_by_bin_then_packed_per_order(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    staff = ctx_for(station, "owner@demo.test")
    for code in ("B-02", "A-01"):
        execute(staff, "inventory.locations.create", body={"code": code, "name": f"Shelf {code}", "parent_id": "MAIN"})
    execute(staff, "inventory.stock.adjust", body={"sku": "TSH-BLK-M", "location_id": "A-01", "delta": 5})
    execute(staff, "inventory.stock.adjust", body={"sku": "MUG-CER-01", "location_id": "B-02", "delta": 3})
    execute(staff, "inventory.serials.receive", body={"sku": "HDP-USB-C", "location_id": "A-01",
                                                      "serials": ["HP-0009"]})  # fmt: skip

    def order(name: str, lines: dict[str, int]) -> str:
        body = {"customer_name": name, "lines": [{"sku": k, "quantity": q} for k, q in lines.items()]}
        return str(execute(staff, "fulfillment.orders.create", body=body).order_number)

    ann = order("Ann", {"MUG-CER-01": 1, "TSH-BLK-M": 2, "HDP-USB-C": 1})
    bob = order("Bob", {"MUG-CER-01": 2})
    batch = execute(staff, "fulfillment.batches.create", body={"orders": [ann, bob]})
    walk = [(ln.location_code, ln.sku, ln.quantity) for ln in batch.lines]
    assert walk == [("A-01", "HDP-USB-C", 1), ("A-01", "TSH-BLK-M", 2), ("B-02", "MUG-CER-01", 3)]

    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, batch.batch_number.lower())
    assert ws.batch is not None and batch.batch_number in ws.order_title.text()
    assert ws.lines.rowCount() == 3 and ws.lines.item(0, 1).text() == "@ A-01" and "go to A-01" in ws.banner.text()
    scan(qtbot, ws, "TSH-BLK-M")  # no bin scanned yet: the service asks for it, nothing is picked
    assert ws.banner.property("tone") == "error" and ws.batch.picked_units == 0
    scan(qtbot, ws, "A-01")
    assert "At A-01: 1 × " in ws.banner.text() and ", 2 × " in ws.banner.text()  # what to take here
    scan(qtbot, ws, "HDP-USB-C")
    assert "serial number" in ws.banner.text() and ws.batch.picked_units == 0
    scan(qtbot, ws, "hp-0009")
    assert ws.banner.property("tone") == "ok" and "slot 1" in ws.banner.text() and ws.line_colour(0) == GREEN
    for _ in range(2):
        scan(qtbot, ws, "TSH-BLK-M")
    scan(qtbot, ws, "TSH-BLK-M")  # one too many: refused
    assert ws.banner.property("tone") == "error" and ws.batch.picked_units == 3
    scan(qtbot, ws, "B-02")  # a bin named like a batch number is the bin here
    assert ws.batch is not None and "At B-02" in ws.banner.text()
    for _ in range(3):
        scan(qtbot, ws, "MUG-CER-01")
    assert ws.batch.status == "picked" and ws.banner.property("tone") == "done"
    key(qtbot, ws, Qt.Key.Key_F2)  # which order? none scanned yet
    assert ws.banner.property("tone") == "error"
    scan(qtbot, ws, ann)
    assert f"Pack {ann} from slot 1" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F2)
    scan(qtbot, ws, bob)
    key(qtbot, ws, Qt.Key.Key_F1)
    assert ws.batch.status == "packed" and "packed" in ws.banner.text()
    boxes = {n: execute(staff, "fulfillment.orders.get", id=n) for n in (ann, bob)}
    assert {n: (o.status, o.box) for n, o in boxes.items()} == {ann: ("packed", "M"), bob: ("packed", "S")}
    key(qtbot, ws, Qt.Key.Key_Escape)
    assert ws.batch is None
    scan(qtbot, ws, ann)  # outside the batch: the packed order opens, F5 ships it
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order", "CMD-SHIP")  # asks first; CMD-SHIP scanned at the question says yes
    qtbot.waitUntil(lambda: execute(staff, "fulfillment.orders.get", id=ann).status == "shipped", timeout=30_000)
