"""The order queue: a lazily loaded table model over the paginated order list.

Rows arrive a page at a time (``canFetchMore``/``fetchMore``) through the op
runner, so a queue of 100,000 orders opens as fast as one page loads.
"""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget

from services.core.pagination import Page
from services.fulfillment.orders import list_orders
from services.fulfillment.schemas import OrderOut, OrderQuery
from views.base import StationSession
from views.i18n import QT_TRANSLATE_NOOP

PAGE = 100
# Marked for lupdate, translated in headerData (the module is imported before the translator).
COLUMNS = (
    QT_TRANSLATE_NOOP("queue", "Order"),
    QT_TRANSLATE_NOOP("queue", "Pick list"),
    QT_TRANSLATE_NOOP("queue", "Customer"),
    QT_TRANSLATE_NOOP("queue", "Status"),
    QT_TRANSLATE_NOOP("queue", "Items"),
    QT_TRANSLATE_NOOP("queue", "Created"),
)
Index = QModelIndex | QPersistentModelIndex


class OrderQueueModel(QAbstractTableModel):
    loaded = Signal(int)  # total matching orders, after each page

    def __init__(self, session: StationSession) -> None:
        super().__init__()
        self.session = session
        self.rows: list[OrderOut] = []
        self.total: int | None = None
        self.status = "pending"
        self.sort_key = "created_at"
        self._loading = False
        self._generation = 0  # a reset makes pages of an older query stale

    def reset(self, status: str | None = None, sort: str | None = None) -> None:
        if status is not None:
            self.status = status
        if sort is not None:
            self.sort_key = sort
        self.beginResetModel()
        self.rows, self.total, self._loading = [], None, False
        self._generation += 1
        self.endResetModel()
        self.fetchMore(QModelIndex())

    def reload(self) -> None:
        """The same query again, from its first page (after a change that touches orders)."""
        self.reset()

    def update_row(self, order: OrderOut) -> None:
        """One order changed that stays where it is (a scan): its row is repainted, nothing reloaded."""
        row = self.row_of(order.id)
        if row >= 0:
            self.rows[row] = order
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(COLUMNS) - 1))

    def row_of(self, order_id: str) -> int:
        return next((i for i, o in enumerate(self.rows) if o.id == order_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt API
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> object:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return QCoreApplication.translate("queue", COLUMNS[section])
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.UserRole):
            return None
        o = self.rows[index.row()]
        if role == Qt.ItemDataRole.UserRole:
            return o.id
        return (
            o.order_number,
            o.pick_barcode,
            o.customer_name,
            QCoreApplication.translate("OrderStatus", o.status),
            f"{o.picked_quantity}/{o.total_quantity}",
            o.created_at.strftime("%d %b %H:%M"),
        )[index.column()]

    def canFetchMore(self, parent: Index) -> bool:  # noqa: N802 - Qt API
        return not parent.isValid() and not self._loading and (self.total is None or len(self.rows) < self.total)

    def fetchMore(self, parent: Index) -> None:  # noqa: N802 - Qt API
        if not self.canFetchMore(parent):
            return
        self._loading = True
        gen = self._generation
        query = OrderQuery(
            offset=len(self.rows), limit=PAGE, sort=self.sort_key, status=None if self.status == "all" else self.status
        )

        def done(page: Page[OrderOut]) -> None:
            if gen != self._generation:
                return
            self._loading = False
            self.total = page.total
            if page.items:
                first = len(self.rows)
                self.beginInsertRows(QModelIndex(), first, first + len(page.items) - 1)
                self.rows.extend(page.items)
                self.endInsertRows()
            self.loaded.emit(page.total)

        def failed(_exc: BaseException) -> None:
            self._loading = False

        self.session.ops.run(self.session.call(list_orders, query=query), on_success=done, on_failure=failed)


def lines_table() -> QTableWidget:
    """The open order's lines: item, barcode, SKU, scanned."""
    lines = QTableWidget(0, 4)
    lines.setObjectName("lines")
    lines.setHorizontalHeaderLabels(
        [
            QCoreApplication.translate("queue", "Item"),
            QCoreApplication.translate("queue", "Barcode"),
            QCoreApplication.translate("queue", "SKU"),
            QCoreApplication.translate("queue", "Scanned"),
        ]
    )
    header = lines.horizontalHeader()
    # Barcodes are read (and, in the demo, typed) from this table: never cut them.
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    lines.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    lines.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    # Item names wrap onto a second line instead of "USB-C …"; the row grows to hold them.
    lines.setTextElideMode(Qt.TextElideMode.ElideNone)
    rows = lines.verticalHeader()
    rows.setVisible(False)
    rows.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    rows.setMinimumSectionSize(48)
    return lines
