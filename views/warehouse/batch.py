"""Batch picking by scanner: a batch of orders picked in one walk, then packed per order. A part of
``WarehouseWorkspace``, kept in a file of its own (the service: services/fulfillment/batches.py).

Scan the batch's number (``B-00001``): its walk shows in the lines table, in walk order (bin code,
then item), the next line to pick selected. At each bin scan the bin's code, then each unit: the
banner says which slot of the cart it goes to (the order). A serial-numbered item asks for the
unit's serial next, a lot-tracked one for its lot (the bin's first to expire is named). When every
unit is picked, scan an order of the batch (its number or pick list) and press F1-F4 to pack it in
that box; F5 then ships it as a single order would be (scan it again outside the batch). Esc leaves
the batch; nothing is lost, the batch stays open.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from services.core.errors import ServiceError
from services.fulfillment.batches import get_batch, operate_batch
from services.fulfillment.schemas import (
    BatchDetail,
    BatchLineOut,
    BatchOperationRequest,
    BatchOperationResult,
)
from views.warehouse.part import WorkspacePart, paint_rows, progress
from views.wording import state_word

BATCH_NUMBER = re.compile(r"^B-\d{5,10}$", re.IGNORECASE)  # B-00001; a bin may be "B-02"


class BatchPicking(WorkspacePart):
    """The batch mode of the scan screen."""

    def init_batch(self) -> None:
        self.batch: BatchDetail | None = None
        self.batch_location: str | None = None  # the bin last scanned
        self.batch_serial_for: str | None = None  # the item scanned whose serial (or lot) the next scan is
        self.batch_wants_lot = False  # the next scan is that item's lot code, not a serial
        self.batch_order: str | None = None  # the order (number) F1-F4 packs

    def close_batch(self) -> None:
        self.batch = None
        self.batch_location = self.batch_serial_for = self.batch_order = None
        self.batch_wants_lot = False

    def batch_scan(self, code: str, source: str) -> bool:
        """A batch number opens the batch; with one open, every scan is the batch's. False: neither."""
        b = self.batch
        in_walk = b is not None and any(code.upper() == (ln.location_code or "").upper() for ln in b.lines)
        if BATCH_NUMBER.match(code) and not in_walk:
            self.open_batch(code, source)
            return True
        if b is None:
            return False
        if self.batch_serial_for is not None:
            item, self.batch_serial_for = self.batch_serial_for, None
            if self.batch_wants_lot:
                self.batch_wants_lot = False
                self._batch_pick(item, source, lot=code)
            else:
                self._batch_pick(item, source, serial=code)
            return True
        if b.status == "picked":
            order = next(
                (o.order_number for o in b.orders if code.upper() in (o.order_number.upper(), o.order_id.upper())),
                None,
            )
            if order is None:
                self._log(
                    code,
                    source,
                    QCoreApplication.translate("BatchPicking", "✗ not an order of {b.batch_number}").format(b=b),
                )
                self.error(
                    QCoreApplication.translate(
                        "BatchPicking",
                        "{code} is not an order of batch {b.batch_number}: scan one of its orders to pack it",
                    ).format(code=code, b=b)
                )
                return True
            self.batch_order = order
            slot = next(o.slot for o in b.orders if o.order_number == order)
            self._log(
                code,
                source,
                QCoreApplication.translate("BatchPicking", "packing {order} (slot {slot})").format(
                    order=order, slot=slot
                ),
            )
            self.say(
                QCoreApplication.translate(
                    "BatchPicking", "Pack {order} from slot {slot}: F1 S · F2 M · F3 L · F4 XL"
                ).format(order=order, slot=slot),
                "info",
            )
            return True
        if b.status not in ("open", "picking"):
            self.error(
                QCoreApplication.translate(
                    "BatchPicking", "Batch {b.batch_number} is {b.status}: nothing to scan. Esc leaves it"
                ).format(b=b)
            )
            return True
        bins = {(ln.location_code or "").upper() for ln in b.lines if ln.location_code}
        if code.upper() in bins:
            self.batch_location = code.upper()
            todo = [
                ln for ln in b.lines if ln.location_code == self.batch_location and ln.picked_quantity < ln.quantity
            ]
            what = ", ".join(
                f"{ln.quantity - ln.picked_quantity} × {ln.name}" for ln in todo
            ) or QCoreApplication.translate("BatchPicking", "nothing left here")
            self._log(
                code,
                source,
                QCoreApplication.translate("BatchPicking", "at {batch_location}").format(
                    batch_location=self.batch_location
                ),
            )
            self.say(
                QCoreApplication.translate("BatchPicking", "At {batch_location}: {what}").format(
                    batch_location=self.batch_location, what=what
                ),
                "info",
            )
            self._paint_batch()
            return True
        self._batch_pick(code, source)
        return True

    def open_batch(self, code: str, source: str) -> None:
        def got(b: BatchDetail) -> None:
            self.show_order(None)
            self.close_batch()
            self.batch = b
            self._paint_batch()
            self._log(code, source, QCoreApplication.translate("BatchPicking", "opened {b.batch_number}").format(b=b))
            if b.status in ("open", "picking"):
                nxt = self._next_line()
                where = (
                    f"go to {nxt.location_code}"
                    if nxt is not None and nxt.location_code
                    else QCoreApplication.translate("BatchPicking", "scan the items")
                )
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking", "Batch {b.batch_number}: {count} orders, {b.unit_count} units — {where}"
                    ).format(b=b, count=len(b.orders), where=where),
                    "info",
                )
            elif b.status == "picked":
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking", "Batch {b.batch_number} is picked: scan an order to pack it"
                    ).format(b=b),
                    "info",
                )
            else:
                self.say(
                    QCoreApplication.translate("BatchPicking", "Batch {b.batch_number} is {b.status}").format(b=b),
                    "info",
                )

        self.session.ops.run(
            self.session.call(get_batch, id=code.upper()), on_success=got, on_failure=self._failed(code, source)
        )

    def _batch_pick(self, code: str, source: str, serial: str | None = None, lot: str | None = None) -> None:
        b = self.batch
        if b is None:
            return
        body: dict[str, object] = {"operation": "pick", "code": code}
        if self.batch_location is not None:
            body["location"] = self.batch_location
        if serial is not None:
            body["serial"] = serial
        if lot is not None:
            body["lot"] = lot

        def picked(res: BatchOperationResult) -> None:
            self.batch = res
            self._paint_batch()
            slots = ", ".join(f"slot {p.slot} ({p.order_number})" for p in res.put_to)
            self._log(serial or lot or code, source, f"✓ → {slots}")
            if res.status == "picked":
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking", "✓ Put it in {slots}. Batch picked: scan an order to pack it"
                    ).format(slots=slots),
                    "done",
                )
            else:
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking", "✓ Put it in {slots}  ·  {res.picked_units} of {res.unit_count} units"
                    ).format(slots=slots, res=res),
                    "ok",
                )

        def failed(exc: BaseException) -> None:
            details = (exc.details or {}) if isinstance(exc, ServiceError) else {}
            if details.get("reason") == "serial_required":
                self.batch_serial_for = code
                self._log(code, source, QCoreApplication.translate("BatchPicking", "serial needed"))
                name = next((ln.name for ln in b.lines if code in (ln.barcode, ln.sku)), code)
                self.say(
                    QCoreApplication.translate("BatchPicking", "Scan the serial number of this {name}").format(
                        name=name
                    ),
                    "info",
                )
                return
            if details.get("reason") == "lot_required":
                # The service names the bin's lots, first to expire first: the one to take.
                self.batch_serial_for, self.batch_wants_lot = code, True
                name = next((ln.name for ln in b.lines if code in (ln.barcode, ln.sku)), code)
                first = (details.get("proposed") or [""])[0]
                self.say(
                    QCoreApplication.translate("FloorWork", "Scan the lot code of this {name}").format(name=name)
                    + (f"  ·  {first}" if first else ""),
                    "info",
                )
                return
            if details.get("reason") == "not_in_batch" and self._leave_batch_for(code):
                self.handle_scan(code, source)
                return
            self._failed(serial or lot or code, source)(exc)

        request = BatchOperationRequest.model_validate(body)
        self.session.ops.run(
            self.session.call(operate_batch, id=b.id, body=request), on_success=picked, on_failure=failed
        )

    def _leave_batch_for(self, code: str) -> bool:
        """An order number scanned during the walk: leave the batch for it (the batch stays open)."""
        if code.upper().startswith(("SO-", "PL")):
            self.close_batch()
            return True
        return False

    def batch_pack(self, box: str) -> None:
        b, order = self.batch, self.batch_order
        if b is None:
            return
        if b.status != "picked" or order is None:
            self.error(QCoreApplication.translate("BatchPicking", "Scan an order of the batch first: F1-F4 packs it") if b.status == "picked" else
                       QCoreApplication.translate("BatchPicking", "Batch {b.batch_number} is {b.status}: pick every unit before packing").format(b=b))  # fmt: skip
            return

        def packed(res: BatchOperationResult) -> None:
            self.batch, self.batch_order = res, None
            self._paint_batch()
            self._log(
                f"BOX-{box}", "key", QCoreApplication.translate("BatchPicking", "packed {order}").format(order=order)
            )
            if res.status == "packed":
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking",
                        "Packed {order} in box {box}. Batch {res.batch_number} is packed: scan each order, F5 ships",
                    ).format(order=order, box=box, res=res),
                    "done",
                )
            else:
                self.say(
                    QCoreApplication.translate(
                        "BatchPicking", "Packed {order} in box {box}: scan the next order"
                    ).format(order=order, box=box),
                    "ok",
                )

        request = BatchOperationRequest.model_validate({"operation": "pack", "order": order, "box": box})
        self.session.ops.run(
            self.session.call(operate_batch, id=b.id, body=request),
            on_success=packed,
            on_failure=self._failed(f"BOX-{box}", "key"),
        )

    def _next_line(self) -> BatchLineOut | None:
        b = self.batch
        return next((ln for ln in b.lines if ln.picked_quantity < ln.quantity), None) if b is not None else None

    def _paint_batch(self) -> None:
        b = self.batch
        if b is None:
            return
        packed = sum(1 for o in b.orders if o.status in ("packed", "shipped"))
        self.order_title.setText(
            QCoreApplication.translate(
                "BatchPicking",
                "Batch {b.batch_number} · {value} · {b.picked_units}/{b.unit_count} units · {packed}/{count} orders packed",
            ).format(b=b, value=state_word(b.status).upper(), packed=packed, count=len(b.orders))
        )
        nxt = self._next_line()
        rows = []
        for ln in b.lines:
            slots = " ".join(f"{a.slot}:{a.quantity}" for a in ln.allocations)
            cells = (
                ln.name,
                f"@ {ln.location_code or '—'}",
                f"{ln.sku}  → {slots}",
                f"{ln.picked_quantity} / {ln.quantity}",
            )
            rows.append((cells, progress(ln.picked_quantity, ln.quantity), ln.id))
        paint_rows(self.lines, rows)
        if nxt is not None:
            r = next(i for i, ln in enumerate(b.lines) if ln is nxt)
            self.lines.selectRow(r)
            self.lines.scrollTo(self.lines.model().index(r, 0))
