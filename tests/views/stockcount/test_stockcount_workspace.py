"""The stock-count workspace driven like a counter does: scanner bursts ending in Enter, the quantity key, hotkeys."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, Qt
from pytestqt.qtbot import QtBot

from services.core.commands import execute
from services.core.context import Runtime
from services.core.demo import demo_id
from services.fulfillment.demo import product_barcode
from tests.services.fulfillment.fulfillment_helpers import ctx_for
from tests.views.warehouse.drive import answer, key, scan
from tests.views.workspaces import hold_answers, session_for, settle, workspace_factory
from views import i18n
from views.stockcount.workspace import WORKSPACE
from views.warehouse.lines import GREEN, RED, WHITE, YELLOW

MAIN = demo_id("inventory-location", "demo", "MAIN")
STORE = demo_id("inventory-location", "demo", "STORE")
MUG = product_barcode(2)  # MUG-CER-01: 60 on the book at MAIN
CAP = product_barcode(3)  # CAP-NVY: 18


@pytest.fixture
def make_ws(station: Runtime, qtbot: QtBot) -> Iterator[object]:
    yield from workspace_factory(station, qtbot, WORKSPACE, "operator@demo.test", (1400, 900))


def _book(station: Runtime, sku: str, loc: str) -> int:
    page = execute(ctx_for(station, "owner@demo.test"), "inventory.stock.list", query={"location_id": loc, "sku": sku})
    return int(page.items[0].quantity) if page.items else 0


def test_workspace_declaration(station: Runtime) -> None:
    assert WORKSPACE.name == "stockcount" and WORKSPACE.modules == frozenset({"inventory"})
    assert WORKSPACE.available_to(session_for(station, "operator@demo.test"))
    assert not WORKSPACE.available_to(session_for(station, "device@demo.test"))  # fulfillment only


def test_count_a_shelf_see_the_difference_then_post(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    assert ws.scan_input.hasFocus()
    scan(qtbot, ws, MUG)  # no location yet
    assert ws.banner.property("tone") == "error" and "scan a location first" in ws.banner.text()
    scan(qtbot, ws, "main")
    assert ws.location.id == MAIN and "MAIN" in ws.location_title.text()
    row = ws.row_of("MUG-CER-01")
    assert ws.table.item(row, 3).text() == "60" and ws.row_colour(row) == WHITE
    # The quantity key: 58* then one scan counts 58; one more scan counts 1.
    scan(qtbot, ws, "58*")
    assert ws.multiplier == 58 and "58" in ws.multiplier_label.text()
    scan(qtbot, ws, MUG)
    scan(qtbot, ws, MUG)
    assert ws.table.item(row, 4).text() == "59" and ws.table.item(row, 5).text() == "-1"
    assert ws.row_colour(row) == RED and ws.multiplier == 1
    # Scanned by SKU too, and one exactly at the book.
    scan(qtbot, ws, "18*")
    scan(qtbot, ws, "CAP-NVY")
    cap = ws.row_of("CAP-NVY")
    assert ws.table.item(cap, 5).text() == "+0" and ws.row_colour(cap) == GREEN
    assert "2 of 10 items counted · 1 differ" in ws.summary.text()
    # Nothing is posted before F5: the book is unchanged.
    assert _book(station, "MUG-CER-01", MAIN) == 60
    scan(qtbot, ws, "4000000000006")
    assert ws.banner.property("tone") == "error" and "Unknown barcode" in ws.banner.text()
    key(qtbot, ws, Qt.Key.Key_F5)  # asks first (issue 34 part 5): No posts nothing
    answer(qtbot, ws, "post-count", press=Qt.Key.Key_Escape)  # Esc: no
    assert _book(station, "MUG-CER-01", MAIN) == 60 and "kept" in ws.history.item(0).text()
    key(qtbot, ws, Qt.Key.Key_F5)
    box = ws.asking
    qtbot.keyClick(box.focusWidget() or box, Qt.Key.Key_F5)  # F5 again: yes
    qtbot.waitUntil(lambda: ws.banner.property("tone") == "done", timeout=30_000)
    settle(qtbot, ws)
    assert "posted: 2 items, 1 adjusted" in ws.banner.text()
    assert _book(station, "MUG-CER-01", MAIN) == 59 and _book(station, "CAP-NVY", MAIN) == 18
    assert ws.table.item(ws.row_of("MUG-CER-01"), 3).text() == "59"
    moves = execute(
        ctx_for(station, "owner@demo.test"), "inventory.movements.list", query={"sku": "MUG-CER-01", "kind": "count"}
    )
    assert [(m.quantity, m.from_location_id) for m in moves.items] == [(1, MAIN)]


def test_dropping_a_count_posts_nothing(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, "STORE")
    assert ws.row_of("CAP-NVY") >= 0  # a row with 0 on the book is listed too
    scan(qtbot, ws, "3*")
    scan(qtbot, ws, CAP)
    cap = ws.row_of("CAP-NVY")
    assert ws.table.item(cap, 5).text() == "+3" and ws.row_colour(cap) == YELLOW
    key(qtbot, ws, Qt.Key.Key_Escape)
    assert ws.table.item(ws.row_of("CAP-NVY"), 4).text() == "" and "nothing was posted" in ws.banner.text()
    assert _book(station, "CAP-NVY", STORE) == 0


def test_transfers_shipped_and_received_by_scanning(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    ws = make_ws()  # type: ignore[operator]
    draft = demo_id("inventory-transfer", "demo", "2")  # MAIN -> STORE: 4 caps, 10 notebooks
    in_transit = demo_id("inventory-transfer", "demo", "1")  # MAIN -> STORE: 5 mugs
    scan(qtbot, ws, "MAIN")
    assert [t.id for t in ws.transfers] == [draft]
    scan(qtbot, ws, draft)  # the id printed on the transfer slip: asks, and scanned again says yes
    assert _book(station, "CAP-NVY", MAIN) == 18
    answer(qtbot, ws, "ship-transfer", draft)
    qtbot.waitUntil(lambda: "shipped" in ws.banner.text(), timeout=30_000)
    assert ws.banner.property("tone") == "done" and "shipped" in ws.banner.text()
    assert _book(station, "CAP-NVY", MAIN) == 14
    scan(qtbot, ws, "STORE")
    assert {t.id for t in ws.transfers} == {draft, in_transit}
    scan(qtbot, ws, in_transit)
    answer(qtbot, ws, "receive-transfer", in_transit)
    qtbot.waitUntil(lambda: "received" in ws.banner.text(), timeout=30_000)
    assert "received" in ws.banner.text() and _book(station, "MUG-CER-01", STORE) == 15
    # F7 receives the one still selected in the list.
    assert [t.id for t in ws.transfers] == [draft]
    key(qtbot, ws, Qt.Key.Key_F7)
    answer(qtbot, ws, "receive-transfer", press=Qt.Key.Key_F7)  # F7 again: yes
    qtbot.waitUntil(lambda: "received" in ws.banner.text(), timeout=30_000)
    assert "received" in ws.banner.text() and _book(station, "CAP-NVY", STORE) == 4
    assert not ws.transfers and ws.transfer_list.count() == 0
    key(qtbot, ws, Qt.Key.Key_F6)
    assert ws.banner.property("tone") == "error"


def test_a_transfer_goes_by_its_slip_code_and_f6_asks_first(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    """Issue 32, defect 11: the list said "transfer 5f570155" and scanning that was "Unknown
    barcode"; F6 shipped a transfer without asking."""
    from PySide6.QtWidgets import QMessageBox

    from views.stockcount.workspace import slip_code

    ws = make_ws()  # type: ignore[operator]
    draft = demo_id("inventory-transfer", "demo", "2")  # MAIN -> STORE: 4 caps, 10 notebooks
    in_transit = demo_id("inventory-transfer", "demo", "1")  # MAIN -> STORE: 5 mugs
    scan(qtbot, ws, "MAIN")
    assert slip_code(draft) in ws.transfer_list.item(0).text()
    key(qtbot, ws, Qt.Key.Key_F6)
    box = ws.findChild(QMessageBox, "ship-transfer")
    assert box is not None and box.isVisible() and slip_code(draft) in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.No)
    box.button(QMessageBox.StandardButton.No).click()
    settle(qtbot, ws)
    assert _book(station, "CAP-NVY", MAIN) == 18 and f"kept {slip_code(draft)}" in ws.history.item(0).text()
    key(qtbot, ws, Qt.Key.Key_F6)
    box = ws.ship_box
    assert box.isVisible()
    box.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: "shipped" in ws.banner.text(), timeout=30_000)
    assert _book(station, "CAP-NVY", MAIN) == 14
    scan(qtbot, ws, "STORE")
    scan(qtbot, ws, f"transfer {in_transit[:8]}")  # the line as the list used to show it
    answer(qtbot, ws, "receive-transfer", slip_code(in_transit))
    qtbot.waitUntil(lambda: "received" in ws.banner.text(), timeout=30_000)
    assert _book(station, "MUG-CER-01", STORE) == 15
    scan(qtbot, ws, slip_code(draft).lower())  # the slip's code, however the scanner's case is set
    answer(qtbot, ws, "receive-transfer", slip_code(draft).lower())
    qtbot.waitUntil(lambda: _book(station, "CAP-NVY", STORE) == 4, timeout=30_000)


def test_f8_saves_a_transfer_slip_whose_barcode_scans_back(make_ws: object, station: Runtime, qtbot: QtBot) -> None:
    """Issue 34 part 5: a transfer has a human number and a scannable barcode on its slip."""
    from tests.barcodes import decode_code128, pdf_to_image
    from views.stockcount.slip import slip_code

    ws = make_ws()  # type: ignore[operator]
    key(qtbot, ws, Qt.Key.Key_F8)  # no location, no transfer: said, nothing saved
    assert ws.banner.property("tone") == "error" and not ws.slips
    draft = demo_id("inventory-transfer", "demo", "2")  # MAIN -> STORE: 4 caps, 10 notebooks
    scan(qtbot, ws, "MAIN")
    key(qtbot, ws, Qt.Key.Key_F8)
    assert len(ws.slips) == 1 and slip_code(draft) in ws.banner.text()
    read = decode_code128(pdf_to_image(ws.slips[0].read_bytes()))
    assert read == slip_code(draft)
    scan(qtbot, ws, read)  # the slip's barcode as a scanner reads it ships the draft, asked first
    answer(qtbot, ws, "ship-transfer", read)
    qtbot.waitUntil(lambda: _book(station, "CAP-NVY", MAIN) == 14, timeout=30_000)


@pytest.fixture
def in_language(qapp: object) -> Iterator[Callable[[str], None]]:
    """The app's own loader (views.i18n.install): English with its plural forms, or German."""
    before = QLocale()
    yield lambda lang: i18n.install(qapp, lang)  # type: ignore[arg-type]
    for old in i18n._installed:  # as the other tests expect: no translator, the locale as before
        QCoreApplication.removeTranslator(old)
    i18n._installed.clear()
    QLocale.setDefault(before)


def test_one_item_counted_reads_one_item_and_f5_again_is_a_key(
    make_ws: object, qtbot: QtBot, in_language: Callable[[str], None]
) -> None:
    """The walk of issue 32 read "Post the count of MAIN: 1 items", "posted 1 lines" and "F5 [scanner]"."""
    in_language("en")
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, "MAIN")
    assert ws.location_title.text().endswith("10 items on the book")
    scan(qtbot, ws, MUG)
    assert ws.summary.text() == "1 of 10 items counted · 1 differ from the book · F5 posts the count"
    key(qtbot, ws, Qt.Key.Key_F5)
    box = ws.asking
    assert "Post the count of MAIN: 1 item, 1 differ" in box.text()
    qtbot.keyClick(box.focusWidget() or box, Qt.Key.Key_F5)  # F5 again: yes
    qtbot.waitUntil(lambda: ws.banner.property("tone") == "done", timeout=30_000)
    assert "posted: 1 item, 1 adjusted" in ws.banner.text()
    history = [ws.history.item(i).text() for i in range(ws.history.count())]
    assert any("F5  [key]  confirmed by pressing it again" in h for h in history), history
    assert any("posted 1 line at MAIN" in h for h in history), history


def test_the_count_summary_is_german(make_ws: object, qtbot: QtBot, in_language: Callable[[str], None]) -> None:
    in_language("de")
    ws = make_ws()  # type: ignore[operator]
    scan(qtbot, ws, "MAIN")
    scan(qtbot, ws, MUG)
    text = ws.summary.text()
    assert "items counted" not in text and "F5" in text and "1" in text, text
    key(qtbot, ws, Qt.Key.Key_F5)
    answer(qtbot, ws, "post-count", press=Qt.Key.Key_Escape)  # kept: logged as a key, in German
    history = [ws.history.item(i).text() for i in range(ws.history.count())]
    assert not any("[key]" in h for h in history) and any("[Taste]" in h for h in history), history


def test_the_location_scanned_last_wins_over_a_late_answer(
    make_ws: object, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen in the full run: after a transfer was shipped the desk read its location again, and
    that answer, arriving after STORE had been scanned, took the screen back to MAIN (the slip
    scanned next was "unknown"). Here MAIN's answer is held until STORE is open."""
    from services.inventory.demo import location_id
    from services.inventory.stock_levels import list_stock

    ws = make_ws()  # type: ignore[operator]
    main = location_id("demo", "MAIN")
    release = hold_answers(monkeypatch, ws.session, list_stock, lambda q: getattr(q, "location_id", None) == main)
    ws.handle_scan("MAIN")
    ws.handle_scan("STORE")
    qtbot.waitUntil(lambda: ws.location is not None and ws.location.code == "STORE", timeout=30_000)
    qtbot.waitUntil(lambda: ws.session.ops.active == 1, timeout=30_000)  # only MAIN's answer is out
    release.set()
    settle(qtbot, ws)
    assert ws.location is not None and ws.location.code == "STORE"
    assert all(t.to_location_id == location_id("demo", "STORE") for t in ws.transfers) and ws.transfers
