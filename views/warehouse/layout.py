"""The warehouse workspace's layout: the order queue, the scan screen with the product on scan, the
last label and the shift's history. A part of ``WarehouseWorkspace``, kept in a file of its own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QTableView,
    QVBoxLayout,
)

from views.base import share_column, shown_title
from views.i18n import QT_TRANSLATE_NOOP
from views.shell.scan_input import ScanInput
from views.warehouse.product import ProductPanel
from views.warehouse.queue import COLUMNS, OrderQueueModel, lines_table

if TYPE_CHECKING:
    from views.warehouse.workspace import WarehouseWorkspace

STATUSES = ("pending", "picked", "packed", "shipped", "delivered", "cancelled", "all")
# An order's status as shown (the queue's filter and column; context "OrderStatus").
STATUS_WORDS = (
    QT_TRANSLATE_NOOP("OrderStatus", "pending"),
    QT_TRANSLATE_NOOP("OrderStatus", "picked"),
    QT_TRANSLATE_NOOP("OrderStatus", "packed"),
    QT_TRANSLATE_NOOP("OrderStatus", "shipped"),
    QT_TRANSLATE_NOOP("OrderStatus", "delivered"),
    QT_TRANSLATE_NOOP("OrderStatus", "cancelled"),
    QT_TRANSLATE_NOOP("OrderStatus", "all"),
    QT_TRANSLATE_NOOP("OrderStatus", "Pending"),
    QT_TRANSLATE_NOOP("OrderStatus", "Picked"),
    QT_TRANSLATE_NOOP("OrderStatus", "Packed"),
    QT_TRANSLATE_NOOP("OrderStatus", "Shipped"),
    QT_TRANSLATE_NOOP("OrderStatus", "Delivered"),
    QT_TRANSLATE_NOOP("OrderStatus", "Cancelled"),
    QT_TRANSLATE_NOOP("OrderStatus", "All"),
)


def build(ws: WarehouseWorkspace) -> None:
    root = QVBoxLayout(ws)
    top = QHBoxLayout()
    heading = QLabel(shown_title(type(ws)))
    heading.setStyleSheet("font-size: 20pt; font-weight: bold;")
    ws.badge = QLabel()
    ws.badge.setObjectName("offlineBadge")
    top.addWidget(heading)
    top.addStretch(1)
    top.addWidget(ws.badge)
    root.addLayout(top)

    body = QHBoxLayout()
    root.addLayout(body, 1)

    # Left: the queue of orders, filterable and sortable, with counts.
    left = QVBoxLayout()
    ws.status_filter = QComboBox()
    for st in STATUSES:
        ws.status_filter.addItem(QCoreApplication.translate("OrderStatus", st.capitalize()), st)
    ws.status_filter.currentIndexChanged.connect(lambda _i: ws.queue.reset(ws.status_filter.currentData()))
    ws.sort_box = QComboBox()
    ws.sort_box.addItem(QCoreApplication.translate("layout", "Oldest first"), "created_at")
    ws.sort_box.addItem(QCoreApplication.translate("layout", "Newest first"), "-created_at")
    ws.sort_box.currentIndexChanged.connect(lambda _i: ws.queue.reset(sort=ws.sort_box.currentData()))
    ws.queue = OrderQueueModel(ws.session)
    ws.queue.loaded.connect(ws._queue_loaded)
    ws.queue_view = QTableView()
    ws.queue_view.setModel(ws.queue)
    ws.queue_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    (qh := ws.queue_view.horizontalHeader()).setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    # Narrow (1024 px, kiosk): Status and Items next to the order, the customer takes what is left.
    qh.setSectionResizeMode(COLUMNS.index("Customer"), QHeaderView.ResizeMode.Stretch)
    for to, name in enumerate(("Order", "Status", "Items")):
        qh.moveSection(qh.visualIndex(COLUMNS.index(name)), to)
    ws.queue_view.verticalHeader().setVisible(False)
    ws.queue_view.doubleClicked.connect(lambda ix: ws.open_order(str(ws.queue.data(ix, Qt.ItemDataRole.UserRole))))
    ws.queue_count = QLabel("")
    for w in (ws.status_filter, ws.sort_box, ws.queue_view, ws.queue_count):
        w.setFocusPolicy(Qt.FocusPolicy.ClickFocus if w is ws.queue_view else Qt.FocusPolicy.NoFocus)
        left.addWidget(w, 1 if w is ws.queue_view else 0)
    share_column(body, left, 4)

    # Centre: the scan screen.
    mid = QVBoxLayout()
    ws.scan_input = ScanInput()
    ws.scan_input.suffix = str(ws.settings["scanner_suffix"])
    ws.scan_input.scanned.connect(ws.handle_scan)
    ws.scan_input.hotkey.connect(ws.handle_hotkey)
    ws.scan_input.undo_scan.connect(ws.undo)
    ws.scan_input.quantity.connect(ws.set_quantity)
    mid.addWidget(ws.scan_input)
    manual = QHBoxLayout()
    ws.manual_input = QLineEdit()
    ws.manual_input.setPlaceholderText(
        QCoreApplication.translate("layout", "Damaged barcode? Type the code here and press Enter")
    )
    ws.manual_input.returnPressed.connect(ws._manual)
    manual.addWidget(ws.manual_input, 1)
    mid.addLayout(manual)
    ws.banner = QLabel()
    ws.banner.setObjectName("banner")
    ws.banner.setWordWrap(True)
    mid.addWidget(ws.banner)
    ws.order_title = QLabel(QCoreApplication.translate("layout", "No order open"))
    ws.order_title.setObjectName("orderTitle")
    ws.order_title.setWordWrap(True)  # a long customer name wraps in its column, never cut
    mid.addWidget(ws.order_title)
    ws.product = ProductPanel(ws.session)
    mid.addWidget(ws.product)
    ws.lines = lines_table()
    mid.addWidget(ws.lines, 1)
    ws.hints = QLabel(ws.key_hints())
    ws.hints.setObjectName("keyHints")
    ws.hints.setWordWrap(True)
    mid.addWidget(ws.hints)
    buttons = QHBoxLayout()
    ws.buttons = {}
    for key, text, fn in [
        (f"pack-{b}", QCoreApplication.translate("layout", "Pack {b}").format(b=b), lambda _=False, b=b: ws.pack(b))
        for b in ("S", "M", "L", "XL")
    ] + [
        ("ship", QCoreApplication.translate("layout", "Ship"), lambda _=False: ws.ask_ship("F5")),
        ("print", QCoreApplication.translate("layout", "Print again"), lambda _=False: ws.print_again()),
        ("next", QCoreApplication.translate("layout", "Next order"), lambda _=False: ws.next_order()),
        ("cancel", QCoreApplication.translate("layout", "Cancel order"), lambda _=False: ws.ask_cancel()),
    ]:
        btn = QPushButton(text)
        btn.setMinimumWidth(btn.sizeHint().width())  # never a clipped one-letter button
        btn.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the scanner input keeps the focus
        btn.clicked.connect(fn)
        buttons.addWidget(btn)
        ws.buttons[key] = btn
    # Devices pick, pack and ship; cancelling is for supervisors (the service enforces it too).
    ws.buttons["cancel"].setVisible(ws.session.principal.role != "warehouse-device")
    # Two rows: every button keeps its whole text from 1024 px up.
    mid.addLayout(buttons)
    more = QHBoxLayout()
    for key in ("ship", "print", "next", "cancel"):
        buttons.removeWidget(ws.buttons[key])
        more.addWidget(ws.buttons[key])
    mid.addLayout(more)
    share_column(body, mid, 6)

    # Right: the last label and the shift's scan history.
    right = QVBoxLayout()
    right.addWidget(QLabel(QCoreApplication.translate("layout", "Last label")))
    ws.tracking = QLabel("—")
    ws.tracking.setObjectName("tracking")
    ws.tracking.setWordWrap(True)
    ws.tracking.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    right.addWidget(ws.tracking)
    ws.preview = QLabel()
    # The label keeps its 4x6 shape and its own room: it never overlaps the text around it.
    ws.preview.setMinimumSize(160, 240)
    ws.preview.setMaximumHeight(360)
    ws.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
    ws.preview.setStyleSheet("background: #fafafa; border: 1px solid #bbb;")
    right.addWidget(ws.preview)
    ws.print_status = QLabel("")
    ws.print_status.setWordWrap(True)
    right.addWidget(ws.print_status)
    right.addWidget(QLabel(QCoreApplication.translate("layout", "Scans this shift")))
    ws.history = QListWidget()
    ws.history.setObjectName("history")
    ws.history.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    ws.history.setWordWrap(True)  # whole lines, wrapped; the tooltip has them too
    ws.history.setStyleSheet("font-size: 12pt;")
    right.addWidget(ws.history, 1)
    share_column(body, right, 3)
