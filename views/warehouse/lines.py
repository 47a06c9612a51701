"""The open order's lines table: filled when an order opens, and after a scan only the cells that
changed (rebuilding every item made Qt lay the table out and paint it all again: most of a scan's
time on the UI thread; issue 38 wants Enter to painted inside one frame)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QTableWidget

from services.core.context import CommitInfo
from services.fulfillment.orders import operate
from services.fulfillment.schemas import LineOut, OrderDetail
from views.base import ran_only
from views.warehouse.part import DONE, OVER, PART, TODO, paint_rows, progress

GREEN, YELLOW, RED, WHITE = DONE, PART, OVER, TODO
SCANNED = 3  # the column that counts


def scanned(ln: LineOut) -> str:
    return f"{ln.picked_quantity} / {ln.quantity}"


def colour(ln: LineOut) -> QColor:
    return progress(ln.picked_quantity, ln.quantity)


def fill_lines(table: QTableWidget, lines: Sequence[LineOut]) -> None:
    """Every line anew: item, barcode, SKU, scanned, coloured by how far it is scanned."""
    paint_rows(table, [((ln.name, ln.barcode or "", ln.sku, scanned(ln)), colour(ln), ln.id) for ln in lines])


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
        text, brush = scanned(ln), QBrush(colour(ln))
        for c in range(table.columnCount()):
            item = table.item(r, c)
            if item is None:
                continue
            if c == SCANNED:
                item.setText(text)
                item.setToolTip(text)
            item.setBackground(brush)
