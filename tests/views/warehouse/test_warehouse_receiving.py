"""Purchase orders at the desk (issue 34 part 5): a PO number opens the order, item scans count its
lines (a lot with its expiry, a serial a unit), F5 asks and receives what was scanned; an unknown
PO, an item not on it, more than ordered and a cancelled PO are refused in words, nothing stored."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from tests.services.fulfillment.fulfillment_helpers import ctx_for
from tests.views.warehouse.drive import answer, key, scan
from tests.views.workspaces import settle


def _po(rt: Runtime, lines: dict[str, int], send: bool = True) -> Any:
    owner = ctx_for(rt, "owner@demo.test")
    body = {"supplier": "ACME", "location_id": "MAIN", "lines": [{"sku": k, "quantity": q} for k, q in lines.items()]}
    po = execute(owner, "inventory.purchase_orders.create", body=body)
    if send:
        po = execute(owner, "inventory.purchase_orders.update", id=po.id, body={"status": "sent"})
    return po


def _received(rt: Runtime, number: str) -> tuple[str, dict[str, int]]:
    po = execute(ctx_for(rt, "owner@demo.test"), "inventory.purchase_orders.get", id=number)
    return po.status, {ln.sku: ln.received for ln in po.lines}


def test_a_purchase_order_received_by_scan(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    for sku, tracking, barcode in (
        ("SYRUP-1", "lot", None),
        ("DRILL-1", "serial", None),
        ("RAG-1", "none", "4000000000097"),
    ):
        execute(owner, "inventory.items.create", body={"sku": sku, "name": f"Item {sku}", "tracking": tracking,
                                                       **({"barcode": barcode} if barcode else {})})  # fmt: skip
    po = _po(station, {"SYRUP-1": 6, "DRILL-1": 2, "RAG-1": 5})
    device = make_ws()  # type: ignore[operator]
    scan(qtbot, device, po.number)  # the demo device has no Inventory: told so, nothing opens
    assert device.po is None and "user with Inventory" in device.banner.text()

    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, "PO-99999")
    assert ws.po is None and ws.banner.property("tone") == "error" and "No purchase order PO-99999" in ws.banner.text()
    scan(qtbot, ws, po.number.lower())
    assert ws.po is not None and po.number in ws.order_title.text() and "SENT" in ws.order_title.text()
    assert ws.lines.rowCount() == 3 and "ordered 6 · received 0 · open 6" in ws.lines.item(0, 1).text()
    scan(qtbot, ws, "MUG-CER-01")  # a demo item, not on this order
    assert ws.banner.property("tone") == "error" and f"is not on {po.number}" in ws.banner.text()

    qtbot.keyClicks(ws.scan_input, "4*")
    scan(qtbot, ws, "4000000000097")  # RAG-1 by its barcode
    assert ws.lines.item(2, 3).text() == "+4 → 4 / 5" and ws.banner.property("tone") == "ok"
    qtbot.keyClicks(ws.scan_input, "2*")
    scan(qtbot, ws, "SYRUP-1")
    assert "lot code" in ws.banner.text()
    scan(qtbot, ws, "l-27 01")
    assert "expiry" in ws.banner.text()
    scan(qtbot, ws, "31/01/2027")  # not a date it reads: asked again
    assert ws.banner.property("tone") == "error" and ws.po_wait is not None
    scan(qtbot, ws, "2027-01-31")
    scan(qtbot, ws, "DRILL-1")
    assert "serial number" in ws.banner.text()
    scan(qtbot, ws, "d-1")
    assert ws.po_wait is None and len(ws.po_scans) == 3
    assert _received(station, po.number) == ("sent", {"SYRUP-1": 0, "DRILL-1": 0, "RAG-1": 0})  # nothing yet

    key(qtbot, ws, Qt.Key.Key_F5)  # asks first; No keeps the scans
    answer(qtbot, ws, "receive-po", yes=False)
    assert len(ws.po_scans) == 3 and _received(station, po.number)[0] == "sent"
    scan(qtbot, ws, po.number)  # the number again asks too; scanned at the question it says yes
    answer(qtbot, ws, "receive-po", po.number)
    assert _received(station, po.number) == ("partially_received", {"SYRUP-1": 2, "DRILL-1": 1, "RAG-1": 4})
    assert ws.banner.property("tone") == "done" and "6 still open" in ws.banner.text() and not ws.po_scans
    lot = execute(owner, "inventory.lots.get", id="L2701")
    assert (lot.sku, lot.on_hand, str(lot.expires_on)) == ("SYRUP-1", 2, "2027-01-31")
    assert execute(owner, "inventory.serials.get", id="D-1").status == "in_stock"

    # Over-receipt: 4 of 5 in, 2 more scanned; the service's 409 is said in words, nothing moves.
    qtbot.keyClicks(ws.scan_input, "2*")
    scan(qtbot, ws, "RAG-1")
    assert ws.banner.property("tone") == "error" and "more than ordered" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "receive-po")
    assert (
        "More than ordered" in ws.banner.text()
        and "RAG-1 ordered 5, received 4 before, 2 scanned now" in ws.banner.text()
    )
    assert _received(station, po.number)[1]["RAG-1"] == 4
    qtbot.keyClick(ws.scan_input, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z: the 2 taken back
    settle(qtbot, ws)
    assert not ws.po_scans and "Undone" in ws.banner.text()
    scan(qtbot, ws, "RAG-1")
    key(qtbot, ws, Qt.Key.Key_F5)
    box = ws.asking
    qtbot.keyClick(box.focusWidget() or box, Qt.Key.Key_F5)  # F5 again at the question: yes, logged
    qtbot.waitUntil(lambda: _received(station, po.number)[1]["RAG-1"] == 5, timeout=30_000)
    settle(qtbot, ws)
    assert any("confirmed by pressing it again" in ws.history.item(i).text() for i in range(ws.history.count()))
    key(qtbot, ws, Qt.Key.Key_Escape)
    assert ws.po is None


def test_a_cancelled_or_draft_purchase_order_takes_no_scan(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    owner = ctx_for(station, "owner@demo.test")
    execute(owner, "inventory.items.create", body={"sku": "RAG-2", "name": "Rag"})
    gone, draft = _po(station, {"RAG-2": 3}), _po(station, {"RAG-2": 1}, send=False)
    execute(owner, "inventory.purchase_orders.update", id=gone.id, body={"status": "cancelled"})
    ws = make_ws("owner@demo.test")  # type: ignore[operator]
    scan(qtbot, ws, gone.number)
    assert ws.po is not None and "is cancelled: nothing to receive" in ws.banner.text()
    scan(qtbot, ws, "RAG-2")
    assert ws.banner.property("tone") == "error" and not ws.po_scans
    key(qtbot, ws, Qt.Key.Key_F5)  # nothing scanned: nothing to ask
    assert getattr(ws, "asking", None) is None and "Nothing to receive" in ws.banner.text()
    scan(qtbot, ws, draft.number)
    assert "is a draft" in ws.banner.text()
    assert _received(station, gone.number) == ("cancelled", {"RAG-2": 0})
    assert _received(station, draft.number) == ("draft", {"RAG-2": 0})
