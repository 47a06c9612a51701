"""A purchase order received at the desk by scanner. A part of ``WarehouseWorkspace``, kept in a file
of its own (the service: services/inventory/purchasing.py).

Scanning a purchase order's number (``PO-00012``, as printed on it) opens it: its lines show what
was ordered, what came before and what is still open. Each item scan counts units against its
line (``5*`` first counts five); a lot-tracked item asks for the lot's code, then its expiry date
(typed ``2027-03-31``, or ``-`` for none); a serial-tracked one asks for a serial a unit. Nothing
is received yet: F5, or the order's number scanned again, asks "Receive these items?" and Yes (or
the number scanned at the question) receives what was scanned through
``inventory.purchase_orders.receive``. What stays open leaves the order partially received. More
than ordered is refused by the service (409) and said in words; Ctrl+Z takes the last scan back,
Esc drops the scans. Purchase orders are Inventory's: a user without it is told so.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from PySide6.QtCore import QCoreApplication

from services.core.errors import Conflict, Forbidden, NotFound, ServiceError
from services.core.pagination import Page
from services.inventory.items import list_items
from services.inventory.purchasing import get_po, receive_po
from services.inventory.purchasing_schemas import PurchaseOrderOut, PurchaseOrderReceipt
from services.inventory.schemas import ItemOut, ItemQuery
from views.i18n import QT_TRANSLATE_NOOP
from views.warehouse.part import WorkspacePart, paint_rows, progress

PO_NUMBER = re.compile(r"^PO-\d{1,10}$", re.IGNORECASE)
# Another screen's code: with a purchase order open these leave it (when nothing is scanned).
OTHER = re.compile(r"^(RMA-|TR-|SO-|PL|B-\d{5})", re.IGNORECASE)
# A purchase order's status as shown in its title (context "PurchaseReceiving").
STATUS_WORDS = (
    QT_TRANSLATE_NOOP("PurchaseReceiving", "draft"),
    QT_TRANSLATE_NOOP("PurchaseReceiving", "sent"),
    QT_TRANSLATE_NOOP("PurchaseReceiving", "partially received"),
    QT_TRANSLATE_NOOP("PurchaseReceiving", "received"),
    QT_TRANSLATE_NOOP("PurchaseReceiving", "cancelled"),
)


def _expiry(text: str) -> date | None:
    """``2027-03-31`` or ``31.03.2027``; ValueError for anything else."""
    text = text.strip()
    if re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{4}", text):
        d, m, y = (int(x) for x in text.split("."))
        return date(y, m, d)
    return date.fromisoformat(text)


class PurchaseReceiving(WorkspacePart):
    """The open purchase order and what was scanned against it."""

    def init_receiving(self) -> None:
        self.po: PurchaseOrderOut | None = None
        self.po_items: dict[str, ItemOut] = {}  # a scanned code or SKU (upper case) -> the item
        self.po_scans: list[dict[str, Any]] = []  # receipt lines, in scan order (Ctrl+Z takes the last)
        self.po_wait: dict[str, Any] | None = None  # the tracked line whose lot, expiry or serial comes next

    def close_po(self) -> None:
        self.po, self.po_wait = None, None
        self.po_scans = []

    def po_scan(self, code: str, source: str) -> bool:
        """A purchase order's number opens it; with one open, scans are its items. False: neither."""
        po = self.po
        if PO_NUMBER.match(code):
            if po is not None and po.number == code.upper():
                self.ask_receive(source)
            else:
                self.open_po(code.upper(), source)
            return True
        if po is None:
            return False
        if self.po_wait is not None:
            self._po_answer(code, source)
            return True
        if OTHER.match(code):
            if self.po_scans:
                self._log(
                    code,
                    source,
                    QCoreApplication.translate("PurchaseReceiving", "✗ {n} scans not received").format(n=self._units()),
                )
                self.error(QCoreApplication.translate("PurchaseReceiving", "{number}: {n} units scanned, not received. F5 receives them, Esc drops them").format(number=po.number, n=self._units()))  # fmt: skip
                return True
            self.close_po()
            return False
        self._po_item(code, source)
        return True

    def _units(self) -> int:
        return sum(int(x["quantity"]) for x in self.po_scans)

    def open_po(self, code: str, source: str) -> None:
        def got(po: PurchaseOrderOut) -> None:
            self.show_order(None)  # closes the order, batch, return or transfer open before
            self.close_po()
            self.show_po(po)
            self._log(
                code,
                source,
                QCoreApplication.translate("PurchaseReceiving", "opened {number}").format(number=po.number),
            )
            if po.status in ("sent", "partially_received"):
                self.say(QCoreApplication.translate("PurchaseReceiving", "{number}: scan each item received, then F5").format(number=po.number), "info")  # fmt: skip
            elif po.status == "draft":
                self.say(QCoreApplication.translate("PurchaseReceiving", "{number} is a draft, not sent to the supplier: nothing to receive yet").format(number=po.number), "error")  # fmt: skip
            elif po.status == "cancelled":
                self.say(QCoreApplication.translate("PurchaseReceiving", "{number} is cancelled: nothing to receive").format(number=po.number), "error")  # fmt: skip
            else:
                self.say(QCoreApplication.translate("PurchaseReceiving", "{number} is received in full: nothing left to receive").format(number=po.number), "info")  # fmt: skip
            for ln in po.lines:  # the names, where the table shows SKUs first
                self._item(ln.sku, lambda _item: self.show_po(po) if self.po is po else None)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, Forbidden):
                self._log(
                    code, source, QCoreApplication.translate("PurchaseReceiving", "✗ purchase orders need Inventory")
                )
                self.error(QCoreApplication.translate("PurchaseReceiving", "{code} is a purchase order: receive it signed in as a user with Inventory").format(code=code))  # fmt: skip
                return
            unknown = QCoreApplication.translate("PurchaseReceiving", "No purchase order {code}. Check the number and scan it again.").format(code=code)  # fmt: skip
            self._failed(code, source, unknown if isinstance(exc, NotFound) else "")(exc)

        self.session.ops.run(self.session.call(get_po, id=code), on_success=got, on_failure=failed)

    def _item(self, code: str, then: Any, failed: Any = None) -> None:
        """The item a code names (cached for the shift), or ``None`` when there is none."""
        known = self.po_items.get(code.upper())
        if known is not None:
            then(known)
            return

        def got(page: Page[ItemOut]) -> None:
            item = page.items[0] if page.items else None
            if item is not None:
                self.po_items[code.upper()] = self.po_items[item.sku.upper()] = item
            then(item)

        self.session.ops.run(
            self.session.call(list_items, query=ItemQuery(code=code, limit=1)),
            on_success=got,
            on_failure=failed or (lambda _e: None),
        )

    def show_po(self, po: PurchaseOrderOut) -> None:
        self.po = po
        scanned: dict[str, int] = {}
        for x in self.po_scans:
            scanned[x["sku"]] = scanned.get(x["sku"], 0) + int(x["quantity"])
        status = QCoreApplication.translate("PurchaseReceiving", po.status.replace("_", " ")).upper()
        self.order_title.setText(f"{po.number} · {po.supplier or '—'} · {status}")
        rows = []
        for ln in po.lines:
            item, now = self.po_items.get(ln.sku.upper()), scanned.get(ln.sku, 0)
            left = max(ln.quantity - ln.received, 0)
            state = QCoreApplication.translate(
                "PurchaseReceiving", "ordered {ordered} · received {received} · open {left}"
            ).format(ordered=ln.quantity, received=ln.received, left=left)
            cells = (item.name if item else ln.sku, state, ln.sku, f"+{now} → {ln.received + now} / {ln.quantity}")
            rows.append((cells, progress(ln.received + now, ln.quantity), ln.sku))
        paint_rows(self.lines, rows)

    def _po_item(self, code: str, source: str) -> None:
        po = self.po
        if po is None:
            return
        if po.status not in ("sent", "partially_received"):
            self._log(code, source, QCoreApplication.translate("PurchaseReceiving", "✗ {number} is {status}").format(number=po.number, status=po.status))  # fmt: skip
            self.error(QCoreApplication.translate("PurchaseReceiving", "{number} is {status}: nothing can be received on it. Esc closes it").format(number=po.number, status=po.status.replace("_", " ")))  # fmt: skip
            return
        qty, self.next_quantity = self.next_quantity, 1

        def got(item: ItemOut | None) -> None:
            line = next((ln for ln in po.lines if item is not None and ln.sku == item.sku), None)
            if item is None or line is None:
                what = QCoreApplication.translate("PurchaseReceiving", "Unknown barcode {code}").format(code=code) if item is None else f"{item.name} ({item.sku})"  # fmt: skip
                self._log(
                    code,
                    source,
                    QCoreApplication.translate("PurchaseReceiving", "✗ not on {number}").format(number=po.number),
                )
                self.error(QCoreApplication.translate("PurchaseReceiving", "{what} is not on {number}: put it aside and scan the next item").format(what=what, number=po.number))  # fmt: skip
                return
            entry: dict[str, Any] = {"sku": item.sku, "code": item.sku, "quantity": qty}
            self.product.show_product(
                item.sku, item.name, QCoreApplication.translate("PurchaseReceiving", "receiving {qty}").format(qty=qty)
            )
            if item.tracking == "lot":
                self.po_wait = {**entry, "ask": "lot", "name": item.name}
                self.say(QCoreApplication.translate("PurchaseReceiving", "Scan the lot code of these {qty} × {name}").format(qty=qty, name=item.name), "info")  # fmt: skip
            elif item.tracking == "serial":
                self.po_wait = {**entry, "ask": "serial", "name": item.name, "serials": []}
                self.say(QCoreApplication.translate("PurchaseReceiving", "Scan the serial number of {name} 1 of {qty}").format(qty=qty, name=item.name), "info")  # fmt: skip
            else:
                self._po_add(entry, code, source, item.name)

        self._item(code, got, self._failed(code, source))

    def _po_answer(self, code: str, source: str) -> None:
        """The lot, its expiry or a serial for the item scanned last."""
        wait = self.po_wait
        if wait is None:
            return
        if wait["ask"] == "lot":
            wait.update(ask="expiry", lot=code.strip())
            self._log(
                code, source, QCoreApplication.translate("PurchaseReceiving", "lot of {sku}").format(sku=wait["sku"])
            )
            self.say(QCoreApplication.translate("PurchaseReceiving", "Lot {lot}: type its expiry date (2027-03-31) and Enter, or - for none").format(lot=code), "info")  # fmt: skip
        elif wait["ask"] == "expiry":
            try:
                expires = None if code.strip() == "-" else _expiry(code)
            except ValueError:
                self._log(code, source, QCoreApplication.translate("PurchaseReceiving", "✗ not a date"))
                self.error(QCoreApplication.translate("PurchaseReceiving", "{code} is not a date: type the expiry as 2027-03-31, or - for none").format(code=code))  # fmt: skip
                return
            entry = {k: wait[k] for k in ("sku", "code", "quantity", "lot")}
            if expires is not None:
                entry["expires_on"] = expires.isoformat()
            self._po_add(entry, code, source, wait["name"])
        else:
            serial = code.strip().upper()
            taken = {s.upper() for x in self.po_scans for s in x.get("serials", [])} | set(wait["serials"])
            if serial in taken:
                self._log(code, source, QCoreApplication.translate("PurchaseReceiving", "✗ serial scanned already"))
                self.error(QCoreApplication.translate("PurchaseReceiving", "Serial {code} is scanned already: scan the next unit's serial").format(code=code))  # fmt: skip
                return
            wait["serials"].append(serial)
            if len(wait["serials"]) < wait["quantity"]:
                self._log(
                    code,
                    source,
                    QCoreApplication.translate("PurchaseReceiving", "serial of {sku}").format(sku=wait["sku"]),
                )
                self.say(QCoreApplication.translate("PurchaseReceiving", "Scan the serial number of {name} {n} of {qty}").format(name=wait["name"], n=len(wait["serials"]) + 1, qty=wait["quantity"]), "info")  # fmt: skip
                return
            self._po_add({k: wait[k] for k in ("sku", "code", "quantity", "serials")}, code, source, wait["name"])

    def _po_add(self, entry: dict[str, Any], code: str, source: str, name: str) -> None:
        po = self.po
        if po is None:
            return
        self.po_wait = None
        self.po_scans.append(entry)
        self.show_po(po)
        line = next(ln for ln in po.lines if ln.sku == entry["sku"])
        now = sum(int(x["quantity"]) for x in self.po_scans if x["sku"] == line.sku)
        self._log(code, source, f"✓ {line.sku} +{entry['quantity']} ({line.received + now}/{line.quantity})")
        tone = "ok" if line.received + now <= line.quantity else "error"
        said = QCoreApplication.translate("PurchaseReceiving", "✓ {name}: {n} of {ordered} — F5 receives what is scanned") if tone == "ok" else QCoreApplication.translate("PurchaseReceiving", "{name}: {n} of {ordered} is more than ordered — Ctrl+Z takes it back")  # fmt: skip
        self.say(said.format(name=name, n=line.received + now, ordered=line.quantity), tone)

    def po_undo(self) -> None:
        """Ctrl+Z: the last scan (or the tracked item still waiting for its lot or serial) back."""
        po = self.po
        if po is None:
            return
        if self.po_wait is not None:
            gone: dict[str, Any] = self.po_wait
            self.po_wait = None
        elif self.po_scans:
            gone = self.po_scans.pop()
        else:
            self.error(
                QCoreApplication.translate("PurchaseReceiving", "Nothing to undo: no scan on {number} yet").format(
                    number=po.number
                )
            )
            return
        self.show_po(po)
        self._log("CMD-UNDO", "key", QCoreApplication.translate("PurchaseReceiving", "took back {qty} × {sku}").format(qty=gone["quantity"], sku=gone["sku"]))  # fmt: skip
        self.say(QCoreApplication.translate("PurchaseReceiving", "Undone: {qty} × {sku} taken back").format(qty=gone["quantity"], sku=gone["sku"]), "info")  # fmt: skip

    def ask_receive(self, source: str) -> None:
        """F5 or the number scanned again: receiving cannot be taken back, so it asks first."""
        po = self.po
        if po is None:
            return
        if not self.po_scans or self.po_wait is not None:
            what = QCoreApplication.translate("PurchaseReceiving", "finish the item scanned: its lot or serial first") if self.po_wait else QCoreApplication.translate("PurchaseReceiving", "scan the items received first")  # fmt: skip
            self._log(po.number, source, f"✗ {what}")
            self.error(QCoreApplication.translate("PurchaseReceiving", "Nothing to receive on {number} yet: {what}").format(number=po.number, what=what))  # fmt: skip
            return
        what = ", ".join(
            f"{x['quantity']}× {x['sku']}" + (f" (lot {x['lot']})" if "lot" in x else "") for x in self.po_scans
        )
        title = QCoreApplication.translate("PurchaseReceiving", "Receive these items?")
        text = QCoreApplication.translate("PurchaseReceiving", "Receive on {number}: {what}?\nThis cannot be undone. (F5 again, or scanning {number}, says yes.)").format(number=po.number, what=what)  # fmt: skip
        kept = QCoreApplication.translate("PurchaseReceiving", "kept the scans of {number}").format(number=po.number)
        said = QCoreApplication.translate("PurchaseReceiving", "Not received: the scans stay, F5 receives them")
        go = lambda: self._receive(po, source)  # noqa: E731
        self.ask("receive-po", (title, text), [po.number], go, (po.number, source, kept, said), "F5" if source == "key" else None)  # fmt: skip

    def _receive(self, po: PurchaseOrderOut, source: str) -> None:
        units = self._units()

        def received(done: PurchaseOrderOut) -> None:
            self.po_scans = []
            self.show_po(done)
            left = sum(max(ln.quantity - ln.received, 0) for ln in done.lines)
            self._log(
                done.number,
                source,
                QCoreApplication.translate("PurchaseReceiving", "✓ received {units} units").format(units=units),
            )
            if done.status == "received":
                self.say(QCoreApplication.translate("PurchaseReceiving", "✓ Received {units} units: {number} is received in full").format(units=units, number=done.number), "done")  # fmt: skip
            else:
                self.say(QCoreApplication.translate("PurchaseReceiving", "✓ Received {units} units on {number}: {left} still open (partially received)").format(units=units, number=done.number, left=left), "done")  # fmt: skip

        def failed(exc: BaseException) -> None:
            details = (exc.details or {}) if isinstance(exc, ServiceError) else {}
            if isinstance(exc, Conflict) and details.get("reason") == "over_receipt":
                over = "; ".join(
                    QCoreApplication.translate(
                        "PurchaseReceiving", "{sku} ordered {ordered}, received {received} before, {asked} scanned now"
                    ).format(sku=sku, **v)  # fmt: skip
                    for sku, v in (details.get("lines") or {}).items()
                )
                msg = QCoreApplication.translate("PurchaseReceiving", "More than ordered on {number}: {over}. Take the extra back (Ctrl+Z), then F5").format(number=po.number, over=over)  # fmt: skip
                self._log(po.number, source, f"✗ {msg}")
                self.error(msg)
                return
            self._failed(po.number, source)(exc)

        lines = [{k: v for k, v in x.items() if k != "sku"} for x in self.po_scans]
        body = self.session.request(PurchaseOrderReceipt, {"lines": lines}, failed)
        if body is not None:
            self.session.ops.run(
                self.session.call(receive_po, id=po.id, body=body), on_success=received, on_failure=failed
            )
