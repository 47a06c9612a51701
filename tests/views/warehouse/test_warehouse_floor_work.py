"""Issue 34 part 5 at the packing station, driven by scans and keys: the product's full name and
picture on scan, serial numbers, a partial shipment that asks first, and returns received by scan
into stock or quarantine."""

from __future__ import annotations

import io
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.files import Upload
from services.inventory.demo import location_id
from tests.services.fulfillment.fulfillment_helpers import ctx_for, op
from tests.views.german import german
from tests.views.warehouse.drive import answer, key, scan
from tests.views.workspaces import settle
from views.warehouse.lines import GREEN, YELLOW

ADDRESS = {"name": "Ada Lovelace", "address1": "12 St James's Square", "city": "London", "zip": "SW1Y 4JH",
           "country": "GB"}  # fmt: skip


def new_order(rt: Runtime, lines: list[dict[str, object]]) -> Any:
    body = {"customer_name": "Ada Lovelace", "shipping_address": ADDRESS, "lines": lines}
    return execute(ctx_for(rt, "owner@demo.test"), "fulfillment.orders.create", body=body)


def png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (120, 90), (20, 40, 120)).save(out, "PNG")
    return out.getvalue()


def test_a_scan_shows_the_full_name_and_the_picture(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    long_name = "Gel pen blue, 0.7 mm, in a pack of ten with refills and a clip for the notebook"
    order = new_order(station, [{"sku": "CAP-NVY", "quantity": 1},
                                {"sku": "PEN-GEL-BLU", "quantity": 1, "name": long_name}])  # fmt: skip
    execute(owner, "catalog.products.image.put", id="CAP-NVY", upload=Upload("c.png", "image/png", png()))
    # A station user with the catalogue module sees pictures (the demo device has fulfillment only).
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, order.order_number)
    assert ws.product.sku is None and ws.product.name.text() == ""  # nothing scanned yet
    scan(qtbot, ws, "CAP-NVY")
    assert ws.product.isVisible() and ws.product.sku == "CAP-NVY"
    assert ws.product.has_picture and not ws.product.picture.pixmap().isNull()
    pen = next(ln for ln in ws.order.lines if ln.sku == "PEN-GEL-BLU")
    scan(qtbot, ws, "PEN-GEL-BLU")
    # The whole name, wrapped; no picture in the catalogue: the placeholder, never an error.
    assert ws.product.name.text() == pen.name == long_name and ws.product.name.wordWrap()
    assert not ws.product.has_picture and not ws.product.picture.pixmap().isNull()
    assert ws.banner.property("tone") == "done"
    key(qtbot, ws, Qt.Key.Key_Escape)
    assert ws.product.sku is None and ws.product.picture.pixmap().isNull()
    # Without the catalogue module: the full name and the placeholder, no error.
    other = new_order(station, [{"sku": "CAP-NVY", "quantity": 2}])
    device = make_ws()  # type: ignore[operator]
    scan(qtbot, device, other.order_number)
    scan(qtbot, device, "CAP-NVY")
    assert device.product.sku == "CAP-NVY" and not device.product.has_picture
    assert not device.product.picture.pixmap().isNull()  # the placeholder
    assert device.banner.property("tone") == "ok"


def test_serials_are_asked_and_checked(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    main = location_id("demo", "MAIN")
    execute(owner, "inventory.serials.receive", body={"sku": "HDP-USB-C", "location_id": main,
                                                      "serials": ["HP-0001", "HP-0002"]})  # fmt: skip
    order = new_order(station, [{"sku": "HDP-USB-C", "quantity": 2}, {"sku": "MUG-CER-01", "quantity": 1}])
    ws = make_ws("owner@demo.test")  # type: ignore[operator]  # the inventory module: serials
    scan(qtbot, ws, order.order_number)
    scan(qtbot, ws, "HDP-USB-C")
    assert ws.want_serial is not None and "serial number" in ws.banner.text()
    scan(qtbot, ws, "MUG-CER-01")  # not a serial: refused, the mug is not counted
    assert ws.banner.property("tone") == "error" and ws.want_serial is not None
    assert next(ln for ln in ws.order.lines if ln.sku == "MUG-CER-01").picked_quantity == 0
    scan(qtbot, ws, "hp-0001")  # as printed on the box: case and dashes do not count
    assert ws.want_serial is None and [s.serial for s in ws.serials[order.id]] == ["HP0001"]
    scan(qtbot, ws, "HDP-USB-C")
    scan(qtbot, ws, "HP-0001")  # the same unit twice
    assert ws.banner.property("tone") == "error" and "already" in ws.banner.text()
    scan(qtbot, ws, "HP-0002")
    assert ws.want_serial is None and len(ws.serials[order.id]) == 2
    scan(qtbot, ws, "MUG-CER-01")  # the mug has no serials: no question
    assert ws.want_serial is None and ws.order.status == "picked" and ws.banner.property("tone") == "done"


def test_a_partial_shipment_asks_first_then_backorders_the_rest(
    make_ws: object, station: Runtime, qtbot: QtBot
) -> None:
    owner = ctx_for(station, "owner@demo.test")
    order = new_order(station, [{"sku": "MUG-CER-01", "quantity": 2}, {"sku": "BAG-TOTE", "quantity": 1}])
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, order.order_number)
    key(qtbot, ws, Qt.Key.Key_F7)  # nothing scanned: nothing to ship, no question
    assert ws.banner.property("tone") == "error" and ws.findChild(QMessageBox, "ship-partly") is None
    scan(qtbot, ws, "MUG-CER-01")
    key(qtbot, ws, Qt.Key.Key_F7)
    box = ws.findChild(QMessageBox, "ship-partly")
    assert box is not None and box.isVisible() and box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.No).click()
    settle(qtbot, ws)
    kept = execute(owner, "fulfillment.orders.get", id=order.id)
    assert kept.status == "pending" and sum(ln.quantity for ln in kept.lines) == 3  # No split nothing
    key(qtbot, ws, Qt.Key.Key_F7)
    answer(qtbot, ws, "ship-partly", press=Qt.Key.Key_Escape)  # Esc keeps it whole too
    assert execute(owner, "fulfillment.orders.get", id=order.id).status == "pending"
    assert "stays whole" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F7)
    assert ws.partly_box.isVisible()
    answer(qtbot, ws, "ship-partly", press=Qt.Key.Key_F7)  # F7 again: yes
    split = execute(owner, "fulfillment.orders.get", id=order.id)
    assert split.status == "picked" and [(ln.sku, ln.quantity) for ln in split.lines] == [("MUG-CER-01", 1)]
    assert ws.order.status == "picked" and ws.line_colour(0) == GREEN
    found = re.search(r"backorder (SO-\d+)", ws.banner.text())
    assert found is not None and ws.banner.property("tone") == "done"
    back = execute(owner, "fulfillment.orders.get", id=found.group(1))
    assert back.status == "pending" and sorted((ln.sku, ln.quantity) for ln in back.lines) == [
        ("BAG-TOTE", 1),
        ("MUG-CER-01", 1),
    ]


def test_returns_are_received_by_scan_into_stock_or_quarantine(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    order = new_order(station, [{"sku": "BTL-STL-750", "quantity": 2}])
    op(owner, order.id, operation="pick", items=[{"code": "BTL-STL-750", "quantity": 2}])
    op(owner, order.id, operation="pack", box="M")
    op(owner, order.id, operation="ship")
    rma = execute(owner, "fulfillment.returns.create", id=order.id,
                  body={"lines": [{"sku": "BTL-STL-750", "quantity": 2}], "reason": "dented"})  # fmt: skip

    def on_hand(code: str) -> int:
        page = execute(owner, "inventory.stock.list", query={"location_id": code, "sku": "BTL-STL-750"})
        return sum(r.quantity for r in page.items)

    main_before = on_hand("MAIN")
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, rma.rma_number.lower())
    assert ws.rma is not None and rma.rma_number in ws.order_title.text()
    scan(qtbot, ws, "NTB-A5-DOT")  # not on the return: refused, nothing received
    assert ws.banner.property("tone") == "error" and ws.rma is None
    scan(qtbot, ws, rma.rma_number)
    scan(qtbot, ws, "BTL-STL-750")  # resellable: back into stock
    assert ws.lines.item(0, 3).text() == "1 / 2" and ws.line_colour(0) == YELLOW
    key(qtbot, ws, Qt.Key.Key_F9)  # the next one is damaged
    assert "DAMAGED" in ws.banner.text()
    scan(qtbot, ws, "BTL-STL-750")
    assert ws.lines.item(0, 3).text() == "2 / 2" and ws.banner.property("tone") == "done"
    got = execute(owner, "fulfillment.returns.get", id=rma.id)
    assert got.status == "received" and got.lines[0]["received"] == {"resellable": 1, "damaged": 1}
    assert on_hand("MAIN") == main_before + 1
    quarantine = execute(owner, "inventory.locations.list", query={"kind": "quarantine"}).items[0]
    assert on_hand(quarantine.code) == 1
    scan(qtbot, ws, "BTL-STL-750")  # one more than authorised: refused, nothing moves
    assert ws.banner.property("tone") == "error" and on_hand("MAIN") == main_before + 1


def test_a_lot_tracked_item_asks_its_lot(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    for sku in ("BTL-STL-750", "NTB-A5-DOT"):
        execute(owner, "inventory.items.update", id=sku, body={"tracking": "lot"})
    execute(owner, "inventory.lots.receive", body={"sku": "BTL-STL-750", "code": "L2026-11",
                                                   "location_id": "MAIN", "quantity": 4})  # fmt: skip
    execute(owner, "inventory.lots.receive", body={"sku": "NTB-A5-DOT", "code": "NB-7", "location_id": "MAIN",
                                                   "quantity": 1})  # fmt: skip
    order = new_order(station, [{"sku": "BTL-STL-750", "quantity": 1}])
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, order.order_number)
    scan(qtbot, ws, "BTL-STL-750")
    assert ws.want_lot and "lot code" in ws.banner.text()
    scan(qtbot, ws, "NB-7")  # another item's lot: refused, still asked
    assert ws.banner.property("tone") == "error" and ws.want_lot
    scan(qtbot, ws, "NO-SUCH-LOT")
    assert ws.banner.property("tone") == "error" and ws.want_lot
    scan(qtbot, ws, "l2026-11")
    assert (
        not ws.want_lot and ws.want_serial is None and ws.lots[order.id] == [("BTL-STL-750", "L202611")]
    )  # as Inventory stores it
    assert ws.banner.property("tone") == "done"


def test_a_transfer_slip_opens_on_scan_and_asks_before_it_ships(
    make_ws: object, station: Runtime, qtbot: QtBot
) -> None:
    """Issue 34 part 5 / issue 32 defect 11 at the packing station: a slip's code opens the transfer;
    shipping it asks first, and the slip scanned at the question answers yes."""
    from services.core.demo import demo_id
    from views.stockcount.slip import slip_code

    owner = ctx_for(station, "owner@demo.test")
    draft = demo_id("inventory-transfer", "demo", "2")  # MAIN -> STORE: 4 caps, 10 notebooks
    code = slip_code(draft)
    device = make_ws()  # type: ignore[operator]
    scan(qtbot, device, code)  # the demo device has no Inventory: told where transfers are handled
    assert device.banner.property("tone") == "error" and "Stock count" in device.banner.text()
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, code.lower())
    assert ws.transfer is not None and code in ws.order_title.text() and "MAIN → STORE" in ws.order_title.text()
    assert ws.order_title.text().endswith("· DRAFT")
    with german("records", "warehouse"):  # its state in the person's language (German read "DRAFT")
        ws.show_transfer(ws.transfer)
        assert ws.order_title.text() == f"Umlagerung {code} · MAIN → STORE · ENTWURF"
    ws.show_transfer(ws.transfer)
    assert ws.lines.rowCount() == 2 and "scan the slip again to ship" in ws.banner.text()
    scan(qtbot, ws, code)
    box = ws.findChild(QMessageBox, "move-transfer")
    assert box is not None and box.isVisible() and box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.No).click()
    settle(qtbot, ws)
    assert execute(owner, "inventory.transfers.get", id=draft).status == "draft"
    scan(qtbot, ws, code)
    box = ws.transfer_box
    qtbot.waitUntil(box.isVisible)
    focus = box.focusWidget() or box
    qtbot.keyClicks(focus, code)  # the slip scanned at the question: yes
    qtbot.keyClick(focus, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: execute(owner, "inventory.transfers.get", id=draft).status == "in_transit", timeout=30_000)
    settle(qtbot, ws)
    assert ws.banner.property("tone") == "done" and "shipped" in ws.banner.text()
