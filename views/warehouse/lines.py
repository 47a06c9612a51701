"""The open order's lines after a scan: only the cells that changed. Rebuilding every item (as
opening an order does, ``part.paint_rows``) made Qt lay the table out and paint it all again, most
of a scan's time on the UI thread (issue 38: Enter to painted inside one frame)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QBrush
from PySide6.QtWidgets import QTableWidget

from services.core.context import CommitInfo
from services.fulfillment.orders import operate
from services.fulfillment.schemas import LineOut, OrderDetail
from views.base import ran_only
from views.warehouse.part import progress

SCANNED = 3  # the column that counts


def own_scan(change: CommitInfo, scanning: set[str]) -> bool:
    """The workspace's own pick on one order (``scanning``: orders with a pick of its own under way),
    committed here. Reloading the queue and the counts for it cost a page and a count of every order
    on each scan, and the model's reset delayed the line's repaint past a frame; the pick's answer
    updates its row instead. Anything else (a pull, another window, pack or ship) reloads."""
    return (
        change.origin == "local"
        and ran_only(change, operate)
        and len(change.ids) == 1
        and next(iter(change.ids)) in scanning
    )


def same_lines(a: OrderDetail, b: OrderDetail) -> bool:
    """The same order with the same lines in the same rows (only their counts may differ)."""
    return a.id == b.id and [(ln.id, ln.name, ln.barcode, ln.sku) for ln in a.lines] == [
        (ln.id, ln.name, ln.barcode, ln.sku) for ln in b.lines
    ]


def update_lines(table: QTableWidget, before: Sequence[LineOut], after: Sequence[LineOut]) -> None:
    """The rows whose counts changed get their new count and colour; nothing else is touched."""
    for r, (was, ln) in enumerate(zip(before, after, strict=True)):
        if was.picked_quantity == ln.picked_quantity and was.quantity == ln.quantity:
            continue
        text, brush = f"{ln.picked_quantity} / {ln.quantity}", QBrush(progress(ln.picked_quantity, ln.quantity))
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is None:
                continue
            if c == SCANNED:
                item.setText(text)
                item.setToolTip(text)
            item.setBackground(brush)
