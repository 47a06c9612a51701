"""F5 ship and cancel ask first (issue 34 part 5: every irreversible key asks). A part of
``WarehouseWorkspace``, kept in a file of its own, in front of its ``ship`` and ``cancel``.

A packed order's label is bought and its stock leaves for good when it ships; a cancelled order
releases its reservation. So F5 (or CMD-SHIP) on a packed order asks "Ship this order?", and
CMD-CANCEL asks "Cancel this order?", the way a transfer or a partial shipment asks
(``WorkspacePart.ask``): No by default, Esc keeps, the same code scanned again (CMD-SHIP or the
order's number; CMD-CANCEL), or F5 pressed again, says yes and the history logs it. F5 on an order that is not packed
yet asks nothing: the service refuses it and the banner says what to do first. With a purchase
order open, F5 receives what was scanned (``receiving.py``), asking first as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from views.warehouse.part import WorkspacePart

if TYPE_CHECKING:
    from services.inventory.purchasing_schemas import PurchaseOrderOut


class OrderQuestions(WorkspacePart):
    ship: Callable[[], None]
    cancel: Callable[[], None]
    ask_receive: Callable[[str], None]
    po: PurchaseOrderOut | None

    def ask_ship(self, code: str = "F5") -> None:
        if self.po is not None:
            self.ask_receive("key")
            return
        o = self.order
        if o is None or o.status != "packed":
            self.ship()  # nothing would ship: the service's refusal says what to do first
            return
        title = QCoreApplication.translate("OrderQuestions", "Ship this order?")
        text = QCoreApplication.translate("OrderQuestions", "Ship {number} to {who} in box {box}?\nThe label is bought and the stock leaves: this cannot be undone. (F5 again, or scanning {number} or CMD-SHIP, says yes.)").format(number=o.order_number, who=o.customer_name or "—", box=o.box or "—")  # fmt: skip
        kept = QCoreApplication.translate("OrderQuestions", "kept {number}").format(number=o.order_number)
        said = QCoreApplication.translate("OrderQuestions", "{number} not shipped: F5 ships it").format(number=o.order_number)  # fmt: skip
        self.ship_box = self.ask("ship-order", (title, text), [o.order_number, "CMD-SHIP"], self.ship, (code, "key", kept, said), "F5" if code == "F5" else None)  # fmt: skip

    def ask_cancel(self) -> None:
        o = self.order
        if (
            o is None
            or o.status in ("shipped", "delivered", "cancelled")
            or self.session.principal.role == "warehouse-device"
        ):
            self.cancel()  # nothing to cancel, or not theirs to: the service's refusal says so
            return
        title = QCoreApplication.translate("OrderQuestions", "Cancel this order?")
        text = QCoreApplication.translate("OrderQuestions", "Cancel {number} of {who}?\nIts reserved stock is released: this cannot be undone. (Scanning CMD-CANCEL again says yes.)").format(number=o.order_number, who=o.customer_name or "—")  # fmt: skip
        kept = QCoreApplication.translate("OrderQuestions", "kept {number}").format(number=o.order_number)
        said = QCoreApplication.translate("OrderQuestions", "{number} not cancelled").format(number=o.order_number)
        self.cancel_box = self.ask("cancel-order", (title, text), ["CMD-CANCEL"], self.cancel, ("CMD-CANCEL", "key", kept, said))  # fmt: skip
