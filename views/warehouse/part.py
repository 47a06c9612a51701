"""What the parts of ``WarehouseWorkspace`` (batch.py, floor.py, transfers.py, receiving.py) share:
the workspace's attributes they use, painting the lines table, and asking before what cannot be
undone. One base instead of each part declaring the same attributes and painting rows its own way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QMessageBox, QTableWidget, QTableWidgetItem

from services.fulfillment.schemas import OrderDetail
from views.warehouse.confirm import ask_first
from views.warehouse.product import ProductPanel

if TYPE_CHECKING:  # the workspace these methods belong to (a mixin of it at run time)
    from views.base import Workspace as _Base
else:
    _Base = object

DONE, PART, TODO, OVER = QColor("#b9f6ca"), QColor("#fff59d"), QColor("#ffffff"), QColor("#ff8a80")


def progress(done: int, total: int) -> QColor:
    """A line's colour: green when complete, yellow when begun, red when over, white before."""
    return OVER if done > total else DONE if done >= total else PART if done else TODO


def paint_rows(table: QTableWidget, rows: Sequence[tuple[Sequence[str], QColor, object]]) -> None:
    """Fill ``table`` with ``(cells, colour, key)`` rows; the key is each cell's UserRole data."""
    from PySide6.QtCore import Qt

    table.setRowCount(len(rows))
    for r, (cells, colour, key) in enumerate(rows):
        for c, text in enumerate(cells):
            cell = QTableWidgetItem(text)
            cell.setToolTip(text)
            cell.setBackground(QBrush(colour))
            cell.setData(Qt.ItemDataRole.UserRole, key)
            table.setItem(r, c, cell)


class WorkspacePart(_Base):
    """A part of the scan screen; the attributes below are the workspace's."""

    order: OrderDetail | None
    lines: QTableWidget
    order_title: QLabel
    product: ProductPanel
    next_quantity: int
    say: Callable[..., None]
    error: Callable[[str], None]
    show_order: Callable[[OrderDetail | None], None]
    handle_scan: Callable[[str, str], None]
    _log: Callable[[str, str, str], None]
    _failed: Callable[..., Callable[[BaseException], None]]

    def ask(
        self,
        name: str,
        question: tuple[str, str],
        again: Iterable[str],
        go: Callable[[], None],
        kept: tuple[str, str, str, str],
        key: str | None = None,
    ) -> QMessageBox:
        """The one way this screen asks before an irreversible step (``confirm.ask_first``):
        ``question`` is (title, text); No by default, Esc keeps; scanning one of ``again`` at the
        question, or pressing ``key`` (the key that asked) again, says yes and is logged, then
        ``go()``. On No, ``kept`` is (code, source, what the history says, what the banner says).
        The box is kept as ``self.asking`` (tests and the shell find the open question there)."""

        def answered(yes: bool) -> None:
            if yes:
                go()
                return
            self._log(kept[0], kept[1], kept[2])
            self.say(kept[3], "info")

        log = lambda code, result: self._log(code, "scanner", result)  # noqa: E731
        box = ask_first(self, name, *question, again, log, answered, keys=(key,) if key else ())
        self.asking = box
        return box
