"""A transfer slip scanned at the packing station. A part of ``WarehouseWorkspace``, kept in a file
of its own.

Scanning a slip's code (``TR-5F570155``, the Code 128 on the slip the Stock count prints with F8)
opens the transfer: its route, state and lines. Scanning it again asks "Ship this transfer?" (or
"Receive …?" for one in transit), No by default so a scanner's stray Enter moves nothing; Yes, or
the slip scanned a third time at the question, ships or receives it. Transfers are Inventory's:
a station user without that module is told to use the Stock count workspace.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QCoreApplication

from services.core.errors import Forbidden
from services.core.pagination import Page
from services.inventory.locations import list_locations
from services.inventory.schemas import LocationOut, LocationQuery, TransferOut, TransferQuery, TransferStatusIn
from services.inventory.transfers import list_transfers, update_transfer
from views.stockcount.slip import slip_code
from views.warehouse.part import DONE, TODO, WorkspacePart, paint_rows
from views.wording import state_word

SLIP = re.compile(r"^TR-[0-9A-F]{8}$", re.IGNORECASE)


class TransferSlips(WorkspacePart):
    """The open transfer."""

    def init_transfers(self) -> None:
        self.transfer: TransferOut | None = None
        self.place_codes: dict[str, str] = {}  # location id -> code

    def close_transfer(self) -> None:
        self.transfer = None

    def transfer_scan(self, code: str, source: str) -> bool:
        if not SLIP.match(code.strip()):
            return False
        t = self.transfer
        if t is not None and slip_code(t.id) == code.strip().upper():
            self.ask_move(t, source)
            return True
        self.open_transfer(code.strip().upper(), source)
        return True

    def open_transfer(self, code: str, source: str) -> None:
        def got(page: Page[TransferOut]) -> None:
            found = next((t for t in page.items if slip_code(t.id) == code), None)
            if found is None:
                self._log(code, source, QCoreApplication.translate("TransferSlips", "✗ no open transfer"))
                self.error(
                    QCoreApplication.translate(
                        "TransferSlips", "No transfer {code} to ship or receive (it may be done or cancelled)"
                    ).format(code=code)
                )
                return
            self.show_order(None)
            self.show_transfer(found)
            self._log(
                code, source, QCoreApplication.translate("TransferSlips", "opened transfer {code}").format(code=code)
            )
            again = (
                QCoreApplication.translate("TransferSlips", "Transfer {code}: scan the slip again to ship it")
                if found.status == "draft"
                else QCoreApplication.translate("TransferSlips", "Transfer {code}: scan the slip again to receive it")
            )
            self.say(again.format(code=code), "info")

        def failed(exc: BaseException) -> None:
            if isinstance(exc, Forbidden):
                self._log(code, source, QCoreApplication.translate("TransferSlips", "✗ transfers need Inventory"))
                self.error(
                    QCoreApplication.translate(
                        "TransferSlips", "{code} is a transfer: ship or receive it in the Stock count workspace"
                    ).format(code=code)
                )
                return
            self._failed(code, source)(exc)

        def places(page: Page[LocationOut]) -> None:
            self.place_codes = {loc.id: loc.code for loc in page.items}

        call, run = self.session.call, self.session.ops.run
        query = TransferQuery(status="draft,in_transit", limit=100)

        def transfers(_: object = None) -> None:
            run(call(list_transfers, query=query), on_success=got, on_failure=failed)

        def places_then_transfers(page: Page[LocationOut]) -> None:
            places(page)
            transfers()

        if self.place_codes:
            transfers()
        else:  # the route's codes first, so the title never shows "? -> ?"
            run(
                call(list_locations, query=LocationQuery(limit=100)),
                on_success=places_then_transfers,
                on_failure=failed,
            )

    def show_transfer(self, t: TransferOut) -> None:
        self.transfer = t
        route = f"{self.place_codes.get(t.from_location_id, '?')} → {self.place_codes.get(t.to_location_id, '?')}"
        title = QCoreApplication.translate("TransferSlips", "Transfer {code} · {route} · {status}")
        self.order_title.setText(title.format(code=slip_code(t.id), route=route, status=state_word(t.status).upper()))
        colour = DONE if t.status == "completed" else TODO
        paint_rows(self.lines, [((ln.sku, "", ln.sku, str(ln.quantity)), colour, ln.sku) for ln in t.lines])

    def ask_move(self, t: TransferOut, source: str) -> None:
        """Shipping or receiving cannot be taken back: ask first, No by default."""
        status = "in_transit" if t.status == "draft" else "completed"
        what = ", ".join(f"{ln.quantity}× {ln.sku}" for ln in t.lines)
        shipping = status == "in_transit"
        text = (
            QCoreApplication.translate(
                "TransferSlips", "Ship {code}: {what}?\nThis cannot be undone. (Scanning the slip again says yes.)"
            )
            if shipping
            else QCoreApplication.translate(
                "TransferSlips", "Receive {code}: {what}?\nThis cannot be undone. (Scanning the slip again says yes.)"
            )
        )
        title = (
            QCoreApplication.translate("TransferSlips", "Ship this transfer?")
            if shipping
            else QCoreApplication.translate("TransferSlips", "Receive this transfer?")
        )

        code = slip_code(t.id)
        kept = QCoreApplication.translate("TransferSlips", "kept {code}").format(code=code)
        said = QCoreApplication.translate("TransferSlips", "{code} not moved").format(code=code)
        go = lambda: self._move(t, status, source)  # noqa: E731
        asked = (title, text.format(code=code, what=what))
        self.transfer_box = self.ask("move-transfer", asked, [code], go, (code, source, kept, said))

    def _move(self, t: TransferOut, status: str, source: str) -> None:
        def moved(done: TransferOut) -> None:
            self.show_transfer(done)
            shipped = done.status == "in_transit"
            self._log(
                slip_code(done.id),
                source,
                QCoreApplication.translate("TransferSlips", "✓ transfer shipped")
                if shipped
                else QCoreApplication.translate("TransferSlips", "✓ transfer received"),
            )
            said = (
                QCoreApplication.translate("TransferSlips", "✓ Transfer {code} shipped")
                if shipped
                else QCoreApplication.translate("TransferSlips", "✓ Transfer {code} received")
            )
            self.say(said.format(code=slip_code(done.id)), "done")

        body = TransferStatusIn.model_validate({"status": status})
        self.session.ops.run(
            self.session.call(update_transfer, id=t.id, body=body),
            on_success=moved,
            on_failure=self._failed(slip_code(t.id), source),
        )
