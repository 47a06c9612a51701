"""Warehouse scanning: a packer with a keyboard-wedge scanner fulfils orders at arm's length.

Scan an order number or pick-list barcode: the order opens. Scan items: each line turns green as
it completes; a wrong item or one too many flashes red and says why. Pack with F1-F4 (or
BOX-S/M/L/XL), ship with F5 (CMD-SHIP): the label is made and printed, the next order opens.
Everything runs on the station's local database through the op runner, so it works offline.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QBrush, QColor, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableView,
    QTableWidget,
    QWidget,
)

from services.core.context import CommitInfo
from services.core.errors import ServiceError
from services.core.pagination import Page
from services.fulfillment.orders import get_order, list_orders, operate, order_stats
from services.fulfillment.scan_commands import COMMAND_CODES
from services.fulfillment.schemas import (
    DeviceQuery,
    DeviceSettingsOut,
    LineOut,
    OperationRequest,
    OperationResult,
    OrderDetail,
    OrderOut,
    OrderQuery,
    OrderStats,
)
from services.fulfillment.settings import get_device_settings
from views.base import StationSession, Workspace
from views.i18n import QT_TRANSLATE_NOOP
from views.ops import announced, error_message
from views.shell.scan_input import ScanInput
from views.warehouse.batch import BatchPicking
from views.warehouse.confirm import ask_leave
from views.warehouse.floor import FloorWork
from views.warehouse.layout import STATUSES, build
from views.warehouse.lines import RED, fill_lines, own_scan, same_lines, update_lines
from views.warehouse.printing import LabelPrinting
from views.warehouse.product import ProductPanel
from views.warehouse.questions import OrderQuestions
from views.warehouse.queue import COLUMNS, OrderQueueModel
from views.warehouse.receiving import PurchaseReceiving
from views.warehouse.transfers import TransferSlips

TONES = {
    "info": ("#e3f2fd", "#0d47a1"),
    "ok": ("#c8e6c9", "#1b5e20"),
    "error": ("#d32f2f", "#ffffff"),
    "done": ("#2e7d32", "#ffffff"),
}
HOTKEY_BOXES = {Qt.Key.Key_F1: "S", Qt.Key.Key_F2: "M", Qt.Key.Key_F3: "L", Qt.Key.Key_F4: "XL"}
# What the history says for a key or command scan (never "[key]").
KEY_WORDS = {  # shown translated (context Keys), like the key hints
    "BOX-S": QT_TRANSLATE_NOOP("Keys", "F1 pack in box S"),
    "BOX-M": QT_TRANSLATE_NOOP("Keys", "F2 pack in box M"),
    "BOX-L": QT_TRANSLATE_NOOP("Keys", "F3 pack in box L"),
    "BOX-XL": QT_TRANSLATE_NOOP("Keys", "F4 pack in box XL"),
    "CMD-SHIP": QT_TRANSLATE_NOOP("Keys", "F5 ship"),
    "CMD-PRINT": QT_TRANSLATE_NOOP("Keys", "F6 print again"),
    "CMD-NEXT": QT_TRANSLATE_NOOP("Keys", "F8 next order"),
    "CMD-UNDO": QT_TRANSLATE_NOOP("Keys", "Ctrl+Z undo"),
    "CMD-CANCEL": QT_TRANSLATE_NOOP("Keys", "cancel"),
}
NARROW = 1500  # below this width the queue shows its essential columns only
SHORT = 640  # below this height of the workspace the product panel is left out
MAX_SCAN = 100  # the longest code the service takes (services.fulfillment.schemas.Code)

STYLE = """
#workspace-warehouse { font-size: 16pt; }
#scanInput { font-size: 30pt; padding: 10px; border: 3px solid #1565c0; border-radius: 8px; }
#banner { font-size: 19pt; font-weight: bold; padding: 14px; border-radius: 8px; }
#orderTitle { font-size: 20pt; font-weight: bold; }
#offlineBadge { font-size: 12pt; font-weight: bold; padding: 4px 10px; border-radius: 10px; }
QTableWidget#lines { font-size: 18pt; }
#tracking { font-size: 18pt; font-weight: bold; }
#productName { font-size: 17pt; font-weight: bold; }
#productDetail { font-size: 12pt; color: #455a64; }
"""


class WarehouseWorkspace(
    PurchaseReceiving, OrderQuestions, TransferSlips, BatchPicking, FloorWork, LabelPrinting, Workspace
):
    name = "warehouse"
    title = QT_TRANSLATE_NOOP("Workspaces", "Warehouse scanning")
    modules = frozenset({"fulfillment"})
    shows = frozenset({"fulfillment.*"})
    position = 10
    landing = {"warehouse-device": 1, "operator": 3}
    keys = (
        ("F1", QT_TRANSLATE_NOOP("Keys", "box S")),
        ("F2", QT_TRANSLATE_NOOP("Keys", "box M")),
        ("F3", QT_TRANSLATE_NOOP("Keys", "box L")),
        ("F4", QT_TRANSLATE_NOOP("Keys", "box XL")),
        ("F5", QT_TRANSLATE_NOOP("Keys", "ship")),
        ("F6", QT_TRANSLATE_NOOP("Keys", "print again")),
        ("F7", QT_TRANSLATE_NOOP("Keys", "ship part")),
        ("F8", QT_TRANSLATE_NOOP("Keys", "next order")),
        ("F9", QT_TRANSLATE_NOOP("Keys", "return damaged")),
        ("Ctrl+Z", QT_TRANSLATE_NOOP("Keys", "undo scan")),
        ("Esc", QT_TRANSLATE_NOOP("Keys", "close")),
    )
    # Made by views.warehouse.layout.build.
    queue: OrderQueueModel
    queue_count: QLabel
    queue_view: QTableView
    badge: QLabel
    status_filter: QComboBox
    sort_box: QComboBox
    scan_input: ScanInput
    manual_input: QLineEdit
    banner: QLabel
    order_title: QLabel
    product: ProductPanel
    lines: QTableWidget
    hints: QLabel
    tracking: QLabel
    preview: QLabel
    print_status: QLabel
    history: QListWidget
    buttons: dict[str, QPushButton]

    def __init__(self, session: StationSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.setStyleSheet(STYLE)
        self.order: OrderDetail | None = None
        self.last_label: tuple[str, str] | None = None  # (label id, tracking number)
        self.settings: dict[str, object] = {
            "label_format": "pdf",
            "printer": "",
            "sounds": True,
            "scanner_suffix": session.prefs.get("scanner_suffix", "enter"),
            "auto_print": True,
            "boxes": ["S", "M", "L", "XL"],
        }
        self.printed: list[str] = []  # where labels went this shift (file paths or printer names)
        self.picks: list[tuple[str, str, int]] = []  # (order id, code, quantity) of this order's scans, for undo
        self.next_quantity = 1  # "5*" sets it for the next scan
        self._leave_to: str | None = None  # kiosk: the order a second scan confirms leaving for
        self._scanning: set[str] = set()  # orders with a pick of ours under way (on_changed leaves them be)
        self.init_floor()
        self.init_batch()
        self.init_transfers()
        self.init_receiving()
        self._build()
        self.set_online(bool(session.prefs.get("online", False)))
        self.say(self.tr("Scan an order number or a pick list to start"), "info")
        session.ops.run(
            session.call(get_device_settings, query=DeviceQuery()),
            on_success=self._got_settings,
            on_failure=lambda _e: None,
        )
        self.refresh_counts()
        self.queue.reset("pending", "created_at")

    def _build(self) -> None:
        build(self)

    # --- shell hooks --------------------------------------------------------------------

    def focus_primary(self) -> None:
        self.scan_input.setFocus()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        # A narrow window keeps the queue readable: order, pick list, state and items; customer and
        # date come back when there is room.
        narrow = self.width() < NARROW
        cols = (COLUMNS.index("Customer"), COLUMNS.index("Created"))
        if self.queue_view.isColumnHidden(cols[0]) != narrow:
            for col in cols:
                self.queue_view.setColumnHidden(col, narrow)
            self.queue_view.resizeColumnsToContents()
        # A short window (1024x700) keeps the scanner input and the lines whole: the product panel
        # steps aside there (the banner still names the item scanned). Only on a resize, never per scan.
        self.product.setVisible(self.height() >= SHORT)

    def on_changed(self, change: CommitInfo) -> None:
        if own_scan(change, self._scanning):
            return  # the pick's answer repaints its line and its queue row (``picked``)
        self.refresh_counts()
        self.queue.reload()

    def _queue_loaded(self, total: int) -> None:
        self.queue_count.setText(self.tr("{total} orders").format(total=total))
        self.queue_view.resizeColumnsToContents()
        self._highlight_open_order()

    def _highlight_open_order(self) -> None:
        """The open order is the selected row of the queue (when it is listed)."""
        row = self.queue.row_of(self.order.id) if self.order is not None else -1
        if row < 0:
            self.queue_view.clearSelection()
            return
        self.queue_view.selectRow(row)
        self.queue_view.scrollTo(self.queue.index(row, 0))

    def set_online(self, online: bool) -> None:
        """The shell tells us when the platform is reachable; work goes on either way."""
        text, colour = (
            (self.tr("● Online · synced"), "#2e7d32")
            if online
            else (self.tr("● Offline · saved on this station"), "#ef6c00")
        )
        self.badge.setText(text)
        self.badge.setStyleSheet(f"background: {colour}; color: white;")

    def _got_settings(self, s: DeviceSettingsOut) -> None:
        self.settings.update(s.model_dump())
        self.scan_input.suffix = s.scanner_suffix

    def refresh_counts(self) -> None:
        def show(stats: OrderStats) -> None:
            for i, st in enumerate(STATUSES):
                n = stats.total if st == "all" else stats.counts.get(st, 0)
                self.status_filter.setItemText(i, f"{QCoreApplication.translate('OrderStatus', st.capitalize())} ({n})")

        self.session.ops.run(self.session.call(order_stats), on_success=show, on_failure=lambda _e: None)

    # --- feedback ---------------------------------------------------------------------------

    def say(self, message: str, tone: str = "info") -> None:
        bg, fg = TONES[tone]
        self.banner.setText(message)
        if self.banner.property("tone") != tone:
            # A style sheet set again re-polishes the widget even when it is the same: only on a new tone.
            self.banner.setProperty("tone", tone)
            self.banner.setStyleSheet(f"background: {bg}; color: {fg};")
            border = "#d32f2f" if tone == "error" else "#1565c0"
            self.scan_input.setStyleSheet(f"border-color: {border};")
        if tone in ("error", "ok", "done"):
            self.play(tone)

    def play(self, sound: str) -> None:
        """Ask the shell for a sound if it offers one (``window().play``); silence otherwise."""
        if not self.settings.get("sounds", True):
            return
        player = getattr(self.window(), "play", None)
        if callable(player) and self.window() is not self:
            player(sound)

    def error(self, message: str) -> None:
        self.say(message, "error")
        self.focus_primary()

    def _log(self, code: str, source: str, result: str) -> None:
        """One history line: time, what was scanned or pressed (in words), what came of it."""
        what = KEY_WORDS.get(code.upper(), code) if source in ("key", "scanner", "keyboard", "manual") else code
        if len(what) > 40:
            from views.wording import short

            what = short(what)
        else:  # a key's or command's words ("ship", "F5 ship") in the person's language; a code as it is
            what = QCoreApplication.translate("Keys", what)
        how = {"manual": self.tr(" (typed)"), "key": ""}.get(source, "")
        text = f"{time.strftime('%H:%M:%S')}  {what}{how}  {result}"
        item = QListWidgetItem(text)
        item.setToolTip(text)
        self.history.insertItem(0, item)

    def _failed(self, code: str, source: str, fallback: str = "") -> Callable[[BaseException], None]:
        def fail(exc: BaseException) -> None:
            msg = error_message(exc, {"code": code})
            self._log(code, source, f"✗ {msg}")
            self.error(fallback or msg)

        return fail

    # --- scans ------------------------------------------------------------------------------

    def _manual(self) -> None:
        code = self.manual_input.text().strip()
        self.manual_input.clear()
        if code:
            self.handle_scan(code, "manual")
        self.focus_primary()

    def set_quantity(self, n: int) -> None:
        if n < 1:
            self.error(self.tr("A quantity is 1 or more: type it, then *, then scan the item"))
            return
        self.next_quantity = n
        self.say(self.tr("Quantity {n}: scan the item").format(n=n), "info")

    def undo(self) -> None:
        """Ctrl+Z or CMD-UNDO: take the last scan of the open order back."""
        o = self.order
        if self.po is not None:
            self.po_undo()
            return
        if o is None or not self.picks or self.picks[-1][0] != o.id:
            self.error(self.tr("Nothing to undo: no scan on this order yet"))
            return
        _oid, code, qty = self.picks[-1]

        def undone(res: OperationResult) -> None:
            self.picks.pop()
            self.want_serial = None  # the unit taken back needs no serial
            self.show_order(res)
            line = next(ln for ln in res.lines if ln.id in res.matched_line_ids)
            self._log(
                "CMD-UNDO",
                "key",
                self.tr("took back {qty} × {line.name} ({line.picked_quantity}/{line.quantity})").format(
                    qty=qty, line=line
                ),
            )
            self.say(
                self.tr("Undone: {qty} × {line.name} taken back — {line.picked_quantity} of {line.quantity}").format(
                    qty=qty, line=line
                ),
                "info",
            )

        body = self.session.request(
            OperationRequest,
            {"operation": "unpick", "items": [{"code": code, "quantity": qty}]},
            self._failed("CMD-UNDO", "key"),
        )
        if body is not None:
            self.session.ops.run(
                self.session.call(operate, id=o.id, body=body),
                on_success=undone,
                on_failure=self._failed("CMD-UNDO", "key"),
            )

    def handle_hotkey(self, key: int) -> None:
        if key in HOTKEY_BOXES:
            box = HOTKEY_BOXES[Qt.Key(key)]
            if self.batch is not None:
                self.batch_pack(box)
            else:
                self.pack(box)
        elif key == Qt.Key.Key_F5:
            self.ask_ship("F5")
        elif key == Qt.Key.Key_F6:
            self.print_again()
        elif key == Qt.Key.Key_F7:
            self.ship_partly()
        elif key == Qt.Key.Key_F8:
            self.next_order()
        elif key == Qt.Key.Key_F9:
            self.toggle_damaged()
        elif key == Qt.Key.Key_Escape:
            self._leave_to = None
            self.close_return()
            self.close_batch()
            self.close_transfer()
            self.close_po()
            self.product.clear()
            self.next_quantity = 1
            self.show_order(None)
            self.say(self.tr("Scan an order number or a pick list to start"), "info")

    def _line_for(self, code: str) -> LineOut | None:
        if self.order is None:
            return None
        lines = self.order.lines
        return next((ln for ln in lines if ln.barcode == code), None) or next(
            (ln for ln in lines if ln.sku.lower() == code.lower()), None
        )

    def handle_scan(self, code: str, source: str = "scanner") -> None:
        if len(code) > MAX_SCAN:
            from views.wording import too_long

            msg = too_long(self.tr("That scan"), len(code), MAX_SCAN, self.tr("Scan the barcode again."))
            self._log(code, source, f"✗ {msg}")
            self.error(msg)
            return
        command = COMMAND_CODES.get(code.upper())
        if command is not None:
            self._log(code, source, command[2])
            action, arg, _caption = command
            {
                "pack": lambda: self.pack(arg or "M"),
                "ship": lambda: self.ask_ship(code.upper()),
                "print": self.print_again,
                "next": self.next_order,
                "cancel": self.ask_cancel,
                "undo": self.undo,
            }[action]()
            return
        if self.want_serial is not None:
            self.scan_serial(code, source)
            return
        if any(f(code, source) for f in (self.po_scan, self.return_scan, self.batch_scan, self.transfer_scan)):
            return
        o = self.order
        line = self._line_for(code)
        if o is not None and line is not None:
            if line.picked_quantity + self.next_quantity > line.quantity or o.status != "pending":
                # Known locally: no need to ask the service to refuse it.
                self._flash_line(line.id)
                msg = self.tr("One too many: all {line.quantity} × {line.name} already scanned").format(line=line)
                if self.next_quantity > 1:
                    left = line.quantity - line.picked_quantity
                    msg = self.tr("Too many: {next_quantity} × {line.name}, only {left} still to scan").format(
                        next_quantity=self.next_quantity, line=line, left=left
                    )
                    self.next_quantity = 1
                if o.status not in ("pending", "picked"):
                    msg = self.tr("Order {o.order_number} is {o.status}; items cannot be scanned now").format(o=o)
                self._log(code, source, f"✗ {msg}")
                self.error(msg)
                return
            self.pick(code, source)
        elif o is not None and o.status == "pending":
            self.pick(code, source)  # not on this order: the service says whether it is unknown or another order's
        else:
            self.open_order(code, source)

    def part_picked(self) -> tuple[int, int] | None:
        """(scanned, total) when the open order has some items scanned but is not complete."""
        o = self.order
        if o is None or o.status != "pending":
            return None
        done, total = sum(ln.picked_quantity for ln in o.lines), sum(ln.quantity for ln in o.lines)
        return (done, total) if 0 < done < total else None

    def _confirm_leave(self, order: OrderDetail, go: Callable[[], None], ref: str = "") -> bool:
        """Leaving a part-picked order asks first: a dialog, or on a kiosk a banner and a second scan."""
        part = self.part_picked()
        if part is None or self.order is None or order.id == self.order.id or self._leave_to == order.id:
            self._leave_to = None
            return True
        current = self.order.order_number
        if getattr(self.window(), "kiosk", False) or self.window() is self:
            self._leave_to = order.id
            self.error(
                self.tr(
                    "{current} is part-picked ({part[0]} of {part[1]} scanned). Scan {order.order_number} again to leave it, or keep scanning {current}."
                ).format(current=current, part=part, order=order)
            )
            return False

        def answered(yes: bool) -> None:
            self._log(
                order.order_number,
                "scanner",
                self.tr("left {current}").format(current=current)
                if yes
                else self.tr("kept {current}").format(current=current),
            )
            go() if yes else self.focus_primary()

        log = lambda code, result: self._log(code, "scanner", result)  # noqa: E731
        self.leave_box = ask_leave(self, current, part, order.order_number, (order.order_number, ref), log, answered)
        return False

    def open_order(self, ref: str, source: str = "queue", prefix: str = "", fallback: str = "") -> None:
        def confirmed(order: OrderDetail) -> None:
            self._leave_to = order.id
            opened(order)

        def opened(order: OrderDetail) -> None:
            if not self._confirm_leave(order, lambda: confirmed(order), ref):
                return
            self._log(
                order.order_number if source in ("next", "queue") else ref,
                source,
                self.tr("opened {order.order_number}").format(order=order),
            )
            self.show_order(order)
            hints = {
                "pending": self.tr("Scan each item"),
                "picked": self.tr("All items verified — pack it: F1 S · F2 M · F3 L · F4 XL"),
                "packed": self.tr("Packed — press F5 or scan CMD-SHIP to ship"),
            }
            self.say(
                self.tr("{prefix}Order {order.order_number}: {value}").format(
                    prefix=prefix, order=order, value=hints.get(order.status, f"already {order.status}")
                ),
                "info" if order.status in hints else "error",
            )

        self.session.ops.run(
            self.session.call(get_order, id=ref),
            on_success=opened,
            on_failure=self._failed(ref, source, fallback or self._unknown(ref)),
        )

    @staticmethod
    def _unknown(ref: str) -> str:
        from views.wording import short

        return QCoreApplication.translate(
            "WarehouseWorkspace", "No order or item {value}. Check the code and scan it again."
        ).format(value=short(ref))

    def pick(self, code: str, source: str) -> None:
        order = self.order

        qty, self.next_quantity = self.next_quantity, 1

        def picked(res: OperationResult) -> None:
            self._scanning.discard(res.id)
            self.picks.append((res.id, code, qty))
            moved = order is None or res.status != order.status
            self.show_order(res)
            # Our own scan (on_changed left the queue be): its row only, unless the order moved on.
            self.on_changed(announced("change")) if moved else self.queue.update_row(res)
            line = next(ln for ln in res.lines if ln.id in res.matched_line_ids)
            self._log(code, source, f"✓ {line.name} {line.picked_quantity}/{line.quantity}")
            done = self.tr("{picked} of {quantity} scanned")  # an f-string was English in German
            self.product.show_product(
                line.sku, line.name, done.format(picked=line.picked_quantity, quantity=line.quantity)
            )
            if res.status == "picked":
                self.say(
                    self.tr("✓ All items verified — pack {res.order_number}: F1 S · F2 M · F3 L · F4 XL").format(
                        res=res
                    ),
                    "done",
                )
            else:
                self.say(self.tr("✓ {line.name}  {line.picked_quantity} of {line.quantity}").format(line=line), "ok")
            self.after_pick(line)
            self.focus_primary()

        def failed(exc: BaseException) -> None:
            if order is not None:
                self._scanning.discard(order.id)
            details = (exc.details or {}) if isinstance(exc, ServiceError) else {}
            if details.get("reason") == "unknown_code":
                # Perhaps another order's number: open it; if not, say the code is unknown.
                from views.wording import short

                self.open_order(
                    code,
                    source,
                    fallback=self.tr("Unknown barcode {value}. Scan it again or type it below.").format(
                        value=short(code)
                    ),
                )
                return
            if details.get("line_id"):
                self._flash_line(details["line_id"])
            self._failed(code, source)(exc)

        body = self.session.request(
            OperationRequest, {"operation": "pick", "items": [{"code": code, "quantity": qty}]}, failed
        )
        if body is not None and order is not None:
            self._scanning.add(order.id)
            self.session.ops.run(
                self.session.call(operate, id=order.id, body=body), on_success=picked, on_failure=failed
            )

    # --- pack, ship, print, cancel, next -----------------------------------------------------

    def _operate(self, body: dict[str, Any], on_success: Callable[[OperationResult], None], what: str) -> None:
        if self.order is None:
            # Whole sentences: a verb put into a translated template stayed English in German.
            first = {
                "pack": self.tr("Open an order before you pack: scan its number or pick list"),
                "ship": self.tr("Open an order before you ship: scan its number or pick list"),
            }.get(what, self.tr("Open an order before you cancel: scan its number or pick list"))
            self.error(first)
            return
        o = self.order

        def failed(exc: BaseException) -> None:
            details = (exc.details or {}) if isinstance(exc, ServiceError) else {}
            if details.get("current_state") == "pending":
                done = sum(ln.picked_quantity for ln in o.lines)
                total = sum(ln.quantity for ln in o.lines)
                self._log(body["operation"], "key", self.tr("✗ {done}/{total} scanned").format(done=done, total=total))
                self.error(self.tr("Scan every item first: {done} of {total} verified").format(done=done, total=total))
                return
            if details.get("current_state") == "picked" and body["operation"] == "ship":
                self._log("CMD-SHIP", "key", self.tr("✗ not packed yet"))
                self.error(self.tr("Pack it first: F1-F4 (or scan BOX-S/M/L/XL) for the box, then F5 ships"))
                return
            self._failed(body["operation"], "key")(exc)

        request = self.session.request(OperationRequest, body, failed)
        if request is not None:
            self.session.ops.run(
                self.session.call(operate, id=o.id, body=request), on_success=on_success, on_failure=failed
            )

    def pack(self, box: str) -> None:
        def packed(res: OperationResult) -> None:
            self.show_order(res)
            self._log(f"BOX-{box}", "key", self.tr("packed {res.order_number}").format(res=res))
            self.say(self.tr("Packed in box {box} — press F5 or scan CMD-SHIP to ship").format(box=box), "ok")

        self._operate({"operation": "pack", "box": box}, packed, "pack")

    def ship(self) -> None:
        def shipped(res: OperationResult) -> None:
            label, tracking = res.label_id or "", res.tracking_number or ""  # a shipped order has both
            self.last_label = (label, tracking)
            self.tracking.setText(f"{(res.carrier or '').upper()}  {tracking}")
            self._log(
                "CMD-SHIP", "key", self.tr("shipped {res.order_number} {tracking}").format(res=res, tracking=tracking)
            )
            self.say(
                self.tr("Shipped {res.order_number} — tracking {tracking}").format(res=res, tracking=tracking), "done"
            )
            self.load_preview(label)
            if self.settings.get("auto_print", True):
                self.print_label(label, tracking)
            self.next_order(after=f"Shipped {res.order_number} ({res.tracking_number}). Next: ")

        units = self.shipped_units(self.order.id) if self.order is not None else []
        self._operate({"operation": "ship", "units": units}, shipped, "ship")

    def cancel(self) -> None:
        def cancelled(res: OperationResult) -> None:
            self.show_order(res)
            self.say(self.tr("Order {res.order_number} cancelled").format(res=res), "info")

        self._operate({"operation": "cancel", "reason": "cancelled at the packing station"}, cancelled, "cancel")

    def next_order(self, after: str | None = None) -> None:
        def got(page: Page[OrderOut]) -> None:
            if not page.items:
                self.show_order(None)
                if after is None:
                    self.say(self.tr("No more orders to fulfil"), "info")
                return
            self.open_order(page.items[0].id, "next", prefix=after or "")

        query = OrderQuery(status="pending", sort="created_at", limit=1)
        self.session.ops.run(self.session.call(list_orders, query=query), on_success=got)

    # --- showing an order ---------------------------------------------------------------------

    def show_order(self, order: OrderDetail | None) -> None:
        if order is None or self.order is None or order.id != self.order.id:
            self.picks.clear()  # undo is for the open order's scans
            self.want_serial = None
            self.product.clear()
        self.close_po()
        if order is not None:
            self.close_return()
            self.close_batch()
            self.close_transfer()
        before, self.order = self.order, order
        if order is not None and before is not None and same_lines(before, order):
            # A scan or an undo: the changed lines' cells only (views/warehouse/lines.py).
            if before.status != order.status or before.customer_name != order.customer_name:
                self.order_title.setText(self._title(order))
            update_lines(self.lines, before.lines, order.lines)
            self.focus_primary()
            return
        self.lines.setRowCount(0)
        self._highlight_open_order()
        if order is None:
            self.order_title.setText(self.tr("No order open"))
            return
        self.order_title.setText(self._title(order))
        fill_lines(self.lines, order.lines)
        self.focus_primary()

    def _title(self, o: OrderDetail) -> str:
        return f"{o.order_number} · {o.customer_name or '—'} · {QCoreApplication.translate('OrderStatus', o.status).upper()}"

    def line_row(self, line_id: str) -> int:
        for r in range(self.lines.rowCount()):
            item = self.lines.item(r, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == line_id:
                return r
        return -1

    def line_colour(self, row: int) -> QColor:
        item = self.lines.item(row, 0)
        return item.background().color() if item is not None else QColor()

    def _flash_line(self, line_id: str) -> None:
        row = self.line_row(line_id)
        for c in range(self.lines.columnCount()):
            item = self.lines.item(row, c)
            if item is not None:
                item.setBackground(QBrush(RED))


WORKSPACE = WarehouseWorkspace
