"""The warehouse workspace driven like a packer does: scanner bursts ending in Enter, hotkeys, command barcodes."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot
from sqlalchemy import func, select

from local_db.models import OutboxEntry
from services.core.commands import execute
from services.core.context import Runtime
from services.fulfillment.demo import product_barcode
from tests.services.fulfillment.fulfillment_helpers import ctx_for, order_in, pick_all
from tests.views.german import app_language
from tests.views.warehouse.drive import answer, key, scan
from tests.views.workspaces import session_for, settle
from views.base import StationSession
from views.shell.scan_input import ScanInput
from views.warehouse.lines import GREEN, RED, YELLOW
from views.warehouse.workspace import WORKSPACE


def _session(rt: Runtime, email: str) -> StationSession:
    return session_for(rt, email)


_settle = settle


def test_workspace_declaration(station: Runtime) -> None:
    assert WORKSPACE.name == "warehouse" and WORKSPACE.modules == frozenset({"fulfillment"})
    assert WORKSPACE.available_to(_session(station, "device@demo.test"))
    assert not WORKSPACE.available_to(_session(station, "operator@demo.test"))


def test_a_whole_order_from_scan_to_label(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    assert ws.scan_input.hasFocus()
    order = order_in(station, "pending", skip=1)  # a two-line order with a quantity of 2
    scan(qtbot, ws, order.order_number)
    assert ws.order.id == order.id and order.order_number in ws.order_title.text()
    assert ws.banner.property("tone") == "info"
    for ln in ws.order.lines:
        row = ws.line_row(ln.id)
        for n in range(1, ln.quantity + 1):
            scan(qtbot, ws, ln.barcode)
            assert ws.lines.item(row, 3).text() == f"{n} / {ln.quantity}"
            assert ws.line_colour(row) == (GREEN if n == ln.quantity else YELLOW)
    assert ws.order.status == "picked" and ws.banner.property("tone") == "done"
    assert "All items verified" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F2)
    assert ws.order.status == "packed" and ws.order.box == "M"
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order", yes=False)  # F5 asks first: No keeps it packed, and says so
    assert execute(ctx_for(station, "owner@demo.test"), "fulfillment.orders.get", id=order.id).status == "packed"
    assert "not shipped" in ws.banner.text() and "kept" in ws.history.item(0).text()
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order")
    qtbot.waitUntil(lambda: bool(ws.printed), timeout=30_000)
    _settle(qtbot, ws)
    shipped = execute(ctx_for(station, "owner@demo.test"), "fulfillment.orders.get", id=order.id)
    assert shipped.status == "shipped" and shipped.tracking_number in ws.tracking.text()
    assert f"Shipped {order.order_number} ({shipped.tracking_number})" in ws.banner.text()
    # Offscreen there is no printer: the PDF label is saved and the packer is told where.
    saved = Path(ws.printed[-1])
    assert saved.read_bytes().startswith(b"%PDF") and "saved to" in ws.print_status.text()
    assert not ws.preview.pixmap().isNull()
    # The next pending order opened; the shift's history shows the scanner bursts.
    assert ws.order is not None and ws.order.id != order.id and ws.order.status == "pending"
    history = [ws.history.item(i).text() for i in range(ws.history.count())]
    assert any(str(shipped.lines[0].barcode) in t for t in history) and not any("[" in t for t in history)
    assert any("F5 ship" in t for t in history) and any(f"opened {ws.order.order_number}" in t for t in history)
    with station.db.reading(None) as s:
        outbox = s.execute(select(func.count()).select_from(OutboxEntry)).scalar_one()
    assert outbox == sum(ln.quantity for ln in shipped.lines) + 2  # one per scan, pack and ship


def test_wrong_items_flash_red_and_say_why(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    order = order_in(station, "pending")  # one line, quantity 1
    scan(qtbot, ws, order.pick_barcode)
    assert ws.order.id == order.id
    scan(qtbot, ws, "4006381333931")
    assert ws.banner.property("tone") == "error" and "Unknown barcode 4006381333931" in ws.banner.text()
    mine = {ln.barcode for ln in ws.order.lines}
    foreign = next(product_barcode(i) for i in range(10) if product_barcode(i) not in mine)
    scan(qtbot, ws, foreign)
    assert ws.banner.property("tone") == "error" and f"not on order {order.order_number}" in ws.banner.text()
    line = ws.order.lines[0]
    for _ in range(line.quantity):
        scan(qtbot, ws, line.barcode)
    scan(qtbot, ws, line.barcode)  # one too many
    assert ws.banner.property("tone") == "error" and "One too many" in ws.banner.text()
    assert ws.line_colour(ws.line_row(line.id)) == RED
    assert ws.scan_input.hasFocus()


def test_packing_before_every_item_is_scanned_is_refused(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    key(qtbot, ws, Qt.Key.Key_F1)
    assert ws.banner.property("tone") == "error" and "Open an order" in ws.banner.text()
    order = order_in(station, "pending", skip=1)
    scan(qtbot, ws, order.order_number)
    scan(qtbot, ws, ws.order.lines[0].barcode)
    key(qtbot, ws, Qt.Key.Key_F1)
    total = sum(ln.quantity for ln in ws.order.lines)
    assert ws.banner.text() == f"Scan every item first: 1 of {total} verified"
    assert ws.order.status == "pending"


def test_the_device_user_cannot_cancel(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    assert ws.buttons["cancel"].isHidden()
    order = order_in(station, "pending")
    scan(qtbot, ws, order.order_number)
    scan(qtbot, ws, "CMD-CANCEL")
    assert ws.banner.property("tone") == "error" and "not cancel" in ws.banner.text()
    assert execute(ctx_for(station, "owner@demo.test"), "fulfillment.orders.get", id=order.id).status == "pending"


def test_a_supervisor_cancels_and_command_barcodes_pack_and_ship(
    make_ws: object, station: Runtime, qtbot: QtBot
) -> None:
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    assert not ws.buttons["cancel"].isHidden()
    victim = order_in(station, "pending", skip=3)
    scan(qtbot, ws, victim.order_number)
    ws.buttons["cancel"].click()
    answer(qtbot, ws, "cancel-order", "CMD-CANCEL")  # the button asks too; CMD-CANCEL scanned says yes
    assert ws.order.status == "cancelled"
    assert any("confirmed by scanning again" in ws.history.item(i).text() for i in range(ws.history.count()))
    picked = order_in(station, "picked")
    scan(qtbot, ws, picked.pick_barcode)
    scan(qtbot, ws, "BOX-S")
    assert ws.order.status == "packed" and ws.order.box == "S"
    scan(qtbot, ws, "CMD-SHIP")
    answer(qtbot, ws, "ship-order", "CMD-SHIP")  # the command scanned twice: asked, then yes
    qtbot.waitUntil(lambda: bool(ws.printed), timeout=30_000)
    assert ws.last_label is not None and ws.last_label[1] in ws.tracking.text()
    scan(qtbot, ws, "CMD-PRINT")  # print again
    qtbot.waitUntil(lambda: len(ws.printed) == 2, timeout=30_000)


def test_zpl_goes_raw_to_the_configured_printer(
    make_ws: object, station: Runtime, qtbot: QtBot, tmp_path: Path
) -> None:
    device = ctx_for(station, "device@demo.test")
    target = tmp_path / "lp0"
    execute(ctx_for(station, "owner@demo.test"), "fulfillment.settings.device.put",
            body={"label_format": "zpl", "printer": str(target)}, query={"device": device.principal.id})  # fmt: skip
    ws = make_ws()  # type: ignore[operator]
    order = order_in(station, "packed")
    scan(qtbot, ws, order.order_number)
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "ship-order", order.order_number)
    qtbot.waitUntil(lambda: target.exists() and b"^XZ" in target.read_bytes(), timeout=30_000)
    assert "ZPL sent to" in ws.print_status.text()


def test_queue_counts_filter_and_opening(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    qtbot.waitUntil(lambda: ws.queue.rowCount() == 14, timeout=30_000)
    assert ws.status_filter.itemText(0) == "Pending (14)"
    ws.status_filter.setCurrentIndex(ws.status_filter.findData("all"))
    qtbot.waitUntil(lambda: ws.queue.rowCount() >= 25, timeout=30_000)
    assert {r.status for r in ws.queue.rows} >= {"pending", "shipped", "cancelled"}
    first = ws.queue.index(0, 0)
    ws.queue_view.doubleClicked.emit(first)
    _settle(qtbot, ws)
    assert ws.order is not None and ws.order.order_number == ws.queue.data(first)
    # Another view's write refreshes the counts.
    pick_all(ctx_for(station, "owner@demo.test"), order_in(station, "pending").id)
    ws.session.ops.did_change.emit("sync.pulled")
    qtbot.waitUntil(lambda: ws.status_filter.itemText(0) == "Pending (13)", timeout=30_000)


def test_scanner_bursts_are_told_from_typing(qtbot: QtBot) -> None:
    box = ScanInput()
    qtbot.addWidget(box)
    got: list[tuple[str, str]] = []
    box.scanned.connect(lambda code, source: got.append((code, source)))
    qtbot.keyClicks(box, "2000000000015")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.keyClicks(box, "SO-1", delay=80)
    qtbot.keyClick(box, Qt.Key.Key_Return)
    box.suffix = "tab"
    qtbot.keyClicks(box, "ABC")
    qtbot.keyClick(box, Qt.Key.Key_Tab)
    assert got == [("2000000000015", "scanner"), ("SO-1", "keyboard"), ("ABC", "scanner")]
    keys: list[int] = []
    box.hotkey.connect(keys.append)
    qtbot.keyClick(box, Qt.Key.Key_F3)
    assert keys == [int(Qt.Key.Key_F3)] and box.text() == ""


def test_manual_entry_and_unknown_order(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, "SO-424242")
    assert ws.banner.property("tone") == "error" and "No order or item SO-424242" in ws.banner.text()
    order = order_in(station, "pending")
    qtbot.keyClicks(ws.manual_input, order.order_number)
    qtbot.keyClick(ws.manual_input, Qt.Key.Key_Return)
    _settle(qtbot, ws)
    assert ws.order.id == order.id and "(typed)" in ws.history.item(0).text()
    key(qtbot, ws, Qt.Key.Key_Escape)
    assert ws.order is None


def test_f5_before_packing_says_pack_first_without_blame(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    """Issue 32, defect 7: F5 on a picked order said "Someone or something changed it meanwhile";
    nobody did: the packer is told to pack first, and the order stays picked."""
    ws = make_ws()  # type: ignore[operator]
    order = order_in(station, "pending", skip=1)
    scan(qtbot, ws, order.order_number)
    for ln in ws.order.lines:
        for _ in range(ln.quantity):
            scan(qtbot, ws, ln.barcode)
    assert ws.order.status == "picked"
    key(qtbot, ws, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: "Pack it first" in ws.banner.text(), timeout=30_000)
    _settle(qtbot, ws)
    assert "meanwhile" not in ws.banner.text() and ws.banner.property("tone") == "error"
    assert execute(ctx_for(station, "owner@demo.test"), "fulfillment.orders.get", id=order.id).status == "picked"


def test_the_scanned_items_count_is_german(make_ws: object, station: Runtime, qtbot: QtBot, qapp: object) -> None:
    """The walk of issue 32 in German read "SKU TSH-BLK-M · 1 of 1 scanned" under the item's name."""

    with app_language("de"):
        ws = make_ws()  # type: ignore[operator]
        order = order_in(station, "pending")
        scan(qtbot, ws, order.order_number)
        scan(qtbot, ws, ws.order.lines[0].barcode)
        detail = ws.product.detail.text()
        assert "1 von" in detail and "scanned" not in detail, detail
