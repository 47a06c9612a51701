"""The warehouse workspace's floor work beyond a whole order: serial numbers, partial shipment and
returns by scan. A part of ``WarehouseWorkspace``, kept in a file of its own.

- **Serials:** an item whose units are serial-numbered (Inventory holds serials of its SKU) asks,
  after each scan of it, for the unit's serial. The serial must be in stock, of that item, and not
  already scanned on this order; the next item scan is refused until it is given.
- **Partial shipment (F7):** ship what is picked, the rest becomes a backorder
  (``fulfillment.orders.operate`` ``split``). It cannot be taken back, so it asks first (No is the
  default: a stray Enter from a scanner splits nothing).
- **Returns:** scanning an RMA number (``RMA-1031-1``) opens the return; each item scan receives one
  unit as resellable (back into stock) or, after F9, damaged (quarantine), through
  ``fulfillment.returns.receive``. Esc closes it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from services.core.errors import ServiceError
from services.core.pagination import Page
from services.fulfillment.orders import operate
from services.fulfillment.returns import get_return, receive_return
from services.fulfillment.schemas import (
    LineOut,
    OperationRequest,
    OperationResult,
    OrderDetail,
    ReturnOut,
    ReturnReceive,
)
from services.inventory.items import list_items
from services.inventory.lot_schemas import LotOut
from services.inventory.lots import get_lot
from services.inventory.schemas import ItemOut, ItemQuery, SerialOut, SerialQuery
from services.inventory.serials import get_serial, list_serials
from views.ops import error_message
from views.warehouse.part import WorkspacePart, paint_rows, progress
from views.wording import state_word


class FloorWork(WorkspacePart):
    """Serials, partial shipment and returns."""

    def init_floor(self) -> None:
        self.tracked: dict[str, str] = {}  # SKU -> "serial", "lot" or "none" (asked once per shift)
        self.want_serial: LineOut | None = None  # the line whose unit's serial (or lot) the next scan gives
        self.want_lot = False  # the next scan is the lot's code, not a serial
        self.serials: dict[str, list[SerialOut]] = {}  # order id -> the serials scanned on it
        self.lots: dict[str, list[tuple[str, str]]] = {}  # order id -> (SKU, lot code) per unit scanned
        self.rma: ReturnOut | None = None
        self.damaged_next = False

    # --- serials ----------------------------------------------------------------------------

    def shipped_units(self, order_id: str) -> list[dict[str, Any]]:
        """The serials and lots scanned on the order, as the ship call takes them: Inventory ships
        those very units, so a recall and After-sale's check find this order."""
        units: list[dict[str, Any]] = [{"code": sn.sku, "serial": sn.serial} for sn in self.serials.get(order_id, [])]
        per_lot: dict[tuple[str, str], int] = {}
        for sku, code in self.lots.get(order_id, []):
            per_lot[(sku, code)] = per_lot.get((sku, code), 0) + 1
        units += [{"code": sku, "lot": code, "quantity": n} for (sku, code), n in per_lot.items()]
        return units

    def after_pick(self, line: LineOut) -> None:
        """Called after a unit of ``line`` was scanned: ask for its serial or its lot when the item
        tracks them (the item's ``tracking``; an item with serials in Inventory counts as serial)."""

        def ask(tracking: str) -> None:
            self.tracked[line.sku] = tracking
            if tracking in ("serial", "lot"):
                self.want_serial, self.want_lot = line, tracking == "lot"
                what = (
                    QCoreApplication.translate("FloorWork", "Scan the lot code of this {name}")
                    if self.want_lot
                    else QCoreApplication.translate("FloorWork", "Scan the serial number of this {name}")
                )
                self.say(what.format(name=line.name), "info")

        def by_serials() -> None:
            self.session.ops.run(
                self.session.call(list_serials, query=SerialQuery(sku=line.sku, limit=1)),
                on_success=lambda page: ask("serial" if page.total > 0 else "none"),
                on_failure=lambda _e: ask("none"),
            )

        def got_item(page: Page[ItemOut]) -> None:
            item = next((i for i in page.items if i.sku == line.sku), None)
            if item is not None and item.tracking != "none":
                ask(item.tracking)
            else:
                by_serials()

        if line.sku in self.tracked:
            ask(self.tracked[line.sku])
            return
        self.session.ops.run(
            self.session.call(list_items, query=ItemQuery(code=line.sku, limit=5)),
            on_success=got_item,
            on_failure=lambda _e: ask("none"),  # no Inventory for this station's user: nothing to ask
        )

    def scan_lot(self, code: str, source: str) -> None:
        line, o = self.want_serial, self.order
        if line is None or o is None:
            return

        def got(lot: LotOut) -> None:
            problem = ""
            if lot.sku != line.sku:
                problem = QCoreApplication.translate(
                    "FloorWork", "Lot {lot.code} is of {lot.sku}, not this {line.name}"
                ).format(lot=lot, line=line)
            elif lot.on_hand <= 0:
                problem = QCoreApplication.translate("FloorWork", "Lot {lot.code} has nothing in stock").format(lot=lot)
            if problem:
                self._log(code, source, f"✗ {problem}")
                self.error(
                    QCoreApplication.translate(
                        "FloorWork", "{problem}. Scan the lot code on the unit in your hand."
                    ).format(problem=problem)
                )
                return
            self.lots.setdefault(o.id, []).append((line.sku, lot.code))
            self.want_serial, self.want_lot = None, False
            self._log(
                code,
                source,
                QCoreApplication.translate("FloorWork", "✓ lot {lot.code} of {line.sku}").format(lot=lot, line=line),
            )
            if o.status == "picked":
                self.say(
                    QCoreApplication.translate(
                        "FloorWork", "✓ Lot {lot.code}. All items verified — pack: F1 S · F2 M · F3 L · F4 XL"
                    ).format(lot=lot),
                    "done",
                )
            else:
                self.say(
                    QCoreApplication.translate("FloorWork", "✓ {line.name}: lot {lot.code}").format(line=line, lot=lot),
                    "ok",
                )

        def failed(exc: BaseException) -> None:
            msg = error_message(exc, {"lot": code})
            self._log(code, source, f"✗ {msg}")
            self.error(
                QCoreApplication.translate("FloorWork", "{msg}. Scan the lot code of this {line.name}.").format(
                    msg=msg, line=line
                )
            )

        self.session.ops.run(self.session.call(get_lot, id=code), on_success=got, on_failure=failed)

    def scan_serial(self, code: str, source: str) -> None:
        line, o = self.want_serial, self.order
        if line is None or o is None:
            return
        if self.want_lot:
            self.scan_lot(code, source)
            return
        seen = self.serials.setdefault(o.id, [])

        def got(sn: SerialOut) -> None:
            problem = ""
            if sn.sku != line.sku:
                problem = QCoreApplication.translate(
                    "FloorWork", "Serial {sn.serial} is a {sn.sku}, not this {line.name}"
                ).format(sn=sn, line=line)
            elif sn.status != "in_stock":
                problem = QCoreApplication.translate(
                    "FloorWork", "Serial {sn.serial} is not in stock (it {value})"
                ).format(sn=sn, value=sn.status.replace("_", " "))
            elif any(x.id == sn.id for x in seen):
                problem = QCoreApplication.translate(
                    "FloorWork", "Serial {sn.serial} is scanned on this order already"
                ).format(sn=sn)
            if problem:
                self._log(code, source, f"✗ {problem}")
                self.error(
                    QCoreApplication.translate(
                        "FloorWork", "{problem}. Scan the serial of the unit in your hand."
                    ).format(problem=problem)
                )
                return
            seen.append(sn)
            self.want_serial = None
            self._log(
                code,
                source,
                QCoreApplication.translate("FloorWork", "✓ serial {sn.serial} of {line.sku}").format(sn=sn, line=line),
            )
            if o.status == "picked":
                self.say(
                    QCoreApplication.translate(
                        "FloorWork", "✓ Serial {sn.serial}. All items verified — pack: F1 S · F2 M · F3 L · F4 XL"
                    ).format(sn=sn),
                    "done",
                )
            else:
                self.say(
                    QCoreApplication.translate("FloorWork", "✓ {line.name}: serial {sn.serial}").format(
                        line=line, sn=sn
                    ),
                    "ok",
                )

        def failed(exc: BaseException) -> None:
            msg = error_message(exc, {"serial": code})
            self._log(code, source, f"✗ {msg}")
            self.error(
                QCoreApplication.translate("FloorWork", "{msg}. Scan the serial number of this {line.name}.").format(
                    msg=msg, line=line
                )
            )

        self.session.ops.run(self.session.call(get_serial, id=code), on_success=got, on_failure=failed)

    # --- partial shipment ------------------------------------------------------------------------

    def ship_partly(self) -> None:
        o = self.order
        if o is None or o.status != "pending":
            self.error(
                QCoreApplication.translate(
                    "FloorWork", "F7 ships part of an order: open a pending order and scan what ships now"
                )
            )
            return
        done, total = sum(ln.picked_quantity for ln in o.lines), sum(ln.quantity for ln in o.lines)
        if done == 0:
            self.error(
                QCoreApplication.translate(
                    "FloorWork", "Nothing of {o.order_number} is scanned: scan what ships now, then F7"
                ).format(o=o)
            )
            return
        title = QCoreApplication.translate("FloorWork", "Ship part of this order?")
        text = QCoreApplication.translate("FloorWork", "Ship the {done} scanned items of {o.order_number} and make a backorder of the other {value}?\nThis cannot be undone. (F7 again or scanning {o.order_number} says yes.)").format(done=done, o=o, value=total - done)  # fmt: skip
        kept = QCoreApplication.translate("FloorWork", "kept {o.order_number} whole").format(o=o)
        said = QCoreApplication.translate("FloorWork", "{o.order_number} stays whole: scan the rest").format(o=o)
        go = lambda: self._split(o)  # noqa: E731
        self.partly_box = self.ask("ship-partly", (title, text), [o.order_number], go, ("F7", "key", kept, said), "F7")

    def _split(self, o: OrderDetail) -> None:
        def split(res: OperationResult) -> None:
            self.show_order(res)
            back = res.backorder
            rest = f"; backorder {back.order_number}" if back is not None else ""
            self._log(
                "F7",
                "key",
                QCoreApplication.translate("FloorWork", "split {res.order_number}{rest}").format(res=res, rest=rest),
            )
            self.say(
                QCoreApplication.translate(
                    "FloorWork", "✓ {res.order_number} ships what is scanned{rest}. Pack it: F1 S · F2 M · F3 L · F4 XL"
                ).format(res=res, rest=rest),
                "done",
            )

        body = OperationRequest.model_validate({"operation": "split"})
        self.session.ops.run(
            self.session.call(operate, id=o.id, body=body), on_success=split, on_failure=self._failed("F7", "key")
        )

    # --- returns ------------------------------------------------------------------------------------

    def toggle_damaged(self) -> None:
        if self.rma is None:
            self.error(
                QCoreApplication.translate("FloorWork", "F9 marks a returned item damaged: scan an RMA number first")
            )
            return
        self.damaged_next = not self.damaged_next
        if self.damaged_next:
            self.say(
                QCoreApplication.translate("FloorWork", "Next item: DAMAGED (goes to quarantine). Scan it"), "error"
            )
        else:
            self.say(
                QCoreApplication.translate("FloorWork", "Next item: resellable (back into stock). Scan it"), "info"
            )

    def close_return(self) -> None:
        self.rma, self.damaged_next = None, False

    def return_scan(self, code: str, source: str) -> bool:
        """An RMA number opens its return; with a return open, item scans receive units. False: not
        a return's scan, and the workspace goes on with it as usual."""
        if code.upper().startswith("RMA-"):
            self.open_return(code, source)
            return True
        rma = self.rma
        if rma is None:
            return False
        condition = "damaged" if self.damaged_next else "resellable"
        self.damaged_next = False

        def received(r: ReturnOut) -> None:
            self.show_return(r)
            self._log(
                code,
                source,
                QCoreApplication.translate("FloorWork", "✓ received {condition} on {r.rma_number}").format(
                    condition=condition, r=r
                ),
            )
            where = (
                QCoreApplication.translate("FloorWork", "quarantine")
                if condition == "damaged"
                else QCoreApplication.translate("FloorWork", "back into stock")
            )
            tail = QCoreApplication.translate("FloorWork", " — all received") if r.status == "received" else ""
            self.say(f"✓ {code}: {condition}, {where}{tail}", "done" if r.status == "received" else "ok")

        def failed(exc: BaseException) -> None:
            details = (exc.details or {}) if isinstance(exc, ServiceError) else {}
            if details.get("reason") == "not_on_return":
                # Not an item of this return: an order number, say. The return closes, the scan goes on.
                self._log(
                    code, source, QCoreApplication.translate("FloorWork", "left {rma.rma_number}").format(rma=rma)
                )
                self.close_return()
                self.handle_scan(code, source)
                return
            self._failed(code, source)(exc)

        body = ReturnReceive.model_validate({"items": [{"code": code, "quantity": 1, "condition": condition}]})
        self.session.ops.run(
            self.session.call(receive_return, id=rma.id, body=body), on_success=received, on_failure=failed
        )
        return True

    def open_return(self, code: str, source: str) -> None:
        def got(r: ReturnOut) -> None:
            self.show_order(None)
            self.show_return(r)
            self._log(code, source, QCoreApplication.translate("FloorWork", "opened {r.rma_number}").format(r=r))
            if r.status == "received":
                self.say(
                    QCoreApplication.translate(
                        "FloorWork", "{r.rma_number} is received already: nothing left to scan"
                    ).format(r=r),
                    "info",
                )
            else:
                self.say(
                    QCoreApplication.translate(
                        "FloorWork",
                        "Return {r.rma_number} of {r.order_number}: scan each item (F9: the next is damaged)",
                    ).format(r=r),
                    "info",
                )

        self.session.ops.run(
            self.session.call(get_return, id=code), on_success=got, on_failure=self._failed(code, source)
        )

    def show_return(self, r: ReturnOut) -> None:
        self.rma = r
        self.order_title.setText(
            QCoreApplication.translate("FloorWork", "{r.rma_number} · return of {r.order_number} · {value}").format(
                r=r, value=state_word(r.status).upper()
            )
        )
        rows = []
        for ln in r.lines:
            got: dict[str, Any] = dict(ln.get("received") or {})
            n = sum(got.values())
            parts = ", ".join(f"{v} {k}" for k, v in sorted(got.items()) if v)
            rows.append(
                ((ln["sku"], parts, ln["sku"], f"{n} / {ln['quantity']}"), progress(n, ln["quantity"]), ln["sku"])
            )
        paint_rows(self.lines, rows)
